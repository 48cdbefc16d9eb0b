"""Reading a workbook that passed the checks: python-calamine's cells, with what it drops put back from the scan.

The reader gives error cells as blanks and knows nothing of number formats: the scan's error cells are put back
as :class:`~bleu_xl.excel.cell_values.CellError` values, and the number format of each column's first number or
date is read from the styles, so that the scored workbook shows them as the input did.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import faulthandler
import os
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..excel.cell_values import CellError
from ..table.sheet import InputError, Sheet, column_letter
from .limits import SCAN_CHUNK
from .row_marks import row_marks
from .xlsx_check import _CELL_START, _NS, SheetScan, attributes_of, check_workbook, read_xml

__all__ = ["read_workbook"]


@contextlib.contextmanager
def _quiet_native_stderr() -> Iterator[None]:
    """Silence what the Rust reader prints on a panic it survives (message, backtrace); ours follows in one line.

    A reader that dies outright (an abort, a crash) leaves no Python code to run: for that case faulthandler
    writes "Fatal Python error: Aborted" and where, to the real standard error, so the run never ends silent.
    The extent scan before the reader is what keeps it from being made to allocate absurdly.
    """
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    was_enabled = faulthandler.is_enabled()
    try:
        faulthandler.enable(file=saved, all_threads=False)
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        faulthandler.disable()
        if was_enabled:
            with contextlib.suppress(ValueError, OSError, AttributeError):
                faulthandler.enable(file=sys.stderr)
        os.close(saved)


def _reader_call(file: Path, call: Any) -> Any:
    """Run a reader call; its exceptions and panics (a ``BaseException`` from pyo3) become one line."""
    try:
        with _quiet_native_stderr():
            return call()
    except Exception as exc:
        raise InputError(f"{file}: cannot read this workbook ({type(exc).__name__}: {exc})") from None
    except BaseException as exc:
        # pyo3's PanicException derives from BaseException only; KeyboardInterrupt, SystemExit and a
        # termination signal's exception pass on.
        if type(exc).__name__ != "PanicException":
            raise
        raise InputError(f"{file}: cannot read this workbook (the reader failed: {exc})") from None


def read_workbook(file: Path, sheet: str | None) -> Sheet:
    scans = check_workbook(file)
    from python_calamine import CalamineWorkbook, SheetVisibleEnum  # fast Rust reader, loaded only for workbooks

    book = _reader_call(file, lambda: CalamineWorkbook.from_path(str(file)))
    names = list(book.sheet_names) or list(scans)
    hidden = frozenset(m.name for m in book.sheets_metadata if m.visible != SheetVisibleEnum.Visible)
    if sheet is None:
        name = next((n for n in names if n not in hidden), names[0])
    elif sheet in names:
        name = sheet
    elif len(same := [n for n in names if n.casefold() == sheet.casefold()]) == 1:  # Excel ignores the case too
        name = same[0]
    else:
        raise InputError(f"{file}: no sheet named {sheet!r}; sheets: {', '.join(names)}")
    rows = _reader_call(file, lambda: book.get_sheet_by_name(name).to_python(skip_empty_area=False))
    scan = scans.get(name, SheetScan())
    for (r, c), code in scan.errors.items():  # the reader gives error cells as blanks: put the error back
        while r >= len(rows):
            rows.append([])
        row = rows[r]
        row.extend([""] * (c + 1 - len(row)))
        row[c] = CellError(code)
    hidden_rows, totals_rows = row_marks(file, scan.member) if scan.member else (frozenset(), frozenset())
    return Sheet(
        name,
        rows,
        names,
        hidden_sheets=hidden,
        number_formats=_number_formats(file, scan.member, rows) if scan.member else {},
        hidden_columns=frozenset(scan.hidden_columns),
        hidden_rows=hidden_rows,
        totals_rows=totals_rows,
        uncached=frozenset(scan.uncached),
        uncached_count=scan.uncached_count,
    )


FORMAT_SAMPLE_ROWS = 1_000
_NUMBER_TYPES = (int, float, dt.date, dt.time, dt.timedelta)  # datetime is a date


def _number_formats(file: Path, member: str, rows: list[list[Any]]) -> dict[int, int | str]:
    """Column -> the number format of its first number or date (in the first rows): a built-in format's id or a
    custom format's code, so that the scored workbook shows them as the input did."""
    first: dict[bytes, int] = {}
    for r, row in enumerate(rows[:FORMAT_SAMPLE_ROWS]):
        for c, value in enumerate(row):
            if isinstance(value, _NUMBER_TYPES) and not isinstance(value, bool):
                first.setdefault(f"{column_letter(c)}{r + 1}".encode(), c)
    if not first:
        return {}
    styles: dict[int, int] = {}
    with zipfile.ZipFile(file) as archive:
        with archive.open(member) as part:
            carry = b""
            while len(styles) < len(first) and (chunk := part.read(SCAN_CHUNK)):
                data = carry + chunk
                cut = data.rfind(b">") + 1
                for cell in _CELL_START.finditer(data, 0, cut):
                    attributes = attributes_of(cell.group(1))
                    col = first.get(attributes.get(b"r", b""))
                    if col is not None and col not in styles:
                        styles[col] = int(attributes.get(b"s", b"0") or 0)
                carry = data[cut:]
        if "xl/styles.xml" not in archive.namelist():
            return {}
        root = read_xml(file, archive, "xl/styles.xml")
    codes = {int(n.get("numFmtId", "0")): n.get("formatCode", "") for n in root.iterfind("m:numFmts/m:numFmt", _NS)}
    xfs = [int(xf.get("numFmtId", "0")) for xf in root.iterfind("m:cellXfs/m:xf", _NS)]
    formats: dict[int, int | str] = {}
    for col, style in styles.items():
        number_format = xfs[style] if style < len(xfs) else 0
        if number_format:  # General (0) needs nothing
            formats[col] = codes.get(number_format, number_format) if number_format >= 164 else number_format
    return formats
