"""What "Score this table" reads as the user's selection: the address Excel reports (a sheet name quoted, with a
comma or an apostrophe in it), whole columns and rows, several areas, no selection at all. It scores the selection,
or refuses in the task pane; it never scores another part of the sheet in silence, and never shows a traceback."""

from __future__ import annotations

import pytest

import bleu_xl
from bleu_xl import InputError
from bleu_xl.lite.scoring_script import METRICS, Plan, plan_scores
from bleu_xl.lite.table import Area, TableArea, selected_area
from bleu_xl.table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS

from ..pyodide_runs import SHARED
from .script_runs import book_json, through_pyodide, values_written

LAST_ROW, LAST_COLUMN = EXCEL_MAX_ROWS - 1, EXCEL_MAX_COLS - 1
CANDIDATES = ("noir", "gris", "blanc", "roux")
GRID = [["Reference", "Candidate"]] + [["le chat noir", f"le chat {word}"] for word in CANDIDATES]
SCORES = [bleu_xl.score("le chat noir", f"le chat {word}").bleu for word in CANDIDATES]
#: The same pairs in an Excel Table in A2:B7 under a title: its header row 2, its rows 3 to 6 and a totals row 7.
TABLED = [["Q3 copy", ""], *GRID, ["Total", ""]]
TABLE = TableArea(Area(1, 0, 6, 1), totals_row=6)
#: That table as the Lite client reports it.
TABLE_JSON = {
    "name": "Copy",
    "range_address": "A2:B7",
    "header_row_range_address": "A2:B2",
    "data_body_range_address": "A3:B6",
    "total_row_range_address": "A7:B7",
    "show_headers": True,
    "show_totals": True,
    "table_style": "TableStyleMedium2",
    "show_autofilter": True,
}


def scores_of(plan: Plan) -> list[float | None]:
    return list(next(w for w in plan.columns if w.values[0] == "BLEU-2").values[1:])


def summary_of(plan: Plan) -> dict[str, object]:
    """The summary's values by label, as Excel shows them (no leading apostrophe)."""
    labels, values = plan.columns[-2:]
    return {k: v[1:] if isinstance(v, str) and v.startswith("'") else v for k, v in zip(labels.values, values.values)}


@pytest.mark.parametrize(
    ("address", "sheet", "area"),
    [
        ("B2", "S", Area(1, 1, 1, 1)),
        ("$B$2:$D$9", "S", Area(1, 1, 8, 3)),
        ("D9:B2", "S", Area(1, 1, 8, 3)),
        ("S!A1:C3", "S", Area(0, 0, 2, 2)),
        ("s!A1", "S", Area(0, 0, 0, 0)),  # Excel's sheet names ignore case
        ("'Q1, 2024'!A1:C20", "Q1, 2024", Area(0, 0, 19, 2)),
        ("'Bob''s'!A1:B5", "Bob's", Area(0, 0, 4, 1)),
        ("'''Quoted'' copy!'!$A$2", "'Quoted' copy!", Area(1, 0, 1, 0)),
        ("[Book1.xlsx]S!B2", "S", Area(1, 1, 1, 1)),
        ("'[Book 1.xlsx]Q1, 2024'!B2", "Q1, 2024", Area(1, 1, 1, 1)),
        ("A:C", "S", Area(0, 0, LAST_ROW, 2)),
        ("$B:$B", "S", Area(0, 1, LAST_ROW, 1)),
        ("'Q1, 2024'!$2:$10", "Q1, 2024", Area(1, 0, 9, LAST_COLUMN)),
        ("XFD1048576", "S", Area(LAST_ROW, LAST_COLUMN, LAST_ROW, LAST_COLUMN)),
    ],
)
def test_an_address_is_read_with_its_sheet_name_quoted_or_not(address: str, sheet: str, area: Area) -> None:
    assert selected_area(address, sheet) == area


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("A1:B5,D1:D5", "the selection 'A1:B5,D1:D5' has 2 areas"),
        ("'Q1, 2024'!A1:B5,'Q1, 2024'!D1:D5", "has 2 areas"),
        ("Other!A1:B5", "is on the sheet 'Other', not on the sheet 'Q1, 2024'"),
        ("'Q1, 2024'!A1:B5 'Q1, 2024'!B2", "cannot be read"),
        ("'Q1, 2024!A1", "cannot be read"),
        ("Q1, 2024!A1", "has 2 areas"),  # unquoted, as Excel reads it: the cell Q1 and A1 of the sheet 2024
        ("A0", "cannot be read"),
        ("XFE1", "cannot be read"),
        ("A1048577", "cannot be read"),
        ("A1:B2:C3", "cannot be read"),
        ("R1C1", "cannot be read"),
        ("", "cannot be read"),
    ],
)
def test_an_address_read_otherwise_is_refused(address: str, says: str) -> None:
    with pytest.raises(InputError, match="select") as refused:
        selected_area(address, "Q1, 2024")
    assert says in str(refused.value)


def test_whole_columns_are_the_used_rows_in_them_and_whole_rows_the_rows_selected() -> None:
    columns = plan_scores("S", GRID, metric=METRICS["BLEU-2"], selection=selected_area("A:B", "S"))
    assert columns.lines[1] == "BLEU-2: 4 scored, 0 blank, 0 with a note"  # every row, and no note of rows
    rows = plan_scores("S", GRID, metric=METRICS["BLEU-2"], selection=selected_area("3:4", "S"))
    assert "bleu-xl: note: rows 3 to 4 only (the rows selected)" in rows.lines
    assert next(w for w in rows.columns if w.values[0] == "BLEU-2").values[1:] == (None, *SCORES[1:3])
    down = plan_scores("S", GRID, metric=METRICS["BLEU-2"], selection=selected_area("3:1048576", "S"))
    assert "bleu-xl: note: rows 3 to 5 only (the rows selected)" in down.lines  # down to the last row used


def test_rows_selected_in_an_excel_table_are_scored_alone_and_one_cell_scores_it_whole() -> None:
    def scored(address: str) -> Plan:
        return plan_scores("S", TABLED, metric=METRICS["BLEU-2"], selection=selected_area(address, "S"), tables=[TABLE])

    rows = scored("A4:B5")
    assert scores_of(rows) == [None, *SCORES[1:3]]  # from the table's header row, found above the rows selected
    assert rows.lines[0].startswith("bleu-xl: sheet 'S': header row 2;")
    assert "bleu-xl: note: rows 4 to 5 only (the rows selected)" in rows.lines
    assert "BLEU-2: 2 scored, 0 blank, 0 with a note" in rows.lines
    assert summary_of(rows)["Rows read"] == "4 to 5 (the rows selected)" and summary_of(rows)["Rows"] == 2
    past = scored("B5:B20")  # from inside the table down past it: the table's rows it holds
    assert scores_of(past) == [None, None, *SCORES[2:]] and "bleu-xl: note: rows 5 to 6 only (the rows selected)" in (
        past.lines
    )
    for address in ("B4", "A2:B7", "A:B"):  # one cell, the whole table, whole columns: every row (the totals row blank)
        whole = scored(address)
        assert scores_of(whole) == [*SCORES, None] and not any("only" in line for line in whole.lines), address
        assert "BLEU-2: 4 scored, 0 blank, 0 with a note" in whole.lines
        assert summary_of(whole)["Rows read"] == "3 to 6"
    assert "bleu-xl: note: row 7, the totals row of an Excel table, is not a candidate" in whole.lines


@pytest.mark.parametrize("address", ["50:60", "A50:B60", "A1:B1", "1:1"])
def test_a_selection_that_holds_no_row_of_the_table_is_refused(address: str) -> None:
    with pytest.raises(InputError, match=r"hold no row of the table \(rows 2 to 5\); select"):
        plan_scores("S", GRID, metric=METRICS["BLEU-2"], selection=selected_area(address, "S"))


@SHARED
def test_under_real_pyodide_the_script_scores_the_selection_or_refuses() -> None:
    sheets = {"Q1, 2024": GRID, "Bob's": GRID}
    args = ["BLEU-2", False, "", "", False]
    in_table = book_json("t.xlsx", {"T": TABLED}, 0, "A4:B5", tables={"T": [TABLE_JSON]})
    selections = [
        ("'Q1, 2024'!A3:B4", 0),
        ("'Bob''s'!A3:B4", 1),
        ("A3:B4", 0),  # as the xlwings client sends it: the sheet's name cut off
        ("C:D", 0),
        (None, 0),
        ("A1:B5,D1:D5", 0),
        ("'Bob''s'!A1:B5", 0),
        ("A50:B60", 0),
    ]
    runs = through_pyodide(
        [{"book": book_json("q.xlsx", sheets, a, address), "args": args} for address, a in selections]
        + [{"book": in_table, "args": args}]
    )
    table = runs.pop()
    assert "bleu-xl: note: rows 4 to 5 only (the rows selected)" in table["printed"], table["printed"]
    assert "BLEU-2: 2 scored, 0 blank, 0 with a note" in table["printed"]
    cells = values_written(table["actions"])
    assert [cells[(0, r, 2)] for r in range(1, 5)] == ["BLEU-2", "", *SCORES[1:3]]
    for run in runs[:3]:
        assert "bleu-xl: note: rows 3 to 4 only (the rows selected)" in run["printed"], run["printed"]
        cells = values_written(run["actions"])
        sheet = next(s for (s, r, c), v in cells.items() if v == "BLEU-2")
        assert [cells[(sheet, r, 2)] for r in range(1, 4)] == ["", *SCORES[1:3]]  # down to the last row selected
    whole, none = runs[3], runs[4]
    assert "BLEU-2: 4 scored, 0 blank, 0 with a note" in whole["printed"] and "only" not in whole["printed"]
    assert "bleu-xl: note: no cells are selected (Excel reported none): the whole sheet is read" in none["printed"]
    assert "BLEU-2: 4 scored, 0 blank, 0 with a note" in none["printed"]
    several, elsewhere, below = runs[5:]
    assert several["printed"].startswith("bleu-xl: nothing written: the selection 'A1:B5,D1:D5' has 2 areas")
    assert elsewhere["printed"].startswith("bleu-xl: nothing written: the selection")
    assert "is on the sheet \"Bob's\", not on the sheet 'Q1, 2024'" in elsewhere["printed"]
    assert below["printed"].startswith("bleu-xl: nothing written: the rows selected (50 to 60) hold no row")
    assert several["actions"] == elsewhere["actions"] == below["actions"] == []
