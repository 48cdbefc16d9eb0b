"""Re-enters the formulas that call bleu-xl, so that Excel binds them to functions registered after it read them.

xlwings Lite registers bleu-xl's functions once the workbook is open. Excel keeps ``#NAME?`` in a formula it read
before its function existed, and recalculating (F9, Ctrl+Alt+F9) does not bind it again; entering the formula
again does, as Find & Replace of ``=`` with ``=`` does for every formula. The bundle's script does it for the
formulas that call bleu-xl only: it reads each sheet's formulas and values, and writes back, unchanged, each
formula that calls one of the registry's functions. A cell whose text merely looks like a formula (its value is
that text) is text and stays text; a spilled cell (its formula is its value) is left to its anchor.

Standard library only (the Lite bundle embeds it): the xlwings decorator and workbook type come in as arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..excel.functions import FUNCTIONS

__all__ = ["SCRIPT_NAME", "FormulaRun", "calls_bleu_xl", "declare_script", "formula_runs"]

#: The script's name in the xlwings Lite pane.
SCRIPT_NAME = "Re-enter bleu-xl formulas"

# A call of a registered function, in any case: not part of a longer name (MYBLEU2), and as Excel may show a
# function it does not know (_xldudf_BLEU2) or one under a namespace (NS.BLEU2). Longest names first, so that
# BLEU2_P1 is not read as BLEU2.
_NAMES = "|".join(sorted((re.escape(function.name) for function in FUNCTIONS), key=len, reverse=True))
_CALL = re.compile(rf"(?<![\w])(?:_xldudf_)?(?:{_NAMES})\s*\(", re.IGNORECASE)


def calls_bleu_xl(formula: str) -> bool:
    """True when the formula text calls one of bleu-xl's functions."""
    return _CALL.search(formula) is not None


def _needs_reentry(formula: Any, value: Any) -> bool:
    return isinstance(formula, str) and formula.startswith("=") and formula != value and calls_bleu_xl(formula)


@dataclass(frozen=True)
class FormulaRun:
    """Formulas to enter again into consecutive cells of one column: the first at ``row``, ``column`` (counted from
    0 within the range read), the others below it."""

    row: int
    column: int
    formulas: tuple[str, ...]


def formula_runs(formulas: Sequence[Sequence[Any]], values: Sequence[Sequence[Any]]) -> list[FormulaRun]:
    """The formulas of a range that call bleu-xl, as runs down each column, given the range's formulas and values
    (lists of rows, as Excel reports them: a cell without a formula reports its value as its formula)."""
    runs: list[FormulaRun] = []
    columns = max((len(row) for row in formulas), default=0)
    for column in range(columns):
        start, run = 0, []
        for row, (cells, shown) in enumerate(zip(formulas, values)):
            formula = cells[column] if column < len(cells) else None
            value = shown[column] if column < len(shown) else None
            if _needs_reentry(formula, value):
                if not run:
                    start = row
                run.append(formula)
                continue
            if run:
                runs.append(FormulaRun(start, column, tuple(run)))
                run = []
        if run:
            runs.append(FormulaRun(start, column, tuple(run)))
    return runs


def declare_script(script: Callable[..., Any], book_type: type, module: str) -> dict[str, Callable[..., Any]]:
    """The xlwings Lite script, by name, for the bundle's namespace: ``script`` is xlwings' ``@script`` decorator and
    ``book_type`` the workbook type it injects (``xlwings.BookAsync``: no cell values are loaded before it runs)."""

    async def reenter_formulas(book: Any) -> None:
        found = []
        for sheet in book.sheets:  # read everything first: each read would send the writes queued before it
            used = await sheet.get_used_range(values_only=True)
            if used is None:
                continue
            grid = used.options(ndim=2)
            found.append((sheet, used, formula_runs(await grid.get_formula(), await grid.get_value())))
        count = 0
        for sheet, used, runs in found:
            for run in runs:
                top = (used.row + run.row, used.column + run.column)
                bottom = (top[0] + len(run.formulas) - 1, top[1])
                sheet.range(top, bottom).formula = [[formula] for formula in run.formulas]
                count += len(run.formulas)
        sheets = sum(1 for _, _, runs in found if runs)
        print(f"bleu-xl: entered {count} formula{'s' * (count != 1)} again on {sheets} sheet{'s' * (sheets != 1)}")

    reenter_formulas.__doc__ = (
        "Enter again every formula that calls a bleu-xl function, so that Excel finds the functions (fixes #NAME?)."
    )
    reenter_formulas.__module__ = module
    # The annotation xlwings reads to inject the workbook: the type itself, not a name to resolve.
    reenter_formulas.__annotations__ = {"book": book_type, "return": None}
    return {"reenter_formulas": script(name=SCRIPT_NAME)(reenter_formulas)}
