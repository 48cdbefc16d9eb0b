"""chrF and chrF++: character n-gram F-scores (Popović 2015, 2017), exactly as sacrebleu 2.6's ``CHRF`` gives them:
the metric object :class:`Chrf`, its scores, and the functions that give them.

Statistics add up over a corpus, as BLEU's do: per order, the candidate's n-grams, the reference's n-grams and
the clipped matches. :func:`chrf_from_stats` is the one place that turns them into a score. The definition,
checked against sacrebleu by the tests (it is not sacrebleu's code):

- Character n-grams come from the text with every whitespace character (``str.split``) removed, so they run
  across word boundaries; zero-width characters are not whitespace and stay. No case folding, no normalisation.
- chrF++ adds word n-grams (``word_order`` 2): the words are the text split on whitespace, with one ASCII
  punctuation mark split off a word's end, else off its start (``(hi)`` gives ``(hi`` and ``)``); other
  punctuation stays part of the word.
- An order where the reference has no n-gram counts no candidate n-grams either. The precisions and the
  recalls are averaged over the orders where both sides have n-grams, then one F-beta of the two averages.
- Several references: each is scored alone and the one with the strictly greatest F wins, the first on ties (an
  empty reference, which scores 0, included). A corpus adds up the winning references' statistics, then one F.
- An empty (or whitespace-only) text scores 0, never an error.

Scores run from 0 to 1 (sacrebleu's number / 100). Standard library only (it runs in Pyodide).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ..errors import BleuError
from .base import (
    ColumnKind,
    DetailColumn,
    Metric,
    MetricScore,
    ReferenceLike,
    as_whole,
    check_corpus,
    check_refs,
    settle,
    whole_number,
)
from .chrf_stats import (
    ChrfReferences,
    ChrfStats,
    as_chrf_references,
    averages,
    chrf_held_size,
    chrf_pair_stats,
    chrf_words,
    f_beta,
    obvious_stats,
    sum_chrf_stats,
)

__all__ = [
    "CHRF_2",
    "CHRF_VERSION",
    "MAX_BETA",
    "MAX_CHAR_ORDER",
    "MAX_WORD_ORDER",
    "Chrf",
    "ChrfPart",
    "ChrfReferences",
    "ChrfScore",
    "ChrfStats",
    "check_chrf_settings",
    "chrf",
    "chrf_from_stats",
    "chrf_name",
    "chrf_pair_stats",
    "chrf_signature",
    "chrf_words",
    "corpus_chrf",
    "corpus_chrf_stats",
    "obvious_stats",
    "sum_chrf_stats",
]

#: The version of bleu-xl's chrF definition that its signatures name: it changes only when a chrF score would,
#: apart from BLEU's (``SCORING_VERSION``), so that a change to BLEU leaves chrF signatures as they are.
CHRF_VERSION = "chrf-1"
MAX_CHAR_ORDER = 9
MAX_WORD_ORDER = 9
MAX_BETA = 9


def check_chrf_settings(char_order: int, word_order: int, beta: int) -> None:
    """Raise :class:`BleuError` unless ``char_order`` is 1 to 9, ``word_order`` 0 to 9 and ``beta`` 1 to 9."""
    if not whole_number(char_order, 1, MAX_CHAR_ORDER):
        raise BleuError(f"char_order must be a whole number from 1 to {MAX_CHAR_ORDER}, not {char_order!r}")
    if not whole_number(word_order, 0, MAX_WORD_ORDER):
        raise BleuError(f"word_order must be a whole number from 0 to {MAX_WORD_ORDER}, not {word_order!r}")
    if not whole_number(beta, 1, MAX_BETA):
        raise BleuError(f"beta must be a whole number from 1 to {MAX_BETA}, not {beta!r}")


def chrf_name(word_order: int = 0, beta: int = 2) -> str:
    """The metric's usual name, as sacrebleu writes it: ``chrF2``, ``chrF2++`` (a ``+`` per word order)."""
    return f"chrF{beta}" + "+" * word_order


def chrf_signature(char_order: int = 6, word_order: int = 0, beta: int = 2, refs: int = 1) -> str:
    """The string that pins every chrF choice, e.g. ``bleu-xl:chrf-1|nc:6|nw:0|beta:2|case:mixed|...|refs:1``.

    ``nc``, ``nw``, ``case``, ``space`` and ``eff`` are sacrebleu's names for the same choices (character and word
    orders, case kept, whitespace not counted, averages over the orders both sides have). Settings no score can
    have are refused (:class:`BleuError`).
    """
    char_order, word_order, beta, refs = (as_whole(value) for value in (char_order, word_order, beta, refs))
    check_chrf_settings(char_order, word_order, beta)
    check_refs(refs)
    return (
        f"bleu-xl:{CHRF_VERSION}|nc:{char_order}|nw:{word_order}|beta:{beta}|case:mixed|space:no|eff:yes"
        f"|punct:ascii|refs:{refs}"
    )


class ChrfPart(NamedTuple):
    """The precision, recall and F-beta of one kind of n-gram (characters or words), averaged over its orders."""

    precision: float
    recall: float
    f: float


@dataclass(slots=True)
class ChrfScore(MetricScore):
    """A chrF (or chrF++) score from 0 to 1 and the statistics behind it.

    ``precision`` and ``recall`` are the averages the score is the F-beta of; :attr:`characters` and
    :attr:`words` the same for each kind of n-gram alone (``words`` is ``None`` for plain chrF). Read it by name;
    ``float(score)`` is the chrF, and :meth:`as_dict` gives it as JSON-ready data. Make one with
    :func:`chrf_from_stats`.
    """

    chrf: float
    precision: float
    recall: float
    stats: ChrfStats
    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    refs: int = 1

    @property
    def name(self) -> str:
        return chrf_name(self.word_order, self.beta)

    @property
    def signature(self) -> str:
        return chrf_signature(self.char_order, self.word_order, self.beta, self.refs)

    @property
    def characters(self) -> ChrfPart:
        """Precision, recall and F-beta of the character n-grams alone (the score itself for plain chrF)."""
        return self._part(0, self.char_order)

    @property
    def words(self) -> ChrfPart | None:
        """Precision, recall and F-beta of the word n-grams alone; ``None`` for plain chrF (``word_order`` 0)."""
        return self._part(self.char_order, self.char_order + self.word_order) if self.word_order else None

    def _part(self, start: int, stop: int) -> ChrfPart:
        precision, recall = averages(self.stats, start, stop)
        return ChrfPart(precision, recall, f_beta(precision, recall, self.beta))

    def __float__(self) -> float:
        return self.chrf

    def as_dict(self) -> dict[str, object]:
        """The score as JSON-ready data: ``chrf``, ``precision``, ``recall``, ``characters`` and (chrF++) ``words``
        (each ``precision``, ``recall``, ``f``), every order's counts, the settings and the signature."""
        kinds = ["char"] * self.char_order + ["word"] * self.word_order
        orders = [
            {"kind": kind, "n": n, "candidate": hyp, "reference": ref, "matches": match}
            for kind, n, hyp, ref, match in zip(
                kinds, [*range(1, self.char_order + 1), *range(1, self.word_order + 1)], *self.stats
            )
        ]
        words = self.words
        return {
            "chrf": self.chrf,
            "precision": self.precision,
            "recall": self.recall,
            "characters": self.characters._asdict(),
            **({"words": words._asdict()} if words else {}),
            "orders": orders,
            "name": self.name,
            "char_order": self.char_order,
            "word_order": self.word_order,
            "beta": self.beta,
            "signature": self.signature,
        }


def chrf_from_stats(
    stats: ChrfStats, *, char_order: int = 6, word_order: int = 0, beta: int = 2, refs: int = 1
) -> ChrfScore:
    """chrF of sentence or corpus statistics: the formula, in one place. ``refs`` only goes into the signature."""
    if len(stats.candidate) != char_order + word_order:
        raise BleuError(
            f"statistics of {len(stats.candidate)} orders for char_order + word_order = {char_order + word_order}"
        )
    precision, recall = averages(stats, 0, char_order + word_order)
    return ChrfScore(f_beta(precision, recall, beta), precision, recall, stats, char_order, word_order, beta, refs)


def chrf(
    reference: ReferenceLike | ChrfReferences,
    candidate: str,
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
) -> ChrfScore:
    """chrF of ``candidate`` against one reference or a sequence of references (chrF2 by default; ``word_order=2``
    gives chrF++), from 0 to 1.

    >>> round(chrf("the cat sat on the mat", "the cat sat on a mat").chrf, 4)
    0.6598
    """
    char_order, word_order, beta = (as_whole(value) for value in (char_order, word_order, beta))
    check_chrf_settings(char_order, word_order, beta)
    refs = as_chrf_references(reference, char_order, word_order)
    stats = chrf_pair_stats(refs, candidate, beta)
    return chrf_from_stats(stats, char_order=char_order, word_order=word_order, beta=beta, refs=len(refs))


def corpus_chrf_stats(
    references: Sequence[ReferenceLike | ChrfReferences],
    candidates: Sequence[str],
    char_order: int,
    word_order: int,
    beta: int,
) -> list[tuple[ChrfStats, int]]:
    """The statistics and number of references of every pair of a corpus, after the corpus input checks (every
    setting given: the functions that call it hold the defaults).

    ``references[i]`` is the reference (a string), the references (a sequence of strings) or prepared
    :class:`ChrfReferences` of ``candidates[i]``.
    """
    char_order, word_order, beta = (as_whole(value) for value in (char_order, word_order, beta))
    check_chrf_settings(char_order, word_order, beta)
    check_corpus(references, candidates)
    pairs = []
    for reference, candidate in zip(references, candidates):
        refs = as_chrf_references(reference, char_order, word_order)
        pairs.append((chrf_pair_stats(refs, candidate, beta), len(refs)))
    return pairs


def corpus_chrf(
    references: Sequence[ReferenceLike | ChrfReferences],
    candidates: Sequence[str],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
) -> ChrfScore:
    """Corpus chrF: every pair's statistics (against its best reference) added up, then one F-beta.

    ``references[i]`` is the reference (a string) or references (a sequence of strings) of ``candidates[i]``.
    """
    pairs = corpus_chrf_stats(references, candidates, char_order, word_order, beta)
    total = sum_chrf_stats((stats for stats, _ in pairs), char_order + word_order)
    refs = max(n for _, n in pairs)
    return chrf_from_stats(total, char_order=char_order, word_order=word_order, beta=beta, refs=refs)


@dataclass(frozen=True)
class Chrf(Metric[ChrfReferences, ChrfStats, ChrfScore]):
    """chrF (chrF++ with ``word_order`` 2), as ``CHRF`` scores in Excel and sacrebleu's ``CHRF`` does: the metric
    object every face takes. ``Chrf()`` is chrF2.

    >>> round(Chrf(word_order=2).sentence_score("the cat sat on the mat", "the cat sat on a mat").chrf, 4)
    0.6744
    """

    char_order: int = 6
    word_order: int = 0
    beta: int = 2

    key: ClassVar[str] = "chrf"
    label: ClassVar[str] = "chrF"
    #: The highest orders and beta the settings take.
    MAX_CHAR_ORDER: ClassVar[int] = MAX_CHAR_ORDER
    MAX_WORD_ORDER: ClassVar[int] = MAX_WORD_ORDER
    MAX_BETA: ClassVar[int] = MAX_BETA

    def __post_init__(self) -> None:
        settle(self, whole=("char_order", "word_order", "beta"))
        check_chrf_settings(self.char_order, self.word_order, self.beta)

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++`` (sacrebleu's names; the orders are in the signature)."""
        return chrf_name(self.word_order, self.beta)

    @property
    def preparation(self) -> Hashable:
        return ("chrf", self.char_order, self.word_order)

    def prepare(self, reference: ReferenceLike) -> ChrfReferences:
        """Every reference that is not blank is one: punctuation alone (``...``) has characters to count."""
        return ChrfReferences(reference, self.char_order, self.word_order)

    def prepared(self, reference: ReferenceLike | ChrfReferences) -> ChrfReferences:
        return as_chrf_references(reference, self.char_order, self.word_order)

    def pair_stats(self, prepared: ChrfReferences, candidate: str) -> ChrfStats:
        return chrf_pair_stats(prepared, candidate, self.beta)

    def sum_stats(self, stats: Iterable[ChrfStats]) -> ChrfStats:
        return sum_chrf_stats(stats, self.char_order + self.word_order)

    def score_from_stats(self, stats: ChrfStats, refs: int = 1) -> ChrfScore:
        return chrf_from_stats(stats, char_order=self.char_order, word_order=self.word_order, beta=self.beta, refs=refs)

    def signature(self, refs: int = 1) -> str:
        return chrf_signature(self.char_order, self.word_order, self.beta, refs)

    def as_numbers(self, stats: ChrfStats) -> tuple[int, ...]:
        return (*stats.candidate, *stats.reference, *stats.matches)

    def from_numbers(self, numbers: Sequence[int]) -> ChrfStats:
        n = self.char_order + self.word_order
        return ChrfStats(tuple(numbers[:n]), tuple(numbers[n : 2 * n]), tuple(numbers[2 * n : 3 * n]))

    def reference_key(self, texts: tuple[str, ...]) -> Hashable:
        """What chrF reads of a reference set: each reference's characters without whitespace and, for chrF++, its
        words (which hold the same characters), in order (the first of two equally good references is the one
        scored). Case, punctuation and how an accent is encoded count, as sacrebleu's chrF counts them."""
        if self.word_order:
            keys = tuple(" ".join(chrf_words(text)) for text in texts)  # a word holds no whitespace
        else:
            keys = tuple("".join(text.split()) for text in texts)
        return keys[0] if len(keys) == 1 else keys

    def held_size(self, texts: tuple[str, ...], prepared: ChrfReferences) -> int:
        return chrf_held_size(texts, prepared)

    def details(self) -> tuple[DetailColumn, ...]:
        """The precision and recall (averaged over the orders) the score is the F-beta of."""
        return (DetailColumn(f"{self.name} P", ColumnKind.SCORE), DetailColumn(f"{self.name} R", ColumnKind.SCORE))

    def detail_values(self, score: ChrfScore) -> list[float | int | None]:
        return [score.precision, score.recall]


#: chrF2 with sacrebleu's defaults.
CHRF_2 = Chrf()
