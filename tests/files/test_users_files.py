"""Files as users make and pipe them: Excel's CSV encodings (Windows, Mac), standard input, one JSON document,
whole numbers in a workbook, and outputs that must fit Excel's grid and cells.

Each file is made the way Excel (or a pipeline) makes it: a "CSV (Macintosh)" export is MacRoman bytes, a
Windows one cp1252 with CRLF; a workbook piped into the command is its zip bytes on standard input.
"""

from __future__ import annotations

import codecs
import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner

from bleu_xl import score
from bleu_xl.cli import main
from bleu_xl.core.errors import render
from bleu_xl.files.read import text as text_reader
from bleu_xl.table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, InputError
from tests.helpers import refused

pytestmark = pytest.mark.usefixtures("both_ways_of_checking")

REF = "Cet été livraison offerte à partir de 50 €"
CAND = "Livraison offerte dès 50 € cet été"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def jsonl(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def csv_bytes(rows: list[list[str]], encoding: str, delimiter: str = ",") -> bytes:
    return "".join(delimiter.join(row) + "\r\n" for row in rows).encode(encoding)


# --- CSV encodings chosen by how the text reads --------------------------------------------------------------------


def test_a_mac_csv_is_read_as_macroman_and_scores_as_its_text(tmp_path: Path) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes(csv_bytes([["Référence", "Candidat"], [REF, CAND]], "mac_roman"))  # Excel's "CSV (Macintosh)"
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    [row] = jsonl(result)
    assert (row["Référence"], row["Candidat"]) == (REF, CAND)
    assert row["BLEU-2"] == score(REF, CAND).bleu
    assert "(mac-roman, delimiter ',')" in result.stderr


WINDOWS_TEXTS = [
    ["L’été arrive déjà", "Livraison à domicile"],
    ["Don’t miss it", "“Free” delivery today"],
    ["Envío gratis en todos los pedidos", "¿Dónde está?"],
    ["Größe wählen", "Schöne Grüße"],
    ["Não há frete grátis", "Atenção: válida até sábado"],
    ["Only 50 €", "Price — 10 £"],
]


@pytest.mark.parametrize("texts", WINDOWS_TEXTS)
def test_windows_csv_files_keep_being_read_as_cp1252(tmp_path: Path, texts: list[str]) -> None:
    path = tmp_path / "windows.csv"
    path.write_bytes(csv_bytes([["Reference", "Candidate"], texts], "cp1252"))
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    [row] = jsonl(result)
    assert [row["Reference"], row["Candidate"]] == texts
    assert "(cp1252, delimiter ',')" in result.stderr


MAC_TEXTS = [
    ["Référence approuvée", "L’été arrive à partir de 50 €"],
    ["Crème brûlée à emporter", "Noël approche"],
    ["Envío gratis", "Año nuevo, también"],
    ["Größe und Farbe wählen", "Übersicht"],
]


@pytest.mark.parametrize("texts", MAC_TEXTS)
def test_mac_csv_files_are_read_as_macroman(texts: list[str]) -> None:
    text = "".join(",".join(row) + "\r\n" for row in [["Reference", "Candidate"], texts])
    assert text_reader.decode_text(text.encode("mac_roman")) == (text, "mac-roman")


def test_two_readings_alike_are_refused_naming_both_encodings(tmp_path: Path) -> None:
    path = tmp_path / "short.csv"
    path.write_bytes(csv_bytes([["Reference", "Candidate"], ["Envío", "gratis"]], "mac_roman"))
    result = run("score", str(path), "-o", str(tmp_path / "never.csv"))
    assert result.exit_code == 2 and not (tmp_path / "never.csv").exists()
    [line] = result.stderr.splitlines()
    assert "'Envío'" in line and "'Env’o'" in line
    assert "give --encoding mac_roman or --encoding cp1252" in line
    assert jsonl(run("score", str(path), "--encoding", "mac_roman", "--format", "jsonl", "-o", "-", "-q"))


def test_a_misread_is_costlier_than_the_text() -> None:
    for text in [*(" ".join(t) for t in WINDOWS_TEXTS), *(" ".join(t) for t in MAC_TEXTS)]:
        right = text_reader.plausibility(text)
        for encode, decode in (("cp1252", "mac_roman"), ("mac_roman", "cp1252")):
            try:
                wrong = text.encode(encode).decode(decode)
            except (UnicodeEncodeError, UnicodeDecodeError):
                continue
            assert right is not None and (text_reader.plausibility(wrong) or 0) >= right, (text, wrong)
    assert text_reader.plausibility("control \x85 character") is None


# --- standard input, sniffed as a file is -------------------------------------------------------------------------


def test_stdin_comma_csv_is_sniffed() -> None:
    data = csv_bytes([["Reference", "Candidate"], [REF, CAND]], "utf-8", ",")
    result = run("score", "-", "--format", "jsonl", "-o", "-", "-q", input=data)
    [row] = jsonl(result)
    assert row["BLEU-2"] == score(REF, CAND).bleu
    assert "bleu-xl: - (utf-8, delimiter ',')" in result.stderr


def test_stdin_windows_and_mac_csv_are_decoded_as_files_are() -> None:
    for encoding, name in (("cp1252", "cp1252"), ("mac_roman", "mac-roman")):
        data = csv_bytes([["Référence", "Candidat"], [REF, CAND]], encoding, ";")
        result = run("score", "-", "--format", "jsonl", "-o", "-", "-q", input=data)
        assert jsonl(result)[0]["Candidat"] == CAND and f"({name}, delimiter ';')" in result.stderr


def test_stdin_workbook_is_read_by_its_zip_signature(tmp_path: Path) -> None:
    path = tmp_path / "piped.xlsx"
    book = xlsxwriter.Workbook(str(path))
    cover = book.add_worksheet("Start here")
    cover.write(0, 0, "Read me first")
    sheet = book.add_worksheet("Copy")
    for r, row in enumerate([["Reference", "Candidate"], [REF, CAND], [REF, "Livraison offerte"]]):
        sheet.write_row(r, 0, row)
    book.close()
    result = run("score", "-", "--format", "jsonl", "-o", "-", "-q", input=path.read_bytes())
    rows = jsonl(result)
    assert [r["BLEU-2"] for r in rows] == [score(REF, CAND).bleu, score(REF, "Livraison offerte").bleu]
    assert "bleu-xl: -, sheet 'Copy'" in result.stderr  # past the cover page, as for a file
    named = run("score", "-", "--sheet", "Nope", "-o", "-", input=path.read_bytes())
    assert named.exit_code == 2 and named.stderr.startswith("bleu-xl: error: -: no sheet named 'Nope'")


def test_stdin_legacy_workbook_and_sheet_on_text_are_one_line() -> None:
    legacy = run("score", "-", input=b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    assert legacy.exit_code == 2 and "a legacy .xls workbook" in legacy.stderr
    text = run("score", "-", "--sheet", "Copy", input=b"Reference,Candidate\na,b\n")
    assert text.exit_code == 2 and "--sheet applies to workbooks" in text.stderr


def test_an_encoding_given_for_a_workbook_is_refused_as_a_sheet_for_text_is(tmp_path: Path) -> None:
    """A workbook has no encoding to give: --encoding there was dropped without a word."""
    book = tmp_path / "copy.xlsx"
    workbook = xlsxwriter.Workbook(str(book))
    workbook.add_worksheet("Copy").write_row(0, 0, ["Reference", "Candidate"])
    workbook.worksheets()[0].write_row(1, 0, [REF, CAND])
    workbook.close()
    for source, given in ((str(book), None), ("-", book.read_bytes())):
        done = run("score", source, "--encoding", "cp1252", "-o", str(tmp_path / "out.csv"), input=given)
        assert done.exit_code == 2 and "--encoding applies to text files, and this is a workbook" in done.stderr
    assert not (tmp_path / "out.csv").exists()


def test_a_delimiter_given_for_a_workbook_is_refused_unless_a_csv_is_written(tmp_path: Path) -> None:
    """A workbook read and no CSV written: --delimiter had nothing to apply to, and was dropped without a word."""
    book = tmp_path / "copy.xlsx"
    workbook = xlsxwriter.Workbook(str(book))
    sheet = workbook.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate", "B"])
    sheet.write_row(1, 0, [REF, CAND, "Livraison offerte"])
    workbook.close()
    before = book.read_bytes()
    for output in ("out.xlsx", "out.json"):
        done = run("score", str(book), "--delimiter", ";", "-o", str(tmp_path / output))
        assert done.exit_code == 2 and done.stderr.splitlines()[-1] == (
            f"bleu-xl: error: {book}: --delimiter applies to text files and CSV outputs; this is a workbook and the "
            f"output is {output.split('.')[1]}"
        )
        assert not (tmp_path / output).exists()
    tsv = run("score", str(book), "--delimiter", ";", "-o", str(tmp_path / "out.tsv"))
    assert tsv.exit_code == 2 and "this is a workbook and the output is TSV, which is tab-separated" in tsv.stderr
    assert run("score", str(book), "--delimiter", "tab", "-o", str(tmp_path / "out.tsv"), "-q").exit_code == 0
    compared = run("compare", str(book), "--a", "Candidate", "--b", "B", "--delimiter", ";")
    assert compared.exit_code == 2 and "this is a workbook and nothing is written" in compared.stderr
    assert book.read_bytes() == before
    written = run("score", str(book), "--delimiter", ";", "-o", str(tmp_path / "out.csv"), "-q")
    assert written.exit_code == 0
    assert (tmp_path / "out.csv").read_text("utf-8-sig").startswith('"Reference";"Candidate"')


# --- .json is one document, .jsonl one object a line -------------------------------------------------------------


def test_json_output_is_one_document(tmp_path: Path) -> None:
    path = tmp_path / "copy.csv"
    path.write_bytes(csv_bytes([["ID", "Reference", "Candidate"], ["1", REF, CAND], ["2", REF, ""]], "utf-8"))
    assert run("score", str(path), "-o", str(tmp_path / "scores.json"), "-q").exit_code == 0
    document = json.loads((tmp_path / "scores.json").read_text(encoding="utf-8"))
    s = score(REF, CAND)
    assert document["corpus"]["bleu"] == s.bleu and document["signature"] == s.signature
    assert document["columns"] == {
        "header_row": 1,
        "candidate": {"column": "C", "header": "Candidate"},
        "references": [{"column": "B", "header": "Reference"}],
        "reference_text": None,
        "reference_cells": None,
    }
    assert document["counts"] == {"rows": 2, "scored": 1, "blank": 1, "with_note": 0}
    assert [row["BLEU-2"] for row in document["rows"]] == [s.bleu, None]
    assert run("score", str(path), "-o", str(tmp_path / "scores.jsonl"), "-q").exit_code == 0
    lines = (tmp_path / "scores.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["ID"] for line in lines] == ["1", "2"]
    whole = run("score", str(path), "--format", "json", "-o", "-", "-q")
    assert json.loads(whole.stdout) == document
    assert run("score", str(path), "--format", "json", "-o", str(tmp_path / "x.jsonl")).exit_code == 2


# --- whole numbers stay whole in a workbook ------------------------------------------------------------------------


def test_integer_cells_stay_integers_in_the_scored_workbook(tmp_path: Path) -> None:
    source = tmp_path / "ids.xlsx"
    book = xlsxwriter.Workbook(str(source))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["ID", "Reference", "Candidate", "Price"])
    sheet.write_row(1, 0, [1, REF, CAND, 2.5])
    sheet.write_row(2, 0, [2026, REF, "Livraison", -3])
    book.close()
    out = tmp_path / "ids-scored.xlsx"
    assert run("score", str(source), "-q").exit_code == 0
    with zipfile.ZipFile(out) as archive:
        xml = archive.read("xl/worksheets/sheet1.xml").decode()
    assert '<c r="A2" s="' in xml and re.search(r'<c r="A2"[^>]*><v>1</v>', xml)
    assert re.search(r'<c r="A3"[^>]*><v>2026</v>', xml) and re.search(r'<c r="D3"[^>]*><v>-3</v>', xml)
    assert re.search(r'<c r="D2"[^>]*><v>2.5</v>', xml) and not re.search(r'<c r="[A-D][0-9]+"[^>]*><v>[^<]*\.0<', xml)
    values = [[c.value for c in row] for row in openpyxl.load_workbook(out)["Scores"].iter_rows(min_row=2, max_col=4)]
    assert values[0][0] == 1 and isinstance(values[0][0], int) and values[1][3] == -3


# --- every workbook written fits Excel's grid and cells ------------------------------------------------------------


def test_a_table_past_excels_rows_is_refused_as_a_workbook_and_pointed_to_csv(tmp_path: Path) -> None:
    path = tmp_path / "full.csv"
    path.write_bytes(b"Reference,Candidate\n" + b"the cat sat,the cat\n" * EXCEL_MAX_ROWS)  # 1,048,577 rows in all
    result = run("score", str(path), "-o", str(tmp_path / "full.xlsx"))
    assert result.exit_code == 2 and not (tmp_path / "full.xlsx").exists()
    assert result.stderr.splitlines()[-1] == (
        f"bleu-xl: error: {tmp_path / 'full.xlsx'}: a workbook holds at most 1,048,576 rows, and the scores take "
        f"1,048,577 (a header row and 1,048,576 data rows); write CSV instead: -o {tmp_path / 'full.csv'}"
    )


def test_a_table_past_excels_columns_is_refused_as_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    width = EXCEL_MAX_COLS - 4  # the 11 result columns (no rank: one row) push it past XFD
    header = ["Reference", "Candidate", *(f"c{i}" for i in range(width - 2))]
    path.write_bytes(csv_bytes([header, ["the cat sat", "the cat", *["x"] * (width - 2)]], "utf-8"))
    result = run("score", str(path), "-o", str(tmp_path / "wide.xlsx"))
    assert result.exit_code == 2 and not (tmp_path / "wide.xlsx").exists()
    assert "a workbook holds at most 16,384 columns (A to XFD), and the scores take 16,391" in result.stderr
    assert f"write CSV instead: -o {tmp_path / 'wide.csv'}" in result.stderr


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_a_cell_past_excels_text_limit_is_cut_by_utf16_units_with_a_note(tmp_path: Path) -> None:
    emoji = "🎉" * 30_000  # 30,000 characters, 60,000 UTF-16 units
    path = tmp_path / "long.csv"
    path.write_bytes(csv_bytes([["Reference", "Candidate", "Notes"], ["the cat sat", "the cat", emoji]], "utf-8"))
    out = tmp_path / "long.xlsx"
    result = run("score", str(path), "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == (
        f"bleu-xl: note: cell C2 held more text than a workbook cell holds (32,767 UTF-16 units): cut to fit in "
        f"{out}; -o {tmp_path / 'long.csv'} keeps every cell whole"
    )
    cell = openpyxl.load_workbook(out)["Scores"]["C2"].value
    assert cell == "🎉" * 16_383 and utf16_units(cell) == 32_766  # whole characters only: never half an emoji
    assert run("score", str(path), "-o", str(tmp_path / "long-out.csv"), "-q").exit_code == 0
    assert emoji in (tmp_path / "long-out.csv").read_text(encoding="utf-8-sig")  # CSV keeps it whole


def test_fit_cell_counts_utf16_units() -> None:
    from bleu_xl.excel.cell_values import fit_cell

    assert fit_cell("a" * 32_767) == "a" * 32_767
    assert fit_cell("a" * 32_768) == "a" * 32_767
    assert fit_cell("a" + "🎉" * 16_383) == "a" + "🎉" * 16_383  # 32,767 units
    assert fit_cell("ab" + "🎉" * 16_383) == "ab" + "🎉" * 16_382  # the emoji that would straddle is left out
    with pytest.raises(InputError, match="1,048,576 rows"):
        from bleu_xl.files.write.target import OutputTarget

        OutputTarget("x.xlsx", "xlsx").check_size(EXCEL_MAX_ROWS + 1, 3)
    assert codecs.lookup("mac_roman").name == "mac-roman"


# --- a table's totals row, hidden and filtered-out rows, as the sheet XML and the table part say ------------------


def marked_workbook(path: Path) -> Path:
    """An Excel Table with a totals row (its table part: ref A1:B8, totalsRowCount 1), row 4 hidden by hand and
    row 6 filtered out (both ``<row ... hidden="1">`` in the sheet XML, as Excel saves them)."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    variants = [CAND, "Livraison offerte", "Cet été", REF, "Offerte", "dès 50 €"]
    sheet.add_table(
        0,
        0,
        len(variants) + 1,
        1,
        {
            "name": "tblCopy",
            "data": [[REF, v] for v in variants],
            "columns": [
                {"header": "Reference", "total_string": "Total"},
                {"header": "Candidate", "total_function": "count"},
            ],
            "total_row": True,
            "autofilter": True,
        },
    )
    sheet.set_row(3, None, None, {"hidden": True})
    sheet.filter_column(1, "x != Offerte")
    sheet.set_row(5, None, None, {"hidden": True})
    book.close()
    return path


def test_a_workbooks_totals_row_and_hidden_rows_are_read_from_its_xml(tmp_path: Path) -> None:
    from tests.helpers import read_sheet

    path = marked_workbook(tmp_path / "table.xlsx")
    with zipfile.ZipFile(path) as archive:
        assert re.search(r'<row r="4"[^>]* hidden="1"', archive.read("xl/worksheets/sheet1.xml").decode())
        assert 'totalsRowCount="1"' in archive.read("xl/tables/table1.xml").decode()
    sheet = read_sheet(str(path))
    assert (sheet.hidden_rows, sheet.totals_rows) == ({3, 5}, {7})
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    rows = jsonl(result)
    assert [r["Candidate"] for r in rows] == [CAND, "Livraison offerte", "Cet été", REF, "Offerte", "dès 50 €"]
    assert "bleu-xl: note: row 8, the totals row of an Excel table, is not a candidate" in result.stderr
    assert "bleu-xl: note: 2 hidden rows scored (hidden by hand or by a filter; --skip-hidden leaves them out)" in (
        result.stderr
    )
    visible = jsonl(run("score", str(path), "--skip-hidden", "--format", "jsonl", "-o", "-", "-q"))
    assert [r["Candidate"] for r in visible] == [CAND, "Livraison offerte", REF, "dès 50 €"]
    assert [r["BLEU-2"] for r in visible] == [score(REF, r["Candidate"]).bleu for r in visible]


def filtered_workbook(path: Path, rows: list[list], hidden: list[int]) -> Path:
    """``rows`` under a filter on column B that hides the rows ``hidden`` (0-based), as Excel saves a filter."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                sheet.write_string(r, c, value)
    sheet.autofilter(0, 0, len(rows) - 1, 1)
    sheet.filter_column(1, "x != Offerte")
    for r in hidden:
        sheet.set_row(r, None, None, {"hidden": True})
    book.close()
    return path


def test_a_reference_typed_once_in_a_filtered_out_row_serves_the_rows_left_in(tmp_path: Path) -> None:
    rows = [["Reference", "Candidate"], [REF, "Offerte"], [None, CAND], [None, "Livraison offerte"]]
    path = filtered_workbook(tmp_path / "once.xlsx", rows, [1])
    result = run("score", str(path), "--skip-hidden", "--format", "jsonl", "-o", "-")
    assert [(r["Candidate"], r["BLEU-2"]) for r in jsonl(result)] == [
        (c, score(REF, c).bleu) for c in (CAND, "Livraison offerte")
    ]
    assert "bleu-xl: note: row 2 is hidden and left out, but A2, the reference typed once, still serves every " in (
        result.stderr
    )


def test_a_reference_only_in_filtered_out_rows_is_refused_with_its_cells(tmp_path: Path) -> None:
    rows = [["Reference", "Candidate"], [REF, "Offerte"], [REF, "Offerte"], [None, CAND], [None, "Cet été"]]
    path = filtered_workbook(tmp_path / "twice.xlsx", rows, [1, 2])
    assert refused(path, "--skip-hidden") == (
        "bleu-xl: error: sheet 'Copy': the reference column A 'Reference' holds text only in hidden rows (A2, A3), "
        "which --skip-hidden leaves out"
    )


@pytest.mark.parametrize(
    ("codec", "text", "shown"),
    [
        ("cp1250", "Darmowa dostawa na każde zamówienie;Bezpłatna wysyłka dla wszystkich zamówień", "ka¿de"),
        ("cp1251", "Бесплатная доставка каждого заказа;Доставка бесплатно", "Áåñïëàòíàÿ"),
        ("cp1253", "Δωρεάν αποστολή για κάθε παραγγελία;Δωρεάν παράδοση", "ÄùñåÜí"),
    ],
)
def test_a_csv_in_another_windows_code_page_is_refused_not_misread(
    tmp_path: Path, codec: str, text: str, shown: str
) -> None:
    """Polish, Russian or Greek Excel's "CSV" is in its own code page: read as Windows-1252, its words became
    others (ka¿de, Áåñïëàòíàÿ) and were scored so, with no word said. It is refused, naming the code page it reads
    as, and read with it when given."""
    path = tmp_path / "copy.csv"
    path.write_bytes(("Reference;Candidate\r\n" + (text + "\r\n") * 3).encode(codec))
    message = refused(path)
    assert f"reads as {codec} (" in message and f", not {shown!r}) rather than as cp1252;" in message
    assert message.endswith(f"give --encoding {codec} (the encoding it was saved in)")
    done = CliRunner().invoke(main, ["score", str(path), "--encoding", codec, "-o", "-", "--format", "jsonl", "-q"])
    reference, candidate = text.split(";")
    assert json.loads(done.stdout.splitlines()[0])["BLEU-2"] == score(reference, candidate).bleu


@pytest.mark.parametrize(
    ("codec", "reference", "candidate", "first"),
    [
        ("cp932", "全品送料無料キャンペーン実施中", "全品送料無料キャンペーン中", "cp932"),
        ("gbk", "本周所有订单免费送货", "本周全部订单免运费", "gbk"),
        ("cp949", "이번 주 모든 주문 무료 배송", "이번 주 전 주문 무료 배송", "cp949"),
        ("big5", "本週所有訂單免費送貨", "本週全部訂單免運費", "big5"),
        ("cp874", "จัดส่งฟรีสำหรับทุกคำสั่งซื้อในสัปดาห์นี้", "จัดส่งฟรีทุกคำสั่งซื้อสัปดาห์นี้", "cp874"),
    ],
)
def test_a_csv_in_an_east_asian_or_thai_code_page_is_refused_not_misread(
    tmp_path: Path, codec: str, reference: str, candidate: str, first: str
) -> None:
    """Excel's "CSV" on Japanese, Chinese, Korean and Thai Windows is in Shift-JIS, GBK, UHC, Big5 or cp874: read as
    MacRoman or Windows-1252 it was accented letters and symbols (全品送料 as ëSïiëó), scored so with no word said.
    It is refused, naming each of those code pages that reads it as text of its script (Big5 bytes read as GBK
    too: the user knows which), with a word as each reads it; given, the file is read."""
    path = tmp_path / "copy.csv"
    path.write_bytes(f"Reference,Candidate\r\n{reference},{candidate}\r\n".encode(codec))
    message = refused(path)
    assert message.startswith(f"bleu-xl: error: {path}: not UTF-8, and it reads as {first} (")
    assert f"{codec} ({reference.split()[0][:20]!r})" in message
    assert f"--encoding {codec}" in message and message.endswith("(the encoding it was saved in)")
    done = CliRunner().invoke(main, ["score", str(path), "--encoding", codec, "-o", "-", "--format", "jsonl", "-q"])
    assert json.loads(done.stdout.splitlines()[0])["BLEU-2"] == score(reference, candidate).bleu


@pytest.mark.parametrize(
    ("text", "codec", "first"),
    [
        ("iPhone用ケース,Tシャツ半額\nAmazonで購入,iPhone用ケース\n", "cp932", "cp932"),  # brand names beside
        ("はい,いいえ\n", "cp932", "cp932"),  # short: its Western reading has few odd characters
        ("iPhone手机壳,小米Redmi新品\n", "gbk", "gbk"),  # not the Thai reading of the same bytes
        ("เอาไว้ใช้,ใช่\nไม่ใช่,ไม่มี\n", "cp874", "cp874"),  # short Thai of few consonants
    ],
)
def test_east_asian_text_with_latin_words_or_short_is_refused_too(text: str, codec: str, first: str) -> None:
    data = f"Reference,Candidate\n{text}".encode(codec)
    with pytest.raises(InputError) as caught:
        text_reader.decode_text(data)
    assert render(caught.value.parts).startswith(f"not UTF-8, and it reads as {first} (")


@pytest.mark.parametrize(
    "text",
    [
        "Bake at 180 °C for 20 min,Bake 20 min at 180 °C\nKeep below 4 °C,Store under 4 °C\n",
        "Take 5 µg daily,Daily dose 5 µg\nMax 10 µA,10 µA at most\n",
        "Él dijo 20 °C,Él dijo que hace 20 °C\n",
        "Lagern bei 8 °C, kühl,Kühl lagern: 8 °C\n",
        "Temperature 72 °F,72 °F today\n",
        "Open Mon–Fri “all day”…,Open Monday to Friday\n",  # punctuation cp874 reads as itself
        "PROMOÇÃO—VERÃO,Promoção de verão\n",  # capitals cp874 reads as Thai consonants
        "Don´t miss,condições de promoção\n" * 3,  # ção as cp874 is a vowel sign and a digit
    ],
)
def test_western_units_and_accents_are_read_in_the_usual_code_page(text: str) -> None:
    """°C, µg, Él: a double-byte code page reads each such byte with the letter after it as one character, of its
    script: no word of it stands beside another, as a Japanese or Korean word's characters do."""
    for codec in ("cp1252", "mac_roman"):
        data = f"Reference,Candidate\n{text}".encode(codec)
        assert text_reader.decode_text(data)[1] in ("cp1252", "mac_roman", "mac-roman")


def test_western_text_is_still_read_in_the_usual_code_page() -> None:
    """Accented capitals side by side (AÇÃO, CRÉÉE) are Portuguese and French, not another script misread; Š is
    Windows-1252's own letter as much as Windows-1250's (Škoda in a French file), so it counts alike in both."""
    data = "Reference;Candidate\r\nAÇÃO DE GRAÇAS;CRÉÉE À L'ÉTÉ\r\nStraße über Öl;Ça coûte 5 €\r\n".encode("cp1252")
    assert text_reader.decode_text(data)[1] == "cp1252"
    skoda = (
        "Référence;Candidat\r\n"
        "Découvrez la nouvelle Škoda Octavia à partir de 24 990 €;La nouvelle Škoda Octavia dès 24 990 €\r\n"
        "Essai gratuit chez votre concessionnaire Škoda;Réservez votre essai chez Škoda\r\n"
        "Crème de la crème : l’équipement complet;L’équipement complet, la crème de la crème\r\n"
    )
    assert text_reader.decode_text(skoda.encode("cp1252")) == (skoda, "cp1252")
    names = "Reference,Candidate\r\nThe new Škoda Octavia,A new book by Slavoj Žižek\r\n"  # no other accent
    assert text_reader.decode_text(names.encode("cp1252")) == (names, "cp1252")  # not MacRoman's äkoda, éiûek


def test_empty_lines_at_the_end_of_a_csv_are_no_rows() -> None:
    rows = text_reader.parse_text(b"\r\nReference;Candidate\r\nle chat;le chat\r\n\r\n;\r\n  \r\n", None)[0]
    assert rows == [[], ["Reference", "Candidate"], ["le chat", "le chat"]]  # the first empty line is row 1


def test_a_short_text_read_as_another_windows_page_names_the_east_asian_page_too() -> None:
    """ไปไหน in cp874 reads as Arabic in cp1256 too, and Привет in cp1251 as Chinese in GBK: the message names the
    other Windows page first and then the East Asian or Thai one, with a word each; the user knows theirs."""
    with pytest.raises(InputError) as caught:
        text_reader.decode_text("Reference,Candidate\r\nไปไหน,ไป\r\n".encode("cp874"))
    message = render(caught.value.parts)
    assert "cp1256 (" in message and "cp874 ('ไปไหน')" in message
    assert message.endswith("encoding='cp874' (the encoding it was saved in)")
