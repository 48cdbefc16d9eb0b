"""Builds the ranking template and the sample workbooks (XlsxWriter: Excel Tables, cached values, dynamic arrays).

``bleu-xl template [FOLDER]`` writes ``bleu2_ranking.xlsx`` and ``samples/*.xlsx``; the copies committed under
``workbooks/`` must equal what this writes (a test checks it). Every formula cell carries its computed value,
which Excel shows until it recalculates the cell (LibreOffice recalculates array formulas on open), and the data
sits in Excel Tables whose calculated columns fill themselves down, so no formula, ranking, name or chart
stops at a fixed row.

How the formulas are stored, and why:

- Every formula that calls a bleu-xl function is a dynamic-array formula (``cm="1"``): Excel 365 shows a legacy
  formula that calls a user-defined function as ``=@BLEU2(...)`` (implicit intersection), which never spills.
- Functions newer than Excel 2007 carry their ``_xlfn.`` prefix (XlsxWriter adds it: ``use_future_functions``).
- bleu-xl's functions are stored under their plain names, the way Excel stores a VBA function of the workbook's
  own project. An add-in's function is stored as ``[1]!BLEU2`` with an external link to the add-in's path, which
  differs from machine to machine, and an Office.js custom function (xlwings Lite) as ``_xldudf_BLEU2``, which
  the classic add-in and every other application would not know. Plain names bind wherever the functions are
  registered when the workbook is read; where they are registered later, the README's fix applies.
- No ``fullCalcOnLoad`` and a current ``calcId``: a forced recalculation on open would turn every correct cached
  score into ``#NAME?`` wherever the functions are missing. Excel still recalculates each cell whose input
  changes (calculation stays automatic).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import Setting
from ..core.metrics import BLEU_2
from ..core.metrics.base import ColumnKind
from ..excel import cells
from ..excel.functions import FUNCTIONS
from ..files.write.output import write_files
from ..files.write.xlsx_style import DATA_BAR
from ..table.sheet import InputError
from .compare_sheet import (
    COMPARE_FIRST,
    compare_sheet,
    one_sided_counts,
    one_sided_formula,
    pairs_formula,
    verdict_formula,
    verdict_text,
)
from .data import PAIRS, RANK_REFERENCE, RANK_VARIANTS, SAMPLES
from .text import DEFINITION, START_HERE
from .workbook import (
    CORE_PROPERTIES,
    Column,
    cached_value,
    cell_formats,
    fit_row,
    mark_array_columns,
    measure_columns,
    new_book,
    page_setup,
    text_width,
    this_row,
    typed_texts,
    write_formula,
    write_spill,
    write_table,
)

__all__ = [
    "COMPARE_FIRST",
    "SHEETS",
    "SORTED_CHART_NAMES",
    "SORTED_VIEW",
    "build_all",
    "build_sample",
    "build_template",
    "one_sided_counts",
    "one_sided_formula",
    "pairs_formula",
    "sorted_rows",
    "token_count",
    "token_count_formula",
    "verdict_formula",
    "verdict_text",
    "workbooks",
    "write_workbooks",
]

FIRST = 6  # Excel row of the first candidate on the Rank and Spill sheets (the table header is the row above)
MAX_ROW = 1_048_575  # Excel's last row, 0-based

#: The sheets of the template, in order, with what each one is for (the Start here sheet lists them).
SHEETS = ["Start here", "Rank", "Sorted", "Spill", "Pairs", "Compare", "xlwings.conf"]


def build_template(path: Path, variants: Sequence[str] = tuple(RANK_VARIANTS)) -> None:
    """The ranking workbook: Start here, Rank, Sorted, Spill, Pairs, Compare and xlwings.conf sheets.

    ``variants``: the candidates of the Rank table (tests build it with 200 to see that everything follows).
    """
    book = new_book(path)
    f = cell_formats(book)
    _start_sheet(book, f)
    scores = _rank_sheet(book, f, list(variants))
    _sorted_sheet(book, f, list(variants), scores)
    _spill_sheet(book, f)
    _pairs_sheet(book, f)
    compare_sheet(book, f)
    conf = book.add_worksheet("xlwings.conf")
    conf.write_string(0, 0, "UDF Modules")
    conf.write_string(0, 1, "bleu_xl.udfs")
    conf.set_column(0, 1, 16)
    page_setup(conf)
    book.define_name("Reference", "=Rank!$B$2")
    book.define_name("Candidates", "=tblVariants[Candidate]")
    book.define_name("Scores", "=tblVariants[BLEU-2]")
    book.close()
    mark_array_columns(path, arrays=(RANK_FORMULA,))


START_LABEL_WIDTH = 24
START_TEXT_WIDTH = 110


def _start_sheet(book: Any, f: dict[str, Any]) -> None:
    """What the workbook does, how to install the functions, what each sheet is for, in three languages; then
    every registered function. Each language starts a printed page."""
    ws = book.add_worksheet("Start here")
    ws.set_column(0, 0, START_LABEL_WIDTH)
    ws.set_column(1, 1, START_TEXT_WIDTH)
    ws.write_string(0, 0, "bleu-xl: BLEU-2 scores for copy variants and translations, in Excel", f["title"])
    r = 2
    breaks = []
    for language, rows in START_HERE:
        if r > 2:
            breaks.append(r)
        ws.write_string(r, 0, language, f["section"])
        r += 1
        for label, text in rows:
            ws.write_string(r, 0, label, f["label"])
            ws.write_string(r, 1, text, f["wrap"])
            fit_row(ws, r, [(label, START_LABEL_WIDTH), (text, START_TEXT_WIDTH)])
            r += 1
        r += 1
    breaks.append(r)
    ws.write_string(r, 0, "Functions", f["section"])
    ws.write_string(
        r, 1, "Syntax: what it gives (the same in every language; French and Portuguese Excel use ;)", f["section"]
    )
    r += 1
    for function in FUNCTIONS:
        text = f"{function.syntax}: {function.description}"
        ws.write_string(r, 0, function.name, f["label"])
        ws.write_string(r, 1, text, f["wrap"])
        fit_row(ws, r, [(text, START_TEXT_WIDTH)])
        r += 1
    r += 1
    ws.write_string(r, 0, "Definition", f["label"])
    ws.write_string(r, 1, DEFINITION, f["wrap"])
    fit_row(ws, r, [(DEFINITION, START_TEXT_WIDTH)])
    ws.set_h_pagebreaks(breaks)
    page_setup(ws)


def _reference_sheet(book: Any, f: dict[str, Any], name: str, title: str) -> Any:
    """A sheet with its title in A1 and the labelled reference input cell in B2 (what the formulas point at)."""
    ws = book.add_worksheet(name)
    ws.write_string(0, 0, title, f["title"])
    ws.write_string(1, 0, "Reference", f["label"])
    ws.write_string(1, 1, RANK_REFERENCE, f["input"])
    return ws


def _rank_sheet(book: Any, f: dict[str, Any], variants: list[str]) -> list[Any]:
    """The tblVariants table (BLEU-2 and chrF, p1, p2, BP, tokens, rank by BLEU-2); returns the BLEU-2 of each
    variant (the Sorted sheet shows them in order)."""
    ws = _reference_sheet(book, f, "Rank", "bleu-xl: rank copy variants against one approved reference")
    ws.write_string(2, 0, "Best candidate", f["label"])
    ws.write_string(
        3, 0, "Type or paste the variants under Candidate: every new row of the table is scored and ranked."
    )
    scores = [cached_value(cells.bleu_cells(RANK_REFERENCE, v, "bleu")) for v in variants]
    ranked = [s for s in scores if isinstance(s, float)]
    candidate = this_row("tblVariants", "Candidate")
    width = text_width(variants, 40, 80)
    bleu_2, *details = measure_columns(
        "tblVariants", f, "Reference", "Candidate", [(RANK_REFERENCE, v) for v in variants]
    )
    # chrF beside BLEU-2: a second opinion that credits shared stems (Start here says when to look at which).
    chrf = Column(
        "chrF",
        [cached_value(cells.chrf_cells(RANK_REFERENCE, v)) for v in variants],
        f["score"],
        f"CHRF(Reference,{candidate})",
    )
    columns = [
        Column(
            "#", list(range(1, len(variants) + 1)), f["integer"], "ROW()-ROW(tblVariants[[#Headers],[Candidate]])", 5
        ),
        Column("Candidate", variants, f["input"], width=width),
        bleu_2,
        chrf,
        *details,
        Column("Tokens", [token_count(v) for v in variants], f["integer"], token_count_formula(candidate), 8),
        Column(
            "Rank",
            [1 + sum(t > s for t in ranked) if isinstance(s, float) else "" for s in scores],
            f["integer"],
            RANK_FORMULA,
            7,
            dynamic=True,
        ),
    ]
    write_table(ws, "tblVariants", FIRST - 2, 0, columns, f["header"])
    ws.set_column(0, 0, 14)  # the labels above the table
    best = variants[scores.index(max(ranked))] if ranked else ""
    write_formula(
        ws,
        2,
        1,
        BEST_FORMULA,
        f["text"],
        best,
        dynamic=True,
    )
    fit_row(ws, 1, [(RANK_REFERENCE, width)])
    fit_row(ws, 2, [(best, width)])
    # The data bars cover the whole columns below the header (BLEU-2, chrF), not the table's rows of today: a
    # conditional format's range is fixed in the file, and only numbers get a bar, so the cells below show nothing.
    for column in (2, 3):
        ws.conditional_format(FIRST - 1, column, MAX_ROW, column, DATA_BAR)
    ws.freeze_panes(FIRST - 1, 0)
    page_setup(ws, FIRST - 2)
    return scores


# Among the numbers only, as array formulas (IF over the column; Excel 2019 and before take them as such too):
# MAX and RANK.EQ give an error for the whole column when one cell is an error value (xlwings Lite returns #N/A
# for an input's #N/A), and an error text (the classic add-in's) has no rank.
RANK_FORMULA = (
    f"IF(ISNUMBER({this_row('tblVariants', 'BLEU-2')}),1+SUM(IF(ISNUMBER(tblVariants[BLEU-2]),"
    f'IF(tblVariants[BLEU-2]>{this_row("tblVariants", "BLEU-2")},1,0),0)),"")'
)
BEST_FORMULA = (
    'IF(COUNT(tblVariants[BLEU-2])=0,"",INDEX(tblVariants[Candidate],'
    "MATCH(MAX(IF(ISNUMBER(tblVariants[BLEU-2]),tblVariants[BLEU-2])),tblVariants[BLEU-2],0)))"
)

#: The column of BLEU2_DETAIL's row that holds c, the candidate's token count (1-based, as INDEX takes it).
DETAIL_C = 10

# Only rows with a number: a blank or error-text BLEU-2 would sort above every score. FILTER's if_empty "" and
# the COUNT guard keep an emptied table from showing #CALC!.
SORTED_VIEW = (
    'IF(COUNT(tblVariants[BLEU-2])=0,"",'
    'SORTBY(FILTER(tblVariants[[\'#]:[BLEU-2]],ISNUMBER(tblVariants[BLEU-2]),""),'
    'FILTER(tblVariants[BLEU-2],ISNUMBER(tblVariants[BLEU-2]),""),-1))'
)


def sorted_rows(variants: Sequence[str], scores: Sequence[Any]) -> list[int]:
    """The table rows (0-based) the Sorted view shows, in its order: those scored with a number, best first,
    ties in table order (SORTBY is stable)."""
    scored = [i for i, s in enumerate(scores) if isinstance(s, (int, float)) and not isinstance(s, bool)]
    return sorted(scored, key=lambda i: -scores[i])


def token_count_formula(candidate: str) -> str:
    """The candidate's own token count, whatever the reference: the c of BLEU2_DETAIL with the candidate as its own
    reference (a count of BLEU2_TOKENS's cells failed past a row's 16,384 columns, counting its error text as one
    token); 0 for a text with no words, which BLEU2_DETAIL gives as #VALUE!. Any other error is shown as it is: a
    0 for #NAME? (the functions not installed, or LibreOffice) would be a count no one made."""
    detail = f"BLEU2_DETAIL({candidate},{candidate})"
    return (
        f'IF({candidate}="","",IFERROR(N(INDEX({detail},1,{DETAIL_C})),'
        f"IF(ERROR.TYPE({detail})={ERROR_TYPE_VALUE},0,{detail})))"
    )


#: What Excel's ERROR.TYPE gives for #VALUE!.
ERROR_TYPE_VALUE = 3


def token_count(candidate: Any) -> Any:
    """What :func:`token_count_formula` gives (its cached value) for a candidate typed in the table: blank for a
    blank cell, else the candidate's token count (0 for a text with no words)."""
    if candidate is None or candidate == "":
        return ""
    grid = cached_value(cells.detail_cells(candidate, candidate))
    count = grid[0][DETAIL_C - 1] if isinstance(grid, list) else None
    return count if isinstance(count, int) else 0


# The names the Sorted sheet's chart plots: a column of the Sorted view's spill (A4#).
SORTED_CHART_NAMES = {"SortedNumbers": 1, "SortedScores": 3}


def _sorted_sheet(book: Any, f: dict[str, Any], variants: list[str], scores: list[Any]) -> None:
    """The Rank table best first (one SORTBY formula outside the table, so it follows it) and a bar chart."""
    ws = book.add_worksheet("Sorted")
    ws.write_string(0, 0, "The variants of the Rank sheet, best first: one formula that follows the table", f["title"])
    for c, header in enumerate(["#", "Candidate", "BLEU-2"]):
        ws.write_string(2, c, header, f["header"])
    order = sorted_rows(variants, scores)
    grid = [[i + 1, variants[i], scores[i]] for i in order] or [[""]]
    formats = [[f["integer"], f["text"], f["score"]]] * len(grid)
    write_spill(ws, 3, 0, SORTED_VIEW, grid, formats)
    width = text_width(variants, 40, 70)
    ws.set_column(0, 0, 5)
    ws.set_column(1, 1, width)
    ws.set_column(2, 2, 9)
    for r, i in enumerate(order):
        fit_row(ws, 3 + r, [(variants[i], width)])
    n = len(order)
    # The chart plots the spill through two names, so it shows what the sheet shows, in its order, and grows
    # and shrinks with it (a chart series cannot hold a spill reference itself; a name can).
    for name, column in SORTED_CHART_NAMES.items():
        book.define_name(f"Sorted!{name}", f"=INDEX(_xlfn.ANCHORARRAY(Sorted!$A$4),0,{column})")
    chart = book.add_chart({"type": "bar"})
    chart.add_series(
        {
            "name": "BLEU-2",
            "categories": "=Sorted!SortedNumbers",
            "values": "=Sorted!SortedScores",
            "categories_data": [i + 1 for i in order],
            "values_data": [scores[i] for i in order],
            "fill": {"color": "#5B9BD5"},
        }
    )
    chart.set_title({"name": "BLEU-2 by candidate (#), best first"})
    chart.set_legend({"none": True})
    chart.set_x_axis({"min": 0, "max": 1})
    chart.set_y_axis({"reverse": True})
    chart.set_size({"width": 420, "height": min(20 * (n + 2), 600)})
    ws.insert_chart(2, 4, chart)
    ws.freeze_panes(3, 0)
    page_setup(ws, 2)


def _spill_sheet(book: Any, f: dict[str, Any]) -> None:
    """Candidates in a one-column table, scored by one range formula beside it that grows with the table."""
    title = "A list of its own (reference in B2, variants under Candidate) scored by one range formula: no rank"
    ws = _reference_sheet(book, f, "Spill", title)
    width = text_width(RANK_VARIANTS, 40, 80)
    write_table(
        ws, "tblSpill", FIRST - 2, 1, [Column("Candidate", RANK_VARIANTS, f["input"], width=width)], f["header"]
    )
    grid = cached_value(cells.detail_cells(RANK_REFERENCE, [[t] for t in RANK_VARIANTS], True))
    kinds = [ColumnKind.SCORE, *(column.kind for column in BLEU_2.details())]
    row_formats = [f["integer"] if kind == ColumnKind.COUNT else f["score"] for kind in kinds]
    formats = [[f["header"]] * len(row_formats)] + [row_formats] * (len(grid) - 1)
    write_spill(ws, FIRST - 2, 2, "BLEU2_DETAIL($B$2,tblSpill[Candidate],TRUE)", grid, formats)
    ws.set_column(0, 0, 10)
    ws.set_column(2, 11, 7)
    fit_row(ws, 1, [(RANK_REFERENCE, width)])
    ws.freeze_panes(FIRST - 1, 0)
    page_setup(ws, FIRST - 2)


PAIRS_NOTE_WIDTH = 24
PAIRS_CORPUS = 9  # column J: the corpus scores, right of the table


def _pairs_sheet(book: Any, f: dict[str, Any]) -> None:
    """One reference per candidate in the tblPairs table (BLEU-2 and its parts, TER and the words that changed),
    and the corpus scores of the whole table."""
    ws = book.add_worksheet("Pairs")
    refs, cands = (list(col) for col in zip(*PAIRS))
    width = text_width(refs + cands, 30, 45)
    reference, candidate = this_row("tblPairs", "Reference"), this_row("tblPairs", "Candidate")
    changes = [cached_value(cells.ter_changes_cells(r, c)) for r, c in PAIRS]
    changes_width = text_width(changes, 30, 45)
    columns = [
        Column("Reference", refs, f["input"], width=width),
        Column("Candidate", cands, f["input"], width=width),
        *measure_columns("tblPairs", f, reference, "Candidate", PAIRS),
        # TER: post-editing effort, the edits per reference word (lower is better), and the words behind it.
        Column(
            "TER", [cached_value(cells.ter_cells(r, c)) for r, c in PAIRS], f["score"], f"TER({reference},{candidate})"
        ),
        Column("Changes", changes, f["text"], f"TER_CHANGES({reference},{candidate})", changes_width, wraps=True),
    ]
    write_table(ws, "tblPairs", 0, 0, columns, f["header"])
    left = PAIRS_CORPUS
    ws.write_string(0, left, "Corpus BLEU-2", f["header"])
    corpus = cached_value(cells.corpus_cells([[r] for r in refs], [[c] for c in cands]))
    write_formula(ws, 1, left, "BLEU2_CORPUS(tblPairs[Reference],tblPairs[Candidate])", f["score"], corpus)
    note = "The n-gram counts of all pairs added up, then one score (not an average)."
    ws.write_string(2, left, note, f["wrap"])
    ws.write_string(4, left, "Corpus TER", f["header"])
    corpus_ter = cached_value(cells.ter_corpus_cells([[r] for r in refs], [[c] for c in cands]))
    write_formula(ws, 5, left, "TER_CORPUS(tblPairs[Reference],tblPairs[Candidate])", f["score"], corpus_ter)
    ter_note = (
        "TER: word edits per reference word, all pairs added up. Lower is better: 0 is identical. Changes: "
        "[-deleted-], {+inserted+}, {>moved<}."
    )
    ws.write_string(6, left, ter_note, f["wrap"])
    for row, text in ((2, note), (6, ter_note)):
        fit_row(ws, row, [(text, PAIRS_NOTE_WIDTH), *typed_texts(columns, row - 1)])
    ws.set_column(left - 1, left - 1, 2)
    ws.set_column(left, left, PAIRS_NOTE_WIDTH)
    ws.freeze_panes(1, 0)
    page_setup(ws, 0)


def build_sample(path: Path, name: str) -> None:
    """A small workbook of hand-checkable pairs (a table): inputs, the expected BLEU-2 and how it is worked out."""
    title, cases = SAMPLES[name]
    book = new_book(path)
    f = cell_formats(book)
    ws = book.add_worksheet("Pairs")
    width = max(len(refs) for refs, *_ in cases)
    ref_headers = ["Reference"] if width == 1 else [f"Reference {i + 1}" for i in range(width)]
    texts = [t for refs, cand, _, how in cases for t in (*refs, cand, how)]
    column_width = text_width(texts, 20, 45)
    columns = [
        *(
            Column(header, [refs[k] if k < len(refs) else "" for refs, *_ in cases], f["input"], width=column_width)
            for k, header in enumerate(ref_headers)
        ),
        Column("Candidate", [cand for _, cand, _, _ in cases], f["input"], width=column_width),
        Column("expected", [expected for _, _, expected, _ in cases], f["expected"], width=10),
        Column("by hand", [how for *_, how in cases], f["wrap"], width=column_width),
    ]
    write_table(ws, "tblSamples", 0, 0, columns, f["header"])
    ws.freeze_panes(1, 0)
    page_setup(ws, 0)
    book.set_properties({**CORE_PROPERTIES, "title": title})
    book.close()


def workbooks(folder: Path) -> list[tuple[Path, Callable[[Path], None]]]:
    """The template and every sample under ``folder``, each with the function that builds it at a given path."""
    samples = [(folder / "samples" / f"{name}.xlsx", functools.partial(build_sample, name=name)) for name in SAMPLES]
    return [(folder / "bleu2_ranking.xlsx", build_template), *samples]


def build_all(folder: Path) -> list[Path]:
    """Build the template and every sample under ``folder`` in place; returns their paths. (``bleu-xl template``
    writes the same :func:`workbooks` through temporary files instead, so that nothing is half-written.)"""
    (folder / "samples").mkdir(parents=True, exist_ok=True)
    books = workbooks(folder)
    for path, build in books:
        build(path)
    return [path for path, _ in books]


def write_workbooks(target: Path, *, force: bool) -> list[Path]:
    """Write the template and the samples into the folder ``target``, or only the template to ``target`` when it
    names an ``.xlsx`` file; all or none, and workbooks already there (perhaps edited) only with ``force``."""
    if target.suffix.lower() == ".xlsx":
        write_files([(target, build_template)], force=force)
        return [target]
    books = workbooks(target)
    existing = [path for path, _ in books if path.exists() or path.is_symlink()]
    for path in existing:
        if not path.is_file():
            raise InputError(f"{path}: not a regular file; bleu-xl writes only regular files")
    if existing and not force:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise InputError(
            f"{existing[0]}: already exists{more}; use ", Setting("force", True), " to replace the workbooks"
        )
    (target / "samples").mkdir(parents=True, exist_ok=True)
    write_files(books, force=force)  # through temporary files: a link is replaced, never written through
    return [path for path, _ in books]
