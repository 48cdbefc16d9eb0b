"""The xlwings Lite script "Score this table": what ``bleu-xl score`` does, in Excel, at the click of a button.

It finds the header row and the columns of the active sheet by the command line's rules (and refuses what they
refuse), scores every row with the metric chosen in App Mode's form, and writes the scores, ranks and notes as
values beside the table, or on a sheet of their own, with the number formats and data bars of the scored workbook
and a small summary. It writes no formula, so no cell can show ``#NAME?``. Each column goes in one range
assignment. Standard library only (the Lite bundle embeds it): xlwings' decorator and workbook type come in as
arguments.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from ..core.errors import BleuXlError, Setting, render
from ..core.metrics import Bleu, Chrf, Metric, Ter
from ..core.metrics.base import ColumnKind
from ..excel.cell_values import ERROR_TEXTS
from ..excel.faces import lite_argument
from ..table.columns import find_layout
from ..table.layout import Layout, reference_shown
from ..table.scoring import Result, distinct_names, result_header, score_table
from ..table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, InputError, Sheet, TableOptions, column_letter
from .table import (
    SOURCE_LABEL,
    SUMMARY_TITLE,
    WRITTEN,
    Area,
    TableArea,
    area_of,
    previous_runs,
    result_sheet,
    rows_chosen,
    selected_area,
    sheet_of,
)

__all__ = ["METRICS", "RESULT_SHEET", "SCRIPT_NAME", "ColumnWrite", "Plan", "declare_script", "plan_scores"]

#: The script's name in the xlwings Lite pane.
SCRIPT_NAME = "Score this table"
#: The metrics the form offers, by the name each column header gives them.
METRICS: dict[str, Metric[Any, Any, Any]] = {
    metric.name: metric for metric in (Bleu(), Bleu(4), Chrf(), Chrf(word_order=2), Ter())
}
#: What the task pane says when Excel reports no selected cells (a chart or a shape is selected).
NO_SELECTION = "bleu-xl: note: no cells are selected (Excel reported none): the whole sheet is read"
#: The sheet the scores go to when they do not go beside the table.
RESULT_SHEET = "bleu-xl scores"
SCORE_FORMAT, COUNT_FORMAT = "0.0000", "0"
#: Excel's Text format: a value written into such a cell stays the text it is, never a formula, a number or a date.
TEXT_FORMAT = "@"
HEADER_FILL = "#DDEBF7"
#: The data bars' colours, as the scored workbook has them: a score's blue, TER's orange (its bar is the edits).
SCORE_BAR_COLOR, EDITS_BAR_COLOR = "#5B9BD5", "#ED7D31"
#: Column widths, in characters, as the scored workbook has them.
SCORE_WIDTH, NOTE_WIDTH, LABEL_WIDTH, VALUE_WIDTH, TEXT_WIDTH = 9, 24, 24, 46, 40
#: The form's fields, as messages name them; what the form has no field for, as the sheet can give it.
FIELDS = {
    "candidate_col": '"Candidate column"',
    "reference_cols": '"Reference column"',
    "fill_down": '"Fill references down"',
    "reference_text": 'a cell labelled "Reference" above the table',
    "no_header": "a header row inserted above the table",
    "header_row": "an Excel Table (Insert > Table) around the table",
}
#: Those of :data:`FIELDS` that a value given reads otherwise: ``{}`` is the value.
VALUED_FIELDS = {"header_row": "an Excel Table (Insert > Table) whose header row is row {}"}


def spelt(setting: Setting) -> str:
    """A setting as App Mode's form names it: ``"Candidate column" B``; others as words."""
    label = FIELDS.get(setting.name)
    value = setting.value[0] if isinstance(setting.value, tuple) else setting.value
    if setting.name in VALUED_FIELDS and value is not None:
        return VALUED_FIELDS[setting.name].format(value)
    if label is None:
        label = setting.name.replace("_", " ")
    return label if value is None or value is True else f"{label} {value}"


@dataclass(frozen=True)
class ColumnWrite:
    """Values written down one column from ``row`` (0-based), in one range assignment: a header first when
    ``header`` (bold, filled), then the cells that take ``number_format`` (set before the values, so that the
    text of a :data:`TEXT_FORMAT` column stays text) and, for a score, a data bar."""

    row: int
    column: int
    values: tuple[Any, ...]
    number_format: str | None = None
    data_bar: str | None = None  # the colour of the column's data bars
    header: bool = True
    cell_formats: tuple[tuple[int, str], ...] = ()  # (offset from ``row``, number format) of single cells
    width: float | None = None  # the column's width, in characters


@dataclass
class Plan:
    """What a run writes and says: the sheet it writes on (``new_sheet``: its own, made or cleared first), the
    area an earlier run wrote there (cleared first), the columns, and the lines for the task pane."""

    sheet: str
    new_sheet: bool
    columns: list[ColumnWrite] = field(default_factory=list)
    clear: Area | None = None
    lines: list[str] = field(default_factory=list)

    @property
    def written(self) -> str:
        """The range the columns cover, ``K5:Q40``."""
        top = min(c.row for c in self.columns)
        bottom = max(c.row + len(c.values) - 1 for c in self.columns)
        left, right = min(c.column for c in self.columns), max(c.column for c in self.columns)
        return f"{column_letter(left)}{top + 1}:{column_letter(right)}{bottom + 1}"


def _as_text(value: Any) -> Any:
    """A value written to a cell as it was: text keeps a leading apostrophe, which Excel takes for "this is text" and
    does not show, so that nothing the user typed is read as a formula, a number, a date or TRUE; an error text stays
    an error."""
    if isinstance(value, str) and value and value not in ERROR_TEXTS:
        return "'" + value
    return value


def _table_of(selection: Area | None, tables: Sequence[TableArea]) -> Area | None:
    """The Excel Table the selection starts in, if any: then only it is read."""
    if selection is None:
        return None
    for table in tables:
        area = table.area
        if area.top <= selection.top <= area.bottom and area.left <= selection.left <= area.right:
            return area
    return None


def plan_scores(
    name: str,
    grid: list[list[Any]],
    *,
    metric: Metric[Any, Any, Any],
    selection: Area | None = None,
    tables: Sequence[TableArea] = (),
    new_sheet: bool = False,
    candidate_col: str | None = None,
    reference_col: str | None = None,
    fill_down: bool = False,
    own_sheet: list[list[Any]] | None = None,
) -> Plan:
    """What a run on the sheet ``name`` of cells ``grid`` (rows from A1, as Excel reports them) writes: the layout
    found by the column rules, the rows scored under ``metric``. The table is the whole sheet, or the Excel Table the
    selection starts in; a selection of several cells says which of its rows to score (those it holds: whole columns
    hold them all). ``own_sheet`` holds the cells of the book's sheet :data:`RESULT_SHEET`, when it has one.
    :class:`InputError` for a sheet the rules refuse or that holds a run's results, for a selection that holds no row
    of the table, or for a place to write that holds the user's data or lies past Excel's grid."""
    grid = lite_argument(grid)  # whole numbers come as JSON ints: read as the doubles Excel holds, as the functions do
    _refuse_results(name, grid, own_sheet if new_sheet else None)
    table = _table_of(selection, tables)
    options = TableOptions(
        candidate_col=candidate_col or None,
        reference_cols=(reference_col,) if reference_col else (),
        fill_down=fill_down,
    )
    runs = previous_runs(grid)
    sheet = sheet_of(name, grid, table, tables, list(runs.values()))
    layout = find_layout(sheet, options)
    ours = runs.get(layout.header_row) if layout.header_row is not None else None
    data_rows = layout.data_rows(len(sheet.rows))
    chosen = rows_chosen(selection, data_rows)
    last = len(sheet.rows) - 1
    if chosen is not None:  # the rows selected, and no others
        last = chosen[-1]
        layout.skipped = layout.skipped | {r for r in data_rows if r not in chosen}
    result = score_table(sheet, layout, metrics=(metric,), workers=1)
    plan = Plan(RESULT_SHEET if new_sheet else name, new_sheet)
    plan.lines.append(f"bleu-xl: sheet {name!r}: {render(layout.describe(), spelt)}")
    if chosen is not None:
        plan.lines.append(f"bleu-xl: note: rows {chosen[0] + 1} to {chosen[-1] + 1} only (the rows selected)")
    plan.lines += [f"bleu-xl: note: {render(note, spelt)}" for note in layout.notes]
    if _holds_numbers(sheet.rows, layout):
        plan.lines.append(
            "bleu-xl: note: some texts scored are numbers, scored as Excel writes them in General format (a date "
            "that xlwings Lite reports as its serial number is scored as that number)"
        )
    read = chosen if chosen is not None else data_rows
    rows_read = f"{read[0] + 1} to {read[-1] + 1}{' (the rows selected)' if chosen else ''}" if read else ""
    notes = [render(note, spelt) for note in result.notes]  # rows scored against fewer references, TER misreading
    plan.lines += [f"bleu-xl: note: {note}" for note in notes]
    if new_sheet:
        _on_own_sheet(plan, name, sheet, layout, result, rows_read, notes)
    else:
        _beside(plan, grid, sheet.rows, layout, result, ours, last, rows_read, notes)
    fewer = len(result.fewer_references())  # scored, and noted: the counts agree with the note column
    some = f" ({fewer:,} of them scored against fewer references)" if fewer else ""
    counts = f"{result.scored:,} scored, {result.blank:,} blank, {result.problems:,} with a note{some}"
    corpus = result.corpus
    plan.lines.append(f"{metric.name}: {counts}")
    shown = f"{float(corpus):.4f}" if corpus is not None else "-"
    plan.lines.append(f"corpus {metric.name} {shown}{result.coverage()}   reference: {layout.reference_source}")
    plan.lines.append(f"signature {result.signature()}")
    plan.lines.append(f"written to {plan.sheet}!{plan.written}")
    return plan


def _refuse_results(name: str, grid: list[list[Any]], own_sheet: list[list[Any]] | None) -> None:
    """Refuse a sheet that holds what a run wrote on its own sheet (its copy of a table is no table to score), and a
    sheet :data:`RESULT_SHEET` (``own_sheet``) that holds anything else: writing there would clear it."""
    results = result_sheet(grid)
    if results is not None:
        source = f"the sheet {results.source!r}" if results.source else "the sheet of your table"
        raise InputError(
            f"the sheet {name!r} holds the scores an earlier run wrote (of {source}), not a table to score; go back "
            f"to {source}, click a cell of the table and run the script again"
        )
    if own_sheet is not None and any(_last_filled(row) >= 0 for row in own_sheet) and result_sheet(own_sheet) is None:
        raise InputError(
            f"the sheet {RESULT_SHEET!r} holds data that no run of this script wrote, and writing to a new sheet would "
            'clear it; rename that sheet (or untick "Write to a new sheet") and run the script again'
        )


def _holds_numbers(rows: list[list[Any]], layout: Layout) -> bool:
    """Whether a candidate or reference cell of a data row holds a number (a date, perhaps)."""
    columns = [layout.candidate_col, *layout.reference_cols]
    return any(
        type(row[c]) in (int, float)
        for r in layout.data_rows(len(rows))
        for row in (rows[r],)
        for c in columns
        if c < len(row)
    )


def _result_writes(
    result: Result, first_row: int, first_column: int, rows: Sequence[int | None], taken: set[str]
) -> list[ColumnWrite]:
    """The result columns from ``first_column``: each a header, then a value for each of ``rows`` (the index of a
    scored row in ``result``, or ``None`` for a row left out: blank)."""
    values = [result.result_row(i) for i in range(len(result.rows))]
    writes = []
    bars = {metric.name: SCORE_BAR_COLOR if metric.higher_is_better else EDITS_BAR_COLOR for metric in result.metrics}
    for k, column in enumerate(result.columns):
        header = result_header(column.name, taken)
        cells = [None if i is None else values[i][k] for i in rows]
        if column.kind == ColumnKind.CHANGES:  # the words that changed (TER's), as plain marked text
            cells = [None if v is None else str(v) for v in cells]
        number_format = {
            ColumnKind.SCORE: SCORE_FORMAT,
            ColumnKind.COUNT: COUNT_FORMAT,
            ColumnKind.TEXT: TEXT_FORMAT,
            ColumnKind.CHANGES: TEXT_FORMAT,
        }.get(column.kind)
        writes.append(
            ColumnWrite(
                first_row,
                first_column + k,
                (header, *cells),
                number_format,
                data_bar=bars.get(column.name),
                width=NOTE_WIDTH if column.kind in (ColumnKind.TEXT, ColumnKind.CHANGES) else SCORE_WIDTH,
            )
        )
    return writes


def _summary_facts(
    result: Result, layout: Layout, rows: list[list[Any]], name: str, rows_read: str, notes: Sequence[str]
) -> list[tuple[str, Any]]:
    """The summary's facts: labels and values (the sheet's name, the reference as the scored workbook names it and
    the rows read as text, as typed), and the notes on the scores, one a line, when there are any."""
    metric = result.metrics[0]
    corpus = result.corpus
    noted = [("Notes", _as_text("\n".join(notes)))] if notes else []
    return [
        (SOURCE_LABEL, _as_text(name)),
        *((label, _as_text(text)) for label, text in reference_shown(layout, rows)),
        (f"Corpus {metric.name}", float(corpus) if corpus is not None else None),
        ("Signature", result.signature()),
        ("Rows", len(result.rows)),
        ("Rows read", _as_text(rows_read)),
        ("Scored pairs", result.scored),
        ("Blank candidates", result.blank),
        ("Rows with a note", result.problems),
        *noted,
    ]


def _summary(facts: list[tuple[str, Any]], written: Area, row: int, column: int) -> list[ColumnWrite]:
    """The summary at ``row``, ``column``: labels, then values (the corpus score to four places), the last the range
    the run wrote (how the next run finds what it may write over)."""
    shown = [*facts, (WRITTEN, _range_text(written))]
    labels = ColumnWrite(row, column, (SUMMARY_TITLE, *(label for label, _ in shown)), width=LABEL_WIDTH)
    values = ColumnWrite(
        row,
        column + 1,
        ("", *(value for _, value in shown)),
        header=False,
        cell_formats=((3, SCORE_FORMAT),),
        width=VALUE_WIDTH,
    )
    return [labels, values]


def _range_text(area: Area) -> str:
    return f"{column_letter(area.left)}{area.top + 1}:{column_letter(area.right)}{area.bottom + 1}"


def _block(top: int, bottom: int, first: int, results: int, facts: int) -> Area:
    """The cells a run writes: ``results`` columns from ``first``, on rows ``top`` to ``bottom``; a blank column;
    the summary's labels and values, its title and ``facts`` rows and the written range."""
    area = Area(top, first, max(bottom, top + facts + 1), first + results + 2)
    if area.right >= EXCEL_MAX_COLS or area.bottom >= EXCEL_MAX_ROWS:
        raise InputError(
            f"the scores and their summary need {_range_text(Area(area.top, area.left, area.top, area.left))} to "
            f"{column_letter(min(area.right, EXCEL_MAX_COLS - 1))}..., past Excel's last column or row; tick "
            '"Write to a new sheet"'
        )
    return area


def _last_filled(row: Sequence[Any]) -> int:
    return max((c for c, value in enumerate(row) if value is not None and value != ""), default=-1)


def _beside(
    plan: Plan,
    grid: list[list[Any]],
    rows: list[list[Any]],
    layout: Layout,
    result: Result,
    ours: Area | None,
    last: int,
    rows_read: str,
    notes: Sequence[str],
) -> None:
    """Write the results right of the table, on the rows of its header and data (down to ``last`` and to the last row
    with a candidate or a reference), the summary one column further; refused when a cell there holds anything but
    what an earlier run wrote (``ours``, cleared first)."""
    top = layout.data_start if layout.header_row is None else layout.header_row
    used = [layout.candidate_col, *layout.reference_cols]
    filled = [
        r for r in range(layout.data_start, len(rows)) if any(_last_filled(rows[r][c : c + 1]) == 0 for c in used)
    ]
    last = min(last, filled[-1] if filled else top)  # the table's rows: down to its last candidate or reference
    table_right = max(_last_filled(rows[r]) for r in range(top, last + 1))
    first = ours.left if ours is not None else table_right + 1
    index = {number - 1: i for i, number in enumerate(result.row_numbers)}
    spans = list(range(layout.data_start, last + 1))
    taken = {h for h in layout.headers if h}
    writes = _result_writes(result, top, first, [index.get(r) for r in spans], taken)
    if layout.header_row is None:  # no header row: the values alone, from the first data row
        writes = [ColumnWrite(w.row, w.column, w.values[1:], w.number_format, w.data_bar, False) for w in writes]
    facts = _summary_facts(result, layout, rows, plan.sheet, rows_read, notes)
    block = _block(top, max(top, last), first, len(writes), len(facts))
    writes += _summary(facts, block, top, first + len(writes) + 1)
    plan.clear = ours
    _refuse_taken(grid, writes, ours)
    plan.columns = writes


def _refuse_taken(grid: list[list[Any]], writes: Sequence[ColumnWrite], ours: Area | None) -> None:
    """Refuse to write over cells that hold anything but what an earlier run wrote."""
    for write in writes:
        for offset in range(len(write.values)):
            r, c = write.row + offset, write.column
            if ours is not None and ours.top <= r <= ours.bottom and ours.left <= c <= ours.right:
                continue
            value = grid[r][c] if r < len(grid) and c < len(grid[r]) else None
            if value is not None and value != "":
                raise InputError(
                    f"{column_letter(c)}{r + 1}, where the scores would go beside the table, holds data; tick "
                    '"Write to a new sheet", or make room right of the table'
                )


def _on_own_sheet(
    plan: Plan, name: str, sheet: Sheet, layout: Layout, result: Result, rows_read: str, notes: Sequence[str]
) -> None:
    """Write the table's columns and the results on the script's own sheet, as the scored workbook's Scores sheet
    holds them, the summary beside."""
    header = distinct_names([h or column_letter(i) for i, h in enumerate(layout.headers)])
    width = len(header)
    data = result.rows
    facts = _summary_facts(result, layout, sheet.rows, name, rows_read, notes)
    block = _block(0, len(data), width, len(result.columns), len(facts))
    for c in range(width):
        cells = [_as_text(row[c]) if c < len(row) else None for row in data]
        plan.columns.append(ColumnWrite(0, c, (_as_text(header[c]), *cells), width=TEXT_WIDTH))
    writes = _result_writes(result, 0, width, list(range(len(data))), set(header))
    plan.columns += writes
    plan.columns += _summary(facts, Area(0, 0, block.bottom, block.right), 0, width + len(writes) + 1)


def declare_script(script: Callable[..., Any], book_type: type, module: str) -> dict[str, Callable[..., Any]]:
    """The xlwings Lite script, by name, for the bundle's namespace: ``script`` is xlwings' ``@script`` decorator and
    ``book_type`` the workbook type it injects (``xlwings.Book``: the sheets' values are loaded before it runs)."""

    def score_this_table(
        book: Any,
        metric: str = "BLEU-2",
        new_sheet: bool = False,
        candidate_column: str = "",
        reference_column: str = "",
        fill_down: bool = False,
    ) -> None:
        sheet = book.sheets.active
        address = _selection_address(book)
        own = _own_sheet(book)
        try:
            plan = plan_scores(
                sheet.name,
                _grid(sheet),
                metric=_metric(metric),
                selection=None if address is None else selected_area(address, sheet.name),
                tables=_tables(sheet),
                new_sheet=bool(new_sheet),
                candidate_col=(candidate_column or "").strip() or None,
                reference_col=(reference_column or "").strip() or None,
                fill_down=bool(fill_down),
                own_sheet=None if own is None else _grid(own),
            )
        except BleuXlError as problem:
            print(f"bleu-xl: nothing written: {problem.render(spelt)}")
            return
        if address is None:
            plan.lines.insert(1, NO_SELECTION)
        apply(plan, book)
        print("\n".join(plan.lines))

    score_this_table.__doc__ = DOC
    score_this_table.__module__ = module
    choices = Literal[tuple(METRICS)]  # type: ignore[valid-type]
    score_this_table.__annotations__ = {
        "book": book_type,
        "metric": Annotated[
            choices,
            {
                "label": "Metric",
                "help": "BLEU-2 counts shared words and word pairs; chrF "
                "shared characters (kinder to short copy and word forms); TER word edits per reference word (lower "
                "is better: rank 1 has the fewest).",
            },
        ],
        "new_sheet": Annotated[
            bool,
            {
                "label": "Write to a new sheet",
                "help": f"The scores go to the sheet '{RESULT_SHEET}' instead of beside the table.",
            },
        ],
        "candidate_column": Annotated[
            str,
            {
                "label": "Candidate column",
                "help": "Only when the header is not Candidate: its letter (C) or its header.",
            },
        ],
        "reference_column": Annotated[
            str,
            {
                "label": "Reference column",
                "help": "Only when the header is not Reference: its letter (B) or its header.",
            },
        ],
        "fill_down": Annotated[
            bool,
            {
                "label": "Fill references down",
                "help": "A reference typed once above its variants, blank below, serves each row under it.",
            },
        ],
        "return": None,
    }
    return {"score_this_table": script(name=SCRIPT_NAME)(score_this_table)}


DOC = """# Score this table

1. Click a cell of your table (headers **Reference** and **Candidate**, in any case or language the command line
   knows), or select the rows to score.
2. Choose the metric, then click **Score this table**.
3. The scores, ranks and notes appear as values right of the table (or on the sheet *bleu-xl scores*), with a
   summary beside them; run it again after editing: it writes over what it wrote, and nothing else.
"""


def _metric(name: str) -> Metric[Any, Any, Any]:
    if name not in METRICS:
        raise InputError(f"the metric {name!r} is not one of {', '.join(METRICS)}")
    return METRICS[name]


#: A date and time as the Lite client sends a date cell (JavaScript's ``toISOString``), and nothing else.
_CLIENT_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z")


def _grid(sheet: Any) -> list[list[Any]]:
    """The sheet's cells from A1 as the Lite client sent them: text, numbers, booleans, error values as their text
    (``#N/A``), blanks as ``""``, read without xlwings' conversion (which takes error cells for blanks and any text
    that looks like a timestamp for a date it then fails to parse); a date the client sends as a date and time
    becomes one."""
    values = (
        sheet.api["values"] if isinstance(sheet.api, dict) else sheet.used_range.options(ndim=2, err_to_str=True).value
    )
    return [[_cell(value) for value in row] for row in values]


def _cell(value: Any) -> Any:
    if isinstance(value, str) and _CLIENT_DATE.fullmatch(value):
        try:
            return dt.datetime.fromisoformat(value[:-1])
        except ValueError:
            return value
    return value


def _selection_address(book: Any) -> str | None:
    """The selection's address as the Lite client sent it (``'Q1, 2024'!B2:C9``, ``A:C``), ``None`` when no cells
    are selected. Not xlwings' ``book.selection``: it takes an address that names its sheet for a name it cannot
    find, and several areas for an error."""
    if isinstance(book.api, dict):
        address = book.api.get("book", {}).get("selection")
    else:
        selection = book.selection
        address = None if selection is None else selection.address
    return address if isinstance(address, str) else None


def _own_sheet(book: Any) -> Any:
    """The book's sheet :data:`RESULT_SHEET` (Excel's sheet names ignore case), ``None`` when it has none."""
    return next((sheet for sheet in book.sheets if sheet.name.casefold() == RESULT_SHEET.casefold()), None)


def _dated_by_old_clients(value: Any) -> bool:
    """Whether xlwings' Office.js clients before January 2025 may have written this value, given to ``setValues``,
    as a date: a text over 18 UTF-16 units holding a ``T``, which they wrote as the date JavaScript's ``Date.parse``
    read in it (V8 reads ``Meeting on Tuesday 3 June 2025``, a leading apostrophe or not; other engines differ)."""
    return isinstance(value, str) and "T" in value and len(value.encode("utf-16-le")) > 2 * 18


def _tables(sheet: Any) -> list[TableArea]:
    found = []
    for table in sheet.tables:
        area = area_of(table.range.address)
        totals = table.totals_row_range
        if area is not None:
            top = area_of(totals.address).top if totals is not None else None
            found.append(TableArea(area, top, table.name))
    return found


def apply(plan: Plan, book: Any) -> None:
    """Carry the plan out with xlwings: per column, its number formats, then one range assignment of its values
    (through the formulas property when a text among them is one that older clients wrote as a date: the same
    constants, never a formula), then its header's look and its data bar."""
    if plan.new_sheet:
        target = _own_sheet(book)
        if target is not None:
            target.clear()
        else:
            target = book.sheets.add(plan.sheet, after=book.sheets.active)
    else:
        target = book.sheets[plan.sheet]
    if plan.clear is not None:
        old = target.range((plan.clear.top + 1, plan.clear.left + 1), (plan.clear.bottom + 1, plan.clear.right + 1))
        old.clear()
        old.conditional_formats.clear()
    for write in plan.columns:
        first, count = write.row + 1, len(write.values)
        column = write.column + 1
        body_first = first + 1 if write.header else first
        body = target.range((body_first, column), (first + count - 1, column)) if count > body_first - first else None
        if body is not None and write.number_format:  # before the values: Excel reads each into its format
            body.number_format = write.number_format
        for offset, number_format in write.cell_formats:
            target.range((first + offset, column)).number_format = number_format
        cells, values = target.range((first, column), (first + count - 1, column)), [[value] for value in write.values]
        if any(map(_dated_by_old_clients, write.values)):
            cells.formula = values  # the same constants, by a call that never turned text into dates
        else:
            cells.value = values
        if write.header:
            head = target.range((first, column))
            head.font.bold = True
            head.color = HEADER_FILL
        if body is not None and write.data_bar is not None:
            body.conditional_formats.add_data_bar(write.data_bar, minimum=0, maximum=1, gradient=False)
        if write.width is not None:
            target.range((first, column)).column_width = write.width
