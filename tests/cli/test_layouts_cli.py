"""`bleu-xl score` on layouts that read one way to a user and could be read another way: a column given as both
the candidate and a reference, a reference given twice, a reference typed once below the candidates, merged
reference cells, references spelt differently that BLEU reads as one, a second reference column found by its
header. Each is either read as the user sees it, said in a note, or refused in one line."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import openpyxl

from bleu_xl import score
from tests.helpers import libreoffice, refused, run, scored

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"


def csv_file(path: Path, rows: list[list[str]]) -> Path:
    path.write_text("".join(",".join(row) + "\n" for row in rows), encoding="utf-8")
    return path


# --- a letter that two columns could answer to -------------------------------------------------------------------


def test_a_scored_workbook_scored_again_by_letter_is_asked_which_column(tmp_path: Path) -> None:
    """bleu-xl's own detail columns are headed ``r`` and ``c``: ``--candidate-col C`` took the token counts under
    ``c`` for the candidates. The refusal says both ways to say it, each as a shell takes it."""
    path = tmp_path / "scored.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["Reference", "Candidate A", "Candidate B", "BLEU-2", "r", "c"])
    book.active.append([REF, CAND, "Free shipping", 0.4, 7, 4])
    book.save(path)
    assert refused(path, "--candidate-col", "C", "-o", "-") == (
        "bleu-xl: error: --candidate-col C could be column C ('Candidate B') or the column headed 'c' (F); give "
        "--candidate-col 'Candidate B' for column C, or --candidate-col F for the other"
    )
    done = run("score", str(path), "--candidate-col", "Candidate B", "--format", "jsonl", "-o", "-")
    assert [json.loads(line)["BLEU-2 (bleu-xl)"] for line in done.stdout.splitlines()] == [
        score(REF, "Free shipping").bleu
    ]


# --- one column read twice ----------------------------------------------------------------------------------------


def test_the_candidate_column_given_as_the_reference_is_refused(tmp_path: Path) -> None:
    path = csv_file(tmp_path / "same.csv", [["Reference", "Candidate"], [REF, CAND], [REF, "Free delivery"]])
    assert refused(path, "--candidate-col", "B", "--reference-col", "B", "-o", "-") == (
        "bleu-xl: error: --candidate-col and --reference-col name the same column (B 'Candidate'): each candidate "
        "would be scored against itself"
    )
    assert refused(path, "--reference-col", "Candidate", "-o", "-") == (
        "bleu-xl: error: --reference-col names the candidate column (B 'Candidate'): each candidate would be "
        "scored against itself; give the candidate column with --candidate-col"
    )
    compared = run("compare", str(path), "--a", "B", "--b", "A", "--reference-col", "B")
    assert compared.exit_code == 2 and compared.stderr == (
        "bleu-xl: error: --a and --reference-col name the same column (B 'Candidate'): each candidate would be "
        "scored against itself\n"
    )


def test_a_reference_column_given_twice_is_refused(tmp_path: Path) -> None:
    rows = [["ID", "Reference 1", "Reference 2", "Candidate"], ["1", REF, "", CAND], ["2", REF, "", "Free"]]
    path = csv_file(tmp_path / "twice.csv", rows)
    assert refused(path, "--reference-col", "Reference 1", "--reference-col", "B", "-o", "-") == (
        "bleu-xl: error: --reference-col names the column B 'Reference 1' more than once ('Reference 1' and 'B'): "
        "give each reference column once"
    )


# --- a reference typed once ---------------------------------------------------------------------------------------


def test_a_lone_reference_below_the_first_candidate_is_refused(tmp_path: Path) -> None:
    rows = [["Reference", "Candidate"], ["", "the cat sat"], ["", "a dog ran"], ["the cat sat on the mat"] * 2]
    path = csv_file(tmp_path / "mid.csv", [*rows, ["", "foo bar"]])
    assert refused(path, "-o", "-") == (
        "bleu-xl: error: sheet 'mid.csv': the reference column A 'Reference' is filled only in A4, below the first "
        "candidate (B2): the reference of row 4 alone, or of every candidate? Type it in row 2 or above for every "
        "candidate, fill in the reference of each row, or give it with --reference"
    )


# --- which candidates share a reference ------------------------------------------------------------------------


def test_a_reference_spelt_two_ways_is_one_reference_for_the_ranks(tmp_path: Path) -> None:
    # One reference typed on Windows (NFC), with a trailing space, and pasted from a Mac (NFD), in Excel's CSV.
    ref = "Livraison offerte cet \u00e9t\u00e9"
    refs = [ref, ref + " ", unicodedata.normalize("NFD", ref), ref]
    cands = [ref, "Livraison gratuite cet \u00e9t\u00e9", "Livraison offerte", "Offerte"]
    path = tmp_path / "grp.csv"
    path.write_bytes(b"Reference,Candidate\r\n" + "".join(f"{r},{c}\r\n" for r, c in zip(refs, cands)).encode())
    rows = scored(path)
    assert [(round(row["BLEU-2"], 4), row["rank"]) for row in rows] == [(1.0, 1), (0.5, 2), (0.3679, 3), (0.0498, 4)]
    chrf = scored(path, "--metric", "chrf")  # chrF reads the NFD spelling otherwise: not ranked with the others
    assert [row["rank"] for row in chrf] == [1, 2, None, 3]


# --- several references found by their headers ------------------------------------------------------------------


def test_a_second_reference_found_by_its_header_is_named_in_a_note(tmp_path: Path) -> None:
    path = csv_file(tmp_path / "two.csv", [["Reference", "Reference 2", "Candidate"], [REF, "Second copy", CAND]])
    result = run("score", str(path), "-o", "-", "-q")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[1:] == [
        "bleu-xl: note: 2 reference columns found by their headers (A 'Reference', B 'Reference 2'): each "
        "candidate is scored against all of them; to use fewer, give them with --reference-col"
    ]
    assert run("score", str(path), "-o", "-", "-q", "--reference-col", "A").stderr.count("\n") == 1


# --- merged reference cells -----------------------------------------------------------------------------------

MERGED = [
    ["free delivery on every order", "free delivery on every order"],
    [None, "free delivery on all orders"],
    [None, "free shipping"],
    ["the summer sale starts now", "the summer sale starts now"],
    [None, "summer sale now"],
    [None, "the sale starts"],
]


def merged_workbook(path: Path) -> Path:
    """A reference merged over the rows of its candidates (A2:A4, A5:A7), as openpyxl saves it."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Reference", "Candidate"])
    for row in MERGED:
        sheet.append(row)
    sheet.merge_cells("A2:A4")
    sheet.merge_cells("A5:A7")
    book.save(path)
    return path


def saved_by_libreoffice(source: Path, folder: Path) -> Path:
    """``source`` opened and saved again as .xlsx by LibreOffice."""
    return libreoffice(folder, "xlsx:Calc MS Excel 2007 XML", source) / source.name


def test_a_merged_reference_is_the_reference_of_every_row_it_spans(tmp_path: Path) -> None:
    source = merged_workbook(tmp_path / "merge.xlsx")
    for path in (source, saved_by_libreoffice(source, tmp_path)):
        result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
        assert result.exit_code == 0, result.output
        assert result.stderr.splitlines()[1:] == [
            "bleu-xl: note: merged reference cells A2:A4, A5:A7: each is the reference of every row it spans"
        ]
        rows = scored(path)
        refs = [MERGED[0][0]] * 3 + [MERGED[3][0]] * 3
        assert [row["BLEU-2"] for row in rows] == [score(r, c).bleu for r, (_, c) in zip(refs, MERGED)]
        assert [row["note"] for row in rows] == [None] * 6 and [row["rank"] for row in rows] == [1, 2, 3, 1, 2, 2]


def test_advice_quotes_every_value_a_shell_would_read_otherwise() -> None:
    """`--candidate-col Source(FR)` is a syntax error in bash: a value is quoted wherever the shell would read it."""
    from bleu_xl.cli.options import flag_spelling
    from bleu_xl.core.errors import Setting

    spell = flag_spelling({"candidate_col": "--candidate-col", "delimiter": "--delimiter"})
    assert spell(Setting("candidate_col", "Source(FR)")) == "--candidate-col 'Source(FR)'"
    assert spell(Setting("candidate_col", "Candidate B")) == "--candidate-col 'Candidate B'"
    assert spell(Setting("candidate_col", "it's")) == "--candidate-col 'it'\"'\"'s'"
    assert spell(Setting("candidate_col", "F")) == "--candidate-col F"
    assert spell(Setting("delimiter", "|")) == "--delimiter '|'"
