"""How each Excel face shows a cell function's result: errors and blanks, the classic add-in's way and Lite's.

The cell functions return numbers, text, :class:`CellError` and :class:`Blank` values (a scalar, or a list of
row lists that spills). The classic add-in shows an error as its text (``#VALUE! reference is blank``) and a blank
as an empty cell. xlwings Lite turns error codes into Excel error values instead: inside a spilled range an error
becomes its bare code (``#VALUE!``, which xlwings converts into ``{"type": "Error", "errorType": "Value"}``); a
single-cell error with a message is raised, and Excel shows ``#VALUE!`` with the message; an error a custom
function cannot give back (an input's ``#SPILL!``) becomes ``#VALUE!`` that names it. Standard library only
(the Lite bundle embeds it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cell_values import RETURNABLE_ERRORS, Blank, CellError

__all__ = ["classic_result", "classic_value", "lite_argument", "lite_result", "lite_value"]


def classic_value(value: Any) -> Any:
    """One value as the classic add-in hands it to Excel: an error as its text, a blank as an empty string."""
    return value.text if isinstance(value, CellError) else _plain(value)


def lite_value(value: Any) -> Any:
    """One value of a spilled range in xlwings Lite: an error as its bare code, a blank as an empty string."""
    return _returnable(value).code if isinstance(value, CellError) else _plain(value)


def lite_argument(value: Any) -> Any:
    """An argument as xlwings Lite hands it over, made what the classic add-in is given: a whole number arrives as
    an int (JSON's), where Excel holds a double and pywin32 hands one over. As an int it was read exactly
    (``1234567890123456``, where Excel shows ``1234567890123460``), and one in the range of Excel's COM error
    numbers as that error (``-2146826246`` as ``#N/A``)."""
    if isinstance(value, list):
        return [lite_argument(item) for item in value]
    return float(value) if type(value) is int else value


def classic_result(result: Any) -> Any:
    """A cell function's result (a scalar or a list of row lists) as the classic add-in hands it to Excel."""
    return _each(result, classic_value)


def lite_result(result: Any) -> Any:
    """A cell function's result (a scalar or a list of row lists) as xlwings Lite should hand it to Excel."""
    if isinstance(result, CellError):
        result = _returnable(result)
        if result.message:
            raise ValueError(result.message)
    return _each(result, lite_value)


def _returnable(error: CellError) -> CellError:
    """An error as a custom function can give it back: one it cannot (an input's ``#SPILL!``, which xlwings Lite
    would hand over as text) is ``#VALUE!``, its message naming the error."""
    if error.code in RETURNABLE_ERRORS:
        return error
    return CellError("#VALUE!", f"{error.code} in an input cell" + (f": {error.message}" if error.message else ""))


def _plain(value: Any) -> Any:
    return "" if isinstance(value, Blank) else value


def _each(result: Any, show: Callable[[Any], Any]) -> Any:
    if isinstance(result, list):
        return [[show(value) for value in row] for row in result]
    return show(result)
