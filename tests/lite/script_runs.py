"""The xlwings Lite script run as xlwings Lite runs it: a workbook as the Lite client sends it, the script called by
xlwings' own ``custom_scripts_call`` under real Pyodide in Node (``tests/pyodide_runs.py``), and the cells its
actions write."""

from __future__ import annotations

from typing import Any

from ..pyodide_runs import BUNDLE, in_pyodide

__all__ = ["BUNDLE", "book_json", "rectangle", "through_pyodide", "values_written"]


def book_json(
    name: str,
    sheets: dict[str, list[list[Any]]],
    active: int = 0,
    selection: str | None = "A1",
    tables: dict[str, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A workbook as the Lite client sends it: its name, the active sheet, the selection's address (``None``: no
    cells are selected), and each sheet's values and tables."""
    import xlwings

    return {
        "version": xlwings.__version__,
        "client": "Office.js",
        "book": {"name": name, "active_sheet_index": active, "selection": selection},
        "names": [],
        "sheets": [
            {"name": sheet, "values": values, "tables": (tables or {}).get(sheet, []), "pictures": [], "charts": []}
            for sheet, values in sheets.items()
        ],
    }


def values_written(actions: list[dict[str, Any]]) -> dict[tuple[int, int, int], Any]:
    """Each cell the actions set, by (sheet position, row, column), 0-based: by ``setValues``, or by ``setFormula``
    (the script writes constants that way too, never a formula)."""
    cells = {}
    for action in actions:
        if action["func"] in ("setValues", "setFormula"):
            assert action["column_count"] == 1  # one column a write
            for offset, (value,) in enumerate(action["values"]):
                cells[(action["sheet_position"], action["start_row"] + offset, action["start_column"])] = value
    return cells


def rectangle(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows as the Lite client sends a sheet's cells: all as long as the longest, blanks as ``""``."""
    width = max(map(len, rows), default=0)
    return [[*row, *[""] * (width - len(row))] for row in rows]


def through_pyodide(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each run (``book``, the form's ``args``) of the script "Score this table", one after the other in one
    Pyodide as xlwings Lite keeps one: what each printed and the actions it queued."""
    job = {"runs": [{**run, "script": "score_this_table", "cells": {}} for run in runs]}
    return in_pyodide("script", job)["runs"]
