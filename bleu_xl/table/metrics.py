"""The metrics a table is scored with: BLEU-N and chrF, each with its name, result columns and scoring of pairs.

A row scores exactly as the same pair does in Excel (``BLEU2``/``BLEU``, ``CHRF``): the pairs come with the cell
semantics of :mod:`bleu_xl.excel.cells`, and so do their blanks and errors.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ..core.bleu import Score, Stats, check_settings, score_from_stats, signature, sum_stats
from ..core.bootstrap import Bootstrap, ChrfBootstrap
from ..core.chrf import (
    ChrfScore,
    ChrfStats,
    check_chrf_settings,
    chrf_from_stats,
    chrf_name,
    chrf_signature,
    chrf_words,
    sum_chrf_stats,
)
from ..core.errors import BleuError, BleuXlError, Setting
from ..core.tokenizer import tokenize
from ..excel.cell_values import Blank, CellError, ColumnKind, DetailColumn
from ..excel.cells import (
    Pair,
    bleu_references,
    chrf_references,
    detail_columns,
    detail_row,
    each_chrf_pair,
    reference_set,
    score_pairs,
)
from .sheet import InputError

__all__ = [
    "BLEU_2",
    "METRIC_NAMES",
    "Bleu",
    "Chrf",
    "Metric",
    "Outcome",
    "Scored",
    "check_reference_text",
    "metrics_named",
]

#: A pair's score under one metric.
Scored = Score | ChrfScore
#: A row's outcome under one metric: its score, a blank candidate, or the error that is its note.
Outcome = Score | ChrfScore | Blank | CellError

#: The names ``metrics_named`` knows: ``bleu`` (BLEU-N, ``bleu2`` the same with n = 2) and ``chrf``.
METRIC_NAMES = ("bleu", "bleu2", "chrf")


@dataclass(frozen=True)
class Bleu:
    """BLEU-N with add-1 smoothing (or none), as ``BLEU2`` and ``BLEU`` score in Excel."""

    max_n: int = 2
    smoothing: str = "add1"

    def __post_init__(self) -> None:
        check_settings(self.max_n, self.smoothing)

    @property
    def name(self) -> str:
        return f"BLEU-{self.max_n}"

    def detail_columns(self) -> tuple[DetailColumn, ...]:
        """The columns of a row's detail: p1 to pN (value, numerator, denominator), BP, r, c."""
        return detail_columns(self.max_n)

    def detail(self, score: Scored) -> list[float | int]:
        if not isinstance(score, Score):
            raise TypeError(f"a BLEU detail of a {type(score).__name__}")
        return detail_row(score)

    def score(self, pairs: Sequence[Pair]) -> list[Outcome]:
        """An :data:`Outcome` per pair."""

        def keep(stats: Stats, refs: int) -> Score:
            return score_from_stats(stats, smoothing=self.smoothing, refs=refs)

        return list(score_pairs(pairs, self.max_n, keep))

    def corpus(self, scores: Sequence[Scored]) -> Score:
        """The corpus score of these pairs' scores: their statistics added up, then the formula."""
        total = sum_stats((s.stats for s in scores if isinstance(s, Score)), self.max_n)
        return score_from_stats(total, smoothing=self.smoothing, refs=max(s.refs for s in scores))

    def signature(self, refs: int = 1) -> str:
        return signature(self.max_n, self.smoothing, refs)

    def reference_key(self, texts: tuple[str, ...]) -> Hashable:
        """What BLEU reads of a reference set, equal for references it scores every candidate against alike: the
        tokens of each reference (after NFKC and casefold, so case, spacing, punctuation and how an accent is
        encoded do not count), a reference with no words left out, in any order. Candidates whose references
        have the same key share a reference (:func:`~bleu_xl.table.scoring.rank_within_reference`)."""
        keys = {" ".join(tokenize(text)) for text in texts}  # a token holds no space: the join is one-to-one
        keys.discard("")
        return next(iter(keys)) if len(keys) == 1 else frozenset(keys)  # one text: less memory than a set

    def prepare(self, texts: tuple[str, ...]) -> object:
        """The references prepared for :meth:`bootstrap` (``BleuError`` for a reference with no words)."""
        return bleu_references(self.max_n)(texts)

    def bootstrap(self, samples: int, seed: int) -> Bootstrap:
        return Bootstrap(samples=samples, seed=seed, max_n=self.max_n, smoothing=self.smoothing)


@dataclass(frozen=True)
class Chrf:
    """chrF (chrF++ with ``word_order`` 2), as ``CHRF`` scores in Excel and sacrebleu's ``CHRF`` does."""

    char_order: int = 6
    word_order: int = 0
    beta: int = 2

    def __post_init__(self) -> None:
        check_chrf_settings(self.char_order, self.word_order, self.beta)

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++`` (sacrebleu's names; the orders are in the signature)."""
        return chrf_name(self.word_order, self.beta)

    def detail_columns(self) -> tuple[DetailColumn, ...]:
        """The precision and recall (averaged over the orders) the score is the F-beta of."""
        return (DetailColumn(f"{self.name} P", ColumnKind.SCORE), DetailColumn(f"{self.name} R", ColumnKind.SCORE))

    def detail(self, score: Scored) -> list[float | int]:
        if not isinstance(score, ChrfScore):
            raise TypeError(f"a chrF detail of a {type(score).__name__}")
        return [score.precision, score.recall]

    def score(self, pairs: Sequence[Pair]) -> list[Outcome]:
        """An :data:`Outcome` per pair."""

        def keep(stats: ChrfStats, refs: int) -> ChrfScore:
            return chrf_from_stats(stats, **self._settings(), refs=refs)

        return list(each_chrf_pair(pairs, (self.char_order, self.word_order), self.beta, keep))

    def corpus(self, scores: Sequence[Scored]) -> ChrfScore:
        total = sum_chrf_stats((s.stats for s in scores if isinstance(s, ChrfScore)), self.char_order + self.word_order)
        return chrf_from_stats(total, **self._settings(), refs=max(s.refs for s in scores))

    def signature(self, refs: int = 1) -> str:
        return chrf_signature(self.char_order, self.word_order, self.beta, refs)

    def reference_key(self, texts: tuple[str, ...]) -> Hashable:
        """What chrF reads of a reference set (as :meth:`Bleu.reference_key` says of BLEU): each reference's
        characters without whitespace and, for chrF++, its words (which hold the same characters), in order (the
        first of two equally good references is the one scored). Case, punctuation and how an accent is encoded
        count, as sacrebleu's chrF counts them."""
        if self.word_order:
            keys = tuple(" ".join(chrf_words(text)) for text in texts)  # a word holds no whitespace
        else:
            keys = tuple("".join(text.split()) for text in texts)
        return keys[0] if len(keys) == 1 else keys

    def prepare(self, texts: tuple[str, ...]) -> object:
        return chrf_references((self.char_order, self.word_order))(texts)

    def bootstrap(self, samples: int, seed: int) -> ChrfBootstrap:
        return ChrfBootstrap(samples=samples, seed=seed, **self._settings())

    def _settings(self) -> dict[str, int]:
        return {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}


Metric = Bleu | Chrf
#: BLEU-2 with add-1 smoothing: the default metric of every face.
BLEU_2 = Bleu()


def metrics_named(
    names: Sequence[str],
    *,
    max_n: int = 2,
    smoothing: str = "add1",
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
) -> tuple[Metric, ...]:
    """The metrics of ``names`` (each may hold several, comma-separated: ``["bleu2,chrf"]``), in order, each once,
    with these settings; ``bleu`` when none is named. ``bleu2`` is ``bleu`` with ``max_n`` 2."""
    words = [word.strip().lower() for name in names for word in name.split(",")]
    if any(not word for word in words):
        raise BleuError(Setting("metric"), " has an empty name: give bleu, bleu2 or chrf, separated by commas")
    metrics: list[Metric] = []
    for word in words or ["bleu"]:
        if word not in METRIC_NAMES:
            raise BleuError(Setting("metric"), f" {word!r} is not a metric: use {', '.join(METRIC_NAMES)}")
        if word == "bleu2" and max_n != 2:
            raise BleuError(
                Setting("metric"), " bleu2 is BLEU-2: use bleu with ", Setting("max_n", max_n), f" for BLEU-{max_n}"
            )
        metric: Metric = Bleu(max_n, smoothing) if word.startswith("bleu") else Chrf(char_order, word_order, beta)
        if metric in metrics:
            raise BleuError(Setting("metric"), f" names {metric.name} twice")
        metrics.append(metric)
    return tuple(metrics)


def check_reference_text(text: str | None, metrics: Sequence[Metric]) -> None:
    """Refuse a reference given as text (``reference_text``) that no candidate could be scored against: blank, an
    error value, or a text a chosen metric cannot use (BLEU needs words; chrF takes punctuation alone, as Excel's
    CHRF does)."""
    if text is None:
        return
    given = reference_set([text])
    if given is None:
        raise InputError(
            Setting("reference_text"), f" {text!r} is blank: give the text to score every candidate against"
        )
    if isinstance(given, CellError):
        raise InputError(Setting("reference_text"), f" {text!r} is an error value, not a text to score against")
    for metric in metrics:
        try:
            metric.prepare(given)
        except BleuXlError as exc:
            other = ("; chrF takes it: ", Setting("metric", "chrf")) if isinstance(metric, Bleu) else ()
            raise InputError(
                Setting("reference_text"), f" {text!r}: {metric.name} cannot score against it ({exc})", *other
            ) from None
