"""Load xlwings' real Windows UDF path (udfs.py, com_server.py, _xlwindows.py) on any platform.

Those modules import pywin32 at the top, and on Linux ``xw.func`` and friends are no-ops. Here small stand-in
modules provide only the pywin32 names that the UDF path touches; ctypes' Windows loaders are patched only
while ``xlwings._xlwindows`` is imported; its engine is registered as ``xlwings.engines["excel"]``; and
``xw.func/arg/ret`` are rebound to xlwings' own ``xlfunc/xlarg/xlret`` before ``bleu_xl.udfs`` is imported.
Everything past the stand-ins (argument conversion, optional arguments, range reading, error cells, result
shaping, the VBA wrapper generator) is xlwings' own code.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import importlib
import sys
import types
from typing import Any

RANGE_IID = "{00020846-0000-0000-C000-000000000046}"
MISSING = -2147352572  # what pywin32 hands over for an omitted optional argument
ERRORS = {"#N/A": -2146826246, "#VALUE!": -2146826273, "#REF!": -2146826265, "#DIV/0!": -2146826281}


class _Anything:
    """Accepts any attribute access or call: for module-level pywin32 calls whose results the UDF path ignores."""

    def __init__(self, name: str = "stand-in") -> None:
        self._name = name

    def __getattr__(self, name: str) -> _Anything:
        return _Anything(f"{self._name}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> _Anything:
        return _Anything(f"{self._name}()")


class _TimeType(dt.datetime):
    """pywintypes.TimeType: pywin32 hands dates over as this datetime subclass."""


class _ComError(Exception):
    pass


def _module(name: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = f"<stand-in {name}>"
    module.__dict__.update(attrs)
    module.__getattr__ = lambda attr: _Anything(f"{name}.{attr}")  # type: ignore[attr-defined]
    return module


class _TypeAttr:
    def __init__(self, iid: str) -> None:
        self.iid = iid


class _TypeInfo:
    def __init__(self, iid: str) -> None:
        self._iid = iid

    def GetTypeAttr(self) -> _TypeAttr:
        return _TypeAttr(self._iid)

    def GetDocumentation(self, index: int) -> tuple[str, ...]:
        return ("Range",)


class _OleObj:
    def __init__(self, iid: str) -> None:
        self._iid = iid

    def GetTypeInfo(self) -> _TypeInfo:
        return _TypeInfo(self._iid)


class _Count:
    def __init__(self, count: int) -> None:
        self.Count = count


class _Application:
    def __init__(self) -> None:
        self.Hwnd = 0


class _Workbook:
    def __init__(self) -> None:
        self.Name = "bleu2_ranking.xlsx"
        self.Application = _Application()


class _Worksheet:
    def __init__(self) -> None:
        self.Name = "Rank"
        self.Parent = _Workbook()


class StandInRange:
    """What pywin32 hands a UDF for a range argument: a COM object whose type info is Excel's Range."""

    def __init__(self, values: Any, row: int = 1, column: int = 1) -> None:
        if not isinstance(values, tuple):
            values = ((values,),)
        self.Value = values if len(values) * len(values[0]) > 1 else values[0][0]
        self.Rows = _Count(len(values))
        self.Columns = _Count(len(values[0]))
        self.Row = row
        self.Column = column
        self.Worksheet = _Worksheet()
        self._oleobj_ = _OleObj(RANGE_IID)


def _pywin32_stand_ins() -> dict[str, types.ModuleType]:
    idispatch = type("PyIDispatch", (), {})
    pythoncom = _module(
        "pythoncom",
        IID_IDispatch="{00020400-0000-0000-C000-000000000046}",
        IID_IEnumVARIANT="{00020404-0000-0000-C000-000000000046}",
        TypeIIDs={"{00020400-0000-0000-C000-000000000046}": idispatch},
        CoInitialize=lambda: None,
    )
    pywintypes = _module("pywintypes", IID=str, TimeType=_TimeType, com_error=_ComError, error=_ComError)

    def unwrap(obj: Any) -> Any:
        raise ValueError("not a wrapped Python object")  # as pywin32 does for plain values

    server_util = _module("win32com.server.util", wrap=lambda obj, iid=None: obj, unwrap=unwrap)
    client = _module(
        "win32com.client",
        Dispatch=lambda obj, *a, **k: obj,
        DispatchEx=lambda *a, **k: None,
        CDispatch=type("CDispatch", (), {}),
        DispatchBaseClass=type("DispatchBaseClass", (), {}),
        CoClassBaseClass=type("CoClassBaseClass", (), {}),
    )
    win32com = _module("win32com", client=client)
    server = _module("win32com.server", util=server_util)
    win32com.server = server  # type: ignore[attr-defined]
    modules = {
        "pythoncom": pythoncom,
        "pywintypes": pywintypes,
        "win32com": win32com,
        "win32com.client": client,
        "win32com.server": server,
        "win32com.server.util": server_util,
        "win32com.client.gencache": _module("win32com.client.gencache"),
    }
    # An App is built for a range argument (its engine is read); its pid comes from the window handle.
    modules["win32process"] = _module("win32process", GetWindowThreadProcessId=lambda hwnd: (1, 4242))
    for name in (
        "win32api",
        "win32con",
        "win32event",
        "win32gui",
        "win32timezone",
        "win32com.server.dispatcher",
        "win32com.server.policy",
        "win32com.server.exception",
    ):
        modules[name] = _module(name)
    return modules


def load() -> types.SimpleNamespace:
    """Install the stand-ins, load xlwings' Windows UDF path and bleu_xl.udfs through it."""
    sys.modules.update(_pywin32_stand_ins())

    import xlwings

    # ctypes on Linux has no Windows loaders; _xlwindows calls them at import time only.
    saved = {name: getattr(ctypes, name, None) for name in ("oledll", "windll", "PyDLL")}
    ctypes.oledll = _Anything("oledll")  # type: ignore[attr-defined]
    ctypes.windll = _Anything("windll")  # type: ignore[attr-defined]
    ctypes.PyDLL = lambda *a, **k: _Anything("PyDLL")  # type: ignore[assignment,misc]
    try:
        xlwindows = importlib.import_module("xlwings._xlwindows")
    finally:
        for name, value in saved.items():
            if value is None:
                delattr(ctypes, name)
            else:
                setattr(ctypes, name, value)

    if "excel" not in [engine.name for engine in xlwings.engines]:
        xlwings.engines.add(xlwings.main.Engine(impl=xlwindows.engine))
    xlwings.engines.active = xlwings.engines["excel"]

    udfs = importlib.import_module("xlwings.udfs")
    com_server = importlib.import_module("xlwings.com_server")
    xlwings.func, xlwings.arg, xlwings.ret = udfs.xlfunc, udfs.xlarg, udfs.xlret
    sys.modules.pop("bleu_xl.udfs", None)  # declared again, now with the real decorators
    bleu_udfs = importlib.import_module("bleu_xl.udfs")
    return types.SimpleNamespace(xlwings_udfs=udfs, com_server=com_server, module=bleu_udfs)
