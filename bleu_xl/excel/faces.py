"""How each Excel face shows a cell function's result: errors and blanks, the classic add-in's way and Lite's.

The cell functions return numbers, text, :class:`CellError` and :class:`Blank` values (a scalar, or a list of
row lists that spills). The classic add-in shows an error as its text (``#VALUE! reference is blank``) and a blank
as an empty cell. xlwings Lite turns error codes into Excel error values instead: inside a spilled range an error
becomes its bare code (``#VALUE!``, which xlwings converts into ``{"type": "Error", "errorType": "Value"}``); a
single-cell error with a message is raised, and Excel shows ``#VALUE!`` with the message. Standard library only
(the Lite bundle embeds it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cell_values import Blank, CellError

__all__ = ["classic_result", "classic_value", "lite_result", "lite_value"]


def classic_value(value: Any) -> Any:
    """One value as the classic add-in hands it to Excel: an error as its text, a blank as an empty string."""
    return value.text if isinstance(value, CellError) else _plain(value)


def lite_value(value: Any) -> Any:
    """One value of a spilled range in xlwings Lite: an error as its bare code, a blank as an empty string."""
    return value.code if isinstance(value, CellError) else _plain(value)


def classic_result(result: Any) -> Any:
    """A cell function's result (a scalar or a list of row lists) as the classic add-in hands it to Excel."""
    return _each(result, classic_value)


def lite_result(result: Any) -> Any:
    """A cell function's result (a scalar or a list of row lists) as xlwings Lite should hand it to Excel."""
    if isinstance(result, CellError) and result.message:
        raise ValueError(result.message)
    return _each(result, lite_value)


def _plain(value: Any) -> Any:
    return "" if isinstance(value, Blank) else value


def _each(result: Any, show: Callable[[Any], Any]) -> Any:
    if isinstance(result, list):
        return [[show(value) for value in row] for row in result]
    return show(result)
