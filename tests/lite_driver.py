"""Runs the xlwings Lite bundle through xlwings' own office.js code: the same driver under CPython and Pyodide.

What xlwings Lite does with ``main.py``: import it as the module ``main``, register its functions with
``custom_functions_meta(main)`` (``inspect.getmembers`` and ``hasattr(obj, "__xlfunc__")`` on every member) and
answer each call from Excel with ``custom_functions_call(payload, main)``, which converts the arguments and the
result with xlwings' officejs engine. Both functions are xlwings' own (``xlwings/pro/udfs_officejs.py``), loaded
from the installed package, configured as a runtime configures it before importing xlwings (``configure``):
``XLWINGS_ON_SERVER=true`` makes ``from xlwings import arg, func`` give the office.js decorators, and
``XLWINGS_LICENSE_KEY=noncommercial``, the key xlwings documents for non-commercial use (these tests), lets
``xlwings.pro`` import, which xlwings needs to register its officejs conversion engine.

A job (JSON on stdin, or ``run`` awaited directly) gives the bundle's path and the payloads; the answer is the
registration metadata, the members whose ``__xlfunc__`` lookup raised, and per payload ``{"value": result}``
after xlwings' conversion or ``{"raised": type, "message": text}`` when the call raised (Lite shows that as an
Excel error with the message). The bundle's scripts are registered with ``custom_scripts_meta(main)`` and run
with ``custom_scripts_call`` (``run_script``).
"""

import asyncio
import contextlib
import importlib.util
import json
import os
import sys


def configure():
    """Set up xlwings as the office.js runtime does; call before xlwings is first imported in the process."""
    if "xlwings" in sys.modules:
        raise RuntimeError("xlwings is already imported: run the driver in a fresh interpreter")
    os.environ["XLWINGS_ON_SERVER"] = "true"
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")


def load_main(path):
    """Import the bundle as the module ``main``, as xlwings Lite imports the workbook's main.py."""
    spec = importlib.util.spec_from_file_location("main", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["main"] = module
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def bundle_module(path):
    """The bundle imported as ``main`` for a ``with`` block, in a process that keeps running other code."""
    saved = sys.modules.get("main")
    try:
        yield load_main(path)
    finally:
        if saved is None:
            sys.modules.pop("main", None)
        else:
            sys.modules["main"] = saved


def unsafe_members(module):
    """Names of the members on which ``hasattr(obj, "__xlfunc__")`` raises (it swallows only AttributeError)."""
    unsafe = []
    for name, obj in vars(module).items():
        try:
            hasattr(obj, "__xlfunc__")
        except Exception as exc:
            unsafe.append(f"{name}: {type(exc).__name__}")
    return unsafe


async def run(bundle_path, payloads):
    if "xlwings" not in sys.modules:  # a Pyodide that ran other jobs has it configured already
        configure()
    import xlwings
    from xlwings.pro import udfs_officejs

    main = load_main(bundle_path)
    report = {
        "python": sys.version,
        "platform": sys.platform,
        "xlwings": xlwings.__version__,
        "unsafe": unsafe_members(main),
    }
    report["meta"] = udfs_officejs.custom_functions_meta(main)
    report["scripts"] = udfs_officejs.custom_scripts_meta(main)
    results = []
    for payload in payloads:
        try:
            results.append({"value": await udfs_officejs.custom_functions_call(payload, main)})
        except Exception as exc:
            results.append({"raised": type(exc).__name__, "message": str(exc)})
    report["results"] = results
    return report


async def run_script(bundle_path, name, book_json, args=None):
    """Run the bundle's script ``name`` as xlwings Lite does: the workbook (``book_json``, what the Lite client sends)
    becomes ``xw.Book(json=...)``, injected by ``custom_scripts_call`` for the script's book parameter, and
    ``args`` are the values of App Mode's form fields, in order; the answer is what the script printed, the
    actions the book queued for the client to apply when the script returns, and the seconds the call took."""
    if "xlwings" not in sys.modules:
        configure()
    import io
    import time

    import xlwings as xw
    from xlwings.pro import udfs_officejs

    main = sys.modules["main"] if sys.modules.get("main") is not None else load_main(bundle_path)
    book = xw.Book(json=book_json)
    printed = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(printed):
        returned = await udfs_officejs.custom_scripts_call(
            main, name, typehint_to_value={xw.Book: book}, args=args or []
        )
    seconds = time.perf_counter() - start
    return {"printed": printed.getvalue(), "actions": returned.json()["actions"], "seconds": seconds}


if __name__ == "__main__":
    job = json.load(sys.stdin)
    print(json.dumps(asyncio.run(run(job["bundle"], job["payloads"]))))
