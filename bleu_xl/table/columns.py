"""The column rules: which row holds the headers, which columns hold the candidates and the references (the
:class:`~.layout.Layout` found).

Columns are found by their headers (Reference / Référence / Referência, Candidate / Candidat / Candidato, any
case and accents; an exact name wins, numbered ones are several references, a qualified one only when it is the
only one, hidden columns never) or given by letter or header. In a workbook whose first sheet is a cover page,
the search goes on to the next visible sheet that has them. Messages name the settings to change as
``Setting`` values, which each face spells its own way.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..core.errors import Part, Setting
from ..excel.cell_values import ERROR_TEXTS, CellError, cell_text
from .excel_tables import rows_below_table, totals_rows_of
from .formatted import formatted_numbers_note
from .formulas import check_cached
from .header_rows import (
    CANDIDATE_NAMES,
    REFERENCE_NAMES,
    banner_rows,
    header_text,
    headers_again,
    joined_tagged_columns,
    known_name,
    past_header_notes,
    reference_taken,
    repeated_header_rows,
    tagged_columns,
    typed_totals_row,
)
from .header_search import find_header_row
from .layout import (
    ColumnNotFound,
    Layout,
    MissingColumn,
    NoColumnsFound,
    another_sheet,
    column_setting,
    columns_named,
    filled,
    fold,
    header_listing,
    resolve_column,
    shortened,
)
from .letters import (
    holds_header,
    letter_read_as_name,
    letters_meant,
    refuse_letter_of_another_column,
    search_rows,
)
from .merged import LISTED_CELLS, merged_cells, refuse_merged_headers
from .row_notes import row_notes
from .sheet import InputError, Sheet, TableOptions, column_index, column_letter

__all__ = ["CANDIDATE_NAMES", "REFERENCE_NAMES", "find_layout", "find_table"]

# --- finding the columns ----------------------------------------------------------------------------------------


def _auto_column(
    headers: list[str], names: frozenset[str], what: str, sheet: Sheet, header_row: int | None, skip: int = -1
) -> tuple[list[int], list[int]]:
    """The columns chosen by header: the one exact name, else the numbered ones (several references), else the
    one qualified name; hidden columns are never chosen, and anything ambiguous is an error. Also the tagged
    columns passed over as measures (numbers alone), which a note names."""
    kinds = {i: known_name(h, names) for i, h in enumerate(headers) if i != skip}
    visible = {i: k for i, k in kinds.items() if k and i not in sheet.hidden_columns}
    numbered = [i for i, k in visible.items() if k == "numbered"]
    unknown = (i for i in range(len(headers)) if i != skip and not kinds.get(i) and i not in sheet.hidden_columns)
    first_data = 0 if header_row is None else header_row + 1
    # "Reference (FR)" or "Reference_fr" (no known name, but tagged) beside "Reference": which is meant? Unless it
    # holds numbers alone: "candidate_ms" is no text of the role, but a measure of it. Only numbers: a column of
    # "Yes", "N/A" and "5 min" is a text of the role, as short UI strings are.
    joined_all, spaced = joined_tagged_columns(headers, names, unknown), tagged_columns(headers, names, visible)
    measures = [i for i in (*spaced, *joined_all) if not _holds_words(sheet.rows, first_data, i, headers[i])]
    joined = [i for i in joined_all if i not in measures]
    tagged = [*(i for i in spaced if i not in measures), *joined]
    # "Candidate 2" beside "Candidate text": several references are all used, but one candidate must be chosen.
    if what == "candidate" and numbered and not any(k == "exact" for k in visible.values()):
        tagged = sorted({*tagged, *(i for i, k in visible.items() if k == "qualified")})
    for kind in ("exact", "numbered", "qualified"):
        found = [i for i, k in visible.items() if k == kind]
        if kind == "exact" and len(found) == 1 and numbered:
            # "Reference" beside "Reference 2": several references, as Reference 1 / Reference 2 are; for the
            # candidate, two columns of the same name, which is ambiguous.
            found = sorted(found + numbered)
            if what == "reference" and not tagged:
                return found, measures
        elif (len(found) == 1 or (found and kind == "numbered" and what == "reference")) and (
            (kind == "qualified" and not joined) or not tagged  # a tagged one alone is the column, not beside another
        ):
            return found, measures
        if found:
            found = sorted({*found, *tagged})
            listed = columns_named(headers, found)
            raise InputError(
                f"sheet {sheet.name!r}: {len(found)} columns could be the {what} ({listed}); choose one with ",
                column_setting(what),
                ", e.g. ",
                column_setting(what, found[0]),
            )
    hidden = [i for i, k in kinds.items() if k and i in sheet.hidden_columns]
    if hidden:
        raise InputError(
            f"sheet {sheet.name!r}: the {what} column {column_letter(hidden[0])} {shortened(headers[hidden[0]])!r} "
            "is hidden, and hidden columns are not chosen by themselves; give ",
            column_setting(what, hidden[0]),
        )
    return [], measures


def _measures_note(headers: list[str], measures: list[int], chosen: list[int], what: str) -> list[tuple[Part, ...]]:
    """A note for the tagged columns passed over as measures beside the chosen one: say so, with the setting."""
    if not measures or not chosen:
        return []
    measures = sorted(measures)
    listed = columns_named(headers, measures)
    return [
        (
            f"{listed} named as the {what} but holding numbers alone: read as a measure, not used; to score it, give "
            "it with ",
            column_setting(what, measures[0]),
        )
    ]


#: A number written as text (``812``, ``1,204``, ``12%``, ``1.5e-05``): not a date, nor ``True`` (UI strings).
_NUMBER_TEXT = re.compile(
    r"[-+\u2212]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?\s*%?", re.IGNORECASE
)
#: What a measure's column holds where it has no value, as exports write it: no text of the role.
_NO_VALUE = frozenset(["na", "n/a", "n.a.", "nan", "null", "none", "-", "\u2013", "\u2014", "tbd"])


def _number(value: Any) -> bool:
    """Whether a cell holds a number: typed (not a truth value), or written as one (`` 812``, ``1,204``, ``12%``)."""
    if isinstance(value, str):
        return bool(_NUMBER_TEXT.fullmatch(value.strip()))
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _no_value(text: str) -> bool:
    """Whether a text marks no value (``NA``, ``-``) or is an error value's (as xlwings Lite hands them over)."""
    mark = text.strip()
    return mark.casefold() in _NO_VALUE or mark.upper() in ERROR_TEXTS


def _holds_words(rows: list[list[Any]], start: int, col: int, header: str) -> bool:
    """Whether a column holds a text in ``rows`` from ``start`` on (read in place: a large sheet is not copied), or
    no number at all: not a column of numbers alone (a measure: ``candidate_ms``). Its own header repeated, the
    marks of no value (``NA``, ``-``) and the other values a reader types (dates, truth values, error values, also
    as xlwings Lite hands them over) are passed over; ``5 min``, ``True`` or ``OK`` written as text are words, as
    short UI strings are."""
    numbers, head = False, fold(header)
    for row in itertools.islice(rows, start, None):
        value = row[col] if col < len(row) else None
        text = cell_text(value)
        if text is None or not isinstance(text, str) or fold(text) == head:
            continue
        if _number(value):
            numbers = True
        elif isinstance(value, str) and not _no_value(text):
            return True
    return not numbers


def _references_passed_over(headers: list[str], sheet: Sheet, cand: int) -> list[tuple[Part, ...]]:
    """A note for the reference columns a reference given as text passes over: the output shows them beside
    scores that are not theirs."""
    passed = [
        i
        for i, h in enumerate(headers)
        if i != cand and i not in sheet.hidden_columns and known_name(h, REFERENCE_NAMES) in ("exact", "numbered")
    ]
    if not passed:
        return []
    listed = columns_named(headers, passed)
    return [
        (f"{listed} not used: every candidate is scored against the reference given with ", Setting("reference_text"))
    ]


def _unused_names(
    headers: list[str], names: frozenset[str], chosen: list[int], what: str, sheet: Sheet, skip: int = -1
) -> list[tuple[Part, ...]]:
    """A note for the columns whose header names the role with a qualifier (``Reference text``) when numbered ones
    were chosen (``Reference 1``, ``Reference 2``): numbered names win, and the others are left unused, said so.
    (For the candidate, one column, :func:`_auto_column` refuses such a choice instead.)"""
    if not chosen or known_name(headers[chosen[0]], names) != "numbered":
        return []
    unused = [
        i
        for i, h in enumerate(headers)
        if i not in chosen and i != skip and i not in sheet.hidden_columns and known_name(h, names) == "qualified"
    ]
    if not unused:
        return []
    listed = columns_named(headers, unused)
    return [(f"{listed} also named as the {what}: not used; to use it, give it with ", column_setting(what, unused[0]))]


def find_layout(sheet: Sheet, options: TableOptions = TableOptions()) -> Layout:  # noqa: B008 - frozen
    """Find the header row and the columns by the column rules, or take them as ``options`` give them."""
    reference_cols, candidate_col = options.reference_cols, options.candidate_col
    reference_text, header_row, no_header = options.reference_text, options.header_row, options.no_header
    if reference_text is not None and reference_cols:
        raise InputError("give either ", Setting("reference_text"), " or ", Setting("reference_cols"), ", not both")
    rows = sheet.rows
    if not any(header_text(v) for row in rows for v in row):
        raise NoColumnsFound(f"sheet {sheet.name!r} is empty")
    letters: set[str] = set()  # found by the search, the header row may hold a letter given as data there
    if no_header:
        index: int | None = None
    elif header_row is not None:
        if not 1 <= header_row <= len(rows):
            raise InputError(
                f"sheet {sheet.name!r}: ", Setting("header_row", header_row), f" is past its {len(rows):,} rows"
            )
        index = header_row - 1
    else:
        # Found by the search, the header row may hold a letter given that reads as data there (an A/B test's
        # arm): such a letter is its column. A header row given is the user's word that its texts are headers.
        search = search_rows(sheet)
        letters = letters_meant(search[1], [candidate_col, *reference_cols])
        left_out = sheet.hidden_rows if options.skip_hidden else frozenset()
        index = find_header_row(sheet, search, letters, reference_cols, candidate_col, reference_text, left_out)
    guessed = (
        index is not None
        and header_row is None
        and candidate_col is not None
        and column_index(candidate_col) is not None
        and all(column_index(spec) is not None for spec in reference_cols)
        and not any(known_name(header_text(v), CANDIDATE_NAMES | REFERENCE_NAMES) for v in rows[index])
        and not any(
            holds_header([header_text(v) for v in rows[index]], spec)
            for spec in (candidate_col, *reference_cols)
            if spec not in letters
        )
    )
    width = max(len(row) for row in rows)
    headers = [header_text(v) for v in rows[index]] if index is not None else []
    headers += [""] * (width - len(headers))

    refuse_letter_of_another_column(
        headers, None if candidate_col in letters else candidate_col, [s for s in reference_cols if s not in letters]
    )

    def resolve(spec: str, what: str) -> int:
        if spec in letters and (letter := column_index(spec)) is not None:
            return letter
        return resolve_column(spec, headers, what, sheet.name, header_row=index)

    measures: list[int] = []
    if candidate_col:
        cand = resolve(candidate_col, "candidate")
    else:
        found, measures = _auto_column(headers, CANDIDATE_NAMES, "candidate", sheet, index)
        if not found:
            raise InputError(f"sheet {sheet.name!r}: no candidate column; headers found: {header_listing(headers)}")
        cand = found[0]

    layout = Layout(index, cand, headers=headers, notes=_measures_note(headers, measures, [cand], "candidate"))
    layout.skipped = _rows_left_out(sheet, layout, options.skip_hidden)

    def totals_below(skipped: frozenset[int]) -> int | None:
        found = typed_totals_row(sheet, layout, [r for r in layout.data_rows(len(rows)) if r not in skipped])
        return found[0] if found else None

    below_table, table_notes = rows_below_table(sheet, layout, totals_below)  # an Excel Table's header row: its rows
    layout.skipped, layout.notes = layout.skipped | below_table, [*layout.notes, *table_notes]
    data = layout.data_rows(len(rows))
    if reference_text is not None:
        layout.reference_text = reference_text
        layout.notes += _references_passed_over(headers, sheet, cand)
    elif reference_cols:
        layout.reference_cols = [resolve(spec, "reference") for spec in reference_cols]
        _refuse_repeated(sheet, layout, reference_cols, candidate_col is not None)
    else:
        layout.reference_cols, measures = _auto_column(headers, REFERENCE_NAMES, "reference", sheet, index, skip=cand)
        layout.notes += _measures_note(headers, measures, layout.reference_cols, "reference")
        layout.notes += _unused_names(headers, REFERENCE_NAMES, layout.reference_cols, "reference", sheet, cand)
        if not layout.reference_cols:
            labelled = _labelled_reference(rows[: index or 0])
            if labelled is None:
                raise MissingColumn(
                    f"sheet {sheet.name!r}: no reference column{reference_taken(layout)} (and no labelled reference "
                    f"cell above the headers); headers found: {header_listing(headers)}; use ",
                    Setting("reference_cols"),
                    " or ",
                    Setting("reference_text"),
                )
            layout.reference_text, layout.reference_cell = labelled
    if index is not None and layout.reference_cols:  # a second table stacked below: its headers are no pair
        used = [cand, *layout.reference_cols]
        again = headers_again(sheet, layout, used, data)  # refuses them with the roles crossed
        banners = [b for b in banner_rows(sheet, index, used) if repeated_header_rows(sheet, b, used, data)]
        repeats = [r for head in (index, *banners) for r in repeated_header_rows(sheet, head, used, data)]
        layout.repeated, layout.banners = frozenset(repeats) | frozenset(again), tuple(banners)
        if layout.repeated:
            layout.skipped |= layout.repeated
            data = layout.data_rows(len(rows))
    if layout.reference_cols:  # a Table over a reference column ends with its totals row too: "Total" is no reference
        layout.skipped |= _rows_left_out(sheet, layout, options.skip_hidden)
        data = layout.data_rows(len(rows))
    if (totals := typed_totals_row(sheet, layout, data)) is not None:
        layout.typed_totals, data = frozenset({totals[0]}), [r for r in data if r != totals[0]]
        layout.skipped, layout.notes = layout.skipped | layout.typed_totals, [*layout.notes, totals[1]]
    # A reference typed once is found among every row below the headers, hidden ones too: it serves every
    # candidate even in a row that skip_hidden leaves out (a filter hid that row's candidate, not the reference
    # above the others), so that leaving rows out never changes the scores of the rows kept.
    layout.merged, merge_notes = merged_cells(sheet, layout)
    refuse_merged_headers(sheet, layout, candidate_col is not None, bool(reference_cols))
    shared = _shared_row(sheet, layout) if layout.reference_cols else None
    serving = data if shared is None else [shared]  # the rows whose reference cells are read
    if len(layout.reference_cols) > 1 and not reference_cols:
        # Numbered references found by their headers: an empty one (Reference 3 prepared but never filled) is
        # left out, and said so, rather than refusing the sheet; at least one must hold text.
        empty = [c for c in layout.reference_cols if _is_empty(layout, rows, c, serving)]
        if len(empty) < len(layout.reference_cols):
            layout.reference_cols = [c for c in layout.reference_cols if c not in empty]
            layout.notes += [(f"the reference column {layout.name(c)} is empty: left out",) for c in empty]
        if len(layout.reference_cols) > 1:  # said: "Reference 12" beside "Reference" reads as a second reference
            names = ", ".join(layout.name(c) for c in layout.reference_cols)
            layout.notes.append(
                (
                    f"{len(layout.reference_cols)} reference columns found by their headers ({names}): each "
                    "candidate is scored against all of them; to use fewer, give them with ",
                    Setting("reference_cols"),
                )
            )
    for col, what in [(cand, "candidate"), *((c, "reference") for c in layout.reference_cols)]:
        check_cached(sheet, layout, col, what)
        if _is_empty(layout, rows, col, data if what == "candidate" else serving):
            _refuse_empty(sheet, layout, col, what, width)
    layout.shared_row = shared
    given = [("candidate_col", candidate_col, cand)]
    if reference_cols:
        given += [("reference_cols", spec, col) for spec, col in zip(reference_cols, layout.reference_cols)]
    if not any(known_name(h, CANDIDATE_NAMES | REFERENCE_NAMES) for h in headers):  # else a header row, evidently
        layout.notes += letter_read_as_name(layout, given)
    if guessed:
        named = ", ".join(layout.name(c) for c in (cand, *layout.reference_cols))
        first = next(r for r, row in enumerate(rows) if any(header_text(v) for v in row))
        title = f", under a title in row {first + 1}," if first < index else ""
        layout.notes.append(
            (
                f"row {index + 1}{title} holds text over the columns given ({named}): it is read as the header row; ",
                Setting("no_header"),
                " scores it as data",
                *((", ", Setting("header_row"), " names another") if title else ()),
            )
        )
    layout.notes += merge_notes
    if shared is None and layout.reference_cols:
        layout.notes += _blank_references(sheet, layout, options.fill_down)
    layout.notes += row_notes(sheet, layout, options.skip_hidden) + past_header_notes(sheet, layout)
    layout.notes += formatted_numbers_note(sheet, layout, data)
    return layout


def _refuse_repeated(sheet: Sheet, layout: Layout, specs: Sequence[str], candidate_given: bool) -> None:
    """Refuse reference columns given so that one column is read twice: as the candidate (every candidate would
    be its own reference, and score 1) or as two references (one reference counted as two)."""
    cols = layout.reference_cols
    if layout.candidate_col in cols:
        name = layout.name(layout.candidate_col)
        if candidate_given:
            raise InputError(
                Setting("candidate_col"),
                " and ",
                Setting("reference_cols"),
                f" name the same column ({name}): each candidate would be scored against itself",
            )
        raise InputError(
            Setting("reference_cols"),
            f" names the candidate column ({name}): each candidate would be scored against itself; give the "
            "candidate column with ",
            Setting("candidate_col"),
        )
    for col in cols:
        if cols.count(col) > 1:
            given = " and ".join(repr(spec) for spec, c in zip(specs, cols) if c == col)
            raise InputError(
                Setting("reference_cols"),
                f" names the column {layout.name(col)} more than once ({given}): give each reference column once",
            )


def _blank_references(sheet: Sheet, layout: Layout, fill_down: bool) -> list[tuple[Part, ...]]:
    """The rows with a candidate whose references are all blank, said in a note that names their cells: a
    reference typed once per group of rows (its product's variants below it) leaves them so. With ``fill_down``,
    each such row takes the references of the nearest row above that has some (``layout.filled``), as Excel's
    fill down would write them."""
    rows, refs = sheet.rows, layout.reference_cols
    blank: list[int] = []
    under: list[int] = []  # the blank ones with references above them: what filling down would give
    source: int | None = None
    spans: list[tuple[int, int]] = []
    typed = _typed_rows(sheet, layout)
    for r, has_references in zip(typed, layout.rows_with_references(rows, typed)):
        if has_references:
            source = r
            continue
        if source is not None:
            under.append(r)
            if spans and spans[-1][0] == source:
                spans[-1] = (source, r)
            else:
                spans.append((source, r))
        if filled(rows[r], layout.candidate_col) and r not in layout.skipped:
            blank.append(r)
    first = f"{column_letter(refs[0])}"
    if fill_down:
        layout.filled = spans
        if not under:
            return []
        count = f"{len(under):,} {'row' if len(under) == 1 else 'rows'}"
        return [(f"{count} with blank references take those of the nearest row above (", Setting("fill_down"), ")")]
    if not blank:
        return []
    cells = ", ".join(f"{first}{r + 1}" for r in blank[:LISTED_CELLS])
    more = f" and {len(blank) - LISTED_CELLS:,} more" if len(blank) > LISTED_CELLS else ""
    which = f"cell {first}{blank[0] + 1} is blank" if len(blank) == 1 else f"cells {cells}{more} are blank"
    rows_not = "that row is" if len(blank) == 1 else "those rows are"
    note: tuple[Part, ...] = (f"the reference {which}: {rows_not} not scored",)
    if set(blank) & set(under):
        note += (
            "; if each reference serves the rows below it, fill it down in the sheet, or give ",
            Setting("fill_down"),
        )
    return [note]


def _typed_rows(sheet: Sheet, layout: Layout) -> Sequence[int]:
    """The rows below the header row that are not a table's totals row, hidden ones included."""
    left_out = _rows_left_out(sheet, layout, False) | layout.typed_totals
    return Layout(layout.header_row, layout.candidate_col, skipped=left_out).data_rows(len(sheet.rows))


def _refuse_empty(sheet: Sheet, layout: Layout, col: int, what: str, width: int) -> NoReturn:
    """Refuse a column with no text in the rows read; when its text is all in hidden rows that skip_hidden leaves
    out, name those cells, which the user may not see."""
    rows = sheet.rows
    hidden = [r for r in _typed_rows(sheet, layout) if r in layout.skipped and filled(rows[r], col)]
    if hidden:
        cells = [f"{column_letter(col)}{r + 1}" for r in hidden[:LISTED_CELLS]]
        more = f" and {len(hidden) - LISTED_CELLS:,} more" if len(hidden) > LISTED_CELLS else ""
        where = "a hidden row" if len(hidden) == 1 else "hidden rows"
        raise InputError(
            f"sheet {sheet.name!r}: the {what} column {layout.name(col)} holds text only in {where} "
            f"({', '.join(cells)}{more}), which ",
            Setting("skip_hidden"),
            " leaves out",
        )
    below = "" if layout.header_row is None else f" below the header row {layout.header_row + 1}"
    beyond = f" (the sheet's cells end at column {column_letter(width - 1)})" if col >= width else ""
    raise InputError(f"sheet {sheet.name!r}: the {what} column {layout.name(col)} is empty{below}{beyond}")


def _is_empty(layout: Layout, rows: list[list[Any]], col: int, data: Sequence[int]) -> bool:
    if col in layout.merged:
        return all(cell_text(layout.cell(rows, r, col)) is None for r in data)
    return not any(filled(rows[r], col) for r in data)


def _rows_left_out(sheet: Sheet, layout: Layout, skip_hidden: bool) -> frozenset[int]:
    """The rows below the header row that are not data: the totals rows of the Excel Tables that hold the candidate
    column or a reference column (never pairs), and the hidden ones (by hand or by a filter) when they are left out."""
    totals = totals_rows_of(sheet, [layout.candidate_col, *layout.reference_cols])
    below = {r for r in totals if r >= layout.data_start} | layout.repeated
    if skip_hidden:
        below |= {r for r in sheet.hidden_rows if r >= layout.data_start}
    return frozenset(below)


def _shared_row(sheet: Sheet, layout: Layout) -> int | None:
    """The one data row whose reference cells hold anything, when two or more rows have a candidate: the
    reference typed once, above or beside the first candidate read, for every candidate of the column. It is
    found among every row below the headers, hidden ones too (a filter that hid its row hid a candidate, not the
    reference above the others).

    A lone reference below the first candidate is refused: it could be the reference of its own row only (the
    others not filled in yet) or of every candidate (typed in the wrong row, or moved by a sort), and the two
    readings give different scores."""
    rows = sheet.rows
    found = None
    candidates = 0
    for r in _typed_rows(sheet, layout):
        row = rows[r]
        if any(cell_text(layout.cell(rows, r, c)) is not None for c in layout.reference_cols):
            if found is not None:
                return None
            found = r
        candidates += filled(row, layout.candidate_col)
    if found is None or candidates < 2:
        return None
    first = next((r for r in layout.data_rows(len(rows)) if filled(rows[r], layout.candidate_col)), found)
    if found > first:
        cells = ", ".join(f"{column_letter(c)}{found + 1}" for c in layout.reference_cols if filled(rows[found], c))
        columns = ", ".join(layout.name(c) for c in layout.reference_cols)
        many = len(layout.reference_cols) > 1
        hidden = ", in a hidden row" if first in sheet.hidden_rows else ""
        raise InputError(
            f"sheet {sheet.name!r}: the reference {'columns' if many else 'column'} {columns} "
            f"{'are' if many else 'is'} filled only in {cells}, below the first candidate "
            f"({column_letter(layout.candidate_col)}{first + 1}{hidden}): the reference of row {found + 1} alone, or "
            f"of every candidate? Type it in row {first + 1} or above for every candidate, fill in the reference "
            "of each row, or give it with ",
            Setting("reference_text"),
        )
    return found


def _labelled_reference(rows: list[list[Any]]) -> tuple[str, str] | None:
    """A cell labelled "Reference" above the header row, with the reference text to its right (the Rank sheet)."""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if known_name(header_text(value), REFERENCE_NAMES) == "exact":
                for right in range(c + 1, len(row)):
                    text = cell_text(row[right])
                    if text is not None and not isinstance(text, CellError):
                        return text, f"{column_letter(right)}{r + 1}"
    return None


def find_table(first: Sheet, load: Callable[[str], Sheet], options: TableOptions) -> tuple[Sheet, Layout]:
    """The sheet to score and its layout: ``first`` (the sheet asked for, or the first visible one), or, when no
    sheet was asked for and ``first`` is a cover page (no candidate or reference header at all, as the template's
    "Start here"), the next visible sheet that has them, read with ``load(name)``.

    Any other problem is the first sheet's, and is raised; past it, a sheet without a column given by name is
    passed over too (a comparison's "Candidate A"), and when no sheet has it, the sheet whose header is closest
    to the name is the one reported.
    """
    try:
        return first, find_layout(first, options)
    except MissingColumn as missing:
        hint = another_sheet(first.sheet_names, first.name, first.hidden_sheets, options.sheet)
        if not hint:
            raise
        raise MissingColumn(*missing.parts, *hint) from None
    except NoColumnsFound:
        if options.sheet is not None or first.is_text:
            raise
        later = first.sheet_names[first.sheet_names.index(first.name) + 1 :]
        missing: ColumnNotFound | None = None
        for name in (n for n in later if n not in first.hidden_sheets):
            other = load(name)
            try:
                return other, find_layout(other, options)
            except NoColumnsFound:
                continue
            except ColumnNotFound as problem:
                if missing is None or problem.closeness > missing.closeness:
                    missing = problem
        if missing is not None:
            raise missing from None
        raise
