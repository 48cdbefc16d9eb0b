"""Reading a workbook that passed the checks: python-calamine's cells, with what it drops put back from the scan.

The package is checked once (:func:`~bleu_xl.files.read.package.open_package`) and each sheet read is scanned once
before calamine reads it; sheets are matched with calamine's by their place in the workbook, never by a name the
two could spell differently. The reader gives error cells as blanks and knows nothing of number formats: the
scan's error cells are put back as :class:`~bleu_xl.excel.cell_values.CellError` values, and the number format of
every number and date cell is taken from the styles, so that the scored workbook shows each as the input did.
The scan's hidden rows and the rows of its tables' totals go on the :class:`Sheet`.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ...core.errors import Part, Setting
from ...table.columns import find_table
from ...table.layout import Layout, another_sheet
from ...table.sheet import STALE_FORMULAS, InputError, Sheet, TableOptions, column_letter
from .bounded import Apart, in_child, note, room_for_a_thread, send_rows, sent_rows_fixed
from .cell_fixes import CellFixes
from .limits import MAX_CELLS
from .package import Package, ascii_lower, open_package
from .sheet_scan import SheetScan, scan_sheet

#: The size of a sheet part (its XML, unpacked) from which its checks run apart, beside the reader: a smaller one
#: is checked in milliseconds, less than a process takes to start.
APART_MIN_BYTES = 1 << 20

__all__ = [
    "APART_MIN_BYTES",
    "UnreadableRow",
    "Workbook",
    "check_sheets",
    "load_reader",
    "read_workbook",
    "read_workbook_table",
]


@contextlib.contextmanager
def _quiet_native_stderr() -> Iterator[None]:
    """Silence what the Rust reader prints on a panic it survives (message, backtrace); ours follows in one line.

    A reader that dies outright (an abort, a crash) leaves no Python code to run: for that case faulthandler
    writes "Fatal Python error: Aborted" and where, to the real standard error, so the run never ends silent (when
    the read is not in a child process, which reports it in one line).
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


class UnreadableRow(InputError):
    """A sheet the reader cannot give because of a value in one row (a date or a duration out of range); the
    message names the row."""


class _ReaderFailed(InputError):
    """A reader call that failed, with what the reader said (``failure``), for a message that can say more."""

    def __init__(self, file: Path, failure: str) -> None:
        super().__init__(f"{file}: cannot read this workbook ({failure})")
        self.failure = failure


def _reader_failure(exc: BaseException) -> str | None:
    """What a reader call's exception says, when it is the reader failing; ``None`` for one that must pass on: a
    MemoryError (under the read's memory limit more memory would read it, so it is no fault of the file),
    KeyboardInterrupt, SystemExit and a termination signal's exception. pyo3's PanicException derives from
    BaseException only."""
    if isinstance(exc, MemoryError):
        return None
    if isinstance(exc, Exception):
        return f"{type(exc).__name__}: {exc}"
    if type(exc).__name__ == "PanicException":
        return f"the reader failed: {exc}"
    return None


def _reader_call(file: Path, call: Any) -> Any:
    """Run a reader call; its exceptions and panics (a ``BaseException`` from pyo3) become one line. In the child
    process the reader's standard error goes nowhere already; here it is silenced for the call."""
    try:
        if in_child():
            return call()
        with _quiet_native_stderr():
            return call()
    except BaseException as exc:
        failure = _reader_failure(exc)
        if failure is None:
            raise
        raise _ReaderFailed(file, failure) from None


def _beside(file: Path, call: Callable[[], Any], checks: Apart | None = None) -> Callable[[], Any]:
    """``call()`` started now: in a thread beside the checks when in the child process (the reader releases the
    GIL, so both run at once, and a file the checks would refuse can only cost the child), else later, after
    the checks (also in a child with no room left for a thread). Returns the function that waits for its result.

    With ``checks`` running apart, the wait ends as soon as they refuse the file, and their refusal comes before
    the reader's failure: it says more."""
    if not in_child() or not room_for_a_thread():
        if checks is not None:
            checks.result()  # no thread: the checks' verdict before the reader reads
        return lambda: _reader_call(file, call)
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, _reader_call(file, call)))
        except BaseException as exc:  # handed to the waiting thread, which raises it
            outcome.append((False, exc))

    thread = threading.Thread(target=run, daemon=True)
    try:
        thread.start()
    except RuntimeError:  # no thread can start: under the memory limit, there is no room for its stack
        raise MemoryError("no room to start the reader's thread") from None

    def wait() -> Any:
        if checks is not None:
            while thread.is_alive():
                if checks.answered(0.02):
                    checks.result()  # their refusal now, while the reader still reads
                    break
        thread.join()
        done, value = outcome[0]
        if not done:
            if checks is not None:
                checks.result()
            raise value
        return value

    return wait


def _checks_apart(call: Callable[[], SheetScan], size: int) -> Apart | None:
    """The checks of a sheet part of ``size`` bytes started in a process of their own, in the reader's child
    (``None`` elsewhere, for a part too small to gain from it, or where no process can start: then they run here,
    before the reader)."""
    if not in_child() or size < APART_MIN_BYTES:
        return None
    try:
        return Apart(call)
    except OSError:
        return None


def _calamine_path(file: Path, handle: Any) -> str | None:
    """A path by which calamine opens the very file checked: the open file itself where the system names it
    (/proc/self/fd), else the file's name when calamine can take it (UTF-8, the extension that makes it read
    the file as .xlsx); ``None``: give calamine the bytes."""
    proc = f"/proc/self/fd/{handle.fileno()}"
    if os.path.exists(proc):
        return proc
    name = str(file)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return name if file.suffix in (".xlsx", ".xlsm") else None


class Workbook:
    """A workbook checked as a whole and opened by calamine, whose sheets are read one at a time. With ``reader``
    off, only the checks run (to say why a read that died failed)."""

    def __init__(self, file: Path, *, reader: bool = True) -> None:
        self.file = file
        self.handle = open(file, "rb")  # noqa: SIM115 - closed by close()
        self.book: Any = None
        try:
            opened = _beside(file, self._open_reader) if reader else None
            self.package: Package = open_package(self.handle, file)
            if opened is not None:
                self.book = opened()
        except BaseException:
            self.close()
            raise
        if self.book is None:
            self.names = [sheet.name for sheet in self.package.sheets]
            self.hidden = frozenset(s.name for s in self.package.sheets if s.state != "visible")
            return
        self.names: list[str] = list(self.book.sheet_names)
        if len(self.names) != len(self.package.sheets):
            self.close()
            raise InputError(f"{file}: refused: readers disagree on the sheets of this workbook")
        from python_calamine import SheetVisibleEnum

        self.hidden = frozenset(m.name for m in self.book.sheets_metadata if m.visible != SheetVisibleEnum.Visible)

    def _open_reader(self) -> Any:
        from python_calamine import CalamineWorkbook  # the fast Rust reader, loaded only for workbooks

        path = _calamine_path(self.file, self.handle)
        if path is None:
            with open(self.file, "rb") as copy:
                return CalamineWorkbook.from_filelike(copy)
        return CalamineWorkbook.from_path(path)

    def close(self) -> None:
        with contextlib.suppress(AttributeError):
            self.package.close()
        self.handle.close()

    def choose(self, sheet: str | None) -> str:
        """The sheet asked for (by name, or in any case when only one matches), else the first visible one."""
        names = self.names
        if not names:
            raise InputError(f"{self.file}: the workbook has no sheets")
        if sheet is None:
            visible = [n for n in names if n not in self.hidden]
            if not visible:
                raise InputError(
                    f"{self.file}: every sheet of this workbook is hidden; name the one to read with ", Setting("sheet")
                )
            return visible[0]
        if sheet in names:
            return sheet
        same = [n for n in names if n.casefold() == sheet.casefold()]  # Excel ignores the case too
        if len(same) == 1:
            return same[0]
        raise InputError(f"{self.file}: no sheet named {sheet!r}; sheets: {', '.join(names)}")

    def load(self, name: str) -> Sheet:
        """One sheet, scanned and read: the scan's error cells put back, its hidden and totals rows kept. In the
        reader's child the scan runs in a process of its own (:class:`Apart`), and the rows go to the parent as
        soon as the reader gives them; the scan's refusal still comes before anything the reader says."""
        index = self.names.index(name)
        if self.names.count(name) > 1:
            raise InputError(f"{self.file}: refused: two sheets are named {name!r}; readers would take either")
        note(index)
        part = self.package.sheets[index]

        def get() -> Any:
            return self.book.get_sheet_by_name(name)

        size = self.package.members[ascii_lower(part.member)].file_size
        checks = _checks_apart(lambda: scan_sheet(self.package, part), size)
        try:
            if checks is None:
                parsed = _beside(self.file, get)
                scan = scan_sheet(self.package, part)
                rows = self._rows(parsed(), name)
            else:
                rows = self._rows_beside(get, checks, name)
                scan = checks.result()
        finally:
            if checks is not None:
                checks.close()
        if len(rows) > scan.rows or (rows and len(rows[0]) > scan.cols):
            raise InputError(f"{self.file}: refused: readers disagree on the cells of sheet {name!r}")
        fixes = CellFixes(scan.errors, scan.stale, scan.merged, self.file, name)
        covered, changes = fixes.apply(rows)
        sent_rows_fixed(rows, changes)
        return Sheet(
            name,
            rows,
            self.names,
            hidden_columns=frozenset(scan.hidden_columns),
            hidden_rows=frozenset(scan.hidden_rows),
            totals_rows=frozenset(scan.totals_rows),
            tables=tuple(scan.tables),
            hidden_sheets=self.hidden,
            uncached=frozenset(scan.uncached),
            uncached_count=scan.uncached_count,
            stale_cells=scan.stale,
            cell_formats=scan.formats,
            merged=tuple(scan.merged),
            column_widths=tuple(scan.column_widths),
            notes=_uncached_notes(scan) + _stale_notes(scan) + _covered_notes(covered),
        )

    def _rows(self, sheet: Any, name: str, checks: Apart | None = None) -> list[list[Any]]:
        """The reader's rows of ``sheet``; a row it cannot give is named (the checks' refusal, where they have
        one, comes first: it says more)."""
        try:
            rows: list[list[Any]] = _reader_call(self.file, lambda: sheet.to_python(skip_empty_area=False))
        except _ReaderFailed as exc:
            if checks is not None:
                checks.result()
            row = _unreadable_row(sheet)
            if row is None:
                raise
            raise UnreadableRow(
                f"{self.file}: cannot read row {row} of sheet {name!r}: a cell there holds a value the reader cannot "
                f"give, such as a date or a duration out of range ({exc.failure}); clear or correct that cell"
            ) from None
        return rows

    def _rows_beside(self, get: Callable[[], Any], checks: Apart, name: str) -> list[list[Any]]:
        """The reader's rows, read while ``checks`` run apart, and sent to the parent at once. A sheet past the cell
        budget waits for the checks, which refuse it before the reader makes its rows."""
        sheet = _beside(self.file, get, checks)()
        end = sheet.end
        if checks.answered() or (end is not None and (end[0] + 1) * (end[1] + 1) > MAX_CELLS):
            checks.result()
        rows = self._rows(sheet, name, checks)
        # The reader's own copy of the sheet goes before the rows are sent: held through the send, it made a wide
        # sheet need a fifth more memory than the read in one process.
        del sheet
        if checks.answered():
            checks.result()
        send_rows(rows)
        return rows


def _covered_notes(held: list[str]) -> list[tuple[Part, ...]]:
    """The note on cells under merged cells that held a value: read blank, as the sheet shows them."""
    if not held:
        return []
    cells = (
        f"a cell under merged cells ({held[0]}) holds"
        if len(held) == 1
        else (f"{len(held):,} cells under merged cells (the first {held[0]}) hold")
    )
    return [(f"{cells} a value that the sheet does not show (LibreOffice keeps it when it merges): read blank",)]


def _uncached_notes(scan: SheetScan) -> list[tuple[Part, ...]]:
    """The note on formulas saved without their values: read blank, as every reader sees them, and blank in the
    output (in a column scored they are refused: the column rules check that)."""
    if not scan.uncached_count:
        return []
    first = min(scan.uncached, default=None)
    cell = f"{column_letter(first[1])}{first[0] + 1}" if first is not None else ""
    if scan.uncached_count == 1:
        said, stays = f"a formula saved without its value ({cell}) reads blank, as every reader sees it", "stays"
    else:
        where = f" (the first {cell})" if cell else ""
        said = (
            f"{scan.uncached_count:,} formulas saved without their values{where} read blank, as every reader sees them"
        )
        stays = "stay"
    return [
        (
            f"{said} (openpyxl saves formulas so), and {stays} blank in the output; open the file in Excel or "
            "LibreOffice and save it to keep the values",
        )
    ]


def _stale_notes(scan: SheetScan) -> list[tuple[Part, ...]]:
    """The note on the formulas saved with 0 in a workbook marked to be calculated again on opening: read blank,
    and blank in the output (in a column scored they are refused: the column rules check that)."""
    count = sum(len(rows) for rows in scan.stale.values())
    if not count:
        return []
    col = min(scan.stale, key=lambda c: (scan.stale[c][0], c))
    cell = f"{column_letter(col)}{scan.stale[col][0] + 1}"
    said = f"a formula ({cell}) reads" if count == 1 else f"{count:,} formulas (the first {cell}) read"
    return [
        (
            f"{said} blank: {STALE_FORMULAS}, which no reader calculates; {'it stays' if count == 1 else 'they stay'} "
            "blank in the output; open the file in Excel and save it to keep the values",
        )
    ]


def _unreadable_row(sheet: Any) -> int | None:
    """The row (as Excel numbers them) of the first cell the reader cannot give as a Python value, once reading the
    whole sheet failed; ``None`` when no row can be named (the failure was elsewhere). The reader's rows, one at a
    time, find it in one pass; two readings of the rows up to it, in the very call and numbering of the read that
    failed, confirm it: that row fails and those above it read."""
    with contextlib.nullcontext() if in_child() else _quiet_native_stderr():
        rows = sheet.iter_rows()  # from the sheet's first row, as skip_empty_area=False reads it
        row = 1
        while True:
            try:
                next(rows)
            except StopIteration:
                return None
            except BaseException as exc:
                if _reader_failure(exc) is None:
                    raise
                break
            row += 1
        if _reads(sheet, row) or (row > 1 and not _reads(sheet, row - 1)):
            return None
        return row


def _reads(sheet: Any, rows: int) -> bool:
    """Whether the reader gives the first ``rows`` rows of the sheet as Python values."""
    try:
        sheet.to_python(skip_empty_area=False, nrows=rows)
    except BaseException as exc:
        if _reader_failure(exc) is None:
            raise
        return False
    return True


def load_reader() -> None:
    """Load the reader's library in this process, before a child bounded in memory reads with it: mapped under
    the child's limit, a library fails to load for want of address space (an ImportError, not a MemoryError)
    where the read itself would have fitted. Loaded here, it is in the address space the budget starts from:
    the limit bounds what reading the input takes, not the program."""
    import python_calamine  # noqa: F401


def check_sheets(file: Path, indexes: list[int]) -> None:
    """The checks alone, of the package and of the sheets at ``indexes``: a refusal they raise is what made a
    read fail."""
    book = Workbook(file, reader=False)
    try:
        for index in indexes:
            scan_sheet(book.package, book.package.sheets[index])
    finally:
        book.close()


def read_workbook(file: Path, sheet: str | None) -> Sheet:
    """The sheet asked for (else the first visible one) of a workbook, checked and read."""
    book = Workbook(file)
    try:
        return book.load(book.choose(sheet))
    finally:
        book.close()


def read_workbook_table(file: Path, options: TableOptions) -> tuple[Sheet, Layout]:
    """The sheet to score and its columns, as ``options`` say: the sheet asked for, or the first visible one, past
    a cover page to the next visible sheet with the columns; the workbook is opened and checked once."""
    book = Workbook(file)
    try:
        name = book.choose(options.sheet)
        try:
            first = book.load(name)
        except UnreadableRow as problem:
            # A cover page that cannot be read may still be the table: stop, and say how to pass it by.
            hint = another_sheet(book.names, name, book.hidden, options.sheet)
            if not hint:
                raise
            raise UnreadableRow(*problem.parts, *hint) from None
        return find_table(first, book.load, options)
    finally:
        book.close()
