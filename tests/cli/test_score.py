"""`bleu-xl score` as a user sees it: the line that says what was read (the sheet or the encoding, the header row,
the columns, and notes), messages that name the options to use, the output's extension, the summary, and good
manners on a terminal and in a pipe.

The column rules themselves are tested on sheets in memory (tests/table/test_columns.py); here, that the command
says what they found and spells their settings as its options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bleu_xl
from benchmarks.synthetic import make_pairs
from bleu_xl import score
from bleu_xl.template import build as template
from bleu_xl.template import data as template_data
from tests.helpers import REF as SEED_REF
from tests.helpers import SHORT, json_rows, refused, run, scored, xlsx, xlsx_text

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"
PAIR = score(REF, CAND).bleu
OTHER = "Get free shipping on all orders"


# --- what was read -----------------------------------------------------------------------------------------------


def test_the_sheet_header_row_and_columns_used_are_said_on_every_run(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "ids.xlsx",
        [["Product reference", "Reference", "Candidate ID", "Candidate"], ["P-1", REF, "V1", CAND]],
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert json_rows(result)[0]["BLEU-2"] == PAIR
    columns = "header row 1; candidate D 'Candidate'; reference B 'Reference'"
    assert result.stderr == f"bleu-xl: {path}, sheet 'Copy': {columns}\n"

    ansi = tmp_path / "ansi.csv"  # a text file: its encoding and delimiter instead of a sheet
    ansi.write_bytes("Référence,Candidat\r\nL’été arrive,L’été arrive déjà\r\n".encode("cp1252"))
    result = run("score", str(ansi), "--format", "jsonl", "-o", "-", "-q")
    assert result.stderr.startswith(f"bleu-xl: {ansi} (cp1252, delimiter ','): header row 1;")

    bare = tmp_path / "bare.csv"
    bare.write_bytes(f'"{REF}","{CAND}"\r\n"{REF}","{OTHER}"\r\n'.encode())
    given = ("--reference-col", "A", "--candidate-col", "B", "--format", "jsonl", "-o", "-")
    result = run("score", str(bare), "--no-header", *given)
    assert len(json_rows(result)) == 2 and "delimiter ','): no header row; candidate B; reference A" in result.stderr
    result = run("score", str(bare), *given)  # text over both columns: read as their headers, and said so
    assert len(json_rows(result)) == 1
    assert "it is read as the header row; --no-header scores it as data" in result.stderr


def test_a_blank_column_option_is_refused_in_one_line_in_both_commands(tmp_path: Path) -> None:
    """--candidate-col '' names no column: never read as not given, which would let the headers choose."""
    path = xlsx(tmp_path / "copy.xlsx", [["Reference", "Candidate", "Other"], [REF, CAND, OTHER]])
    for option in ("--candidate-col", "--reference-col"):
        assert refused(path, option, "") == (
            f"bleu-xl: error: {option} '' names no column: give the column's letter or its header"
        )
    for a, b in (("", "C"), ("B", " ")):
        compared = run("compare", str(path), "--a", a, "--b", b)
        assert (compared.exit_code, compared.stdout) == (2, ""), compared.output
        flag, value = ("--a", a) if not a else ("--b", b)
        assert compared.stderr == (
            f"bleu-xl: error: {flag} {value!r} names no column: give the column's letter or its header\n"
        )


def test_no_header_without_columns_asks_for_them_by_letter_in_both_commands(tmp_path: Path) -> None:
    """With --no-header no header can name a column: the refusal says to give them by letter, spelt as each
    command spells its options, not that no header was found."""
    bare = tmp_path / "bare.csv"
    bare.write_bytes(f'"{REF}","{CAND}","{OTHER}"\r\n'.encode())
    wanted = "bleu-xl: error: with --no-header every row is data: give the columns by letter"
    assert refused(bare, "--no-header") == f"{wanted} (--candidate-col B and --reference-col A)"
    compared = run("compare", str(bare), "--no-header", "--a", "B", "--b", "C")
    assert (compared.exit_code, compared.stdout) == (2, "")
    assert compared.stderr == (
        "bleu-xl: error: with --no-header every row is data: give the reference column by letter (--reference-col "
        "A), or its text (--reference)\n"
    )


def test_a_column_left_out_is_said_in_a_note(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "refs.xlsx", [["Reference 1", "Reference 2", "Candidate"], [REF, None, CAND], [REF, None, REF]]
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    assert [row["BLEU-2"] for row in json_rows(result)] == [PAIR, 1.0]
    assert "reference A 'Reference 1'\nbleu-xl: note: the reference column B 'Reference 2' is empty: left out\n" in (
        result.stderr
    )


def test_without_sheet_the_first_sheet_with_the_columns_is_read_and_named(tmp_path: Path) -> None:
    """The template opens on its Start here page: `score` without --sheet reads Rank, says so, and scores it;
    a workbook where no sheet has the columns still gets the first sheet's message."""
    book_path = tmp_path / "ranking.xlsx"
    template.build_template(book_path)
    result = run("score", str(book_path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0, result.stderr
    assert "sheet 'Rank'" in result.stderr and "candidate B 'Candidate'" in result.stderr
    rows = (tmp_path / "out.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == 1 + len(template_data.RANK_VARIANTS)
    by_hand = score(template_data.RANK_REFERENCE, template_data.RANK_VARIANTS[1]).bleu
    assert f"{by_hand:.4f}"[:5] in rows[2]

    plain = xlsx(tmp_path / "plain.xlsx", [["Title"], ["nothing to score"]])
    assert "sheet 'Copy': no candidate or reference column" in refused(plain)


# --- messages name the options ----------------------------------------------------------------------------------


def test_an_ambiguous_column_is_shown_with_the_option_that_chooses_it(tmp_path: Path) -> None:
    two = xlsx(tmp_path / "two.xlsx", [["Reference", "Candidate A", "Candidate B"], [REF, CAND, OTHER]])
    message = refused(two)
    assert "2 columns could be the candidate (B 'Candidate A', C 'Candidate B')" in message
    assert message.endswith("choose one with --candidate-col, e.g. --candidate-col B")
    assert scored(two, "--candidate-col", "Candidate B")[0]["BLEU-2"] == score(REF, OTHER).bleu

    numbered = xlsx(tmp_path / "cands.xlsx", [["Reference", "Candidate", "Candidate 2"], [REF, CAND, REF]])
    assert refused(numbered, "-o", str(tmp_path / "out.csv")).endswith(
        "2 columns could be the candidate (B 'Candidate', C 'Candidate 2'); choose one with --candidate-col, "
        "e.g. --candidate-col B"
    )

    rows = [["Reference", "Candidate", "Candidate"], [REF, "old draft text", CAND]]
    draft = xlsx(tmp_path / "draft.xlsx", rows, hidden=["B"])
    result = run("score", str(draft), "--format", "jsonl", "-o", "-", "-q")
    assert json_rows(result)[0]["BLEU-2"] == PAIR and "candidate C 'Candidate'" in result.stderr
    message = refused(draft, "--candidate-col", "Candidate")
    assert "2 columns are headed 'Candidate' (B, C)" in message and message.endswith("e.g. --candidate-col C")
    assert scored(draft, "--candidate-col", "B")[0]["BLEU-2"] == score(REF, "old draft text").bleu
    hidden = xlsx(tmp_path / "hidden.xlsx", [["Reference", "Candidate"], [REF, CAND]], hidden=["B"])
    assert refused(hidden).endswith(
        "the candidate column B 'Candidate' is hidden, and hidden columns are not chosen "
        "by themselves; give --candidate-col B"
    )


def test_both_kinds_of_reference_are_refused(copy_workbook: Path) -> None:
    message = refused(copy_workbook, "--reference", "x", "--reference-col", "B")
    assert message == "bleu-xl: error: give either --reference or --reference-col, not both"


def test_a_csv_read_as_one_column_with_a_bar_in_its_header_suggests_the_delimiter(tmp_path: Path) -> None:
    path = tmp_path / "bars.csv"
    path.write_text(f"Reference|Candidate\n{REF}|{CAND}\n", encoding="utf-8")
    assert refused(path).endswith(
        "headers found: A 'Reference|Candidate'; give them with --candidate-col and --reference-col (a letter or a "
        "header); if | separates the columns, give --delimiter '|'"
    )
    assert scored(path, "--delimiter", "|")[0]["BLEU-2"] == PAIR
    plain = tmp_path / "plain.csv"
    plain.write_text("Source,Target\na,b\n", encoding="utf-8")
    assert "--delimiter" not in refused(plain)  # two columns: the delimiter was right
    commas = tmp_path / "commas.csv"  # parted by |, its texts holding commas: sniffed as a comma file
    commas.write_text(
        "Reference|Candidate\nFree delivery, on every order|Free delivery, on every order\n"
        "Free delivery, on every order|Free delivery; on all orders\n",
        encoding="utf-8",
    )
    assert refused(commas).endswith("; if | separates the columns, give --delimiter '|'")


def test_a_reference_text_no_candidate_could_be_scored_against_is_refused(copy_workbook: Path) -> None:
    for blank in ("", "   "):
        assert refused(copy_workbook, "--reference", blank) == (
            f"bleu-xl: error: --reference {blank!r} is blank: give the text to score every candidate against"
        )
    assert refused(copy_workbook, "--reference", "#N/A").endswith(
        "'#N/A' is an error value, not a text to score against"
    )
    assert refused(copy_workbook, "--reference", "...") == (
        "bleu-xl: error: --reference '...': BLEU-2 cannot score against it (reference has no words); chrF takes it: "
        "score with --metric chrf"
    )
    assert refused(copy_workbook, "--reference", "...", "--metric", "chrf,bleu").endswith("--metric chrf")
    # chrF counts characters: punctuation alone is a reference, as Excel's CHRF takes it.
    rows = scored(copy_workbook, "--reference", "...", "--metric", "chrf")
    assert [row["chrF2"] for row in rows if row["Candidate"]] == [0.0] * 6 and not any(row["note"] for row in rows)
    compared = run("compare", str(copy_workbook), "--a", "Candidate", "--b", "Reference", "--reference", "")
    assert compared.exit_code == 2 and compared.stderr.splitlines() == [
        "bleu-xl: error: --reference '' is blank: give the text to score every candidate against"
    ]


def test_missing_columns_are_named_with_the_options_that_give_them(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "cols.xlsx", [["Source", "Target"], ["a", "b"]])
    assert refused(path).endswith(
        "no candidate or reference column; headers found: A 'Source', B 'Target'; give them with --candidate-col "
        "and --reference-col (a letter or a header)"
    )


def test_the_output_extension_says_the_format(tmp_path: Path) -> None:
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    for bad in ("out.txt", "out.ods", "out"):
        assert "unknown output extension" in refused(source, "-o", str(tmp_path / bad))
        assert not (tmp_path / bad).exists()
    assert "cannot hold --format xlsx" in refused(source, "-o", str(tmp_path / "x.csv"), "--format", "xlsx")


# --- the summary, standard input and output, terminals -----------------------------------------------------------


def test_a_summary_follows_the_scores(copy_workbook: Path) -> None:
    result = run("score", str(copy_workbook))
    assert result.exit_code == 0, result.output
    assert "corpus BLEU-2" in result.stdout and "signature" in result.stdout
    assert "written to" in result.stdout and copy_workbook.with_name("copy-scored.xlsx").exists()


def test_stdin_tsv() -> None:
    data = f"reference\tcandidate\n{SEED_REF}\t{SHORT}\n".encode()
    result = run("score", "-", "-q", input=data)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].endswith(
        "\t".join(map(str, [score(SEED_REF, SHORT).bleu, 1, 5, 5, 1, 4, 4, score(SEED_REF, SHORT).bp, 11, 5, '""']))
    )


def test_user_text_is_not_markup_and_escapes_are_shown_escaped(tmp_path: Path) -> None:
    hostile = ["[/bold] closes nothing", "[link=http://evil]click[/link]", "title \x1b]0;owned\x07 here"]
    path = xlsx_text(tmp_path / "markup.xlsx", [["Reference", "Candidate [bold]x[/bold]"], *([t, t] for t in hostile)])
    result = run("score", str(path), "-o", str(tmp_path / "out.xlsx"))
    assert result.exit_code == 0, result.output
    assert "[/bold] closes nothing" in result.stdout and "[link=http://evil]click[/link]" in result.stdout
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "title \\x1b]0;owned\\x07 here" in result.stdout
    assert "'Candidate [bold]x[/bold]'" in result.stderr


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("bleu-xl")
    if not exe.exists():
        pytest.skip("the package is not installed as a console script in this environment")
    rows = [["Reference", "Candidate"], *[[REF, f"{SHORT} {i}"] for i in range(20000)]]
    path = tmp_path / "many.csv"
    path.write_text("\n".join(",".join(row) for row in rows), encoding="utf-8")
    done = subprocess.run(
        f"'{exe}' score '{path}' --format csv -o - -q | head -1", shell=True, capture_output=True, text=True
    )
    assert done.stdout.startswith('"Reference","Candidate","BLEU-2"') and "error" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_progress_bar_on_a_terminal_leaves_the_output_unchanged(tmp_path: Path) -> None:
    """On a real terminal (a pty) a long input shows rich's progress bar on stderr; the scores are the same."""
    import pty

    pairs = make_pairs(6_000, seed=8)
    source = tmp_path / "long.csv"
    source.write_text("reference,candidate\n" + "".join(f'"{r}","{c}"\n' for r, c in pairs), encoding="utf-8")
    command = [sys.executable, "-c", "from bleu_xl.cli import main; main()", "score", str(source)]
    plain = subprocess.run([*command, "-o", str(tmp_path / "plain.csv")], capture_output=True, check=True)
    assert b"scoring" not in plain.stderr  # not a terminal: no bar

    main_fd, terminal_fd = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    process = subprocess.Popen(
        [*command, "-o", str(tmp_path / "tty.csv")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=terminal_fd,
        env=env,
    )
    os.close(terminal_fd)
    shown = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the terminal closed: the command has exited
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_fd)
    assert process.wait(timeout=60) == 0
    assert b"scoring" in shown and b"100%" in shown  # the bar, drawn up to the end, on the terminal
    assert b"\x1b[2K" in shown  # rich redrew the line: a live bar, not plain text
    assert (tmp_path / "tty.csv").read_bytes() == (tmp_path / "plain.csv").read_bytes()


def test_a_csv_row_with_a_field_past_the_header_is_noted(tmp_path: Path) -> None:
    """A comma inside a text not in quotes shifts the cells after it: the row is named on standard error, to be
    checked (a column of comments without a header does the same, harmlessly, so the row is still scored)."""
    path = tmp_path / "ragged.csv"
    path.write_text(
        "ID,Reference,Candidate\n"
        "1,Free delivery on every order,Free delivery on all orders\n"
        "2,Free delivery, on every order,Free delivery\n"
        "3,Free delivery on every order\n",
        encoding="utf-8",
    )
    done = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert done.exit_code == 0
    assert "bleu-xl: note: row 3 has a field past the last column with a header (C): a delimiter inside" in done.stderr
    rows = json_rows(done)
    assert rows[0]["BLEU-2"] == score("Free delivery on every order", "Free delivery on all orders").bleu
    assert rows[2]["BLEU-2"] is None and rows[2]["note"] is None  # fewer fields: a blank candidate
    given = run("score", str(path), "--candidate-col", "D", "--format", "jsonl", "-o", "-", "-q")
    assert "past the last column" not in given.stderr  # a column given by letter is read, header or not


def test_a_reference_read_from_the_sheet_that_no_candidate_shares_a_word_with_is_noted(tmp_path: Path) -> None:
    """A document number labelled Reference above the table is read as every row's reference: noted. A reference
    the user typed is the one meant: not."""
    path = tmp_path / "brief.csv"
    path.write_text(
        "Reference,BRIEF-2026-017\n\nApproved copy,Candidate\nFree delivery,Free delivery\nFree delivery,Shop now\n",
        encoding="utf-8",
    )
    noted = "bleu-xl: note: no candidate shares a word with its reference: check that the reference read"
    assert noted in run("score", str(path), "-o", "-", "-q").stderr
    assert noted not in run("score", str(path), "--reference", "Sale", "-o", "-", "-q").stderr


@pytest.mark.parametrize("given", [".", "./", "/", ""])
def test_an_input_with_no_file_name_is_not_a_file(given: str) -> None:
    """The default output is named after the input: a path with no name made a ValueError, an internal error."""
    result = run("score", given)
    assert result.exit_code == 2 and result.stderr.strip().endswith(f"{given or repr(given)}: not a file")
    with pytest.raises(bleu_xl.InputError, match=r"not a file$"):
        bleu_xl.score_file(given)


def test_a_named_pipe_as_input_points_to_standard_input(tmp_path: Path) -> None:
    """A pipe can be read once only, and the reader reads a file more than once: it says how to give it."""
    fifo = tmp_path / "pairs.csv"
    os.mkfifo(fifo)
    result = run("score", str(fifo))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("not a file; to read a pipe, give - and send it to standard input")
