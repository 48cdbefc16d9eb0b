"""What every metric is: its settings, how it prepares references, a pair's statistics, their sum, the score and its
signature, in one object that every face takes instead of asking which metric it has.

A metric's statistics add up over a corpus (BLEU's clipped matches and lengths, chrF's n-gram counts), so a corpus
score, a bootstrap resample and a table's summary are all "add the pairs' statistics, then the formula". A
metric also says how its statistics flatten into numbers (the bootstrap resamples those as columns), what it reads
of a reference set (candidates that share a reference are ranked among themselves), the memory a prepared
reference holds (the Excel layer caches them) and the detail columns a scored row shows. Standard library only.
"""

from __future__ import annotations

import numbers
import operator
from abc import ABC, abstractmethod
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence, Sized
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, TypeVar, Union

from ..errors import BleuError, BleuTypeError, Part

__all__ = [
    "ColumnKind",
    "DetailColumn",
    "Metric",
    "MetricScore",
    "ReferenceLike",
    "check_corpus",
    "check_sequence",
    "refuse_text",
    "whole_number",
]

ReferenceLike = Union[str, Sequence[str]]  # noqa: UP007 - a runtime alias, and Python 3.10 is supported

Prepared = TypeVar("Prepared", bound=Sized)
Stats = TypeVar("Stats")
ScoreT = TypeVar("ScoreT", bound="MetricScore")


class ColumnKind:
    """What a detail column holds: a score, a count, another number (an average), text, or the words that changed
    between a candidate and its reference (text that a workbook colours)."""

    SCORE = "score"
    COUNT = "count"
    NUMBER = "number"
    TEXT = "text"
    CHANGES = "changes"


@dataclass(frozen=True)
class DetailColumn:
    """One column of a pair's detail (``BLEU2_DETAIL``, the command's outputs, the template's Spill sheet)."""

    name: str
    kind: str  # a ColumnKind


class MetricScore(ABC):
    """A pair's or a corpus's score under one metric, and the statistics behind it: ``float(score)`` is the number
    (from 0 to 1 for BLEU and chrF; edits per reference word for TER, lower is better), ``stats`` the statistics,
    ``refs`` how many references the signature names, :attr:`signature` pins every choice, and :meth:`as_dict`
    gives it as JSON-ready data."""

    __slots__ = ()

    stats: Any
    refs: int

    @abstractmethod
    def __float__(self) -> float: ...

    @property
    @abstractmethod
    def signature(self) -> str: ...

    @abstractmethod
    def as_dict(self) -> dict[str, object]: ...

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A score is a dataclass with slots, built from its fields in order: pickled as that call, it travels from
        # a worker process in half the bytes and a third of the time of the default reduction.
        return type(self), tuple([getattr(self, name) for name in type(self).__slots__])


def whole_number(value: object, low: int, high: int) -> bool:
    """Whether ``value`` is an int (not a bool) from ``low`` to ``high``: the check of every whole-number setting."""
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def as_whole(value: Any) -> Any:
    """A whole number given as another integer type (numpy's int64) as the int it is; anything else as it is, for
    the checks to refuse."""
    if isinstance(value, int):
        return value
    try:
        return operator.index(value)
    except TypeError:
        return value


def as_switch(value: Any) -> Any:
    """An on/off setting given as numpy's True or False as Python's; anything else as it is, for the checks to
    refuse (a number, numpy's 1 included, or a text)."""
    if isinstance(value, (bool, numbers.Number, str, bytes)):
        return value
    try:
        if value in (True, False):
            return bool(value)
    except (TypeError, ValueError):  # an array's truth is ambiguous
        pass
    return value


def as_real(value: Any) -> Any:
    """A fraction given as numpy's float (``float32``, ``float64``) as Python's; anything else as it is."""
    if isinstance(value, numbers.Real) and not isinstance(value, int) and type(value) is not float:
        return float(value)
    return value


def settle(
    settings: object, whole: Sequence[str] = (), switches: Sequence[str] = (), reals: Sequence[str] = ()
) -> None:
    """Make a frozen settings object's ``whole``, ``switches`` and ``reals`` fields given as numpy's (read from a
    DataFrame) Python's, before they are checked: kept as numpy's, they would reach its JSON and signatures."""
    for name in whole:
        object.__setattr__(settings, name, as_whole(getattr(settings, name)))
    for name in switches:
        object.__setattr__(settings, name, as_switch(getattr(settings, name)))
    for name in reals:
        object.__setattr__(settings, name, as_real(getattr(settings, name)))


def check_refs(refs: object) -> None:
    """Refuse a number of references that no score has (a signature names it): a whole number of at least 1."""
    if isinstance(refs, bool) or not isinstance(refs, int) or refs < 1:
        raise BleuError(f"refs must be a whole number of at least 1, not {refs!r}")


def refuse_text(value: object, name: str) -> None:
    """A TypeError for a string (or bytes) given where a sequence of texts is wanted (wrong type, not a bad value)."""
    if isinstance(value, (str, bytes, bytearray)):
        kind = "one string (wrap it in a list)" if isinstance(value, str) else type(value).__name__
        raise BleuTypeError(f"{name} must be a sequence of strings, not {kind}")


def check_sequence(value: object, name: str) -> None:
    """A :class:`BleuTypeError` unless ``value`` is a sequence of texts: not one string, not a generator (it has
    no length to check, and would be spent by reading it), not a set (it pairs in no order)."""
    refuse_text(value, name)
    if not isinstance(value, Sized) or isinstance(value, (AbstractSet, Mapping)):
        raise BleuTypeError(f"{name} must be a sequence (a list or a tuple), not {type(value).__name__}")
    try:
        len(value)
    except TypeError:  # sized by its type, not this one: a numpy array of no dimension
        raise BleuTypeError(f"{name} must be a sequence (a list or a tuple), not one value") from None


def check_corpus(references: Sequence[object], candidates: Sequence[str]) -> None:
    """The corpus input checks every metric makes: sequences (not one string), of equal length, not empty."""
    check_sequence(references, "references")
    check_sequence(candidates, "candidates")
    if len(references) != len(candidates):
        raise BleuError(f"{len(references)} references but {len(candidates)} candidates")
    if len(candidates) == 0:  # not "not candidates": a numpy array's truth is ambiguous
        raise BleuError("no pairs to score")


class Metric(ABC, Generic[Prepared, Stats, ScoreT]):
    """One metric with its settings (a frozen dataclass: equal settings, equal metrics). Checked when made
    (:class:`BleuError`).

    ``prepare`` reads a reference set once for any number of candidates; ``pair_stats`` gives a candidate's
    statistics against it; ``sum_stats`` adds statistics up; ``score_from_stats`` is the formula, the one place
    that turns statistics into a score. The rest is built on those four.
    """

    #: The name a user gives to choose the metric (``bleu``, ``chrf``), and the one a message names it by.
    key: ClassVar[str]
    label: ClassVar[str]
    #: Whether a higher score is a better candidate (ranks go from the highest score down); TER's is lower.
    higher_is_better: ClassVar[bool] = True
    #: The highest score there is (``None``: none; TER exceeds 1 for a candidate longer than its reference).
    highest: ClassVar[float | None] = 1.0
    #: Whether the metric may read a text written without spaces between words (Chinese, Thai...) as far fewer
    #: words than it holds (TER does; BLEU and chrF read every script): then :meth:`unspaced_script` says which.
    misreads_unspaced_text: ClassVar[bool] = False

    @property
    @abstractmethod
    def name(self) -> str:
        """The metric as a column header names it: ``BLEU-2``, ``chrF2++``."""

    @property
    @abstractmethod
    def preparation(self) -> Hashable:
        """The settings a prepared reference depends on (references prepared under equal ones are the same)."""

    @abstractmethod
    def prepare(self, reference: ReferenceLike) -> Prepared:
        """One reference, or a sequence of references, read once for every candidate scored against it;
        :class:`BleuError` for a reference set this metric cannot score against."""

    @abstractmethod
    def prepared(self, reference: ReferenceLike | Prepared) -> Prepared:
        """``reference`` prepared; references prepared already must have been for this :attr:`preparation`."""

    @abstractmethod
    def pair_stats(self, prepared: Prepared, candidate: str) -> Stats:
        """The statistics of one candidate against its prepared references."""

    @abstractmethod
    def sum_stats(self, stats: Iterable[Stats]) -> Stats:
        """The statistics of many pairs added up (a corpus's)."""

    @abstractmethod
    def score_from_stats(self, stats: Stats, refs: int = 1) -> ScoreT:
        """The score of a pair's or a corpus's statistics; ``refs`` only goes into the signature."""

    @abstractmethod
    def signature(self, refs: int = 1) -> str:
        """The string that pins every choice of these settings, for ``refs`` references."""

    @abstractmethod
    def as_numbers(self, stats: Stats) -> tuple[float, ...]:
        """The statistics as a flat tuple of numbers (counts, or TER's average lengths), each of which adds up over
        pairs (bootstrap columns)."""

    @abstractmethod
    def from_numbers(self, numbers: Sequence[float]) -> Stats:
        """The statistics :meth:`as_numbers` flattened, rebuilt (from sums of them, say)."""

    @abstractmethod
    def reference_key(self, texts: tuple[str, ...]) -> Hashable:
        """What this metric reads of a reference set: equal for reference sets it scores every candidate against
        alike, so that candidates whose references have the same key are ranked together."""

    def prepared_key(self, texts: tuple[str, ...], prepared: Prepared) -> Hashable:
        """:meth:`reference_key` of ``texts``, which ``prepared`` was prepared from: a metric whose preparation read
        what the key holds gives it from there instead of reading the texts again."""
        return self.reference_key(texts)

    @abstractmethod
    def held_size(self, texts: tuple[str, ...], prepared: Prepared) -> int:
        """At least the bytes a prepared reference set holds, however many candidates are scored against it (a
        cache of prepared references stays within its bound by it)."""

    @abstractmethod
    def details(self) -> tuple[DetailColumn, ...]:
        """The columns of a scored row's detail, after the score."""

    @abstractmethod
    def detail_values(self, score: ScoreT) -> list[Any]:
        """A score's values in the order of :meth:`details` (``None``: a blank cell): numbers, and for a
        :attr:`ColumnKind.CHANGES` column an object whose ``str`` is its text and whose ``parts`` are its runs."""

    def unspaced_script(self, text: str) -> str | None:
        """The script of ``text`` when this metric reads a phrase of it as one word (a script written without spaces
        between words that its settings do not split), else ``None``: never, unless
        :attr:`misreads_unspaced_text`."""
        return None

    def unspaced_note(self, scripts: Collection[str]) -> tuple[Part, ...]:
        """What to say, after the rows they are in, of texts in ``scripts`` that :meth:`unspaced_script` found."""
        return ()

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Metric[Any, Any, Any]:
        """The metric with the settings of ``settings`` that it has (the others are other metrics')."""
        own = {field.name for field in fields(cls)}  # type: ignore[arg-type]  # every metric is a dataclass
        return cls(**{name: value for name, value in settings.items() if name in own})

    # --- built on the above ----------------------------------------------------------------------------------

    def sentence_score(self, reference: ReferenceLike | Prepared, candidate: str) -> ScoreT:
        """The score of ``candidate`` against one reference or a sequence of references (or prepared ones)."""
        prepared = self.prepared(reference)
        return self.score_from_stats(self.pair_stats(prepared, candidate), refs=len(prepared))

    def score_many(self, reference: ReferenceLike | Prepared, candidates: Iterable[str]) -> list[ScoreT]:
        """Many candidates against one reference set, prepared once. ``candidates`` must not be a string."""
        refuse_text(candidates, "candidates")
        prepared = self.prepared(reference)
        refs = len(prepared)
        return [self.score_from_stats(self.pair_stats(prepared, candidate), refs=refs) for candidate in candidates]

    def corpus_stats(
        self, references: Sequence[ReferenceLike | Prepared], candidates: Sequence[str]
    ) -> list[tuple[Stats, int]]:
        """Every pair's statistics and number of references, after the corpus input checks."""
        check_corpus(references, candidates)
        pairs = []
        for reference, candidate in zip(references, candidates):
            prepared = self.prepared(reference)
            pairs.append((self.pair_stats(prepared, candidate), len(prepared)))
        return pairs

    def corpus_score(self, references: Sequence[ReferenceLike | Prepared], candidates: Sequence[str]) -> ScoreT:
        """The corpus score: every pair's statistics added up, then the formula once.

        ``references[i]`` is the reference (a string), the references (a sequence of strings) or the prepared
        references of ``candidates[i]``.
        """
        pairs = self.corpus_stats(references, candidates)
        return self.score_from_stats(self.sum_stats(stats for stats, _ in pairs), refs=max(n for _, n in pairs))

    def corpus_of(self, scores: Sequence[ScoreT]) -> ScoreT:
        """The corpus score of pairs already scored: their statistics added up, then the formula."""
        return self.score_from_stats(self.sum_stats(s.stats for s in scores), refs=max(s.refs for s in scores))
