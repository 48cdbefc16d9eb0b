"""xlwings Lite's error convention for the cell results: a cell error with a message becomes a real Excel error.

The classic add-in shows a ``CellError`` as its text (``#VALUE! reference is blank``). xlwings Lite turns error
codes into Excel error values instead, so the bundle's declarations pass every result through ``lite_result``:
inside a spilled range an error becomes its bare code (``#VALUE!``, which xlwings converts into
``{"type": "Error", "errorType": "Value"}``); a single-cell error with a message is raised, and Excel shows
``#VALUE!`` with the message. Standard library only (it is inlined into the Lite bundle).
"""

from __future__ import annotations

from typing import Any

from .cell_values import CellError


def lite_value(value: Any) -> Any:
    """One value of a spilled range: a cell error as its bare code, anything else unchanged."""
    return value.code if isinstance(value, CellError) else value


def lite_result(result: Any) -> Any:
    """A cell function's result (a scalar or a list of row lists) as xlwings Lite should hand it to Excel."""
    if isinstance(result, list):
        return [[lite_value(value) for value in row] for row in result]
    if isinstance(result, CellError) and result.message:
        raise ValueError(result.message)
    return lite_value(result)
