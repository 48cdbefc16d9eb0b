"""The template's *Compare* sheet: two candidate columns, BLEU2_PAIRED's paired test, each side's interval over the
pairs it compares, and a verdict written as a formula of their cells (with its cached value)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xlsxwriter.utility import xl_rowcol_to_cell

from ..core.bootstrap import (
    FEW_PAIRS,
    NEAR_SIGNIFICANCE,
    SIGNIFICANCE,
    one_sided_text,
    paired_test,
    too_few_text,
    verdict,
)
from ..excel import cells
from .data import COMPARE
from .workbook import (
    Column,
    cached_value,
    fit_row,
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
    "compare_sheet",
    "one_sided_counts",
    "one_sided_formula",
    "pairs_formula",
    "verdict_formula",
    "verdict_text",
]

COMPARE_FIRST = 4  # Excel row of the first pair (the table header is the row above)
COMPARE_LEFT = 7  # column H: the paired test and the intervals, right of the table
COMPARE_RESULT_WIDTH = 11


def verdict_text(paired: Sequence[Any], pairs: int, only_a: int = 0, only_b: int = 0) -> str:
    """What the Compare sheet's verdict formula gives (its cached value), from the cells BLEU2_PAIRED fills:
    four numbers (score A, score B, B - A, p-value), or one text ("" or an error text) and blanks; from the
    number of pairs compared (on too few the verdict says only which side scores higher); and from
    the rows left out because only A, or only B, has a candidate (the verdict names them)."""
    values = list(paired)
    if len(values) != 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        first = values[0] if values else None
        return f"No verdict: {first}" if isinstance(first, str) and first else ""
    return verdict(values[2], values[3], pairs=pairs) + one_sided_text("A", only_a, "B", only_b)


def one_sided_counts(table: str) -> tuple[str, str]:
    """The rows of ``table`` left out of the paired test because only A has a candidate, and only B: one side
    scored, the other's BLEU-2 blank, as BLEU2 leaves it for a blank candidate (one of spaces too); an error there
    (a lookup's #N/A) is no blank, and counts for nothing rather than making the count an error."""
    return tuple(  # type: ignore[return-value]
        f'SUMPRODUCT(ISNUMBER({table}[BLEU-2 {scored}])*IFERROR({table}[BLEU-2 {blank}]="",FALSE))'
        for scored, blank in (("A", "B"), ("B", "A"))
    )


def one_sided_formula(only_a: str, only_b: str) -> str:
    """:func:`~bleu_xl.core.bootstrap.one_sided_text` as a formula of the two counts."""
    lead, _, rest = one_sided_text("A", 2, "B", 0).partition("2 rows where only A has a candidate")

    def side(count: str, name: str) -> str:
        return f'IF({count}>0,FIXED({count},0)&IF({count}=1," row"," rows")&" where only {name} has a candidate","")'

    both = f'IF(AND({only_a}>0,{only_b}>0)," and ","")'
    counts = f"{side(only_a, 'A')}&{both}&{side(only_b, 'B')}"
    return f'IF({only_a}+{only_b}=0,"","{lead}"&{counts}&"{rest}")'


def verdict_formula(
    paired: str, first: str, diff: str, p: str, pairs: str, only_a: str = "0", only_b: str = "0"
) -> str:
    """The verdict as a formula of BLEU2_PAIRED's cells (``paired``, four wide, ``first`` its first cell), of its
    difference and p-value cells, and of the cell that counts the pairs compared (``pairs``): on fewer than
    FEW_PAIRS it says which side scores higher, never that the difference is real, and that the pairs are too few
    to tell; it names the rows left out because only one side has
    a candidate (``only_a``, ``only_b``: their counts, :func:`one_sided_counts`). No verdict unless all four are
    numbers: BLEU2_PAIRED gives one text (blank or an error) when it cannot test. FIXED, not TEXT(…,"0.000"), whose
    format string means something else under a French or Portuguese locale."""
    p_shown = (
        f'IF({p}<0.001,"p < 0.001",IF(AND({p}>={NEAR_SIGNIFICANCE},{p}<{SIGNIFICANCE}),"p < 0.05","p = "&FIXED({p},3)))'
    )
    # too_few_text as a formula: "; only 12 pairs were compared, too few for ...", "1 pair was" for one.
    lead, rest = too_few_text(2).split("2 pairs were")
    hedge = f'IF({pairs}<{FEW_PAIRS},"{lead}"&{pairs}&IF({pairs}=1," pair was"," pairs were")&"{rest}","")'
    higher = f'IF({diff}>0,"B scores higher than A","A scores higher than B")'
    return (
        f'IF(COUNT({paired})<4,IF(ISTEXT({first}),IF({first}="","","No verdict: "&{first}),""),'
        f'IF({diff}=0,"A and B score the same ("&{p_shown}&")",'
        f'IF({pairs}<{FEW_PAIRS},{higher}&", "&{p_shown},'
        f'IF({p}<{SIGNIFICANCE},IF({diff}>0,"B is better than A","A is better than B")&"; the difference is '
        f'unlikely to be chance, "&{p_shown},{higher}&", but the difference may well be chance, "&{p_shown})))'
        f"&{hedge}&{one_sided_formula(only_a, only_b)})"
    )


def pairs_formula(table: str) -> str:
    """The pairs BLEU2_PAIRED compares: the rows where both candidates score (a reference and both candidates
    filled in), as ``table``'s BLEU-2 A and B columns show them."""
    return f"SUMPRODUCT(ISNUMBER({table}[BLEU-2 A])*ISNUMBER({table}[BLEU-2 B]))"


def compare_sheet(book: Any, f: dict[str, Any]) -> None:
    """The *Compare* sheet, filled with the example pairs and every formula's cached value."""
    ws = book.add_worksheet("Compare")
    top = COMPARE_FIRST - 2  # 0-based header row
    ws.write_string(0, 0, "Which set of candidates is better, and is the difference real?", f["title"])
    refs, cands_a, cands_b = (list(col) for col in zip(*COMPARE))
    width = text_width(refs + cands_a + cands_b, 20, 36)
    reference = this_row("tblCompare", "Reference")
    columns = [
        Column("Reference", refs, f["input"], width=width),
        Column("Candidate A", cands_a, f["input"], width=width),
        Column("Candidate B", cands_b, f["input"], width=width),
        *(
            Column(
                f"BLEU-2 {side}",
                [cached_value(cells.bleu_cells(r, c, "bleu")) for r, c in zip(refs, cands)],
                f["score"],
                f"BLEU2({reference},{this_row('tblCompare', f'Candidate {side}')})",
            )
            for side, cands in (("A", cands_a), ("B", cands_b))
        ),
    ]
    write_table(ws, "tblCompare", top, 0, columns, f["header"])

    left = COMPARE_LEFT
    paired = paired_test(refs, cands_a, cands_b)
    for c, name in enumerate(["BLEU-2 A", "BLEU-2 B", "B - A", "p-value"], start=left):
        ws.write_string(top, c, name, f["header"])
    ws.write_string(top + 1, left - 1, "Paired test", f["label"])
    formula = "BLEU2_PAIRED(tblCompare[Reference],tblCompare[Candidate A],tblCompare[Candidate B])"
    values = [paired.score_a, paired.score_b, paired.difference, paired.p_value]
    write_spill(ws, top + 1, left, formula, [values], [[f["score"]] * 4])
    for c, name in enumerate(["low", "score", "high"], start=left):
        ws.write_string(top + 3, c, name, f["header"])
    grids = {"R": refs, "A": cands_a, "B": cands_b}
    for k, (side, other) in enumerate((("A", "B"), ("B", "A"))):  # over the pairs the test compares
        ws.write_string(top + 4 + k, left - 1, f"{side}: 95% interval", f["label"])
        formula = (
            f"BLEU2_CI(tblCompare[Reference],tblCompare[Candidate {side}],0.95,1000,tblCompare[Candidate {other}])"
        )
        ci = cells.ci_cells(
            *([[v] for v in grids[name]] for name in ("R", side)), paired_with=[[v] for v in grids[other]]
        )
        write_spill(ws, top + 4 + k, left, formula, ci, [[f["score"]] * 3])
    verdict = verdict_text(values, paired.pairs)
    hypothesis = "A and B are equally good against these references (paired bootstrap, 1000 resamples)."
    pairs_row, verdict_row, hypothesis_row = top + 6, top + 7, top + 8
    ws.write_string(pairs_row, left - 1, "Pairs compared", f["label"])
    write_formula(ws, pairs_row, left, pairs_formula("tblCompare"), f["integer"], paired.pairs)
    ws.write_string(verdict_row, left - 1, "Verdict", f["label"])
    ws.merge_range(verdict_row, left, verdict_row, left + 3, "", f["text"])
    score_a, diff, p = (xl_rowcol_to_cell(top + 1, left + k) for k in (0, 2, 3))
    last = xl_rowcol_to_cell(top + 1, left + 3)
    formula = verdict_formula(
        f"{score_a}:{last}", score_a, diff, p, xl_rowcol_to_cell(pairs_row, left), *one_sided_counts("tblCompare")
    )
    write_formula(ws, verdict_row, left, formula, f["text"], verdict)
    ws.write_string(hypothesis_row, left - 1, "Null hypothesis", f["label"])
    ws.merge_range(hypothesis_row, left, hypothesis_row, left + 3, hypothesis, f["wrap"])
    for row, text in ((verdict_row, verdict), (hypothesis_row, hypothesis)):
        fit_row(ws, row, [(text, 4 * COMPARE_RESULT_WIDTH), *typed_texts(columns, row - top - 1)])
    ws.set_column(5, 5, 2)
    ws.set_column(left - 1, left - 1, 16)
    ws.set_column(left, left + 3, COMPARE_RESULT_WIDTH)
    ws.freeze_panes(top + 1, 0)
    page_setup(ws, top)
