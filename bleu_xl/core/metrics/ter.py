"""TER, translation edit rate (Snover et al. 2006), exactly as sacrebleu 2.6's ``TER()`` gives it: the metric object
:class:`Ter`, its scores, the words that changed, and the functions that give them.

A pair's TER is the fewest edits that turn the candidate's words into the reference's (a word inserted, deleted
or substituted, or a phrase shifted elsewhere: one edit each, found as Tercom finds them, :mod:`.ter_align`),
divided by the reference's length in words (:mod:`.ter_tokenizer` says what a word is). 0 is identical, lower
is better, and it can exceed 1 (a candidate longer than its reference). The definition, checked against
sacrebleu by the tests (it is not sacrebleu's code):

- Several references: the edits are the fewest against any one of them (the first on ties), the length is the
  average of all their lengths.
- A corpus adds up the pairs' edits and their (average) reference lengths, then divides once.
- A reference with no words: the edits are the candidate's words and the length 0, so a pair scores 1 (0 when
  the candidate has no words either).
- A text of more than :data:`MAX_WORDS` words (a candidate or a reference) is refused (:class:`TerTooLong`): the
  search for shifts takes time that grows faster than the square of the words, seconds a pair past it, minutes
  for a page (sacrebleu has no bound; benchmarks/README.md has the figures).

Scores are fractions (sacrebleu's number / 100). Standard library only (it runs in Pyodide).
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ..errors import BleuError, BleuTypeError, Part, Setting
from .base import (
    ColumnKind,
    DetailColumn,
    Metric,
    MetricScore,
    ReferenceLike,
    as_switch,
    as_whole,
    check_refs,
    settle,
)
from .ter_align import DELETE, INSERT, KEEP, Alignment, alignment
from .ter_scripts import unspaced_note, unspaced_script
from .ter_tokenizer import TerTokenizer

__all__ = [
    "MAX_WORDS",
    "TER_OPTIONS",
    "TER_VERSION",
    "Change",
    "Ter",
    "TerChanges",
    "TerOptionsError",
    "TerReferences",
    "TerScore",
    "TerStats",
    "TerTooLong",
    "corpus_ter",
    "ter",
    "ter_changes",
    "ter_signature",
]

#: The version of bleu-xl's TER definition that its signatures name: it changes only when a TER score would.
TER_VERSION = "ter-1"
#: TER's settings, all switches off by default (sacrebleu's ``TER()``).
TER_OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")
DEFAULT_TOKENIZER = TerTokenizer()
#: The most words (as TER splits a text) TER aligns in one text: a sentence or a paragraph, not a page (its search
#: for shifts takes time that grows faster than the square of the words; see the module's docstring).
MAX_WORDS = 200


class TerTooLong(BleuError):
    """A text with more words than TER aligns in bounded time (:data:`MAX_WORDS`)."""


def _check_length(words: Sequence[str], side: str) -> None:
    if len(words) > MAX_WORDS:
        raise TerTooLong(
            # As TER splits it: at spaces, and with normalized at punctuation too (Yes. is two words then). Short: the
            # message fills a cell.
            f"the {side} has {len(words):,} words as TER splits it: TER aligns at most {MAX_WORDS}; split it into "
            "sentences"
        )


def _text(text: object, side: str) -> str:
    """``text``, refused with a ``TypeError`` when it is not a string (``None``, a number), as BLEU and chrF do."""
    if not isinstance(text, str):
        raise BleuTypeError(f"a {side} must be a string, not {type(text).__name__}")
    return text


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def ter_signature(
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    refs: int = 1,
) -> str:
    """The string that pins every TER choice, e.g. ``bleu-xl:ter-1|case:lc|tok:tercom|norm:no|punct:yes|...``.

    ``case``, ``tok``, ``norm``, ``punct`` and ``asian`` are sacrebleu's names for the same choices (lowercased or
    not, Tercom's tokenizer, its normalisation, punctuation kept, CJK split); ``shift`` and ``beam`` are Tercom's
    limits (phrases of at most 10 words moved at most 50 places, a beam of 25). Settings no score can have are
    refused (:class:`BleuError`).
    """
    _check_options(TerTokenizer(*map(as_switch, (normalized, no_punct, asian_support, case_sensitive))))
    refs = as_whole(refs)
    check_refs(refs)
    return (
        f"bleu-xl:{TER_VERSION}|case:{'mixed' if case_sensitive else 'lc'}|tok:tercom|norm:{_yes(normalized)}"
        f"|punct:{_yes(not no_punct)}|asian:{_yes(asian_support)}|shift:10/50|beam:25|refs:{refs}"
    )


class Change(NamedTuple):
    """A run of words of one kind: ``kept``, ``deleted`` (the candidate's), ``inserted`` (the reference's) or
    ``moved`` (the candidate's, shifted to here)."""

    kind: str
    text: str


#: How :attr:`TerChanges.text` marks each kind of change.
MARKS = {"kept": ("", ""), "deleted": ("[-", "-]"), "inserted": ("{+", "+}"), "moved": ("{>", "<}")}


@dataclass(frozen=True)
class TerChanges:
    """The words that changed between a candidate and the reference it is closest to, in the reference's order: the
    candidate's words with its shifted phrases where they were moved to, the words it must lose and those it lacks.

    Read without the deleted words, it is the reference; without the inserted ones, the candidate's words (moved
    phrases in their new places). Words are shown as the candidate and the reference write them (as TER reads them
    when its normalisation splits a word differently once case is kept).
    """

    alignment: Alignment
    candidate: str
    reference: str
    tokenizer: TerTokenizer

    @property
    def edits(self) -> int:
        return self.alignment.edits

    @property
    def parts(self) -> tuple[Change, ...]:
        """Runs of words of one kind, in order; in a run of edits the deleted words come before the inserted."""
        hyp = _shown(self.candidate, self.tokenizer)
        ref = _shown(self.reference, self.tokenizer, reference=True)
        moved = self.alignment.moved
        words = iter(self.alignment.order)
        ref_words = iter(ref)
        parts: list[Change] = []
        deleted: list[str] = []
        inserted: list[str] = []

        def add(kind: str, word: str) -> None:
            if parts and parts[-1].kind == kind:
                parts[-1] = Change(kind, f"{parts[-1].text} {word}")
            else:
                parts.append(Change(kind, word))

        def flush() -> None:
            for kind, group in (("deleted", deleted), ("inserted", inserted)):
                if group:
                    parts.append(Change(kind, " ".join(group)))
                    group.clear()

        for op in self.alignment.ops:
            if op == KEEP:
                flush()
                index = next(words)
                next(ref_words)
                add("moved" if index in moved else "kept", hyp[index])
            elif op == DELETE:
                deleted.append(hyp[next(words)])
            elif op == INSERT:
                inserted.append(next(ref_words))
            else:
                deleted.append(hyp[next(words)])
                inserted.append(next(ref_words))
        flush()
        return tuple(parts)

    @property
    def text(self) -> str:
        """The changes in plain text: ``[-deleted-]``, ``{+inserted+}``, ``{>moved<}``, kept words as they are.

        >>> ter_changes("fast delivery on every order", "every order ships with quick delivery").text
        '[-ships-] {+fast+} {>delivery<} [-with quick-] {+on+} {>every order<}'
        """
        return " ".join(f"{MARKS[kind][0]}{text}{MARKS[kind][1]}" for kind, text in self.parts)

    def __str__(self) -> str:
        return self.text


def _shown(text: str, tokenizer: TerTokenizer, *, reference: bool = False) -> list[str]:
    """A text's words as it writes them, one for each word TER reads (TER's own when keeping case splits them
    otherwise)."""
    cased = tokenizer._replace(case_sensitive=True)
    words, shown = (tokenizer.reference, cased.reference) if reference else (tokenizer, cased)
    if tokenizer.case_sensitive:
        return words(text)
    ter_read, as_written = words(text), shown(text)
    return as_written if len(as_written) == len(ter_read) else ter_read


class TerStats(NamedTuple):
    """Sufficient statistics of one or more pairs, which add up over a corpus: the edits and the (average) reference
    length. A pair's also hold its alignment (``changes``); a sum's do not."""

    edits: int
    ref_length: float
    changes: TerChanges | None = None


@dataclass(slots=True)
class TerScore(MetricScore):
    """A TER score (edits per reference word: 0 is identical, lower is better, above 1 possible) and the statistics
    behind it. ``float(score)`` is the TER, :meth:`as_dict` gives it as JSON-ready data. A pair's score has its
    :attr:`changes`."""

    ter: float
    stats: TerStats
    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False
    refs: int = 1

    @property
    def edits(self) -> int:
        return self.stats.edits

    @property
    def ref_length(self) -> float:
        return self.stats.ref_length

    @property
    def changes(self) -> TerChanges | None:
        """The words that changed (a pair's score; ``None`` for a corpus)."""
        return self.stats.changes

    @property
    def signature(self) -> str:
        return ter_signature(self.normalized, self.no_punct, self.asian_support, self.case_sensitive, self.refs)

    def __float__(self) -> float:
        return self.ter

    def as_dict(self) -> dict[str, object]:
        """The score as JSON-ready data: ``ter``, ``edits``, ``ref_length``, the settings and the signature."""
        return {
            "ter": self.ter,
            "edits": self.edits,
            "ref_length": self.ref_length,
            "name": "TER",
            **{option: getattr(self, option) for option in TER_OPTIONS},
            "signature": self.signature,
        }


def ter_from_stats(stats: TerStats, tokenizer: TerTokenizer = DEFAULT_TOKENIZER, refs: int = 1) -> TerScore:
    """TER of sentence or corpus statistics: the formula, in one place. ``refs`` only goes into the signature."""
    # No reference word: any candidate word is an edit too many.
    value = stats.edits / stats.ref_length if stats.ref_length > 0 else 1.0 if stats.edits > 0 else 0.0
    return TerScore(value, stats, *tokenizer, refs)


class TerReferences:
    """The prepared references of one candidate, for given tokenizer settings: each reference's words, read once."""

    __slots__ = ("average", "texts", "tokenizer", "words")

    def __init__(self, reference: ReferenceLike, tokenizer: TerTokenizer = DEFAULT_TOKENIZER) -> None:
        self.tokenizer = tokenizer
        if isinstance(reference, str):
            texts: tuple[str, ...] = (reference,)
        elif isinstance(reference, (bytes, bytearray, Mapping)) or not isinstance(reference, Iterable):
            raise BleuTypeError(
                f"a reference must be a string or a sequence of strings, not {type(reference).__name__}"
            )
        else:
            texts = tuple(reference)
        if not texts:
            raise BleuError("no reference given")
        self.texts = texts
        self.words = [tokenizer.reference(_text(text, "reference")) for text in texts]
        for words in self.words:
            _check_length(words, "reference")
        self.average = sum(map(len, self.words)) / len(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def stats(self, candidate: str) -> TerStats:
        """The fewest edits against any one reference (the first on ties), the average reference length."""
        words = self.tokenizer(_text(candidate, "candidate"))
        _check_length(words, "candidate")
        best: Alignment | None = None
        closest = 0
        for index, ref in enumerate(self.words):
            aligned = alignment(words, ref)
            if best is None or aligned.edits < best.edits:
                best, closest = aligned, index
        assert best is not None
        changes = TerChanges(best, candidate, self.texts[closest], self.tokenizer)
        return TerStats(best.edits, self.average, changes)


class TerOptionsError(BleuError):
    """TER's switches in a combination that does not do what it says: ``asian_support`` alone (sacrebleu's TER acts
    on it only with ``normalized``, which makes each CJK character a word, or ``no_punct``, which then removes CJK
    punctuation too; alone it would change nothing but the signature)."""


def _check_options(tokenizer: TerTokenizer) -> None:
    for name, value in zip(TER_OPTIONS, tokenizer):
        if not isinstance(value, bool):
            raise BleuError(f"{name} must be True or False, not {value!r}")
    if tokenizer.asian_support and not (tokenizer.normalized or tokenizer.no_punct):
        raise TerOptionsError(
            Setting("asian_support"),
            " does nothing alone: give ",
            Setting("normalized"),
            " too (or ",
            Setting("no_punct"),
            ")",
        )


def _prepared(reference: ReferenceLike | TerReferences, tokenizer: TerTokenizer) -> TerReferences:
    if not isinstance(reference, TerReferences):
        return TerReferences(reference, tokenizer)
    if reference.tokenizer != tokenizer:
        raise BleuError(f"references were prepared for {reference.tokenizer}, not {tokenizer}")
    return reference


def ter(
    reference: ReferenceLike | TerReferences,
    candidate: str,
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TerScore:
    """TER of ``candidate`` against one reference or a sequence of references: edits per reference word, 0 when
    identical, lower is better.

    >>> score = ter("the cat sat on the mat", "the cat sat on a mat")
    >>> score.edits, score.ref_length, round(score.ter, 4)
    (1, 6.0, 0.1667)
    """
    return Ter(normalized, no_punct, asian_support, case_sensitive).sentence_score(reference, candidate)


def corpus_ter(
    references: Sequence[ReferenceLike | TerReferences],
    candidates: Sequence[str],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TerScore:
    """Corpus TER: every pair's edits and reference length added up, then one division.

    ``references[i]`` is the reference (a string) or references (a sequence of strings) of ``candidates[i]``.
    """
    return Ter(normalized, no_punct, asian_support, case_sensitive).corpus_score(references, candidates)


def ter_changes(
    reference: ReferenceLike | TerReferences,
    candidate: str,
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TerChanges:
    """The words that changed between ``candidate`` and its closest reference, as TER aligns them; its ``text``
    marks them in plain text, its ``parts`` give them as runs of one kind."""
    metric = Ter(normalized, no_punct, asian_support, case_sensitive)
    changes = metric.pair_stats(metric.prepared(reference), candidate).changes
    assert changes is not None
    return changes


@dataclass(frozen=True)
class Ter(Metric[TerReferences, TerStats, TerScore]):
    """TER as ``TER`` scores in Excel and sacrebleu's ``TER()`` does (the same options): the metric object every face
    takes. Lower is better.

    >>> round(Ter().sentence_score("the cat sat on the mat", "the mat the cat sat on").ter, 4)
    0.1667
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    key: ClassVar[str] = "ter"
    label: ClassVar[str] = "TER"
    higher_is_better: ClassVar[bool] = False
    highest: ClassVar[float | None] = None
    misreads_unspaced_text: ClassVar[bool] = True

    def __post_init__(self) -> None:
        settle(self, switches=TER_OPTIONS)
        _check_options(self.tokenizer)

    def unspaced_script(self, text: str) -> str | None:
        """Chinese or Japanese (unless ``normalized`` with ``asian_support`` splits it), Thai, Lao, Burmese or Khmer,
        when ``text`` holds a phrase TER reads as one word (:mod:`.ter_scripts`)."""
        return unspaced_script(text, self.tokenizer)

    def unspaced_note(self, scripts: Collection[str]) -> tuple[Part, ...]:
        return unspaced_note(scripts)

    @property
    def tokenizer(self) -> TerTokenizer:
        return TerTokenizer(self.normalized, self.no_punct, self.asian_support, self.case_sensitive)

    @property
    def name(self) -> str:
        return "TER"

    @property
    def preparation(self) -> Hashable:
        return ("ter", *self.tokenizer)

    def prepare(self, reference: ReferenceLike) -> TerReferences:
        """Every reference is one, even one with no words (its length 0 counts in the average)."""
        return TerReferences(reference, self.tokenizer)

    def prepared(self, reference: ReferenceLike | TerReferences) -> TerReferences:
        return _prepared(reference, self.tokenizer)

    def pair_stats(self, prepared: TerReferences, candidate: str) -> TerStats:
        return prepared.stats(candidate)

    def sum_stats(self, stats: Iterable[TerStats]) -> TerStats:
        edits, length = 0, 0.0
        for s in stats:
            edits += s.edits
            length += s.ref_length
        return TerStats(edits, length)

    def score_from_stats(self, stats: TerStats, refs: int = 1) -> TerScore:
        return ter_from_stats(stats, self.tokenizer, refs)

    def signature(self, refs: int = 1) -> str:
        return ter_signature(*self.tokenizer, refs=refs)

    def as_numbers(self, stats: TerStats) -> tuple[float, ...]:
        return (stats.edits, stats.ref_length)

    def from_numbers(self, numbers: Sequence[float]) -> TerStats:
        return TerStats(int(numbers[0]), numbers[1])

    def reference_key(self, texts: tuple[str, ...]) -> Hashable:
        """What TER reads of a reference set: each reference's words (after the tokenizer), in any order (the edits
        are the fewest against any, the length their average), each as often as it is given."""
        tokenizer = self.tokenizer
        keys = sorted(
            " ".join(tokenizer.reference(text)) for text in texts
        )  # a word holds no space: the join is one-to-one
        return keys[0] if len(keys) == 1 else tuple(keys)

    def held_size(self, texts: tuple[str, ...], prepared: TerReferences) -> int:
        size = sum(map(sys.getsizeof, texts)) + sys.getsizeof(prepared.words)
        for words in prepared.words:
            size += sys.getsizeof(words) + sum(map(sys.getsizeof, words))
        return size

    def details(self) -> tuple[DetailColumn, ...]:
        """The edits, the (average) reference length the score divides them by, and the words that changed."""
        return (
            DetailColumn("TER edits", ColumnKind.COUNT),
            DetailColumn("TER ref length", ColumnKind.NUMBER),
            DetailColumn("TER changes", ColumnKind.CHANGES),
        )

    def detail_values(self, score: TerScore) -> list[float | int | None]:
        return [score.edits, score.ref_length, score.changes]  # type: ignore[list-item]


#: TER with sacrebleu's defaults.
TER_DEFAULT = Ter()
