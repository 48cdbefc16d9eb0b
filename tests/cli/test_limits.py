"""Limits that hold whatever the input: standard input and single lines are bounded like files, a killed worker ends
the run, and the files that made scans quadratic take about the time of plain ones (issue 24, rows 7, 8 and 9)."""

from __future__ import annotations

import base64
import csv
import os
import random
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import xlsxwriter

from benchmarks.synthetic import make_pairs
from tests.files import parts
from tests.files.parts import COMMAND, listing, one_line_refusal, run_process
from tests.helpers import children_of, run


def test_endless_standard_input_stops_at_the_text_limit() -> None:
    """Row 8: ``yes 'Reference<TAB>Candidate' | bleu-xl score -`` once took all the memory there was."""
    yes = subprocess.Popen(["yes", "Reference\tCandidate"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run([*COMMAND, "score", "-"], stdin=yes.stdout, capture_output=True, text=True, timeout=120)
    finally:
        yes.kill()
        yes.wait()
    assert one_line_refusal(done) == "bleu-xl: error: standard input: refused: over 1 GiB of text"


def test_one_enormous_line_stops_at_the_memory_limit(tmp_path: Path) -> None:
    """Row 8: one line of commas is as many cells; its row alone would take many times the file's size."""
    path = tmp_path / "commas.csv"
    path.write_bytes(b"," * 40_000_000 + b"\n")
    message = one_line_refusal(run_process("score", str(path), "--read-memory", "150MB", "-o", str(tmp_path / "o.csv")))
    assert message.endswith("commas.csv: cannot read this file within 150 MB (allow more with --read-memory)")
    assert listing(tmp_path) == ["commas.csv"]


def long_input(folder: Path, rows: int) -> Path:
    source = folder / "long.csv"
    with source.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Reference", "Candidate"])
        writer.writerows((ref, cand or "x") for ref, cand in make_pairs(rows, seed=4))
    return source


def test_a_killed_worker_ends_the_run_in_one_line(tmp_path: Path) -> None:
    """Row 9: a worker killed by the out-of-memory killer or ``kill -9`` left the run waiting for ever."""
    source = long_input(tmp_path, 50_000)
    process = subprocess.Popen(
        [*COMMAND, "score", str(source), "-o", str(tmp_path / "out.xlsx"), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not (workers := children_of(process.pid)) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    assert workers, "the run never started its worker pool"
    os.kill(workers[0], signal.SIGKILL)
    stderr = process.communicate(timeout=60)[1]
    assert process.returncode == 2, stderr
    assert stderr.splitlines()[-1] == (
        "bleu-xl: error: a scoring process was killed (by the system, perhaps for lack of memory, or by a "
        "signal); nothing was written"
    )
    assert listing(tmp_path) == ["long.csv"]


def seconds(*args: str) -> float:
    start = time.perf_counter()
    done = run_process(*args)
    assert done.returncode == 0, done.stderr
    return time.perf_counter() - start


def test_sixteen_thousand_equal_headers_take_no_longer_than_two_columns(tmp_path: Path) -> None:
    """Row 7: 16,384 headers named alike were renamed in quadratic time."""
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(["Reference", "Candidate"] + ["x"] * 16_382) + "\n" + ",".join(["a b"] * 16_384) + "\n")
    plain = tmp_path / "plain.csv"
    plain.write_text("Reference,Candidate\n" + "a b,a b\n" * (wide.stat().st_size // 8))
    assert (
        seconds("score", str(wide), "-o", str(tmp_path / "w.json"))
        < 2 * seconds("score", str(plain), "-o", str(tmp_path / "p.json")) + 1
    )


def test_a_cover_page_fallback_over_300_sheets_reads_each_sheet_once(tmp_path: Path) -> None:
    """Row 7: each sheet passed over was opened and scanned again with the whole workbook."""
    path = tmp_path / "covers.xlsx"
    book = xlsxwriter.Workbook(str(path))
    for i in range(299):
        sheet = book.add_worksheet(f"Cover {i}")
        for r in range(20):
            sheet.write_string(r, 0, f"notes line {r} of cover {i}")
    book.add_worksheet("Pairs").write_row(0, 0, ["Reference", "Candidate"])
    book.worksheets()[-1].write_row(1, 0, ["a b c", "a b"])
    book.close()
    fallback = seconds("score", str(path), "-o", str(tmp_path / "f.json"))
    named = seconds("score", str(path), "--sheet", "Pairs", "-o", str(tmp_path / "n.json"))
    assert fallback < 4 * named + 1


def test_sheets_that_made_the_old_scan_backtrack_read_in_linear_time(tmp_path: Path) -> None:
    """Row 6: a formula, then tens of thousands of spaces, then its value; '>' inside an error cell's attribute."""
    spaces = 60_000
    hostile = {
        "spaces": '<row r="2"><c r="C2"><f>1+1</f>' + " " * spaces + "<v>2</v></c></row>",
        "angle": "".join(f'<row r="{r}"><c t="e" x="a>b" r="C{r}"><v>#N/A</v></c></row>' for r in range(2, 2_000)),
    }
    rows = parts.pair_rows(*[(parts.REF, parts.CAND)] * (spaces // 150))
    plain = parts.write(tmp_path / "plain.xlsx", parts.parts(rows), stored=True)
    baseline = seconds("score", str(plain), "-o", str(tmp_path / "plain.json"))
    for name, cells in hostile.items():
        path = parts.write(
            tmp_path / f"{name}.xlsx", parts.parts(parts.pair_rows((parts.REF, parts.CAND)) + cells), stored=True
        )
        assert seconds("score", str(path), "-o", str(tmp_path / f"{name}.json")) < 2 * baseline + 1, name


def test_sigterm_while_reading_a_workbook_stops_the_reader(tmp_path: Path) -> None:
    """The reader's process goes with the run: a termination signal ends both, leaving nothing."""
    rows = parts.pair_rows(*[(parts.REF, parts.CAND)] * 150_000)
    path = parts.write(tmp_path / "big.xlsx", parts.parts(rows), stored=True)
    process = subprocess.Popen(
        [*COMMAND, "score", str(path), "-o", str(tmp_path / "out.xlsx")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (readers := children_of(process.pid)) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.005)
    assert readers, "the run never started its reader"
    process.send_signal(signal.SIGTERM)
    stderr = process.communicate(timeout=60)[1]
    assert process.returncode == 128 + signal.SIGTERM and "terminated by SIGTERM" in stderr, stderr
    end = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in readers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in readers)
    assert listing(tmp_path) == ["big.xlsx"]


def one_pair_workbook(book: Path, rows: int = 1) -> Path:
    workbook = xlsxwriter.Workbook(str(book))
    sheet = workbook.add_worksheet("Pairs")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    for row in range(1, rows + 1):
        sheet.write_row(row, 0, [f"the cat sat {row}", f"the cat {row}"])
    workbook.close()
    return book


def test_a_memory_limit_too_small_to_start_the_reader_is_one_line(tmp_path: Path) -> None:
    """Under a tiny limit the reader cannot read: that is running out of memory, not a bug. (The rows are more than
    the memory a process has allocated and not used: a single pair can be read within the smallest limit.)"""
    book = one_pair_workbook(tmp_path / "small.xlsx", rows=5_000)
    line = one_line_refusal(run_process("score", str(book), "--read-memory", "100KB", "-o", "-", "--format", "csv"))
    assert "cannot read this workbook within 100 KB" in line and "--read-memory" in line
    assert "is no room to read in" in one_line_refusal(run_process("score", str(book), "--read-memory", "0"))
    assert listing(tmp_path) == ["small.xlsx"]  # no lock, no temporary file left


def test_a_child_forked_beside_other_threads_ends_at_once_under_a_tiny_limit(tmp_path: Path) -> None:
    """One byte past what this process holds, with another thread alive (as in a notebook or under a test runner):
    the child inherits that thread's stack, so a thread would start there and die unable to allocate its state,
    and the read waited for it until the deadline. Now the child reads the little it can, or runs out of memory,
    at once."""
    book = one_pair_workbook(tmp_path / "small.xlsx")
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)
    beside.start()
    try:
        started = time.monotonic()
        one_byte = run("score", str(book), "--read-memory", "1", "--read-time", "30", "-o", "-", "--format", "csv")
        took = time.monotonic() - started
    finally:
        stop.set()
        beside.join()
    assert took < 10, took
    refusal = "cannot read this workbook within 1 byte / 30 s (it ran out of memory;"
    assert one_byte.exit_code == 0 or (one_byte.exit_code == 2 and refusal in one_byte.stderr), one_byte.stderr


#: One process reads a workbook at each memory limit it is given (``score_file``, what the command calls: each read in
#: a child bounded by that limit) and prints, a line each, "read" or the refusal's text. One process for the sweep,
#: not one a limit: starting the command 48 times took most of the test's time.
SWEEP_PROGRAM = """
import sys
from pathlib import Path
from bleu_xl import BleuXlError, score_file

book, out = Path(sys.argv[1]), Path(sys.argv[2])
for size in sys.argv[3:]:
    try:
        score_file(book, output=out, force=True, read_memory=size, read_time=10)
    except BleuXlError as error:
        print(str(error).replace("\\n", " "), flush=True)
    else:
        print("read", flush=True)
"""


def test_every_small_memory_limit_reads_or_says_it_ran_out_of_memory(tmp_path: Path) -> None:
    """From 0.5 MB to 8 MB a workbook of 5,000 rows is read, or refused in one line that names the limit and memory:
    never as the reader's library failing to load (an ImportError: it was mapped under the limit), never as
    malformed XML (expat out of memory) or a corrupt part (zlib out of memory), never after waiting out the deadline
    (Rust printing the backtrace of a failed allocation, RUST_BACKTRACE=1, allocated again and hung). (A workbook of
    a few rows reads within memory the sweep's process already holds and does not use: it would never cross.)"""
    small = one_pair_workbook(tmp_path / "small.xlsx", rows=5_000)
    # A sheet whose comment expat holds whole: 5 MB of text that does not compress.
    noise = base64.b64encode(random.Random(5).randbytes(3_750_000)).decode()
    sheet_part = parts.sheet_xml(parts.pair_rows(("the cat sat", "the cat")), head=f"<!-- {noise} -->")
    commented = parts.workbook(tmp_path / "commented.xlsx", **{"xl/worksheets/sheet1.xml": sheet_part})
    sweeps = {small: [f"{kb}KB" for kb in range(500, 8001, 500)], commented: [f"{mb}MB" for mb in range(10, 51, 5)]}

    def sweep(book: Path) -> list[str]:
        env = {**os.environ, "RUST_BACKTRACE": "1"}
        out = tmp_path / f"{book.stem}.jsonl"
        done = subprocess.run(
            [sys.executable, "-c", SWEEP_PROGRAM, str(book), str(out), *sweeps[book]],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return done.stdout.splitlines()

    # Compiled once first: a process that compiles the package as it imports it frees megabytes that its reader's
    # child may then use under any limit, and the sweep would never cross.
    subprocess.run([sys.executable, "-c", SWEEP_PROGRAM, str(small), str(tmp_path / "warm.jsonl")], check=True)
    with ThreadPoolExecutor(2) as pool:
        outcomes = dict(zip(sweeps, pool.map(sweep, sweeps)))
    for book, lines in outcomes.items():
        assert len(lines) == len(sweeps[book]), lines
        read = [size for size, line in zip(sweeps[book], lines) if line == "read"]
        for line in lines:
            if line == "read":
                continue
            assert "ImportError" not in line and "well-formed" not in line and "ran out of time" not in line, line
            assert "is corrupt" not in line, line
            # A Rust panic after a failed allocation in a narrow band (about 0.1 MB) names no limit: no type tells
            # it from a panic over a malformed file, which more memory would not mend.
            limits_named = "cannot read this workbook within " in line and "B / 10 s (" in line
            assert limits_named or "(the reader failed: " in line, line
            assert "ran out of memory" in line or "(the reader failed: " in line, line
        assert read and len(read) < len(lines), lines  # each sweep crosses from too little memory to enough
    # The command says the same in one line, exit code 2.
    refused = next(m for m, line in zip(sweeps[small], outcomes[small]) if line != "read")
    limits = ("--read-memory", refused, "--read-time", "10", "--format", "jsonl", "-o", "-", "-q")
    line = one_line_refusal(run_process("score", str(small), *limits, env={**os.environ, "RUST_BACKTRACE": "1"}))
    assert line.startswith(f"bleu-xl: error: {small}: ") and "--read-memory" in line, line


def test_a_limit_or_encoding_that_is_none_is_one_line(tmp_path: Path) -> None:
    """NaN, an infinity or 1e308 seconds, 1e20 TB, and encodings of other text than files' (idna, punycode): each
    refused in one line, exit code 2, by the library too (naming its setting), never an internal error or a CSV
    half written."""
    import pytest

    from bleu_xl import InputError, Setting, score_file
    from tests.helpers import refused

    path = tmp_path / "in.csv"
    path.write_text("Reference,Candidate\na b c,a b\n", encoding="utf-8")
    out = str(tmp_path / "out.csv")
    for value in ("nan", "inf", "1e308"):
        assert "(--read-time)" in refused(path, "--read-time", value, "-o", out)
    assert "more memory than a process can address" in refused(path, "--read-memory", "99999999999999999999TB")
    for encoding in ("idna", "punycode"):
        assert refused(path, "--output-encoding", encoding, "-o", out).endswith(
            f"{encoding!r} is not a text encoding (for example utf-8, cp1252, utf-16); check --output-encoding"
        )
    for settings, name in (({"read_time": float("nan")}, "read_time"), ({"read_memory": 2**80}, "read_memory")):
        with pytest.raises(InputError) as caught:
            score_file(path, output=out, **settings)
        assert Setting(name) in caught.value.parts


def test_one_huge_row_is_refused_before_scoring(tmp_path: Path) -> None:
    """A cell past the longest text bleu-xl scores (1,000,000 characters) is refused in one line, once the table
    is read: scoring a 27 MB pair took 5.6 GB."""
    from tests.helpers import refused

    path = tmp_path / "huge.csv"
    path.write_text(f'Reference,Candidate\n"a b",{"word " * 200_001}\n', encoding="utf-8")
    assert refused(path, "--max-n", "9", "--metric", "bleu,chrf").endswith(
        "cell B2 holds 1,000,005 characters: bleu-xl scores a text of at most 1,000,000 (an Excel cell holds "
        "32,767); split it, or score it in parts"
    )
