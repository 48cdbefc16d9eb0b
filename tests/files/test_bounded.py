"""The reader runs where the operating system bounds it: whatever happens in the child process is one line here,
the parent never waits past the deadline, nothing is left behind, and what the child read arrives whole (issue 24,
rows 3-5)."""

from __future__ import annotations

import datetime as dt
import math
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import score_file
from bleu_xl.core.errors import Setting
from bleu_xl.excel.cell_values import CellError
from bleu_xl.files.read import bounded
from bleu_xl.files.read.limits import ReadLimits
from bleu_xl.table.layout import ColumnNotFound
from bleu_xl.table.sheet import InputError, Sheet
from tests.helpers import children_of, xlsx_text

pytestmark = pytest.mark.usefixtures("both_ways_of_checking")

LIMITS = ReadLimits(memory=300 * 10**6, seconds=20)


def children() -> set[int]:
    """This process's living children."""
    return set(children_of(os.getpid()))


def run(call: Any, limits: ReadLimits = LIMITS, explain: Any = None) -> tuple[Sheet, Any]:
    before = children()
    try:
        return bounded.run_bounded(call, limits, "book.xlsx", explain)
    finally:
        assert children() <= before  # the child is reaped, whatever happened


CELLS = st.one_of(
    st.text(max_size=30),
    st.text(st.sampled_from(["a", "\x00", "\ud800", "\udcff", "é", "\U0001f600"]), max_size=8),  # NUL, surrogates
    st.floats(allow_nan=False),
    st.integers(-(2**62), 2**62),
    st.booleans(),
    st.none(),
    st.sampled_from([CellError("#N/A"), CellError("#DIV/0!")]),
    st.datetimes(),
    st.dates(),
    st.times(),
    st.timedeltas(),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(CELLS, max_size=6), max_size=40), st.integers(1, 7))
def test_the_rows_arrive_whole(rows: list[list[Any]], chunk: int) -> None:
    original = bounded.ROWS_PER_CHUNK
    bounded.ROWS_PER_CHUNK = chunk  # several chunks, some of them mixed, some of one width
    try:
        sheet, extra = run(lambda: (Sheet("S", [list(r) for r in rows], ["S"], hidden_rows=frozenset({2})), {"x": 1}))
    finally:
        bounded.ROWS_PER_CHUNK = original
    assert sheet.rows == rows and sheet.hidden_rows == {2} and extra == {"x": 1}
    assert [[type(v) for v in row] for row in sheet.rows] == [[type(v) for v in row] for row in rows]


def test_nan_and_infinities_arrive_as_they_left() -> None:
    sheet, _ = run(lambda: (Sheet("S", [[math.nan, math.inf, -math.inf, "x"]], ["S"]), None))
    assert math.isnan(sheet.rows[0][0]) and sheet.rows[0][1:] == [math.inf, -math.inf, "x"]


def test_a_million_text_cells_arrive_quickly() -> None:
    rows = [[f"reference text {i}", f"candidate {i} é"] for i in range(200_000)]
    start = time.perf_counter()
    sheet, _ = run(lambda: (Sheet("S", rows, ["S"]), None))
    assert sheet.rows == rows
    assert time.perf_counter() - start < 10


def test_errors_raised_in_the_child_are_raised_here_as_they_were() -> None:
    def refuse() -> tuple[Sheet, Any]:
        raise InputError("book.xlsx: refused: look at ", Setting("sheet", "Pairs"))

    with pytest.raises(InputError) as raised:
        run(refuse)
    assert raised.value.parts == ("book.xlsx: refused: look at ", Setting("sheet", "Pairs"))

    def missing() -> tuple[Sheet, Any]:
        raise ColumnNotFound("Pairs", "candidate", "Candidat", ["Candidate"])

    with pytest.raises(ColumnNotFound) as column:
        run(missing)
    assert column.value.close_match == "Candidate" and "did you mean 'Candidate'" in str(column.value)


def test_a_bug_in_the_child_is_an_internal_error_not_a_refusal() -> None:
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        run(lambda: (1 / 0, None))


def abort() -> tuple[Sheet, Any]:
    os.abort()  # as the Rust reader does when an allocation fails


def test_an_abort_is_one_line() -> None:
    with pytest.raises(bounded.ReaderFailed) as failed:
        run(abort)
    message = failed.value.render()
    assert message.startswith("book.xlsx: cannot read this workbook within 300 MB / 20 s (")
    assert "SIGABRT" in message and "allow more with read_memory or read_time" in message


def test_the_child_asks_the_reader_for_no_backtrace(monkeypatch: pytest.MonkeyPatch) -> None:
    # With RUST_BACKTRACE=1, Rust prints a backtrace for a failed allocation before it aborts; under the limit that
    # backtrace fails to allocate too and waits for the lock it holds: the child hung until the deadline, and the
    # run said it ran out of time. Nobody would read the backtrace: the child's standard error goes nowhere.
    monkeypatch.setenv("RUST_BACKTRACE", "1")
    _, seen = run(lambda: (Sheet("S", [], ["S"]), os.environ.get("RUST_BACKTRACE")))
    assert seen == "0" and os.environ["RUST_BACKTRACE"] == "1"


def test_memory_past_the_limit_is_one_line() -> None:
    def greedy() -> tuple[Sheet, Any]:
        hoard = [bytearray(50 * 10**6) for _ in range(20)]  # 1 GB, past the 300 MB allowed
        return Sheet("S", [[len(hoard)]], ["S"]), None

    with pytest.raises(bounded.ReaderFailed, match="it ran out of memory"):
        run(greedy)


def test_the_deadline_holds_and_the_parent_does_not_wait_past_it() -> None:
    def slow() -> tuple[Sheet, Any]:
        time.sleep(60)
        return Sheet("S", [], ["S"]), None

    start = time.monotonic()
    with pytest.raises(bounded.ReaderFailed, match="it ran out of time"):
        run(slow, ReadLimits(memory=LIMITS.memory, seconds=0.5))
    assert time.monotonic() - start < 5


def test_a_child_deaf_to_its_alarm_is_killed_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "_GRACE", 0.5)

    def deaf() -> tuple[Sheet, Any]:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
        return Sheet("S", [], ["S"]), None

    start = time.monotonic()
    with pytest.raises(bounded.ReaderFailed, match="it ran out of time"):
        run(deaf, ReadLimits(memory=LIMITS.memory, seconds=0.5))
    assert time.monotonic() - start < 5


def test_the_checks_alone_explain_a_reader_that_died() -> None:
    seen: list[Any] = []

    def read() -> tuple[Sheet, Any]:
        bounded.note(3)
        os.abort()

    def explain(notes: list[Any]) -> None:
        seen.append(notes)  # in the second child: not seen here
        raise InputError(f"book.xlsx: refused: sheet {notes} has cells past the grid")

    with pytest.raises(InputError, match=r"sheet \[3\] has cells past the grid"):
        run(read, explain=explain)
    assert seen == []
    with pytest.raises(bounded.ReaderFailed):  # checks that pass: the limits are the answer
        run(read, explain=lambda notes: None)


def test_text_is_parsed_under_the_memory_limit() -> None:
    message = r"cannot read this file within 100 MB \(allow more with read_memory\)"
    with pytest.raises(InputError, match=message), bounded.memory_bound(ReadLimits(memory=100 * 10**6)):
        [",".join(["a"] * 1000) for _ in range(200_000)]  # 200 MB of text
    assert len(bytearray(400 * 10**6)) == 400 * 10**6  # the limit is lifted after


def test_in_this_process_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    sheet, extra = bounded.run_bounded(lambda: (Sheet("S", [[os.getpid()]], ["S"]), 1), ReadLimits(isolate=False), "x")
    assert sheet.rows == [[os.getpid()]] and extra == 1


def test_dates_survive() -> None:
    when = dt.datetime(2026, 3, 1, 12, 30)
    sheet, _ = run(lambda: (Sheet("S", [[when, when.date(), when.time(), dt.timedelta(hours=30)]], ["S"]), None))
    assert sheet.rows == [[when, when.date(), when.time(), dt.timedelta(hours=30)]]


def test_sizes_in_messages_are_said_as_people_say_them() -> None:
    """One byte, not "1 bytes"; three significant digits in the unit that keeps them below 1,000, never "1e+03 kB";
    KB, MB, GB and TB in the decimal units --read-memory reads."""
    from bleu_xl.files.read.limits import size_text

    shown = {1: "1 byte", 2: "2 bytes", 999: "999 bytes", 1000: "1 KB", 1500: "1.5 KB", 999_499: "999 KB"}
    shown |= {999_999: "1 MB", 2 * 10**9: "2 GB", 2**47: "141 TB", 10**15: "1,000 TB"}
    assert {size: size_text(size) for size in shown} == shown
    assert ReadLimits(memory=1).describe() == "1 byte / 60 s"
    assert ReadLimits(memory=999_999, seconds=2.5).describe() == "1 MB / 2.5 s"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc arenas, Linux's address-space limit")
def test_the_reader_s_thread_needs_no_arena_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader beside the checks (in a thread) reads within the memory the same read takes in the child's one
    thread: a thread's own malloc arena reserved 64 MB, so a 5,000-row workbook read within 30 MB failed with
    SIGABRT when the reader ran in a thread, though it reads within 3 MB in the child's one thread."""
    rows = [["Reference", "Candidate"], *([f"the cat {i} sat on the mat", f"a cat {i} sat"] for i in range(5000))]
    source = xlsx_text(tmp_path / "rows.xlsx", rows)
    monkeypatch.setattr(bounded, "_THREAD_ROOM", 0)  # the reader always in its thread
    done = score_file(source, output=tmp_path / "s.csv", read_memory="30MB", read_time=30)
    assert done.read.sheet.name == "Copy"


def test_the_reader_short_of_memory_is_out_of_memory_not_a_fault_of_the_file(tmp_path: Path) -> None:
    """A MemoryError from the workbook reader (under the read's limit) stays a MemoryError, which the bounded child
    reports as running out of memory, never 'cannot read this workbook (MemoryError: )'; other errors are the
    file's."""
    from bleu_xl.files.read.workbook import _reader_call

    def short() -> None:
        raise MemoryError

    def broken() -> None:
        raise ValueError("bad sheet")

    with pytest.raises(MemoryError):
        _reader_call(tmp_path / "book.xlsx", short)
    with pytest.raises(InputError, match=r"cannot read this workbook \(ValueError: bad sheet\)$"):
        _reader_call(tmp_path / "book.xlsx", broken)
