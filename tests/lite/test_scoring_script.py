"""The xlwings Lite script "Score this table": the command line's column rules and scores, written into the sheet.

Its plan is tested directly on sheets as Office.js reports them (the template, the samples, layouts users make);
then the script itself is registered by xlwings' own ``custom_scripts_meta`` and run by xlwings' own
``custom_scripts_call`` under real Pyodide, and every cell it writes is checked against the library's scores
(``bleu_xl.score_file`` on the same workbook).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import typing
import warnings
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import bleu_xl
from bleu_xl import InputError
from bleu_xl.lite.scoring_script import METRICS, RESULT_SHEET, SCRIPT_NAME, Plan, plan_scores
from bleu_xl.lite.table import SUMMARY_TITLE, Area, TableArea

from .. import lite_driver
from ..pyodide_runs import SHARED
from .script_runs import BUNDLE, book_json, rectangle, through_pyodide, values_written

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATE = ROOT / "workbooks" / "bleu2_ranking.xlsx"
SAMPLES = ROOT / "workbooks" / "samples"
EXCEL_EPOCH = dt.datetime(1899, 12, 30)


def office_grid(path: Path, sheet: str) -> list[list[Any]]:
    """A sheet's values as Office.js reports them from A1: cached values of formulas, dates as serial numbers,
    blanks as empty strings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ws = openpyxl.load_workbook(path, data_only=True)[sheet]

    def shown(value: Any) -> Any:
        if value is None:
            return ""
        if isinstance(value, dt.datetime):
            return (value - EXCEL_EPOCH).total_seconds() / 86400
        return value

    return [[shown(cell.value) for cell in row] for row in ws.iter_rows()]


def written(plan: Plan, grid: list[list[Any]] | None = None) -> list[list[Any]]:
    """The sheet after Excel applied the plan: a leading apostrophe makes text, and is not part of the value."""
    cells = [list(row) for row in grid or []]
    if plan.clear is not None:
        for r in range(plan.clear.top, min(plan.clear.bottom + 1, len(cells))):
            for c in range(plan.clear.left, min(plan.clear.right + 1, len(cells[r]))):
                cells[r][c] = ""
    for write in plan.columns:
        for offset, value in enumerate(write.values):
            r, c = write.row + offset, write.column
            while len(cells) <= r:
                cells.append([])
            cells[r] += [""] * (c + 1 - len(cells[r]))
            text = value[1:] if isinstance(value, str) and value.startswith("'") else value
            cells[r][c] = "" if text is None else text
    return cells


def scored_by_library(path: Path, metric: str, tmp_path: Path, sheet: str | None = None) -> list[dict[str, Any]]:
    """The rows ``bleu_xl.score_file`` writes for the same workbook and metric (JSON lines)."""
    out = tmp_path / f"{path.stem}-{metric}.jsonl"
    bleu_xl.score_file(path, metrics=METRICS[metric], output=out, sheet=sheet)
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def columns_of(plan: Plan) -> dict[str, list[Any]]:
    """Each written column with a header, by its header: the values below it."""
    return {write.values[0]: list(write.values[1:]) for write in plan.columns if write.header}


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a == pytest.approx(b, abs=1e-12) if a is not None and b is not None else a == b
    return a == b


# --- the plan ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["BLEU-2", "chrF2++", "TER"])
def test_every_result_cell_beside_the_table_is_the_librarys(metric: str, tmp_path: Path) -> None:
    path = SAMPLES / "marketing_en.xlsx"
    grid = office_grid(path, "Pairs")
    plan = plan_scores("Pairs", grid, metric=METRICS[metric])
    rows = scored_by_library(path, metric, tmp_path)
    result = columns_of(plan)
    for name, values in result.items():
        if name == SUMMARY_TITLE:
            continue
        assert len(values) == len(rows), name
        for row, value in zip(rows, values):
            assert same(value, row[name]) or (value is None and row[name] is None), (name, value, row[name])
    first = min(w.column for w in plan.columns)
    assert first == 4 and plan.sheet == "Pairs" and not plan.new_sheet  # right of the table's last column, D
    assert plan.lines[0] == "bleu-xl: sheet 'Pairs': header row 1; candidate B 'Candidate'; reference A 'Reference'"
    assert plan.lines[-1] == f"written to Pairs!{plan.written}"
    summary = dict(zip(result[SUMMARY_TITLE], next(w.values[1:] for w in plan.columns if not w.header)))
    corpus = bleu_xl.corpus_score if metric == "BLEU-2" else None
    if corpus is not None:
        pairs = [(row["Reference"], row["Candidate"]) for row in rows if row["Candidate"]]
        assert summary["Corpus BLEU-2"] == corpus([r for r, _ in pairs], [c for _, c in pairs]).bleu
    assert summary["Scored pairs"] == 5 and summary["Blank candidates"] == 1 and summary["Signature"].startswith("bleu")


def test_a_second_run_writes_over_its_own_columns_and_nothing_else(tmp_path: Path) -> None:
    grid = office_grid(SAMPLES / "marketing_en.xlsx", "Pairs")
    first = plan_scores("Pairs", grid, metric=METRICS["BLEU-2"])
    after = written(first, grid)
    again = plan_scores("Pairs", after, metric=METRICS["BLEU-2"])
    assert [(w.row, w.column, w.values) for w in again.columns] == [(w.row, w.column, w.values) for w in first.columns]
    assert again.clear is not None and again.clear.left == 4
    other = plan_scores("Pairs", after, metric=METRICS["chrF2"])  # another metric: still its own columns
    assert min(w.column for w in other.columns) == 4 and columns_of(other)["chrF2"]
    assert written(other, after)[0][4] == "chrF2"


def test_a_second_candidate_column_given_by_letter_after_a_run_is_that_column() -> None:
    """The first run wrote columns headed ``r`` and ``c`` beside the table: ``C`` given next is column C, not the
    first run's token counts (read as a header, they were scored as the candidates, and the run written beside)."""
    ref = "Free delivery on every order this week"
    grid = [["Reference", "Candidate A", "Candidate B"], [ref, "Free delivery this week", "Free shipping"]]
    grid.append([ref, "Order now", "Free delivery on every order"])
    first = plan_scores("S", grid, metric=METRICS["BLEU-2"], candidate_col="B")
    after = written(first, grid)
    assert "c" in after[0] and "r" in after[0]
    second = plan_scores("S", after, metric=METRICS["BLEU-2"], candidate_col="C")
    assert "candidate C 'Candidate B'" in second.lines[0]
    assert second.clear is not None and second.clear.left == 3
    assert min(w.column for w in second.columns) == 3  # over the first run's columns, not beside them
    expected = [bleu_xl.score(ref, "Free shipping").bleu, bleu_xl.score(ref, "Free delivery on every order").bleu]
    assert columns_of(second)["BLEU-2"] == pytest.approx(expected)


def test_whole_numbers_sent_as_ints_score_as_the_cell_functions_score_them() -> None:
    """office.js sends a whole number as a JSON int: 1234567890123456 was scored exactly (Excel holds and shows
    1234567890123460) and -2146826246 as #N/A, where the cell functions and the command line read the double."""
    grid = [["Reference", "Candidate"], ["Order 1234567890123460", 1234567890123456], ["x", -2146826246]]
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"])
    expected = [bleu_xl.score("Order 1234567890123460", "1234567890123460").bleu, bleu_xl.score("x", "2146826246")]
    assert columns_of(plan)["BLEU-2"] == [expected[0], expected[1].bleu]


def test_data_right_of_the_table_is_never_written_over() -> None:
    grid = [["Reference", "Candidate", "", "", "kept"], ["le chat", "le chat", "", "", ""]]
    table = TableArea(Area(0, 0, 1, 1))  # an Excel Table in A1:B2, the selection in it; E1 is the user's
    with pytest.raises(InputError, match=r'E1, where the scores would go beside the table, holds data; tick "Write'):
        plan_scores("Copy", grid, metric=METRICS["BLEU-2"], selection=Area(1, 0, 1, 0), tables=[table])
    below = [*grid, ["", ""], ["", ""], ["", ""], [""] * 15 + ["mine"]]  # P6: where the summary's values go
    with pytest.raises(InputError, match=r"P6, where the scores would go"):
        plan_scores("Copy", [row[:2] for row in below[:5]] + [below[5]], metric=METRICS["BLEU-2"])
    plan = plan_scores("Copy", grid, metric=METRICS["BLEU-2"], new_sheet=True)
    assert plan.sheet == RESULT_SHEET and plan.new_sheet and columns_of(plan)["BLEU-2"] == [1.0]


def test_a_table_whose_last_column_is_named_note_is_the_users() -> None:
    grid = [
        ["Reference", "Candidate", "note"],
        ["le chat", "le chat", "check with Anna"],
        ["un chien", "un chat", "OK"],
    ]
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"])
    assert plan.clear is None and min(w.column for w in plan.columns) == 3  # right of the user's notes, in D
    assert written(plan, grid)[1][2] == "check with Anna"


def test_a_second_run_clears_what_the_first_wrote_and_nothing_else() -> None:
    grid = [["Reference", "Candidate"]] + [["le chat noir", f"le chat {word}"] for word in "noir gris blanc".split()]
    first = written(plan_scores("S", grid, metric=METRICS["BLEU-2"]), grid)
    summary = first[0].index(SUMMARY_TITLE)
    first[1] += [""] * (summary + 5 - len(first[1]))
    first[1][summary + 3] = "right of the summary"  # typed by the user after the first run
    below = len(first)  # the row under the first run's columns and summary
    first += [[""] * 4 + ["under the scores"]]
    first[3][1] = ""  # the last candidate emptied: its old scores must not stay
    again = plan_scores("S", first, metric=METRICS["BLEU-2"])
    after = written(again, first)
    assert after[1][summary + 3] == "right of the summary" and after[below][4] == "under the scores"
    assert again.clear is not None and again.clear.right == summary + 1
    assert columns_of(again)["BLEU-2"][2] is None and after[3][2] == ""  # the emptied row's score is gone
    assert "Written" in after[0][summary] or any(row[summary] == "Written" for row in after)


def test_the_edge_of_excel_s_grid_is_refused_not_passed() -> None:
    wide = [[""] * 16_382 + ["Reference", "Candidate"], [""] * 16_382 + ["le chat", "le chat"]]
    with pytest.raises(InputError, match="past Excel's last column or row"):
        plan_scores("S", wide, metric=METRICS["BLEU-2"])


def test_an_excel_table_with_a_totals_row_and_a_selection() -> None:
    grid = [
        ["Campaign notes", "", "", ""],
        ["", "", "", ""],
        ["ID", "Reference", "Candidate", ""],
        [1, "free delivery", "free delivery", ""],
        [2, "free delivery", "delivery free", ""],
        ["Total", "", "2", ""],
        ["", "", "", ""],
        ["Other", "Reference", "Candidate", ""],
        ["x", "le chat", "le chien", ""],
    ]
    table = TableArea(Area(2, 0, 5, 2), totals_row=5)
    plan = plan_scores("Campaign", grid, metric=METRICS["BLEU-2"], selection=Area(3, 1, 3, 1), tables=[table])
    assert "bleu-xl: note: row 6, the totals row of an Excel table, is not a candidate" in plan.lines
    assert columns_of(plan)["BLEU-2"] == [1.0, bleu_xl.score("free delivery", "delivery free").bleu, None]
    assert min(w.row for w in plan.columns) == 2  # from the table's header row
    rows = plan_scores("Campaign", grid[:6], metric=METRICS["BLEU-2"], selection=Area(4, 1, 4, 2))  # row 5 only
    assert columns_of(rows)["BLEU-2"] == [None, bleu_xl.score("free delivery", "delivery free").bleu]
    assert rows.lines[0].startswith("bleu-xl: sheet 'Campaign': header row 3;")  # found above the rows selected
    assert "bleu-xl: note: rows 5 to 5 only (the rows selected)" in rows.lines
    assert "BLEU-2: 1 scored, 0 blank, 0 with a note" in rows.lines


def test_a_selection_of_data_rows_or_of_one_column_finds_the_headers_of_the_sheet() -> None:
    grid = [["Reference", "Candidate"]] + [["le chat noir", f"le chat {w}"] for w in "noir gris blanc roux".split()]
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"], selection=Area(2, 0, 3, 1))  # A3:B4, data rows only
    assert columns_of(plan)["BLEU-2"] == [
        None,
        *(bleu_xl.score("le chat noir", f"le chat {w}").bleu for w in ("gris", "blanc")),
    ]
    column = plan_scores("S", grid, metric=METRICS["BLEU-2"], selection=Area(0, 1, 4, 1))  # B1:B5
    assert columns_of(column)["BLEU-2"][0] == 1.0 and len(columns_of(column)["BLEU-2"]) == 4


def test_refusals_name_the_forms_fields() -> None:
    grid = [["Reference", "Candidate A", "Candidate B"], ["le chat", "le chat", "un chat"]]
    with pytest.raises(InputError) as refused:
        plan_scores("AB", grid, metric=METRICS["BLEU-2"])
    from bleu_xl.lite.scoring_script import spelt

    message = refused.value.render(spelt)
    assert message.endswith('choose one with "Candidate column", e.g. "Candidate column" B'), message
    plan = plan_scores("AB", grid, metric=METRICS["BLEU-2"], candidate_col="Candidate B")
    assert columns_of(plan)["BLEU-2"] == [bleu_xl.score("le chat", "un chat").bleu]
    with pytest.raises(InputError, match="no candidate column"):
        plan_scores("AB", [["Reference", "Text"], ["a", "b"]], metric=METRICS["BLEU-2"])


def test_a_second_table_with_its_roles_crossed_is_refused_and_scored_as_an_excel_table() -> None:
    """The form has no header row: the refusal says how the sheet gives one, an Excel Table around the second
    table, and a run in that table scores it alone."""
    from bleu_xl.lite.scoring_script import spelt

    ref = "Free delivery on every order"
    grid = [["Reference", "Candidate"], [ref, "Free delivery"], ["", ""], ["Candidate", "Reference"]]
    grid.append(["Free shipping", ref])
    with pytest.raises(InputError) as refused:
        plan_scores("S", grid, metric=METRICS["BLEU-2"])
    assert refused.value.render(spelt).endswith(
        "put it on a sheet of its own, or give an Excel Table (Insert > Table) whose header row is row 4 to score it "
        "alone"
    )
    second = TableArea(Area(3, 0, 4, 1))
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"], selection=Area(4, 0, 4, 0), tables=[second])
    assert columns_of(plan)["BLEU-2"] == [bleu_xl.score(ref, "Free shipping").bleu]


def test_on_its_own_sheet_user_text_stays_text_and_numbers_are_said() -> None:
    grid = [["Reference", "Candidate", "1/2"], ["=1+1", '=HYPERLINK("http://x")', ""], ["2026", 2026.0, ""]]
    grid.append(["#N/A", "ok", "TRUE"])
    plan = plan_scores("Copy", grid, metric=METRICS["chrF2"], new_sheet=True)
    reference, candidate = plan.columns[0].values, plan.columns[1].values
    assert reference[1:] == ("'=1+1", "'2026", "#N/A") and candidate[1:] == ('\'=HYPERLINK("http://x")', 2026.0, "'ok")
    assert any("scored as Excel writes them in General format" in line for line in plan.lines)
    assert not any(isinstance(v, str) and v.startswith("=") for w in plan.columns for v in w.values)
    assert plan.columns[2].values[0] == "'1/2" and plan.columns[2].values[3] == "'TRUE"  # a header, a text: text


def test_the_template_s_rank_sheet_with_its_labelled_reference(tmp_path: Path) -> None:
    grid = office_grid(TEMPLATE, "Rank")
    plan = plan_scores("Rank", grid, metric=METRICS["BLEU-2"], selection=Area(5, 1, 5, 1))
    ranks = columns_of(plan)["rank (bleu-xl)"]  # beside the template's own Rank: told apart, as the library does
    rows = scored_by_library(TEMPLATE, "BLEU-2", tmp_path, sheet="Rank")
    assert ranks == [row["rank (bleu-xl)"] for row in rows]
    assert columns_of(plan)["BLEU-2 (bleu-xl)"] == [row["BLEU-2 (bleu-xl)"] for row in rows]


# --- through xlwings' own office.js code, under real Pyodide -----------------------------------------------------


def test_the_bundle_offers_the_form_app_mode_renders() -> None:
    with lite_driver.bundle_module(BUNDLE) as main:  # this process's xlwings: no-op decorators
        hints = typing.get_type_hints(main.score_this_table, include_extras=True)
    metric, new_sheet = hints["metric"], hints["new_sheet"]
    assert typing.get_origin(metric) is typing.Annotated and metric.__metadata__[0]["label"] == "Metric"
    assert typing.get_args(typing.get_args(metric)[0]) == tuple(METRICS)  # a dropdown of the metrics
    assert typing.get_args(new_sheet)[0] is bool and new_sheet.__metadata__[0]["label"] == "Write to a new sheet"
    assert all(hints[name].__metadata__[0]["help"] for name in ("metric", "new_sheet", "candidate_column"))
    said = metric.__metadata__[0]["help"]  # every metric offered, and the one that ranks the lowest first
    assert all(name in said for name in ("BLEU", "chrF", "TER")) and "lower is better" in said


@SHARED
def test_under_real_pyodide_every_written_cell_is_the_librarys(tmp_path: Path) -> None:
    marketing = office_grid(SAMPLES / "marketing_en.xlsx", "Pairs")
    rank = office_grid(TEMPLATE, "Rank")
    two = [["Reference", "Candidate A", "Candidate B"], ["le chat", "le chat", "un chat"]]
    beside = rectangle(written(plan_scores("Pairs", marketing, metric=METRICS["chrF2"]), marketing))
    results = rectangle(written(plan_scores("Pairs", marketing, metric=METRICS["chrF2"], new_sheet=True)))
    users = [["Reference", "Candidate"], ["my own", "table"]]
    first, second, refused, again, on_results, over_users, unspaced = through_pyodide(
        [
            {"book": book_json("m.xlsx", {"Pairs": marketing}), "args": ["chrF2", False, "", ""]},
            {"book": book_json("t.xlsx", {"Start": [["x"]], "Rank": rank}, 1, "B7"), "args": ["BLEU-2", True, "", ""]},
            {"book": book_json("ab.xlsx", {"AB": two}), "args": ["BLEU-2", False, "", ""]},
            {"book": book_json("m.xlsx", {"Pairs": beside}), "args": ["chrF2", False, "", ""]},  # a second run
            {"book": book_json("m.xlsx", {"Pairs": marketing, "My scores": results}, 1), "args": ["chrF2", True]},
            {"book": book_json("m.xlsx", {"Pairs": marketing, "Bleu-XL Scores": users}), "args": ["chrF2", True]},
            {"book": book_json("th.xlsx", {"TH": UNSPACED}), "args": ["TER", False, "", ""]},
        ]
    )

    rows = scored_by_library(SAMPLES / "marketing_en.xlsx", "chrF2", tmp_path)
    cells = values_written(first["actions"])
    headers = {c: v for (s, r, c), v in cells.items() if r == 0}
    for column, name in headers.items():
        if name == SUMMARY_TITLE or name == "":
            continue
        for r, row in enumerate(rows, start=1):
            value = cells[(0, r, column)]
            assert same(value, row[name]) or (value == "" and row[name] is None), (name, r, value, row[name])
    assert "chrF2: 5 scored, 1 blank, 0 with a note" in first["printed"]
    assert any(a["func"] == "addConditionalFormat" and a["args"][0]["type"] == "DataBar" for a in first["actions"])
    texts = [v for a in first["actions"] if a["func"] in {"setValues", "setFormula"} for (v,) in a["values"]]
    assert not any(isinstance(v, str) and v.startswith("=") for v in texts)  # values only: no formula
    assert not any(a["func"] == "setFormulaArray" for a in first["actions"])

    assert any(a["func"] == "addSheet" for a in second["actions"])  # its own sheet
    rank_rows = scored_by_library(TEMPLATE, "BLEU-2", tmp_path, sheet="Rank")
    own = values_written(second["actions"])
    sheet = next(s for (s, r, c), v in own.items() if v == "BLEU-2 (bleu-xl)")
    column = next(c for (s, r, c), v in own.items() if v == "BLEU-2 (bleu-xl)" and s == sheet)
    assert [own[(sheet, r, column)] for r in range(1, len(rank_rows) + 1)] == [
        row["BLEU-2 (bleu-xl)"] for row in rank_rows
    ]
    assert f"written to {RESULT_SHEET}!" in second["printed"]

    assert refused["actions"] == [] and refused["printed"].startswith("bleu-xl: nothing written: sheet 'AB': 2 columns")
    assert '"Candidate column"' in refused["printed"]
    assert UNSPACED_NOTE in unspaced["printed"]  # the bundle carries TER's rule on unspaced text

    # run again beside the table: the same cells as the first run, over the range the first run wrote, cleared first
    assert values_written(again["actions"]) == cells and "chrF2: 5 scored, 1 blank, 0 with a note" in again["printed"]
    cleared = next(a for a in again["actions"] if a["func"] == "rangeClear")
    assert (cleared["start_column"], cleared["start_row"]) == (min(c for (_, _, c) in cells), 0)
    assert on_results["actions"] == over_users["actions"] == []
    assert on_results["printed"].startswith(
        "bleu-xl: nothing written: the sheet 'My scores' holds the scores an earlier run wrote (of the sheet 'Pairs'), "
        "not a table to score; go back to the sheet 'Pairs'"
    )
    assert over_users["printed"].startswith(
        f"bleu-xl: nothing written: the sheet {RESULT_SHEET!r} holds data that no run of this script wrote"
    )


def test_a_sheet_of_results_is_never_scored_and_a_sheet_of_data_never_cleared() -> None:
    """A run on the sheet an earlier run wrote on its own (under its name or another) is refused, whatever the form
    says, naming the sheet to go back to: that sheet's copy of the table, scores and summary are no table. A sheet
    named bleu-xl scores that the script did not write is not cleared to write there."""
    grid = office_grid(SAMPLES / "marketing_en.xlsx", "Pairs")
    results = written(plan_scores("Pairs", grid, metric=METRICS["BLEU-2"], new_sheet=True))
    said = "holds the scores an earlier run wrote (of the sheet 'Pairs'), not a table to score; go back to the sheet"
    for name, new_sheet in ((RESULT_SHEET, True), (RESULT_SHEET, False), ("My scores", True), ("My scores", False)):
        with pytest.raises(InputError) as refused:
            plan_scores(name, results, metric=METRICS["chrF2"], new_sheet=new_sheet, own_sheet=results)
        assert str(refused.value).startswith(f"the sheet {name!r} {said} 'Pairs', click a cell of the table")
    again = plan_scores("Pairs", grid, metric=METRICS["chrF2"], new_sheet=True, own_sheet=results)
    assert again.sheet == RESULT_SHEET and columns_of(again)["chrF2"]  # from the table: its own sheet, written over
    users = [["Reference", "Candidate"], ["my own", "table"]]
    for name in ("Pairs", RESULT_SHEET):  # from another sheet, or from that sheet itself
        with pytest.raises(InputError, match="holds data that no run of this script wrote, and writing to a new"):
            plan_scores(
                name, users if name == RESULT_SHEET else grid, metric=METRICS["chrF2"], new_sheet=True, own_sheet=users
            )
    assert plan_scores(RESULT_SHEET, users, metric=METRICS["chrF2"], own_sheet=users).sheet == RESULT_SHEET


def test_office_js_registers_the_script() -> None:
    job = {"bundle": str(BUNDLE), "payloads": []}
    done = subprocess.run(
        [sys.executable, lite_driver.__file__],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
    )
    assert done.returncode == 0, done.stderr
    scripts = {script["function_name"]: script for script in json.loads(done.stdout)["scripts"]}
    assert scripts["score_this_table"]["name"] == SCRIPT_NAME and scripts["score_this_table"]["lazy"] is False


def test_the_excel_page_says_what_the_form_offers() -> None:
    page = " ".join((ROOT / "docs" / "excel.md").read_text(encoding="utf-8").split())
    assert f"choose the metric ({', '.join(METRICS)})" in page.replace(", and", ",")
    assert f"**{SCRIPT_NAME}**" in page and f"*{RESULT_SHEET}*" in page
    bundle = BUNDLE.read_text(encoding="utf-8")
    assert f"click **{SCRIPT_NAME}**" in bundle.split('"""')[1]  # the module docstring App Mode shows


def _through_xlwings(book: dict[str, Any], args: list[Any]) -> dict[str, Any]:
    """The bundle's script run by xlwings' own custom_scripts_call under CPython, in a fresh process (xlwings must
    be configured as the office.js runtime does before it is imported)."""
    code = (
        "import asyncio, json, sys; sys.path.insert(0, sys.argv[1]); import lite_driver; job = json.load(sys.stdin); "
        "print(json.dumps(asyncio.run(lite_driver.run_script(job['bundle'], 'score_this_table', job['book'], "
        "job['args']))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "tests")],
        input=json.dumps({"bundle": str(BUNDLE), "book": book, "args": args}),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_error_cells_and_text_like_a_timestamp_are_read_as_excel_sends_them() -> None:
    grid = [
        ["Reference", "Candidate", "Logged at"],
        ["le chat noir", "#DIV/0!", "2025-01-02T10:20:30"],
        ["#N/A", "le chat", "2025-01-02T10:20:30+01:00"],
        ["le chat noir", "le chat gris", "2026-01-01T00:00:00.000Z"],
    ]
    report = _through_xlwings(book_json("e.xlsx", {"S": grid}), ["BLEU-2", False, "", "", False])
    printed = report["printed"]
    assert "BLEU-2: 1 scored, 0 blank, 2 with a note" in printed, printed
    notes = values_written(report["actions"])
    column = next(c for (_, r, c), v in notes.items() if r == 0 and v == "note")
    assert [notes[(0, r, column)] for r in (1, 2, 3)] == ["#DIV/0! in the candidate", "#N/A in the reference", ""]


def test_a_header_row_under_a_title_and_one_repeated_below_are_never_scored() -> None:
    """The command line's rules: a title above headers that are no known name, the columns given by letter in the
    form (row 2 is the header row, said so), and a second table stacked below the first (its header row is left
    out, said so)."""
    free = "free delivery this week"
    titled = [["Q3 copy", ""], ["Approved copy", "Variant"], [free, "free shipping this week"], [free, free]]
    plan = plan_scores("Copy", titled, metric=METRICS["BLEU-2"], candidate_col="B", reference_col="A")
    assert plan.lines[0] == "bleu-xl: sheet 'Copy': header row 2; candidate B 'Variant'; reference A 'Approved copy'"
    assert plan.lines[1].startswith("bleu-xl: note: row 2, under a title in row 1, holds text over the columns given")
    assert plan.lines[1].endswith(
        "it is read as the header row; a header row inserted above the table scores it as data, an Excel Table "
        "(Insert > Table) around the table names another"
    )  # what the user does in Excel: the form has no field for either
    assert columns_of(plan)["BLEU-2"] == [bleu_xl.score(free, "free shipping this week").bleu, 1.0]
    stacked = [["Reference", "Candidate"], ["a b c", "a b c"], ["", ""], ["Reference", "Candidate"], ["x y", "y x"]]
    plan = plan_scores("Copy", stacked, metric=METRICS["BLEU-2"])
    assert (
        "bleu-xl: note: row 4 repeats the header row (B 'Candidate', A 'Reference'): it is not a candidate, and is "
        "not scored"
    ) in plan.lines
    assert columns_of(plan)["BLEU-2"] == [1.0, None, None, bleu_xl.score("x y", "y x").bleu]
    assert "BLEU-2: 2 scored, 1 blank, 0 with a note" in plan.lines


#: Japanese with a date, a Latin brand and half-width katakana, Chinese with digits, Thai, and English.
UNSPACED = [
    ["Reference", "Candidate"],
    ["2024年5月にNikeの新しいシューズを発売します", "2024年5月にNikeの新しいｼｭｰｽﾞを発売します"],
    ["我们在2024年推出了3款新产品", "我们在2024年推出了三款新产品"],
    ["จัดส่งฟรีทุกคำสั่งซื้อ", "จัดส่งฟรีทุกคำสั่ง"],
    ["Free delivery on every order", "Free delivery on all orders"],
]
UNSPACED_NOTE = (
    "bleu-xl: note: TER: rows 2, 3, 4 are written without spaces between words (Chinese or Japanese, Thai): TER reads "
    "such a sentence as one word or a few, so its scores are all or nothing (as sacrebleu's are); normalized with "
    "asian support makes each Chinese character a word; no TER setting splits Thai: chrF (or BLEU) scores it by "
    "characters"
)


def test_ter_on_text_without_spaces_is_noted_in_the_pane_and_the_summary() -> None:
    """The scores stay sacrebleu's; the pane and the summary say why they are all or nothing, and a second run
    clears that summary with the rest of what the first wrote."""
    plan = plan_scores("TH", UNSPACED, metric=METRICS["TER"])
    assert UNSPACED_NOTE in plan.lines
    assert columns_of(plan)["TER"] == [bleu_xl.ter(r, c).ter for r, c in UNSPACED[1:]]
    summary = dict(zip(columns_of(plan)[SUMMARY_TITLE], next(w.values[1:] for w in plan.columns if not w.header)))
    assert summary["Notes"] == "'" + UNSPACED_NOTE.removeprefix("bleu-xl: note: ")  # text, as Excel keeps it
    again = plan_scores("TH", written(plan, UNSPACED), metric=METRICS["BLEU-2"])
    assert again.clear is not None and not any(line.startswith("bleu-xl: note") for line in again.lines)
    assert "Notes" not in written(again, written(plan, UNSPACED))[1 + list(summary).index("Notes")]
    assert not any(
        line.startswith("bleu-xl: note") for line in plan_scores("TH", UNSPACED, metric=METRICS["chrF2"]).lines
    )


def test_the_counts_agree_with_the_note_column() -> None:
    """A row scored against one of its two references is scored and has a note: the counts say both."""
    grid = [["Reference 1", "Reference 2", "Candidate"], ["le chat", "un chat", "le chat"], ["le chat", "", "un chat"]]
    plan = plan_scores("Copy", grid, metric=METRICS["BLEU-2"])
    assert columns_of(plan)["note"] == [None, "1 of 2 references"]
    assert "BLEU-2: 2 scored, 0 blank, 1 with a note (1 of them scored against fewer references)" in plan.lines
    said = (
        "row 3 is scored against fewer than the sheet's 2 references (the others blank): the note column says how many"
    )
    assert f"bleu-xl: note: {said}" in plan.lines  # in the pane, and in the summary
    summary = dict(zip(columns_of(plan)[SUMMARY_TITLE], next(w.values[1:] for w in plan.columns if not w.header)))
    assert summary["Notes"] == "'" + said  # text, as Excel keeps it


def test_the_words_that_changed_and_the_notes_are_written_as_text() -> None:
    """TER's words that changed and the notes go into columns formatted as text before their values are written,
    so that Excel reads none of them as a formula, a number, a date or TRUE, and shows each as it is."""
    texts = ["12", "1/2", "=1+1", "-5 off", "@home", "TRUE", "Jan 2", "10%", "+33 1 23"]
    grid = [["Reference", "Candidate"], *([text, text] for text in texts), ["le chat", "#N/A"]]
    plan = plan_scores("S", grid, metric=METRICS["TER"])
    assert columns_of(plan)["TER changes"] == [*texts, None]  # as they are: no apostrophe that a text cell shows
    assert columns_of(plan)["note"] == [None] * len(texts) + ["#N/A in the candidate"]
    text_columns = {w.values[0]: w for w in plan.columns if w.number_format == "@"}
    assert set(text_columns) == {"TER changes", "note"}

    report = _through_xlwings(book_json("t.xlsx", {"S": grid}), ["TER", False, "", "", False])
    actions = report["actions"]
    for header, write in text_columns.items():
        column = write.column
        values_at = next(i for i, a in enumerate(actions) if a["func"] == "setValues" and a["start_column"] == column)
        format_at = next(
            i
            for i, a in enumerate(actions)
            if a["func"] == "setNumberFormat" and a["start_column"] == column and a["args"] == ["@"]
        )
        assert format_at < values_at, header  # text before the values: Excel reads them into text cells
        assert (actions[format_at]["start_row"], actions[format_at]["row_count"]) == (1, len(grid) - 1)
        assert [v for (v,) in actions[values_at]["values"]][1:] == [
            "" if v is None else v for v in columns_of(plan)[header]
        ]


def _dated_by_old_clients(value: Any) -> bool:
    """What xlwings' Office.js clients before January 2025 checked, in ``setValues``, before they wrote a text as the
    date ``Date.parse`` read in it: a string over 18 UTF-16 units holding a ``T``."""
    return isinstance(value, str) and len(value.encode("utf-16-le")) // 2 > 18 and "T" in value


def test_no_text_goes_where_older_xlwings_clients_made_a_date_of_it() -> None:
    """Those clients wrote "Meeting on Tuesday 3 June 2025" (V8's Date.parse reads it, apostrophe or not) as the
    date 6/3/2025. A column that holds such a text is written by the formulas call instead, which never changed a
    value: the same constants, each text kept as text by the column's Text format or its leading apostrophe."""
    meeting, sheet = "Meeting on Tuesday 3 June 2025", "Tests of Tuesday 3 June"
    grid = [["Reference", "Candidate"], [meeting, meeting], ["le chat", "le chat noir"]]
    for new_sheet, expected in ((False, {meeting, f"'{sheet}"}), (True, {f"'{meeting}", f"'{sheet}"})):
        actions = _through_xlwings(book_json("d.xlsx", {sheet: grid}), ["TER", new_sheet, "", "", False])["actions"]
        values = [v for a in actions if a["func"] == "setValues" for (v,) in a["values"]]
        constants = [v for a in actions if a["func"] == "setFormula" for (v,) in a["values"]]
        assert not any(map(_dated_by_old_clients, values)), values
        assert expected <= set(constants) and not any(str(v).startswith("=") for v in constants), constants
        assert len(values_written(actions)) == len(values) + len(constants)  # every cell written once


def summary_of(plan: Plan, grid: list[list[Any]]) -> dict[str, Any]:
    """The summary's facts as the sheet shows them after the plan, by label."""
    after = written(plan, grid)
    for r, row in enumerate(after):
        if SUMMARY_TITLE in row:
            c = row.index(SUMMARY_TITLE)
            return {line[c]: line[c + 1] for line in after[r + 1 :] if len(line) > c + 1 and line[c]}
    raise AssertionError("no summary written")


def test_the_summary_names_a_reference_typed_once_by_its_text_as_the_scored_workbook_does() -> None:
    typed_once = [["Reference", "Candidate"], ["free delivery this week", "free delivery"], ["", "delivery this week"]]
    for new_sheet in (False, True):
        plan = plan_scores("S", typed_once, metric=METRICS["BLEU-2"], new_sheet=new_sheet)
        facts = summary_of(plan, [] if new_sheet else typed_once)
        assert (facts["Reference"], facts["Reference cell"]) == ("free delivery this week", "A2")
    labelled = [["Reference", "le chat noir"], ["", ""], ["#", "Candidate"], [1, "le chat"], [2, "le chien"]]
    facts = summary_of(plan_scores("S", labelled, metric=METRICS["chrF2"]), labelled)
    assert (facts["Reference"], facts["Reference cell"]) == ("le chat noir", "B1")
    columns = [["Reference", "Candidate"], ["le chat", "le chat"], ["un chien", "un chat"]]
    facts = summary_of(plan_scores("S", columns, metric=METRICS["TER"]), columns)
    assert facts["Reference"] == "Reference" and "Reference cell" not in facts


def test_the_corpus_line_says_how_many_candidates_it_covers() -> None:
    """A reference per group, blank below it: the pane's corpus line says the rows it covers, as the command's does;
    a table scored whole says nothing more."""
    grid = [["Reference", "Candidate"], ["le chat", "le chat"], [None, "un chat"], ["un chien", "un chien"]]
    plan = plan_scores("Copy", grid, metric=METRICS["BLEU-2"])
    assert "corpus BLEU-2 1.0000 (over 2 of 3 candidates)   reference: Reference" in plan.lines
    whole = plan_scores("Copy", [grid[0], grid[1], grid[3]], metric=METRICS["BLEU-2"])
    assert "corpus BLEU-2 1.0000   reference: Reference" in whole.lines


def test_the_totals_row_of_a_table_beside_the_copy_stays_a_candidate() -> None:
    """A lookup Table in D:E whose totals row falls on a row of the copy (A:B): the copy's row is scored, as the
    command line does; the totals row of a Table over the candidates is not."""
    grid = [
        ["Reference", "Candidate", "", "Code", "Clicks"],
        ["free delivery", "free delivery", "", "C1", 1],
        ["free delivery", "delivery free", "", "Total", 1],
        ["free gift", "a free gift", "", "", ""],
    ]
    beside = TableArea(Area(0, 3, 2, 4), totals_row=2, name="Lookup")
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"], tables=[beside])
    assert not any("totals row" in line for line in plan.lines)
    assert columns_of(plan)["BLEU-2"] == [bleu_xl.score(*pair).bleu for pair in (r[:2] for r in grid[1:])]
    over = TableArea(Area(0, 0, 3, 1), totals_row=3, name="Copy")
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"], tables=[beside, over])
    assert "bleu-xl: note: row 4, the totals row of an Excel table, is not a candidate" in plan.lines
    assert columns_of(plan)["BLEU-2"][:2] == [1.0, bleu_xl.score("free delivery", "delivery free").bleu]


def test_the_whole_sheet_read_bounds_an_excel_tables_rows_as_the_command_line_does() -> None:
    """The copy's Table in A1:B3, a row typed right below it, a blank row, then a glossary: the Table's rows and the
    row added below are scored, the glossary is left out with the command line's note."""
    grid = [
        ["Reference", "Candidate"],
        ["free delivery", "free delivery"],
        ["free delivery", "delivery free"],
        ["free gift", "a free gift"],
        ["", ""],
        ["Term", "Translation"],
        ["delivery", "livraison"],
    ]
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"], tables=[TableArea(Area(0, 0, 2, 1), name="Copy")])
    scored = [bleu_xl.score(ref, cand).bleu for ref, cand in grid[1:4]]
    assert columns_of(plan)["BLEU-2"][:3] == scored
    assert not any(isinstance(v, float) for v in columns_of(plan)["BLEU-2"][3:])
    assert any("below the Excel Table 'Copy' (A1:B3)" in line for line in plan.lines), plan.lines


def test_the_totals_row_of_a_reference_table_is_no_pair() -> None:
    """The references in a Table of their own (A1:A4) with a totals row: its "Total" is no reference."""
    grid = [
        ["Reference", "Candidate"],
        ["free delivery", "free delivery"],
        ["free gift", "a free gift"],
        ["Total", "order now"],
    ]
    plan = plan_scores("S", grid, metric=METRICS["BLEU-2"], tables=[TableArea(Area(0, 0, 3, 0), 3, "Refs")])
    assert "bleu-xl: note: row 4, the totals row of an Excel table, is not a candidate" in plan.lines
    assert columns_of(plan)["BLEU-2"][:2] == [1.0, bleu_xl.score("free gift", "a free gift").bleu]
