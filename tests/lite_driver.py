"""Runs the xlwings Lite bundle with a stand-in ``xlwings`` module: the same driver under CPython and Pyodide.

The stand-in does what Lite does before a function runs: an argument declared with ``ndim=2`` arrives as a list
of rows (a single cell as [[value]]), an omitted optional argument takes its default. Results come back as
JSON-ready values, or ``{"raised": message}`` when the function raised (Lite shows that as an Excel error).
"""

import json
import sys
import types


def _as_rows(value):
    if isinstance(value, list):
        return value if value and isinstance(value[0], list) else [value]
    return [[value]]


def install_stand_in():
    module = types.ModuleType("xlwings")

    def func(f=None, **options):
        def inner(function):
            specs = getattr(function, "__lite_args__", {})

            def call(*args):
                names = function.__code__.co_varnames[: function.__code__.co_argcount]
                converted = [_as_rows(a) if specs.get(n, {}).get("ndim") == 2 else a for n, a in zip(names, args)]
                return function(*converted)

            call.__lite_func__ = options
            call.__doc__ = function.__doc__
            return call

        return inner(f) if f is not None else inner

    def arg(name, convert=None, **options):
        def inner(function):
            function.__dict__.setdefault("__lite_args__", {})[name] = options
            return function

        return inner

    def ret(*args, **options):
        return lambda function: function

    module.func, module.arg, module.ret = func, arg, ret
    sys.modules["xlwings"] = module


def run(bundle, calls):
    saved = {name: sys.modules.get(name) for name in ("xlwings", "main")}
    try:
        install_stand_in()
        module = types.ModuleType("main")  # a real module, as Lite imports main.py (dataclasses look it up)
        sys.modules["main"] = module
        exec(compile(bundle, "main.py", "exec"), module.__dict__)
        results = []
        for name, args in calls:
            try:
                results.append({"value": module.__dict__[name](*args)})
            except Exception as exc:  # what Lite turns into an Excel error
                results.append({"raised": str(exc)})
        return results
    finally:  # leave the real xlwings in place for the other tests
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous


if __name__ == "__main__":
    job = json.load(sys.stdin)
    with open(job["bundle"], encoding="utf-8") as handle:
        print(json.dumps(run(handle.read(), job["calls"])))
