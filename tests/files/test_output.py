"""Output files: claimed once the input is read (its errors come first), never the input itself, never a special
file, whole or absent (no partial, temporary or lock file left after any failure), replaced only with --force, and
made with the user's umask like any other file."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_xl.files.read import table as readers
from bleu_xl.files.write import output
from bleu_xl.files.write import scored_workbook as report
from bleu_xl.table import sheet as table_sheet
from tests.helpers import COMMAND, digest, long_csv, refused, refused_in_process, run, run_process, xlsx

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"


def test_existing_output_needs_force(copy_workbook: Path) -> None:
    assert run("score", str(copy_workbook)).exit_code == 0
    out = copy_workbook.with_name("copy-scored.xlsx")
    first = digest(out)
    again = run("score", str(copy_workbook))
    assert again.exit_code == 2 and "already exists; use --force" in again.output
    assert digest(out) == first
    assert run("score", str(copy_workbook), "--force", "-q").exit_code == 0


def test_the_inputs_errors_come_before_the_outputs(tmp_path: Path) -> None:
    """A sheet that is not there, an .ods, a broken workbook: the input's problem is the one said, even when the
    output exists (to replace it with --force would not help); the output is kept."""
    source = xlsx(tmp_path / "ads.xlsx", [["Reference", "Candidate"], [REF, CAND]], sheet="Ads")
    out = tmp_path / "ads-scored.xlsx"
    out.write_bytes(b"keep me")
    assert "no sheet named 'Sheet1'; sheets: Ads" in refused(source, "--sheet", "Sheet1")
    ods = tmp_path / "ads.ods"
    ods.write_bytes(readers.ZIP_MAGIC + b"an OpenDocument spreadsheet")
    (tmp_path / "ads-scored.xlsx").write_bytes(b"keep me")
    assert "an OpenDocument spreadsheet (.ods); save it as .xlsx first" in refused(ods)
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(readers.ZIP_MAGIC + b"not really a zip")
    result = run("compare", str(broken), "--a", "A", "--b", "B", "-o", str(out))
    assert result.exit_code == 2 and "already exists" not in result.stderr
    assert out.read_bytes() == b"keep me"
    assert "already exists; use --force" in refused(source)  # and once the input is read, the output's


def test_a_second_run_on_the_same_output_is_refused_at_once(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    claim = output.OutputFile(str(out), force=False)  # what a first run holds while it reads and scores
    try:
        result = run("score", str(source), "-o", str(out))
        assert result.exit_code == 2 and "another bleu-xl run is writing this file" in result.stderr
        assert not out.exists()
    finally:
        claim.release()
    assert run("score", str(source), "-o", str(out), "-q").exit_code == 0


def test_output_never_overwrites_input(copy_workbook: Path) -> None:
    assert "overwrite the input" in refused(copy_workbook, "-o", str(copy_workbook), "--force")


def test_special_files_are_never_replaced(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    result = run("score", str(source), "-o", str(fifo), "--force")
    assert result.exit_code == 2 and "not a regular file" in result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    with pytest.raises(table_sheet.InputError, match="not a regular file"):
        output.OutputFile(os.devnull, force=True)  # refused when claimed, before anything is written
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_unwritable_places(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    (tmp_path / "folder.csv").mkdir()
    assert "is a folder" in refused_in_process(run_process("score", str(source), "-o", str(tmp_path / "folder.csv")))
    # /proc takes no new files, even for root (a chmod 555 folder would not stop root)
    assert "cannot write in /proc" in refused_in_process(run_process("score", str(source), "-o", "/proc/out.csv"))
    assert "does not exist" in refused_in_process(
        run_process("score", str(source), "-o", str(tmp_path / "no" / "o.csv"))
    )


def test_output_is_whole_or_absent(copy_workbook: Path, monkeypatch) -> None:

    def broken(out, *args, **kwargs):
        out.write(b"PK partial")
        raise OSError("disk full")

    monkeypatch.setattr(report, "write_scored_workbook", broken)
    assert "disk full" in refused(copy_workbook)  # and no output, no temporary file


def test_full_disk_is_a_plain_message_and_leaves_nothing(tmp_path: Path) -> None:
    source = long_csv(tmp_path / "long.csv", 3_000)
    limit = 64 * 1024  # writes past it fail as on a full disk (EFBIG; Python ignores SIGXFSZ)

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [*COMMAND, "score", str(source), "-o", str(tmp_path / "out.csv")],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=small_files,
    )
    assert "cannot write (File too large)" in refused_in_process(done)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]  # no partial file, no lock


def test_write_files_leaves_nothing_when_one_cannot_be_written(tmp_path: Path) -> None:
    """The second file goes past a real file-size limit (RLIMIT_FSIZE): the first, already written to its
    temporary file, is not renamed into place, and no temporary or lock file is left."""
    script = (
        "import resource, sys; from pathlib import Path; from bleu_xl.table.sheet import InputError\n"
        "from bleu_xl.files.write.output import write_files\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))\n"
        "folder = Path(sys.argv[1])\n"
        "try:\n"
        "    write_files([(folder / 'small.txt', lambda tmp: tmp.write_bytes(b'x' * 10)),\n"
        "                 (folder / 'big.txt', lambda tmp: tmp.write_bytes(b'y' * 100_000))], force=False)\n"
        "except InputError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert "big.txt: cannot write (File too large)" in done.stdout, done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_outputs_get_the_umask_mode(tmp_path: Path, umask: int) -> None:
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    previous = os.umask(umask)
    try:
        for name in ("out.xlsx", "out.csv", "out.jsonl"):
            assert run("score", str(source), "-o", str(tmp_path / name), "-q").exit_code == 0
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask
    finally:
        os.umask(previous)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
@pytest.mark.parametrize("text", ["the \ud800 cat", "東\ud800 cat", "ok \ud83d\ude00"])
def test_surrogate_code_points_are_named_as_such_in_any_encoding(tmp_path: Path, encoding: str, text: str) -> None:
    """Text made in Python can hold surrogate code points (halves of UTF-16 pairs, even two halves side by side),
    which no encoding writes: the message says so, beside a character a code page lacks too, instead of advising
    UTF-8, which fails on them as well; nothing is left at the target."""
    out = tmp_path / "out.csv"
    written = output.OutputFile(str(out), force=False).open(binary=False, encoding=encoding)
    with pytest.raises(table_sheet.InputError) as raised, written as handle:
        handle.write(text + "\n")
    assert "a cell holds surrogate code points (" in str(raised.value)
    assert "which no file can hold" in str(raised.value)
    assert "output_encoding" not in str(raised.value) and not out.exists()


def test_a_character_a_code_page_lacks_still_gets_the_advice_of_utf8(tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    written = output.OutputFile(str(out), force=False).open(binary=False, encoding="cp1252")
    with pytest.raises(table_sheet.InputError) as raised, written as handle:
        handle.write("東京\n")
    assert "cannot be written in cp1252 ('東京')" in str(raised.value) and "output_encoding" in str(raised.value)


def test_surrogate_code_points_in_the_reference_text_are_refused_before_scoring(tmp_path: Path) -> None:
    import bleu_xl

    source = tmp_path / "in.csv"
    source.write_text(f"Candidate\n{CAND}\n", encoding="utf-8")
    for name in ("out.xlsx", "out.csv", "out.json"):
        with pytest.raises(bleu_xl.BleuXlError, match=r"holds surrogate code points .* which no file can hold"):
            bleu_xl.score_file(source, output=tmp_path / name, reference_text="the \ud800 cat")
        assert not (tmp_path / name).exists()


@pytest.mark.parametrize("encoding", ["utf-7", "unicode_escape"])
def test_an_encoding_that_decodes_to_surrogate_code_points_is_refused(tmp_path: Path, encoding: str) -> None:
    """UTF-7 and Python's unicode_escape can decode a file to surrogate code points, which could be neither scored as
    the file meant nor written to any output: the read is refused, with the line, before anything is scored."""
    source = tmp_path / "in.csv"
    body = "Reference,Candidate\nthe cat,the cat\n" + ("the +2AA- cat" if encoding == "utf-7" else "the \\ud800 cat")
    source.write_bytes((body + ",the cat\n").encode("ascii"))
    message = refused(source, "--encoding", encoding, "-o", str(tmp_path / "out.csv"))
    assert f"not valid {encoding} text: it decodes to a surrogate code point" in message and "line 3" in message
    assert "--encoding" in message
