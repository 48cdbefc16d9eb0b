"""CSV and JSON outputs: Excel reads them as they were meant (a BOM for UTF-8, the input's delimiter and decimal
commas, the encoding asked for), and no cell becomes a formula when a spreadsheet opens the CSV."""

from __future__ import annotations

import codecs
import csv
import io
import json
import math
import re
from pathlib import Path

import openpyxl
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import score
from bleu_xl.files.write import xlsx_rows
from bleu_xl.files.write.text_formats import write_csv
from tests.helpers import DDE, FORMULA, INTACTO, libreoffice, refused, run, xlsx, xlsx_text
from tests.helpers import REF as SEED_REF

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"
PAIR = score(REF, CAND).bleu


def test_csv_and_json_output(copy_workbook: Path, tmp_path: Path) -> None:
    csv_out = tmp_path / "s.csv"
    assert run("score", str(copy_workbook), "-o", str(csv_out), "-q").exit_code == 0
    text = csv_out.read_text(encoding="utf-8-sig")
    assert csv_out.read_bytes().startswith(codecs.BOM_UTF8)  # so that Excel on Windows reads UTF-8
    assert '"\'=HYPERLINK(""http://x"",""click"")"' in text  # quoted, and neutralised (OWASP)
    assert text.splitlines()[0].startswith('"ID","Reference","Candidate","BLEU-2","rank"')
    result = run("score", str(copy_workbook), "--format", "jsonl", "-o", "-", "-q")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[2]["Candidate"] == FORMULA and lines[3]["Candidate"] == DDE
    assert lines[0]["BLEU-2"] == score(SEED_REF, INTACTO).bleu and lines[0]["rank"] == 1
    assert lines[4]["BLEU-2"] is None and lines[5]["note"] == "reference has no words"


def test_csv_output_delimiter(tmp_path: Path) -> None:
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    tsv = tmp_path / "out.tsv"
    assert run("score", str(source), "-o", str(tsv), "-q").exit_code == 0
    assert tsv.read_text(encoding="utf-8-sig").splitlines()[0].split("\t")[:3] == [
        '"Reference"',
        '"Candidate"',
        '"BLEU-2"',
    ]
    semi = tmp_path / "semi.csv"
    assert run("score", str(source), "-o", str(semi), "--delimiter", ";", "-q").exit_code == 0
    assert semi.read_text(encoding="utf-8-sig").splitlines()[0].startswith('"Reference";"Candidate"')


def test_tsv_is_tab_separated_when_the_delimiter_given_is_the_inputs(tmp_path: Path) -> None:
    """--delimiter reads a semicolon CSV; its .tsv output (or --format tsv) still holds tabs, not ';' and decimal
    commas under a name that says tabs."""
    source = tmp_path / "in.csv"
    source.write_text(f"Reference;Candidate\n{REF};{CAND}\n", encoding="utf-8")
    tsv = tmp_path / "out.tsv"
    assert run("score", str(source), "-o", str(tsv), "--delimiter", ";", "-q").exit_code == 0
    lines = tsv.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].split("\t")[:3] == ['"Reference"', '"Candidate"', '"BLEU-2"']
    assert lines[1].split("\t")[2] == str(PAIR)
    piped = run("score", str(source), "-o", "-", "--format", "tsv", "--delimiter", ";", "-q")
    assert piped.exit_code == 0 and piped.stdout.splitlines() == lines


def test_tsv_by_name_where_no_extension_says_it(tmp_path: Path) -> None:
    """--format tsv writes what a .tsv file holds, to standard output too (plain UTF-8 there, as CSV is); beside
    the input it is INPUT-scored.tsv, and a .csv file refuses it as it refuses any other format."""
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    to_file = tmp_path / "out.tsv"
    assert run("score", str(source), "-o", str(to_file), "-q").exit_code == 0
    piped = run("score", str(source), "-o", "-", "--format", "tsv", "-q")
    assert piped.exit_code == 0, piped.output
    assert piped.stdout.splitlines() == to_file.read_text(encoding="utf-8-sig").splitlines()
    assert piped.stdout.splitlines()[0].split("\t")[:3] == ['"Reference"', '"Candidate"', '"BLEU-2"']
    assert run("score", str(source), "--format", "tsv", "-q").exit_code == 0
    assert (tmp_path / "in-scored.tsv").read_text(encoding="utf-8-sig") == to_file.read_text(encoding="utf-8-sig")
    assert refused(source, "-o", str(tmp_path / "out.csv"), "--format", "tsv") == (
        f"bleu-xl: error: {tmp_path / 'out.csv'}: a .csv file cannot hold --format tsv; change the extension or the "
        "format"
    )


def test_french_excel_csv_with_semicolons_and_decimal_commas(tmp_path: Path) -> None:
    """French Excel's CSV: ';' between fields, decimal commas, cp1252; the output comes back the same way."""
    path = tmp_path / "fr.csv"
    path.write_bytes(f"Prix;Référence;Candidat\r\n3,5;{REF};{CAND}\r\n".encode("cp1252"))
    out = tmp_path / "fr-scored.csv"
    result = run("score", str(path), "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert "(cp1252, delimiter ';')" in result.stderr
    data = out.read_bytes()
    assert data.startswith(codecs.BOM_UTF8)
    header, row = data.decode("utf-8-sig").splitlines()
    assert header.startswith('"Prix";"Référence";"Candidat";"BLEU-2";"p1"')
    comma = f"{PAIR!r}".replace(".", ",")  # the score with a decimal comma, unquoted: a number to French Excel
    assert row == f'"3,5";"{REF}";"{CAND}";{comma};1;5;5;1;4;4;{comma};7;5;""'  # the input's "3,5" kept


#: A number whose separator has exactly three digits after it: read as thousands where "." (or "," in the
#: decimal-comma CSV) groups them, so that 0.125 becomes 125.
THREE_DECIMALS = re.compile(r"^[+-]?[0-9]+[.,][0-9]{3}(?![0-9])")


def csv_numbers(values: list[float], delimiter: str) -> list[str]:
    """The fields ``write_csv`` writes for ``values``, one row, as the text between the delimiters."""
    out = io.StringIO()
    write_csv(out, ["x"] * len(values), iter([values]), delimiter=delimiter)
    return out.getvalue().splitlines()[1].split(delimiter)


#: Any float, and the ones most likely to be written with three decimals: thousandths, large and small.
NUMBERS_WRITTEN = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**9), 10**9).map(lambda n: n / 1000),
    st.builds(lambda n, e: float(f"{n / 1000}e{e}"), st.integers(1001, 9999), st.integers(-300, 300)),
)


@given(st.lists(NUMBERS_WRITTEN, min_size=1, max_size=8), st.sampled_from(",;\t"))
def test_a_csv_number_never_has_three_decimals_and_reads_back_the_same(values: list[float], delimiter: str) -> None:
    for value, field in zip(values, csv_numbers(values, delimiter)):
        assert not THREE_DECIMALS.match(field), field
        assert ("." if delimiter == ";" else ",") not in field, field  # the decimal comma with ';', a point otherwise
        read = float(field.replace(",", "."))
        assert read == value or (math.isnan(read) and math.isnan(value)), (field, value)


def test_numbers_with_three_decimals_get_a_fourth() -> None:
    assert csv_numbers([0.125, 12.5, 1.125e-07, -3.375, 0.1, 2.0], ",") == [
        "0.1250",
        "12.5",
        "1.1250e-07",
        "-3.3750",
        "0.1",
        "2",
    ]
    assert csv_numbers([0.125, 1234.625], ";") == ["0,1250", "1234,6250"]


def test_a_spreadsheet_never_reads_a_score_of_three_decimals_as_thousands(tmp_path: Path) -> None:
    """p1 = 1/8 = 0.125: LibreOffice reads it right in the locale its CSV was written for (French, with ';' and
    decimal commas), and in a locale that groups thousands with the separator it is text there, never 125."""
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], ["a b c d e f g h", "a x y z u v w q"]])
    for name, delimiter in (("semi.csv", ";"), ("comma.csv", ",")):
        out = tmp_path / name
        assert run("score", str(source), "-o", str(out), "--delimiter", delimiter, "-q").exit_code == 0
    written = (tmp_path / "semi.csv").read_text(encoding="utf-8-sig").splitlines()[1].split(";")
    assert written[3:6] == ["0,1250", "1", "8"]  # p1, its numerator and denominator
    # LibreOffice's CSV options: the delimiter's code, '"', UTF-8, from line 1, no column types, then the
    # language the numbers are read in (1036 French, 1033 English (US), 1031 German)
    for name, locale, delimiter in (("semi", 1036, 59), ("semi", 1033, 59), ("comma", 1031, 44)):
        read = tmp_path / f"{name}-{locale}.csv"
        read.write_bytes((tmp_path / f"{name}.csv").read_bytes())
        options = f"CSV:{delimiter},34,76,1,,{locale},false,true"
        lo = libreoffice(tmp_path, "xlsx", read, infilter=options)  # one profile for the three
        header, row = openpyxl.load_workbook(lo / f"{read.stem}.xlsx").active.iter_rows(values_only=True)
        p1 = dict(zip(header, row))["p1"]
        assert (p1 == 0.125) if locale == 1036 else (p1 in (0.125, "0,1250", "0.1250")), (name, locale, p1)


def test_the_input_and_output_encodings_are_separate_choices(tmp_path: Path) -> None:
    path = tmp_path / "ansi.csv"
    path.write_bytes("Référence,Candidat\r\nL’été,L’été\r\n".encode("cp1252"))
    out = tmp_path / "out.csv"
    assert run("score", str(path), "-o", str(out), "--encoding", "cp1252", "-q").exit_code == 0
    assert out.read_bytes().startswith(codecs.BOM_UTF8 + '"Référence","Candidat"'.encode())  # the input's only
    assert run("score", str(path), "-o", str(out), "--output-encoding", "cp1252", "--force", "-q").exit_code == 0
    assert out.read_bytes().decode("cp1252").startswith('"Référence","Candidat"')  # no BOM, cp1252 as asked
    book = xlsx(tmp_path / "cjk.xlsx", [["Reference", "Candidate"], ["東京タワー", "東京"]])
    message = refused(book, "-o", str(tmp_path / "cjk.csv"), "--output-encoding", "cp1252")
    assert "a cell cannot be written in cp1252 ('東京タワー')" in message and "use --output-encoding utf-8" in message
    assert not (tmp_path / "cjk.csv").exists()
    assert refused(book, "-o", str(tmp_path / "cjk.json"), "--output-encoding", "utf-16") == (
        "bleu-xl: error: --output-encoding applies to a CSV output (JSON is UTF-8, a workbook has no encoding)"
    )


# --- formulas in a CSV -------------------------------------------------------------------------------------------


INJECTIONS = [
    '=HYPERLINK("http://x","click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "\tTAB",
    "\rCR",
    "-1 +cmd|' /C calc'!A0",  # a number and a space first: still a formula that runs
    '-5 =HYPERLINK("http://x")',
    "-2 + 3",  # sums Excel works out when it opens the file: 1
    "-1 -2",
    "+4 * 2",
    "-10 / 2 off",
    "-1 2",  # no word: not copy
]
#: Copy that opens with a number and its sign: text to a spreadsheet, written as it is (no ' to show).
COPY = ["-20% this weekend", "+3 colours, free returns", "-5 stars? Not here.", "-1.5 kg lighter"]


def injection_workbook(tmp_path: Path) -> Path:
    rows = [[REF, t] for t in INJECTIONS + COPY]
    return xlsx_text(tmp_path / "inject.xlsx", [["Reference", "Candidate"], *rows])


def test_csv_output_neutralises_formula_triggers(tmp_path: Path) -> None:
    source = injection_workbook(tmp_path)
    safe, raw = tmp_path / "safe.csv", tmp_path / "raw.csv"
    assert run("score", str(source), "-o", str(safe), "-q").exit_code == 0
    assert run("score", str(source), "-o", str(raw), "-q", "--raw").exit_code == 0
    with safe.open(encoding="utf-8-sig", newline="") as handle:
        candidates = [row[1] for row in csv.reader(handle)][1:]
    assert candidates == ["'" + text for text in INJECTIONS] + COPY
    with raw.open(encoding="utf-8-sig", newline="") as handle:
        assert [row[1] for row in csv.reader(handle)][1:] == INJECTIONS + COPY  # --raw: exactly as read


def test_libreoffice_runs_no_formula_from_the_csv(tmp_path: Path) -> None:
    source = injection_workbook(tmp_path)
    for name, extra in (("safe.csv", []), ("raw.csv", ["--raw"])):
        assert run("score", str(source), "-o", str(tmp_path / name), "-q", *extra).exit_code == 0
    libreoffice(
        tmp_path,
        "xlsx",
        tmp_path / "safe.csv",
        tmp_path / "raw.csv",
        infilter="CSV:44,34,76,1,,0,false,true",  # as a user opens it: formulas recognised
    )

    def formulas(name: str) -> list[str]:
        sheet = openpyxl.load_workbook(tmp_path / "lo" / name).active
        return [c.value for row in sheet.iter_rows() for c in row if c.data_type == "f"]

    assert formulas("raw.xlsx"), "LibreOffice turns the raw values into formulas (the attack this test guards)"
    assert formulas("safe.xlsx") == []
    shown = [row[1] for row in openpyxl.load_workbook(tmp_path / "lo" / "safe.xlsx").active.iter_rows(values_only=True)]
    assert shown[-len(COPY) :] == COPY  # text, with no ' that LibreOffice would show


NUMBERS = ["-5", "-0,5", "-0.5", "+5", "-1,234.56", "-1.234,56", "-1 234,5", "-2e3", "-15%"]


FORMULAS = ["-2+3", "=1+1", "@SUM(A1)", "+A1", "-A1", "-5,", "-", "- 5", "-5\n=1", "-1,23456.7", "-٥", "+1+1"]


def test_plain_numbers_are_not_neutralised_but_formulas_are(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    lines = [f"{REF},{CAND},{text}" for text in NUMBERS + FORMULAS]
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["Reference", "Candidate", "Notes"], *(row.split(",", 2) for row in lines)])
    out = tmp_path / "out.csv"
    assert run("score", str(path), "-o", str(out), "-q").exit_code == 0
    with out.open(encoding="utf-8-sig", newline="") as handle:
        notes = [row[2] for row in csv.reader(handle)][1:]
    assert notes == NUMBERS + ["'" + text for text in FORMULAS]


pieces = st.one_of(
    st.sampled_from(["_", "x", "X", "0", "0F", "_x0041_", "&", "<", ">", "\r", "\n", "\t", "\x00", "\x0b", " "]),
    st.sampled_from(["\ufffe", "\uffff", "\ud800", "é", "’", "東"]),
    st.characters(),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(pieces, max_size=12).map("".join))
def test_xml_text_gives_the_literal_escapes(text: str) -> None:
    """The checks that skip an escape never skip one the text needs: control characters, CR, the noncharacters,
    a lone surrogate, ``&<>`` and text that reads as Excel's escape, alone, together and overlapping."""
    assert xlsx_rows.xml_text(text) == xlsx_rows.xml_text_literally(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(pieces, max_size=8).map("".join), st.lists(pieces, max_size=8).map("".join))
def test_a_streamed_row_is_its_cells_text_in_utf8_a_lone_surrogate_as_a_question_mark(left: str, right: str) -> None:
    """The rows are made as bytes, cell by cell: each text cell is its XML text in UTF-8, a lone surrogate (which
    UTF-8 cannot hold) as ``?``, as one encoding of the whole row gave it."""
    xml_of = xlsx_rows._RowXml([' s="1"'] * 4, (2, 4), {}, frozenset(), (), frozenset())
    row = xml_of.row(7, [left, right, 0.5, 3], xlsx_rows.CutCells())
    texts = [xlsx_rows.xml_text(text) for text in (left, right) if text]
    cells = "".join(
        f'<c r="{c}7" s="1" t="inlineStr"><is><t xml:space="preserve">{t}</t></is></c>'
        for c, t in zip("AB" if left else "B", texts)
    )
    whole = f'<row r="7">{cells}<c r="C7" s="1"><v>0.5</v></c><c r="D7" s="1"><v>3</v></c></row>'
    assert row == whole.encode("utf-8", "replace")
