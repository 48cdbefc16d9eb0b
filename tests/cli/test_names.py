"""File names of any kind: names that are not UTF-8, an input named like the output's lock file, an output name
near the file-name limit (issue 24, rows 11, 12 and 16)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bleu_xl.files.write import output
from bleu_xl.table.sheet import InputError
from tests.files import parts
from tests.files.parts import COMMAND, listing, one_line_refusal, run_process

ROWS = f"Reference,Candidate\n{parts.REF},{parts.CAND}\n"


def run_bytes(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, cwd=cwd, timeout=120)


def test_names_that_are_not_utf8_are_read_written_and_shown(tmp_path: Path) -> None:
    """Row 11: café in Latin-1, as a file from another system is named."""
    (tmp_path / os.fsdecode(b"caf\xe9.csv")).write_text(ROWS, encoding="utf-8")
    done = run_bytes("score", b"caf\xe9.csv", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"caf\\xe9.csv (utf-8" in done.stderr and b"Traceback" not in done.stderr
    assert os.fsencode(tmp_path / os.fsdecode(b"caf\xe9-scored.xlsx")) in {os.fsencode(p) for p in tmp_path.iterdir()}
    parts.workbook(tmp_path / os.fsdecode(b"r\xe9sum\xe9.xlsx"))
    done = run_bytes("score", b"r\xe9sum\xe9.xlsx", "-o", b"r\xe9sum\xe9.json", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert parts.CAND in (tmp_path / os.fsdecode(b"r\xe9sum\xe9.json")).read_text(encoding="utf-8")
    missing = run_bytes("score", b"na\xefve.xlsx", cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr == b"bleu-xl: error: na\\xefve.xlsx: no such file\n"


def test_an_input_named_like_the_lock_file_is_never_deleted(tmp_path: Path) -> None:
    """Row 12: the lock beside x.csv is .x.csv.bleu-xl-lock; an input of that name stays as it was."""
    source = tmp_path / ".x.csv.bleu-xl-lock"
    source.write_text(ROWS, encoding="utf-8")
    message = one_line_refusal(run_process("score", str(source), "-o", str(tmp_path / "x.csv")))
    assert "not a spreadsheet or CSV file" in message  # the input's error comes first, before the lock is taken
    assert source.read_text(encoding="utf-8") == ROWS
    with pytest.raises(InputError, match="the input is named like this output's lock file"):
        output.OutputFile(str(tmp_path / "x.csv"), force=False, protect=[str(source)])
    assert source.read_text(encoding="utf-8") == ROWS
    other = tmp_path / "in.csv"
    other.write_text(ROWS, encoding="utf-8")
    message = one_line_refusal(run_process("score", str(other), "-o", str(tmp_path / "x.csv")))
    assert "is a file bleu-xl did not make" in message  # not the input, but not ours either: kept
    assert source.read_text(encoding="utf-8") == ROWS and listing(tmp_path) == [".x.csv.bleu-xl-lock", "in.csv"]


def test_a_lock_left_by_a_run_that_died_is_taken_over(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(ROWS, encoding="utf-8")
    (tmp_path / ".out.csv.bleu-xl-lock").touch()  # empty: what a killed run leaves
    done = run_process("score", str(source), "-o", str(tmp_path / "out.csv"), "-q")
    assert done.returncode == 0, done.stderr
    assert listing(tmp_path) == ["in.csv", "out.csv"]


def test_an_output_name_near_the_limit_gets_a_lock_and_a_temporary_file(tmp_path: Path) -> None:
    """Row 16: a 250-character name; the lock and temporary names beside it are cut to fit, the same each run."""
    source = tmp_path / "in.csv"
    source.write_text(ROWS, encoding="utf-8")
    for length in (250, 255):
        target = tmp_path / ("n" * (length - 5) + ".xlsx")
        done = run_process("score", str(source), "-o", str(target), "-q")
        assert done.returncode == 0, done.stderr
        assert listing(tmp_path) == sorted(["in.csv", target.name])
        target.unlink()
    long = tmp_path / ("é" * 120 + ".xlsx")  # 245 bytes: the cut never splits a character
    lock = output.beside(long, ".bleu-xl-lock")
    assert len(os.fsencode(lock.name)) <= 255 and lock == output.beside(long, ".bleu-xl-lock")
    claim = output.OutputFile(str(long), force=False)  # a second run on the same long name is refused
    try:
        assert "another bleu-xl run" in one_line_refusal(run_process("score", str(source), "-o", str(long)))
    finally:
        claim.release()
    assert listing(tmp_path) == ["in.csv"]
