"""TER on the command line: ``score --metric ter`` (alone or with BLEU and chrF) and ``compare --metric ter``, against
sacrebleu's TER; lower is better wherever a face ranks; and the words that changed in the scored workbook, as rich
text that XlsxWriter would write, openpyxl reads and LibreOffice opens."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter
from openpyxl.cell.rich_text import CellRichText
from sacrebleu.metrics import TER

from bleu_xl import Resampling, Ter, ter_changes
from bleu_xl.files.write.xlsx_rows import CHANGE_FONTS, rich_inline_string, rich_runs
from tests.helpers import libreoffice, run, xlsx_text

REFERENCE = "Free delivery on every order"
VARIANTS = ["Every order ships with FREE delivery", "free delivery on every order", "Free shipping on all orders"]


def _shared_reference(tmp_path: Path) -> Path:
    rows = [["Reference", "Candidate"], *([REFERENCE, v] for v in VARIANTS), [REFERENCE, None]]
    return xlsx_text(tmp_path / "variants.xlsx", rows)


def test_score_ranks_ter_ascending_and_says_so(tmp_path: Path) -> None:
    source, out = _shared_reference(tmp_path), tmp_path / "scored.xlsx"
    done = run("score", str(source), "--metric", "ter,bleu", "-o", str(out))
    assert done.exit_code == 0, done.output
    assert "the top 3 of 3, lowest TER first (lower is better; all in" in done.stdout
    shown = [line for line in done.stdout.splitlines() if "│" in line and "row" not in line]
    assert [line.split("│")[1].strip() for line in shown] == ["3", "4", "2"]  # rows, best (lowest TER) first
    book = openpyxl.load_workbook(out, rich_text=True)
    rows = list(book["Scores"].iter_rows(values_only=True))
    header = rows[0]
    assert header[2:6] == ("TER", "rank", "BLEU-2", "TER edits") and header[-2:] == ("TER changes", "note")
    sacre = TER()
    for row, variant in zip(rows[1:], VARIANTS):
        assert row[2] == sacre.sentence_score(variant, [REFERENCE]).score / 100
    assert [row[3] for row in rows[1:4]] == [3, 1, 2]  # rank 1: the lowest TER
    assert rows[4][2] is None and rows[4][-2] is None  # a blank candidate: no score, no changes
    facts = {row[0]: row[1] for row in book["Summary"].iter_rows(values_only=True) if row[0]}
    assert facts["Corpus TER"] == pytest.approx(sacre.corpus_score(VARIANTS, [[REFERENCE] * 3]).score / 100)
    assert "0.9 and above" in facts  # TER can exceed 1: the last bin has no end


def test_a_reference_per_row_lists_the_highest_ter_first(tmp_path: Path) -> None:
    source = tmp_path / "pairs.csv"
    source.write_text("Reference,Candidate\nthe cat sat,the cat sat\na b c,c b a x\nhello,bye\n", encoding="utf-8")
    done = run("score", str(source), "--metric", "ter", "-o", str(tmp_path / "out.csv"))
    assert "the weakest 3 of 3, highest TER first (lower is better; all in" in done.stdout
    text = (tmp_path / "out.csv").read_text(encoding="utf-8-sig").splitlines()
    assert text[0] == '"Reference","Candidate","TER","TER edits","TER ref length","TER changes","note"'
    assert text[2] == '"a b c","c b a x",1,3,3,"a {>b<} [-x-] {>c<}",""'


def test_options_reach_ter_and_json_has_its_score(tmp_path: Path) -> None:
    source = tmp_path / "pairs.csv"
    source.write_text('Reference,Candidate\n"Hello, World!","hello world"\n', encoding="utf-8")
    plain = run("score", str(source), "--metric", "ter", "--format", "json", "-o", "-", "-q")
    data = json.loads(plain.stdout)
    assert data["rows"][0]["TER"] == 1.0 and data["corpus"]["ter"] == 1.0
    options = ("--normalized", "--no-punct", "--case-sensitive")
    done = run("score", str(source), "--metric", "ter", *options, "--format", "json", "-o", "-", "-q")
    data = json.loads(done.stdout)
    expected = TER(normalized=True, no_punct=True, case_sensitive=True).sentence_score("hello world", ["Hello, World!"])
    assert data["rows"][0]["TER"] == expected.score / 100 == 1.0
    assert data["signature"] == Ter(True, True, False, True).signature()
    assert data["rows"][0]["TER changes"] == "[-hello world-] {+Hello World+}"


def test_asian_support_without_normalized_or_no_punct_is_refused_in_one_line(tmp_path: Path) -> None:
    source = tmp_path / "ja.csv"
    source.write_text("Reference,A,B\n東京タワーへようこそ,東京タワー,京都タワー\n", encoding="utf-8")
    message = "bleu-xl: error: --asian-support does nothing alone: give --normalized too (or --no-punct)\n"
    for command in (("score", str(source), "--candidate-col", "A"), ("compare", str(source), "--a", "A", "--b", "B")):
        done = run(*command, "--metric", "ter", "--asian-support", "-o", str(tmp_path / "out.csv"))
        assert (done.exit_code, done.stdout, done.stderr) == (2, "", message), command
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ja.csv"]
    with_punct = run("score", str(source), "--candidate-col", "A", "--metric", "ter", "--asian-support", "--no-punct")
    assert with_punct.exit_code == 0, with_punct.output  # asian_support removes CJK punctuation with no_punct


def test_compare_runs_the_paired_test_on_ter(tmp_path: Path) -> None:
    words = ["quickly", "today", "safely", "in one piece", "at the door", "before noon"]
    refs = [f"the parcel {w} arrived on time and well packed" for w in words] * 9  # 54: enough to say "better"
    good = [r.replace("well packed", "packed well") if i % 3 else r for i, r in enumerate(refs)]
    bad = [" ".join(reversed(r.split()[: 3 + i % 5])) + " " + r for i, r in enumerate(refs)]
    source = tmp_path / "ab.csv"
    source.write_text("Reference,A,B\n" + "".join(f"{r},{a},{b}\n" for r, a, b in zip(refs, bad, good)))
    done = run("compare", str(source), "--a", "A", "--b", "B", "--metric", "ter", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    expected = Resampling(Ter()).paired(refs, bad, good)
    assert (data["metric"], data["score_a"], data["score_b"]) == ("TER", expected.score_a, expected.score_b)
    assert data["verdict"].startswith("B is better than A (it scores lower, and lower is better)")
    assert expected.score_a == TER().corpus_score(bad, [refs]).score / 100


# --- the words that changed, as rich text ----------------------------------------------------------------------------


def test_rich_inline_string_is_what_xlsxwriter_writes(tmp_path: Path) -> None:
    parts = ter_changes(REFERENCE, "Every order ships with FREE delivery").parts
    assert {kind for kind, _ in parts} == {"deleted", "kept", "inserted", "moved"}
    path = tmp_path / "rich.xlsx"
    book = xlsxwriter.Workbook(str(path))
    formats = {kind: book.add_format(font) for kind, font in CHANGE_FONTS.items()}
    fragments: list = []
    for font, text in rich_runs(parts):
        fragments += [text] if font is None else [formats[font], text]
    book.add_worksheet().write_rich_string(0, 0, *fragments)
    book.close()
    with zipfile.ZipFile(path) as archive:
        shared = archive.read("xl/sharedStrings.xml").decode()
    string, cut = rich_inline_string(parts)
    inner = shared[shared.index("<si>") + 4 : shared.index("</si>")]
    assert string == f"<is>{inner}</is>" and not cut


def test_the_changes_column_is_rich_text_in_openpyxl_and_libreoffice(tmp_path: Path) -> None:
    source, out = _shared_reference(tmp_path), tmp_path / "scored.xlsx"
    assert run("score", str(source), "--metric", "ter", "-o", str(out), "-q").exit_code == 0
    cell = openpyxl.load_workbook(out, rich_text=True)["Scores"]["G2"]
    assert isinstance(cell.value, CellRichText)
    runs = {str(block.text).strip(): block.font for block in cell.value if hasattr(block, "font")}
    assert runs["ships with"].strike and runs["ships with"].color.rgb == "FFC00000"
    assert runs["on"].u == "single" and runs["on"].color.rgb == "FF00B050"
    assert runs["Every order"].i and runs["Every order"].color.rgb == "FF0070C0"
    assert str(cell.value) == "ships with FREE delivery on Every order"
    converted = libreoffice(tmp_path, "ods", out) / "scored.ods"
    with zipfile.ZipFile(converted) as archive:
        content = archive.read("content.xml").decode()
    assert 'fo:color="#c00000"' in content and 'style:text-line-through-type="single"' in content
    assert 'fo:color="#00b050"' in content and 'fo:color="#0070c0"' in content
    assert ">Every order</text:span>" in content


def test_changes_past_a_cells_limit_are_cut_and_counted(tmp_path: Path) -> None:
    source = tmp_path / "long.csv"
    # A reference and a candidate that fit a cell, whose changes do not (they share no word).
    reference, candidate = (" ".join([letter * 110] * 150) for letter in "ab")
    source.write_text(f"Reference,Candidate\n{reference},{candidate}\n", encoding="utf-8")
    done = run("score", str(source), "--metric", "ter", "-o", str(tmp_path / "long.xlsx"), "-q")
    assert "cell F2 held more text than a workbook cell holds" in done.stderr
    value = openpyxl.load_workbook(tmp_path / "long.xlsx", rich_text=True)["Scores"]["F2"].value
    assert len(str(value)) == 32_767


# --- text TER reads as one word ---------------------------------------------------------------------------------------

UNSPACED_ROWS = [
    (
        "2024年5月にNikeの新しいシューズを発売します",
        "2024年5月にNikeの新しいｼｭｰｽﾞを発売します",
        "2024年5月に新しいシューズを発売",
    ),
    ("我们在2024年推出了3款新产品", "我们在2024年推出了三款新产品", "我们2024年推出了3款新产品"),
    ("จัดส่งฟรีทุกคำสั่งซื้อ", "จัดส่งฟรีทุกคำสั่ง", "ส่งฟรีทุกคำสั่งซื้อ"),
    ("ដឹកជញ្ជូនឥតគិតថ្លៃ", "ដឹកជញ្ជូនឥតគិត", "ដឹកជញ្ជូនឥតគិតថ្លៃ"),
    ("Free delivery on every order", "Free delivery on all orders", "Free delivery on every order"),
]
UNSPACED_NOTE = (
    "TER: rows 2, 3, 4 and 1 more are written without spaces between words (Chinese or Japanese, Thai, Khmer): TER "
    "reads such a sentence as one word or a few, so its scores are all or nothing (as sacrebleu's are); --normalized "
    "with --asian-support makes each Chinese character a word; no TER setting splits Thai or Khmer: chrF (or BLEU) "
    "scores them by characters"
)


def _notes(stderr: str) -> list[str]:
    return [line.removeprefix("bleu-xl: note: ") for line in stderr.splitlines() if line.startswith("bleu-xl: note: ")]


def _summary_notes(path: Path) -> list[str]:
    facts = {row[0]: row[1] for row in openpyxl.load_workbook(path)["Summary"].iter_rows(values_only=True)}
    return facts["Notes"].split("\n")


def test_ter_on_text_without_spaces_is_noted_wherever_score_shows_its_scores(tmp_path: Path) -> None:
    """Chinese, Japanese, Thai and Khmer sentences read as one word or a few: the scores stay sacrebleu's, and
    standard error, the Summary sheet and the JSON document say why they are all or nothing."""
    source = tmp_path / "unspaced.csv"
    source.write_text("Reference,A,B\n" + "".join(f"{r},{a},{b}\n" for r, a, b in UNSPACED_ROWS), encoding="utf-8")
    done = run("score", str(source), "--candidate-col", "A", "--metric", "ter,bleu", "-o", str(tmp_path / "s.xlsx"))
    assert done.exit_code == 0, done.output
    assert _notes(done.stderr) == [UNSPACED_NOTE] == _summary_notes(tmp_path / "s.xlsx")
    rows = list(openpyxl.load_workbook(tmp_path / "s.xlsx")["Scores"].iter_rows(min_row=2, values_only=True))
    assert [row[3] for row in rows] == [TER().sentence_score(a, [r]).score / 100 for r, a, _ in UNSPACED_ROWS]
    assert [row[3] for row in rows][:4] == [1.0, 1.0, 1.0, 1.0]  # all or nothing
    run("score", str(source), "--candidate-col", "A", "--metric", "ter", "-q", "-o", str(tmp_path / "s.json"))
    assert json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["notes"] == [UNSPACED_NOTE]
    split = run("score", str(source), "--candidate-col", "A", "--metric", "ter", "--normalized", "--asian-support")
    assert _notes(split.stderr) == [
        "TER: rows 4, 5 are written without spaces between words (Thai, Khmer): TER reads such a sentence as one word "
        "or a few, so its scores are all or nothing (as sacrebleu's are); no TER setting splits Thai or Khmer: chrF "
        "(or BLEU) scores them by characters"
    ]
    assert _notes(run("score", str(source), "--candidate-col", "A", "--metric", "bleu,chrf").stderr) == []


def test_ter_on_text_without_spaces_is_noted_wherever_compare_shows_its_result(tmp_path: Path) -> None:
    source = tmp_path / "unspaced.csv"
    source.write_text("Reference,A,B\n" + "".join(f"{r},{a},{b}\n" for r, a, b in UNSPACED_ROWS), encoding="utf-8")
    compare = ("compare", str(source), "--a", "A", "--b", "B", "--metric", "ter", "--samples", "100")
    text = run(*compare, "-o", str(tmp_path / "c.xlsx"))
    assert text.exit_code == 0, text.output
    assert _notes(text.stderr) == [UNSPACED_NOTE] == _summary_notes(tmp_path / "c.xlsx")
    assert json.loads(run(*compare, "--json").stdout)["notes"] == [UNSPACED_NOTE]
    run(*compare, "-q", "-o", str(tmp_path / "c.json"))
    assert json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["notes"] == [UNSPACED_NOTE]
    assert _notes(run(*compare[:-4], "--samples", "100").stderr) == []  # BLEU-2 reads them per character


def test_pair_shows_ter_as_sacrebleu_scores_it_with_the_words_that_changed() -> None:
    """``pair`` ends with TER: the score as edits over reference words (sacrebleu's, several references too), the
    words that changed against the closest reference, the signature; ``--json`` gives them under ``ter``."""
    reference, candidate = "Free delivery on every order", "Every order ships with free delivery"
    done = run("pair", reference, candidate)
    assert done.exit_code == 0, done.output
    theirs = TER().sentence_score(candidate, [reference])
    tail = done.stdout.splitlines()[-3:]
    assert tail[0] == f"TER = {theirs.score / 100:.4f}  (4 edits / 5 reference words; lower is better)"
    assert tail[1] == f"changes: {ter_changes(reference, candidate).text}"
    assert tail[2] == f"signature {Ter().sentence_score(reference, candidate).signature}"
    refs = ["Free delivery on every order", "Every order ships free"]
    several = run("pair", "--reference", refs[0], "--reference", refs[1], candidate, "--case-sensitive")
    theirs = TER(case_sensitive=True).sentence_score(candidate, refs)
    assert f"TER = {theirs.score / 100:.4f}  (" in several.stdout and "on average; lower is better" in several.stdout
    assert "changes (against reference 2): " in several.stdout
    detail = json.loads(run("pair", reference, candidate, "--normalized", "--json").stdout)["ter"]
    assert detail["ter"] == pytest.approx(TER(normalized=True).sentence_score(candidate, [reference]).score / 100)
    assert detail["edits"] == 4 and detail["normalized"] is True
    assert detail["changes"] == ter_changes(reference, candidate, normalized=True).text


def test_pair_says_why_ter_is_not_scored_or_misleads() -> None:
    """Past TER's 200 words the pair's other scores still show and TER says why it is not scored; unspaced text gets
    the note every other face gives, spelt as flags; a setting that does nothing alone is refused first."""
    long = run("pair", "a short reference", " ".join(["word"] * 201))
    assert long.exit_code == 0 and "BLEU-2 = " in long.stdout
    assert long.stdout.splitlines()[-1].startswith("TER: not scored: the candidate has 201 words as TER splits it")
    assert json.loads(run("pair", "a", " ".join(["w"] * 201), "--json").stdout)["ter"]["ter"] is None
    unspaced = run("pair", "立即购买", "马上购买").stdout
    assert "note: written without spaces between words (Chinese or Japanese)" in unspaced
    assert "--normalized with --asian-support makes each Chinese character a word" in unspaced
    note = json.loads(run("pair", "立即购买", "马上购买", "--json").stdout)["ter"]["note"]
    assert note == next(line for line in unspaced.splitlines() if line.startswith("note: ")).removeprefix("note: ")
    alone = run("pair", "a b", "a b", "--asian-support")
    assert alone.exit_code == 2 and alone.stdout == ""
    assert (
        alone.stderr.strip()
        == "bleu-xl: error: --asian-support does nothing alone: give --normalized too (or --no-punct)"
    )


def test_ter_s_data_bars_are_the_edits_colour_and_scores_keep_theirs(tmp_path: Path) -> None:
    """A longer bar is a better BLEU but a worse TER: TER's bars are orange (edits), the scores' blue, in the scored
    workbook, compare's, and the xlwings Lite script's writes."""
    from bleu_xl.files.write.xlsx_style import EDITS_BAR_COLOR, SCORE_BAR_COLOR
    from bleu_xl.lite import scoring_script

    assert (scoring_script.SCORE_BAR_COLOR, scoring_script.EDITS_BAR_COLOR) == (SCORE_BAR_COLOR, EDITS_BAR_COLOR)
    source, out = _shared_reference(tmp_path), tmp_path / "scored.xlsx"
    assert run("score", str(source), "--metric", "ter,bleu", "-o", str(out), "-q").exit_code == 0
    sheet = openpyxl.load_workbook(out)["Scores"]
    header = [cell.value for cell in sheet[1]]

    def bar_colours(sheet: Any) -> dict[str, str]:
        return {
            str(cf.sqref)[0]: rule.dataBar.color.rgb
            for cf in sheet.conditional_formatting
            for rule in cf.rules
            if rule.type == "dataBar"
        }

    colours = bar_colours(sheet)
    ter_col, bleu_col = (chr(65 + header.index(name)) for name in ("TER", "BLEU-2"))
    assert colours == {ter_col: "FF" + EDITS_BAR_COLOR[1:], bleu_col: "FF" + SCORE_BAR_COLOR[1:]}
    pairs = tmp_path / "ab.csv"
    pairs.write_text("Reference,A,B\n" + "".join(f"{REFERENCE},{v},{v}\n" for v in VARIANTS), encoding="utf-8")
    compared = tmp_path / "compared.xlsx"
    assert run("compare", str(pairs), "--a", "A", "--b", "B", "--metric", "ter", "-o", str(compared)).exit_code == 0
    assert set(bar_colours(openpyxl.load_workbook(compared)["Scores"]).values()) == {"FF" + EDITS_BAR_COLOR[1:]}
    grid = [["Reference", "Candidate"], *([REFERENCE, v] for v in VARIANTS)]
    plan = scoring_script.plan_scores("Copy", grid, metric=Ter())
    assert {w.values[0]: w.data_bar for w in plan.columns if w.data_bar} == {"TER": EDITS_BAR_COLOR}
