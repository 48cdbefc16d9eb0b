"""The Excel functions of the classic xlwings add-in: declarations only, the work is done in ``bleu_xl.cells``.

Set ``UDF Modules`` to ``bleu_xl.udfs`` (the template's xlwings.conf sheet does) and import the functions.
Every range argument is read as a 2-D list with error cells as their text (``#N/A``), so ``cells`` sees the
same values here as in xlwings Lite.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from . import cells

CATEGORY = "BLEU"
RANGE = {"ndim": 2, "err_to_str": True}
REFERENCE_DOC = "The approved reference: a cell or a range (a wider range gives several references per candidate)."
CANDIDATE_DOC = "The text to score: a cell or a range of the same shape; a range spills one result per cell."


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
def BLEU2(reference: Any, candidate: Any) -> Any:
    """BLEU-2 of the candidate against the reference, from 0 to 1 (unigrams and bigrams, add-1 smoothing)."""
    return cells.bleu_cells(reference, candidate, "bleu")


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
def BLEU2_P1(reference: Any, candidate: Any) -> Any:
    """p1: the share of candidate words found in the reference (clipped; add-1 when none is found)."""
    return cells.bleu_cells(reference, candidate, "p1")


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
def BLEU2_P2(reference: Any, candidate: Any) -> Any:
    """p2: the share of candidate word pairs (bigrams) found in the reference (add-1 when none is found)."""
    return cells.bleu_cells(reference, candidate, "p2")


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
def BLEU2_BP(reference: Any, candidate: Any) -> Any:
    """Brevity penalty: 1 when the candidate is at least as long as the reference, less when it is shorter."""
    return cells.bleu_cells(reference, candidate, "bp")


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
@xw.arg("headers", doc="TRUE to put a header row first (default FALSE).")
def BLEU2_DETAIL(reference: Any, candidate: Any, headers: Any = False) -> Any:
    """A row per pair: BLEU2, p1, p1 num, p1 den, p2, p2 num, p2 den, BP, r (reference tokens), c (candidate)."""
    return cells.detail_cells(reference, candidate, headers)


@xw.func(category=CATEGORY)
@xw.arg("references", doc="The references, one per candidate (or a wider range: several per candidate).", **RANGE)
@xw.arg("candidates", doc="The candidates; pairs with a blank side are left out.", **RANGE)
def BLEU2_CORPUS(references: Any, candidates: Any) -> Any:
    """Corpus BLEU-2: n-gram matches and lengths added up over all filled-in pairs, then one score."""
    return cells.corpus_cells(references, candidates)


@xw.func(category=CATEGORY)
@xw.arg("text", doc="A cell (or, with a separator, a range) of text.", **RANGE)
@xw.arg("separator", doc="Optional: join each cell's tokens with this text instead of spilling them.")
def BLEU2_TOKENS(text: Any, separator: Any = None) -> Any:
    """The tokens bleu-xl scores: lowercased words, one token per CJK character, punctuation dropped."""
    return cells.tokens_cells(text, separator)


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
@xw.arg("max_n", doc="Optional: the longest n-gram, 1 to 9 (default 4).")
@xw.arg("smoothing", doc='Optional: "add1" (default) or "none".')
def BLEU(reference: Any, candidate: Any, max_n: Any = 4, smoothing: Any = "add1") -> Any:
    """BLEU-N (BLEU-4 by default) of the candidate against the reference, from 0 to 1."""
    return cells.bleu_cells(reference, candidate, "bleu", max_n, smoothing)


@xw.func(category=CATEGORY)
@xw.arg("max_n", doc="Optional: the longest n-gram (default 2).")
@xw.arg("smoothing", doc='Optional: "add1" (default) or "none".')
@xw.arg("refs", doc="Optional: references per candidate (default 1).")
def BLEU2_SIGNATURE(max_n: Any = 2, smoothing: Any = "add1", refs: Any = 1) -> Any:
    """The signature that pins every scoring choice, to note next to published scores."""
    return cells.signature_cell(max_n, smoothing, refs)


@xw.func(category=CATEGORY)
@xw.arg("reference", doc=REFERENCE_DOC, **RANGE)
@xw.arg("candidate", doc=CANDIDATE_DOC, **RANGE)
def BLEU2_EXPLAIN(reference: Any, candidate: Any) -> Any:
    """Why a pair scored as it did: reference words missing, extra words, reference bigrams missed."""
    return cells.explain_cells(reference, candidate)


@xw.func(category=CATEGORY)
@xw.arg("references", doc="The references, one per candidate.", **RANGE)
@xw.arg("candidates", doc="The candidates; pairs with a blank side are left out.", **RANGE)
@xw.arg("level", doc="Optional: the interval's confidence level (default 0.95).")
@xw.arg("samples", doc="Optional: bootstrap resamples (default 1000).")
def BLEU2_CI(references: Any, candidates: Any, level: Any = 0.95, samples: Any = 1000) -> Any:
    """Corpus BLEU-2 with a bootstrap interval, spilled as a row: low, score, high."""
    return cells.ci_cells(references, candidates, level, samples)


@xw.func(category=CATEGORY)
@xw.arg("references", doc="The references, one per row.", **RANGE)
@xw.arg("candidates_a", doc="The first set of candidates (A).", **RANGE)
@xw.arg("candidates_b", doc="The second set of candidates (B), row by row with A.", **RANGE)
@xw.arg("samples", doc="Optional: bootstrap resamples (default 1000).")
def BLEU2_PAIRED(references: Any, candidates_a: Any, candidates_b: Any, samples: Any = 1000) -> Any:
    """Is B really better than A? Spills corpus BLEU-2 of A, of B, the difference B - A and the p-value."""
    return cells.paired_cells(references, candidates_a, candidates_b, samples)
