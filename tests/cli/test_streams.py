"""The command's streams and arguments in any state and locale: closed standard streams, a standard output that is
not UTF-8, arguments Python could not decode, encodings that are not text, numbers JSON cannot hold (issue 24,
rows 10, 13 and 14)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
from pathlib import Path

import openpyxl
import pytest

from bleu_xl import score
from tests.files import parts
from tests.files.parts import COMMAND, listing, one_line_refusal, run_process
from tests.helpers import compared_columns

PT_REF = "Entrega rápida hoje"
PT_CAND = "Entrega rápida hoje mesmo"
POSIX = {**{k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}, "LC_ALL": "POSIX", "PYTHONUTF8": "0"}


def csv_input(folder: Path) -> Path:
    path = folder / "pt.csv"
    path.write_text(f"Reference,Candidate\n{PT_REF},{PT_CAND}\n", encoding="utf-8")
    return path


def with_closed(fd: int, *args: str) -> subprocess.CompletedProcess:
    """The command started with standard output (1) or error (2) closed, as ``1>&-`` / ``2>&-`` do."""
    return subprocess.run(
        [*COMMAND, *args],
        stdout=None if fd == 1 else subprocess.PIPE,
        stderr=None if fd == 2 else subprocess.PIPE,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(fd),
    )


def test_with_standard_error_closed_a_refusal_is_exit_2_and_a_run_completes(tmp_path: Path) -> None:
    source = csv_input(tmp_path)
    done = with_closed(2, "score", str(tmp_path / "missing.csv"))
    assert done.returncode == 2
    done = with_closed(2, "score", str(source), "-o", str(tmp_path / "out.csv"))
    assert done.returncode == 0
    assert listing(tmp_path) == ["out.csv", "pt.csv"]  # nothing written where standard error was
    assert (tmp_path / "out.csv").read_text(encoding="utf-8-sig").startswith('"Reference","Candidate"')


def test_with_standard_error_unwritable_the_diagnostics_are_dropped_and_the_job_finishes(tmp_path: Path) -> None:
    """``2>/dev/full``: the lines meant for standard error cannot be written; the job does not stop for them."""
    source = csv_input(tmp_path)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*COMMAND, "score", str(source), "-o", str(tmp_path / "out.csv")], stderr=full, timeout=120
        )
        assert done.returncode == 0
        assert (tmp_path / "out.csv").read_text(encoding="utf-8-sig").startswith('"Reference","Candidate"')
        piped = subprocess.run(
            [*COMMAND, "score", str(source), "-o", "-"], stderr=full, stdout=subprocess.PIPE, text=True, timeout=120
        )
    assert piped.returncode == 0 and piped.stdout.startswith('"Reference","Candidate"')  # the summary went nowhere


def test_with_standard_output_closed_writing_to_it_is_refused(tmp_path: Path) -> None:
    done = with_closed(1, "score", str(csv_input(tmp_path)), "-o", "-")
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "bleu-xl: error: standard output is closed: nothing could be written; give a file with -o"
    )


def test_pair_with_standard_output_closed_is_refused() -> None:
    """pair's detail is its whole result: with standard output closed it exited 0 having shown nothing."""
    for extra in ((), ("--json",)):
        done = with_closed(1, "pair", "a b", "a b", *extra)
        said = "bleu-xl: error: standard output is closed: nothing could be written; redirect it to a file"
        assert (done.returncode, done.stderr.strip()) == (2, said)


def test_compare_with_standard_output_closed_ends_as_score_does(tmp_path: Path) -> None:
    """compare's printed result is its output, as score's is with -o -: refused before any work when standard
    output is closed (exit 2, nothing written); with -o, the file is the output and the command completes, as
    score does."""
    with open(tmp_path / "ab.csv", "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["Reference", "A", "B"], *zip(*compared_columns())])
    source = str(tmp_path / "ab.csv")
    message = "bleu-xl: error: standard output is closed: nothing could be written; write the result to a file with -o"
    for extra in ((), ("--json",), ("--json", "-q")):
        done = with_closed(1, "compare", source, "--a", "A", "--b", "B", "--samples", "50", *extra)
        assert (done.returncode, done.stderr.strip()) == (2, message), (extra, done.stderr)
    score_done = with_closed(1, "score", source, "--candidate-col", "A", "-o", str(tmp_path / "s.csv"))
    compare_done = with_closed(
        1, "compare", source, "--a", "A", "--b", "B", "--samples", "50", "-o", str(tmp_path / "c.csv")
    )
    assert score_done.returncode == compare_done.returncode == 0, (score_done.stderr, compare_done.stderr)
    assert listing(tmp_path) == ["ab.csv", "c.csv", "s.csv"]


def with_reader_gone(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command writing to a real pipe whose reader has gone (``| head`` that exited): every write to
    standard output fails."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [*COMMAND, *args], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120, cwd=cwd
        )
    finally:
        os.close(write_end)


def test_every_command_ends_alike_when_the_reader_of_its_output_goes_away(tmp_path: Path) -> None:
    source = csv_input(tmp_path)
    with open(tmp_path / "ab.csv", "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["Reference", "A", "B"], *zip(*compared_columns())])
    for args in [
        ("score", str(source), "-o", "out.xlsx"),  # the file whole, then the summary
        ("score", str(source), "-o", "-"),
        ("score", str(source), "-o", "-", "--format", "json"),
        ("pair", PT_REF, PT_CAND),
        ("compare", "ab.csv", "--a", "A", "--b", "B", "--samples", "50"),
        ("compare", "ab.csv", "--a", "A", "--b", "B", "--samples", "50", "--json"),
        ("lite-bundle", "bundle"),
        ("--version",),
        ("--help",),
        ("score", "--help"),
    ]:
        done = with_reader_gone(*args, cwd=tmp_path)
        assert done.returncode == 141, (args, done.returncode, done.stderr)  # 128 + SIGPIPE, never 1
        assert "Traceback" not in done.stderr and "error" not in done.stderr, (args, done.stderr)
    book = openpyxl.load_workbook(tmp_path / "out.xlsx")  # written whole before the summary found no reader
    assert book["Scores"]["B2"].value == PT_CAND


def test_a_standard_output_that_is_not_utf8_gets_the_data_in_utf8(tmp_path: Path) -> None:
    source = csv_input(tmp_path)
    done = subprocess.run([*COMMAND, "score", str(source), "-o", "-"], capture_output=True, env=POSIX, timeout=120)
    assert done.returncode == 0, done.stderr
    assert PT_REF.encode() in done.stdout  # the data, in UTF-8 (the summary after it, escaped for the terminal)
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr
    done = subprocess.run(
        [*COMMAND, "score", str(source), "-o", str(tmp_path / "o.xlsx")], capture_output=True, env=POSIX, timeout=120
    )
    assert done.returncode == 0 and b"r\\xe1pida" in done.stdout  # the summary, escaped


def test_standard_output_in_a_code_page_gets_the_whole_output_or_nothing(tmp_path: Path) -> None:
    """A cell cp1252 cannot write, after rows enough to fill any buffer: nothing of the table reaches standard
    output, as nothing reaches a file."""
    from tests.helpers import run

    path = tmp_path / "late.csv"
    path.write_text("Reference,Candidate\n" + "Entrega rápida,Entrega rápida hoje\n" * 5000 + "東京,東京\n")
    done = run("score", str(path), "-o", "-", "-q", "--output-encoding", "cp1252")
    assert done.exit_code == 2 and done.stdout_bytes == b""
    assert "a cell cannot be written in cp1252 ('東京')" in done.stderr
    fine = run("score", str(csv_input(tmp_path)), "-o", "-", "-q", "--output-encoding", "cp1252")
    assert fine.exit_code == 0
    assert fine.stdout_bytes.decode("cp1252").splitlines()[1].startswith('"Entrega rápida hoje"')


def test_arguments_python_kept_as_surrogates_are_decoded_not_split(tmp_path: Path) -> None:
    """Row 14: in the POSIX locale without UTF-8 mode, "rápida" reaches Python as r, two surrogates, pida."""
    source = csv_input(tmp_path)
    done = subprocess.run(
        [*COMMAND, "score", str(source), "--reference", PT_REF, "--format", "jsonl", "-o", "-", "-q"],
        capture_output=True,
        env=POSIX,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["BLEU-2"] == score(PT_REF, PT_CAND).bleu
    latin1 = subprocess.run(
        [*COMMAND, "score", str(source), "--reference", b"r\xe9sum\xe9"], capture_output=True, text=True, timeout=120
    )
    assert "'r\\xe9sum\\xe9' is not UTF-8 text; check --reference" in one_line_refusal(latin1)


def test_pair_refuses_texts_that_are_not_utf8_as_score_does() -> None:
    """A Latin-1 "cafés" reached pair as caf, a surrogate, s: BLEU-2 split it and scored 1.0 against "caf s"."""
    for args, said in (
        ([b"caf\xe9s chauds", "caf s chauds"], "'caf\\xe9s chauds' is not UTF-8 text; check the texts given"),
        (["--reference", b"caf\xe9s", "caf s"], "'caf\\xe9s' is not UTF-8 text; check --reference"),
    ):
        done = subprocess.run([*COMMAND, "pair", *args], capture_output=True, text=True, timeout=120)
        assert said in one_line_refusal(done)
    posix = subprocess.run([*COMMAND, "pair", PT_REF, PT_CAND], capture_output=True, env=POSIX, timeout=120)
    assert posix.returncode == 0 and f"BLEU-2 = {score(PT_REF, PT_CAND).bleu:.4f}" in posix.stdout.decode()


@pytest.mark.parametrize("codec", ["rot13", "hex", "zlib_codec", "base64"])
def test_only_text_encodings_are_accepted(tmp_path: Path, codec: str) -> None:
    source = csv_input(tmp_path)
    message = one_line_refusal(run_process("score", str(source), "--encoding", codec, "-o", str(tmp_path / "o.csv")))
    assert f"{codec!r} is not a text encoding" in message and "--encoding" in message
    book = parts.workbook(tmp_path / "book.xlsx")  # a workbook's CSV output too
    message = one_line_refusal(
        run_process("score", str(book), "--output-encoding", codec, "-o", str(tmp_path / "o.csv"))
    )
    assert f"{codec!r} is not a text encoding" in message and "--output-encoding" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsx", "pt.csv"]


def infinite_workbook(path: Path) -> Path:
    header = "".join(
        parts.text_cell(f"{c}1", t) for c, t in zip("ABCD", ["Reference", "Candidate A", "Candidate B", "Num"])
    )
    rows = [f'<row r="1">{header}</row>']
    texts = [
        ("the cat sat", "the cat", "the cat sat"),
        ("the dog ran", "a dog", "the dog ran"),
        ("x y z", "x y", "x z"),
    ]
    for r, (number, row) in enumerate(zip(["1e999", "NaN", "-inf"], texts), start=2):
        cells = "".join(parts.text_cell(f"{c}{r}", t) for c, t in zip("ABC", row))
        rows.append(f'<row r="{r}">{cells}<c r="D{r}"><v>{number}</v></c></row>')
    return parts.workbook(path, "".join(rows))


def test_json_holds_no_infinity_and_no_nan(tmp_path: Path) -> None:
    """Row 13: JSON has no such numbers: they are written as the text CSV shows."""
    book = infinite_workbook(tmp_path / "inf.xlsx")
    for name in ("o.json", "o.jsonl"):
        done = run_process(
            "score", str(book), "--candidate-col", "B", "--reference-col", "A", "-o", str(tmp_path / name)
        )
        assert done.returncode == 0, done.stderr

        def strict(constant: str) -> None:
            raise AssertionError(f"{constant} is not JSON")

        text = (tmp_path / name).read_text(encoding="utf-8")
        if name.endswith(".jsonl"):
            rows = [json.loads(line, parse_constant=strict) for line in text.splitlines()]
        else:
            rows = json.loads(text, parse_constant=strict)["rows"]
        assert [row["Num"] for row in rows] == ["inf", "nan", "-inf"]


def test_compare_writes_a_workbook_whatever_the_numbers(tmp_path: Path) -> None:
    book = infinite_workbook(tmp_path / "inf.xlsx")
    out = tmp_path / "compare.xlsx"
    done = run_process("compare", str(book), "--a", "B", "--b", "C", "-o", str(out))
    assert done.returncode == 0, done.stderr
    scores = openpyxl.load_workbook(out)["Scores"]
    assert [scores.cell(r, 4).value for r in range(2, 5)] == ["inf", "nan", "-inf"]


def test_styles_that_are_not_numbers_read_as_the_reader_reads_them(tmp_path: Path) -> None:
    """Row 10: s="x" and numFmtId="abc" in the styles once made the command fail."""
    styles = (
        f'{parts.HEAD}<styleSheet xmlns="{parts.MAIN_NS}"><numFmts count="1"><numFmt numFmtId="abc" '
        'formatCode="0.0"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="abc"/></cellXfs></styleSheet>'
    )
    cells = (
        parts.pair_rows((parts.REF, parts.CAND))
        + '<row r="3"><c r="C3" s="x"><v>1</v></c><c r="D3" s="1"><v>2</v></c></row>'
    )
    rels = parts.rels(("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "styles", "styles.xml"))
    book = parts.workbook(
        tmp_path / "styles.xlsx", cells, **{"xl/styles.xml": styles, "xl/_rels/workbook.xml.rels": rels}
    )
    done = run_process("score", str(book), "-o", str(tmp_path / "o.xlsx"))
    assert done.returncode == 0, done.stderr


def test_a_full_standard_output_after_the_output_is_written_says_it_was(tmp_path: Path) -> None:
    """``>/dev/full`` with ``-o FILE``: the file is written whole, then the summary cannot be shown. The refusal says
    both, rather than leave the user to think that nothing was written."""
    source, out = csv_input(tmp_path), tmp_path / "out.csv"
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*COMMAND, "score", str(source), "-o", str(out)], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 2 and out.read_text(encoding="utf-8-sig").startswith('"Reference","Candidate"')
    assert done.stderr.splitlines()[-1] == (
        f"bleu-xl: error: No space left on device (showing the result; {out} was written whole)"
    )


def test_a_termination_after_the_output_is_written_says_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    """SIGTERM once the output is in place: the output is whole, and the line says so, not 'no output written'."""
    import signal

    from bleu_xl.cli.guard import Terminated, guard, wrote

    @guard()
    def command(written: bool) -> None:
        if written:
            wrote("out.xlsx")
        raise Terminated(signal.SIGTERM)

    for written, said in ((True, "; out.xlsx was written whole"), (False, "; stopped the workers, no output written")):
        with pytest.raises(SystemExit) as ended:
            command(written=written)
        assert ended.value.code == 128 + signal.SIGTERM
        assert capsys.readouterr().err == f"bleu-xl: terminated by SIGTERM{said}\n"

    @guard()
    def to_standard_output(stop: BaseException) -> None:
        wrote("-")
        raise stop

    with pytest.raises(SystemExit):
        to_standard_output(Terminated(signal.SIGTERM))
    said = "bleu-xl: terminated by SIGTERM; standard output may hold part of the output\n"
    assert capsys.readouterr().err == said

    @guard()
    def interrupted(written: bool) -> None:
        if written:
            wrote("out.csv")
        raise KeyboardInterrupt

    for written, said in ((True, "bleu-xl: interrupted; out.csv was written whole\n"), (False, "")):
        with pytest.raises(SystemExit) as ended:
            interrupted(written=written)
        assert ended.value.code == 130 and capsys.readouterr().err == said  # Ctrl-C alone says nothing


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_an_xlsx_to_a_terminal_is_refused_and_to_a_pipe_written(tmp_path: Path) -> None:
    """``-o - --format xlsx`` wrote a zip's bytes to the terminal; piped on, it is the workbook."""
    source = str(csv_input(tmp_path))
    leader, follower = os.openpty()
    try:
        done = subprocess.run(
            [*COMMAND, "score", source, "-o", "-", "--format", "xlsx", "-q"],
            stdout=follower,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(follower)
        os.close(leader)
    said = "bleu-xl: error: an .xlsx workbook is not text to show on a terminal: give a file with -o, or pipe it on"
    assert (done.returncode, done.stderr.strip()) == (2, said)
    piped = subprocess.run(
        [*COMMAND, "score", source, "-o", "-", "--format", "xlsx", "-q"], capture_output=True, timeout=120
    )
    assert piped.returncode == 0 and piped.stdout[:2] == b"PK"
