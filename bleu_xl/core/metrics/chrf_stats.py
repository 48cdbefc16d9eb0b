"""chrF's statistics: a text's characters and words, prepared references, and the n-gram counts of a pair.

Per order (the character orders, then the word orders), a pair's statistics are the candidate's n-grams, the
reference's n-grams and the clipped matches; they add up over a corpus. :func:`chrf_pair_stats` gives them against
the best of several references; :func:`obvious_stats` is the definition read literally, which a property test
holds equal to the fast paths here. The scores made of these statistics are in :mod:`.chrf`. Standard library only
(it runs in Pyodide).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import NamedTuple, Union

from ..errors import BleuError, BleuTypeError
from .base import ReferenceLike
from .counting import _count_elements

__all__ = [
    "ASCII_PUNCTUATION",
    "ChrfReferences",
    "ChrfStats",
    "as_chrf_references",
    "averages",
    "chrf_held_size",
    "chrf_pair_stats",
    "chrf_words",
    "f_beta",
    "obvious_stats",
    "sum_chrf_stats",
]

#: The punctuation chrF++ splits off a word: ASCII's (Python's ``string.punctuation``), as sacrebleu does.
ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
Gram = Union[int, str, tuple[str, ...]]  # noqa: UP007


def chrf_words(text: str) -> list[str]:
    """The words of chrF++: ``text.split()``, with one ASCII punctuation mark split off a word's end, else off its
    start (a one-character word stays whole).

    >>> chrf_words("(hi) «bonjour», l'été!")
    ['(hi', ')', '«bonjour»', ',', "l'été", '!']
    """
    words: list[str] = []
    for word in text.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in ASCII_PUNCTUATION:
            words += (word[:-1], word[-1])
        elif word[0] in ASCII_PUNCTUATION:
            words += (word[0], word[1:])
        else:
            words.append(word)
    return words


class ChrfStats(NamedTuple):
    """Sufficient statistics of one or more pairs, per order (the character orders, then the word orders): they add
    up over a corpus. ``candidate`` counts only the orders where the reference has n-grams (sacrebleu's rule)."""

    candidate: tuple[int, ...]
    reference: tuple[int, ...]
    matches: tuple[int, ...]


def averages(stats: ChrfStats, start: int, stop: int) -> tuple[float, float]:
    """The precision and the recall averaged over the orders ``start:stop`` where both sides have n-grams (0, 0 when
    there is none): summed in order, then divided, as sacrebleu does, so the floats are the same."""
    precision = recall = 0.0
    effective = 0
    for hyp, ref, match in zip(stats.candidate[start:stop], stats.reference[start:stop], stats.matches[start:stop]):
        if hyp > 0 and ref > 0:
            precision += match / hyp
            recall += match / ref
            effective += 1
    if effective == 0:
        return 0.0, 0.0
    return precision / effective, recall / effective


def f_beta(precision: float, recall: float, beta: int) -> float:
    """F-beta of a precision and a recall: recall counts ``beta`` times as much; 0 when both are 0."""
    if not precision + recall:
        return 0.0
    factor = beta**2
    return (1 + factor) * precision * recall / (factor * precision + recall)


#: The highest character order whose n-grams are read as integers: eight one-byte character ids fill 64 bits.
INT_GRAM_ORDERS = 8
_PAD = bytes(INT_GRAM_ORDERS)
_BEYOND_LATIN_1 = re.compile("[^\\x00-\\xff]")
#: Codes no character that chrF counts can have: Latin-1's whitespace, which ``str.split`` removes. The space's
#: names a candidate's characters beyond Latin-1 that its reference lacks; the others up to 11 such characters of
#: a reference.
_UNKNOWN_ID = " "
_WIDE_IDS = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0"
#: Held while a candidate is scored against a reference that may still count an order.
_COUNTING = threading.Lock()


def _unlocked_after_fork() -> None:
    # A process forked while another thread counted would wait for ever for a lock no thread of its own holds.
    global _COUNTING
    _COUNTING = threading.Lock()


if hasattr(os, "register_at_fork"):  # not in Pyodide, nor on Windows
    os.register_at_fork(after_in_child=_unlocked_after_fork)


class _ShiftedGrams:
    """A sequence's n-grams as tuples, from its shifted copies (``zip(*shifts[:n])``), each made once, when an order
    first needs it."""

    __slots__ = ("shifts", "units")

    def __init__(self, units: list[str]) -> None:
        self.units = units
        self.shifts = [units]

    def grams(self, n: int) -> Iterable[Gram]:
        """The n-grams of order ``n``: the units themselves for n = 1, tuples of n units above."""
        if n == 1:
            return self.units
        shifts = self.shifts
        while len(shifts) < n:
            shifts.append(self.units[len(shifts) :])
        return zip(*shifts[:n])


class _IntGrams:
    """A text's character n-grams as integers: each character a one-byte id, an n-gram the ids of its n characters
    in the first n bytes of an 8-byte word (the rest zero), so that at each order n-grams and integers are
    one-to-one. The integers are made in C, a whole order at once, and hash in a few nanoseconds, where a tuple of
    characters is made one at a time and hashed again at every lookup."""

    __slots__ = ("buffer", "filled", "ids", "size", "unigrams", "windows")

    def __init__(self, ids: bytes) -> None:
        self.size = len(ids)
        self.unigrams = ids
        self.ids = ids + _PAD
        self.buffer = bytearray(8 * self.size)
        self.windows = memoryview(self.buffer).cast("Q")
        self.filled = 0  # how many bytes of every window hold their ids

    def __reduce__(self) -> tuple[type[_IntGrams], tuple[bytes]]:
        # A memoryview does not pickle: prepared references are rebuilt from their ids (in a worker process, say).
        return (_IntGrams, (self.unigrams,))

    def grams(self, n: int) -> Iterable[int]:
        """The n-grams of order ``n``: the ids themselves for n = 1. Orders are usually asked one after the other,
        each filling one more byte of every window."""
        size = self.size
        if n == 1:
            return self.unigrams
        if size < n:
            return ()
        while self.filled < n:  # byte k of window i is the id of character i + k
            k = self.filled
            self.buffer[k::8] = self.ids[k : k + size]
            self.filled = k + 1
        while self.filled > n:  # a lower order after a higher one: its windows hold n ids, no more
            self.filled -= 1
            self.buffer[self.filled :: 8] = bytes(size)
        return self.windows[: size - n + 1].tolist()


def _totals(size: int, orders: int) -> tuple[int, ...]:
    """The number of n-grams of each order from 1 to ``orders`` in a sequence of ``size`` units."""
    return (*range(size, max(size - orders, 0), -1), *(0,) * (orders - size))


_NO_WORDS = _ShiftedGrams([])


class _Text:
    """A text as chrF reads it: its characters (whitespace removed), its chrF++ words and their n-grams, and the
    number of n-grams of each order."""

    __slots__ = ("chars", "totals", "word_grams")

    def __init__(self, text: str, char_order: int, word_order: int, side: str) -> None:
        if not isinstance(text, str):
            raise BleuTypeError(f"a {side} must be a string, not {type(text).__name__}")
        self.chars = "".join(text.split())
        if word_order:
            words = chrf_words(text)
            self.word_grams = _ShiftedGrams(words)
            self.totals = (*_totals(len(self.chars), char_order), *_totals(len(words), word_order))
        else:
            self.word_grams = _NO_WORDS
            self.totals = _totals(len(self.chars), char_order)

    def same(self, other: _Text) -> bool:
        """Whether the two texts have the same characters and words (then every n-gram matches)."""
        return self.chars == other.chars and self.word_grams.units == other.word_grams.units


def _character_grams(chars: str) -> _ShiftedGrams:
    """Character n-grams as tuples, from one list of the characters: each character is one object whose hash is
    computed once for all orders (iterating a string makes a new object for every character beyond Latin-1)."""
    return _ShiftedGrams(list(chars))


@cache
def _orders(char_order: int, word_order: int) -> tuple[tuple[int, int], ...]:
    """Per order, which units (0: characters, 1: words) and n: the character orders, then the word orders."""
    return tuple([(0, n) for n in range(1, char_order + 1)] + [(1, n) for n in range(1, word_order + 1)])


class _Reference:
    """One reference text, prepared: its units, how its characters become ids, and its n-gram counts, made per
    order when a candidate first needs them (an order after one without a match never does).

    Ids (orders up to :data:`INT_GRAM_ORDERS`): a Latin-1 character is its own code; up to 11 distinct characters
    beyond Latin-1 take the codes of Latin-1's whitespace, which chrF never counts, so no character can be taken
    for them; a candidate's characters beyond Latin-1 that the reference lacks all take the space's code (an
    n-gram holding one never matches, so they may share it). A reference with more such characters (CJK text)
    keeps tuples of characters."""

    __slots__ = ("char_grams", "counts", "orders", "renames", "text")

    def __init__(self, text: str, char_order: int, word_order: int) -> None:
        self.text = _Text(text, char_order, word_order, "reference")
        self.orders = _orders(char_order, word_order)
        self.counts: list[dict[Gram, int] | None] = [None] * len(self.text.totals)
        chars = self.text.chars
        self.renames: tuple[tuple[str, str], ...] | None = None
        self.char_grams: _IntGrams | _ShiftedGrams
        if char_order <= INT_GRAM_ORDERS:
            try:
                self.char_grams, self.renames = _IntGrams(chars.encode("latin-1")), ()
                return
            except UnicodeEncodeError:
                beyond = len(chars) - len(chars.encode("latin-1", "ignore"))
                # Text mostly beyond Latin-1 (CJK) has many such characters: not worth finding them all.
                wide = sorted(set(_BEYOND_LATIN_1.findall(chars))) if 2 * beyond <= len(chars) else []
                if 0 < len(wide) <= len(_WIDE_IDS):
                    self.renames = tuple(zip(wide, _WIDE_IDS))
                    self.char_grams = _IntGrams(self._renamed(chars).encode("latin-1"))
                    return
        self.char_grams = _character_grams(chars)

    def candidate_grams(self, chars: str) -> _IntGrams | _ShiftedGrams:
        """A candidate's character n-grams in this reference's terms."""
        if self.renames is None:
            return _character_grams(chars)
        chars = self._renamed(chars)
        try:
            return _IntGrams(chars.encode("latin-1"))
        except UnicodeEncodeError:
            return _IntGrams(_BEYOND_LATIN_1.sub(_UNKNOWN_ID, chars).encode("latin-1"))

    def _renamed(self, chars: str) -> str:
        """``chars`` with this reference's characters beyond Latin-1 replaced by their ids."""
        for char, new in self.renames or ():
            chars = chars.replace(char, new)
        return chars

    def count(self, index: int) -> dict[Gram, int]:
        """The counts of the n-grams of order ``index`` (0-based over the character, then the word orders)."""
        counts = self.counts[index]
        if counts is None:
            counts = {}
            kind, n = self.orders[index]
            _count_elements(counts, (self.text.word_grams if kind else self.char_grams).grams(n))
            self.counts[index] = counts
        return counts


class ChrfReferences:
    """The prepared references of one candidate, for given orders: built once and reused for every candidate
    scored against the same references."""

    __slots__ = ("char_order", "refs", "word_order")

    def __init__(self, reference: ReferenceLike, char_order: int = 6, word_order: int = 0) -> None:
        self.char_order, self.word_order = char_order, word_order
        if isinstance(reference, str):
            texts: Sequence[str] = [reference]
        elif isinstance(reference, (bytes, bytearray, Mapping)) or not isinstance(reference, Iterable):
            kind = type(reference).__name__
            raise BleuTypeError(f"a reference must be a string or a sequence of strings, not {kind}")
        else:
            texts = list(reference)
        if not texts:
            raise BleuError("no reference given")
        self.refs = [_Reference(text, char_order, word_order) for text in texts]

    def __len__(self) -> int:
        return len(self.refs)


def obvious_stats(reference: str, candidate: str, char_order: int = 6, word_order: int = 0) -> ChrfStats:
    """The statistics of one pair as the definition reads: substrings and joined words counted with ``Counter``,
    every order computed. :func:`chrf_pair_stats` takes faster paths, each measured (benchmarks/README.md):
    character n-grams as integers made a whole order at once from one-byte character ids (as tuples from one
    list of the characters for text with many characters beyond Latin-1, such as CJK), word n-grams as tuples,
    reference counts made per order on demand, identical texts matched at once, no order computed after one
    without a match, and no clipping once no n-gram repeats; a property test holds the two equal."""
    from collections import Counter

    def char_grams(text: str, n: int) -> Counter[str]:
        chars = "".join(text.split())
        return Counter(chars[i : i + n] for i in range(len(chars) - n + 1))

    def word_grams(text: str, n: int) -> Counter[str]:
        words = chrf_words(text)
        return Counter(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))

    candidate_counts, reference_counts, matches = [], [], []
    for grams, n in [(char_grams, n) for n in range(1, char_order + 1)] + [
        (word_grams, n) for n in range(1, word_order + 1)
    ]:
        hyp, ref = grams(candidate, n), grams(reference, n)
        candidate_counts.append(sum(hyp.values()) if ref else 0)
        reference_counts.append(sum(ref.values()))
        matches.append(sum((hyp & ref).values()))
    return ChrfStats(tuple(candidate_counts), tuple(reference_counts), tuple(matches))


def _one_stats(ref: _Reference, cand: _Text, char_order: int) -> ChrfStats:
    """The statistics of a candidate's units against one prepared reference."""
    if None in ref.counts:
        # The reference may count an order: its n-grams are read from a buffer each order fills further, and
        # prepared references may be shared by threads, so one counts at a time.
        with _COUNTING:
            return _stats(ref, cand, char_order)
    return _stats(ref, cand, char_order)


def _stats(ref: _Reference, cand: _Text, char_order: int) -> ChrfStats:
    """:func:`_one_stats`, the counting itself."""
    totals = ref.text.totals
    if cand.same(ref.text):  # identical: every n-gram matches
        return ChrfStats(totals, totals, totals)
    candidate, matches = [], []
    found, distinct = 1, False
    units = (ref.candidate_grams(cand.chars), cand.word_grams)
    for index, (ref_total, hyp_total, (kind, n)) in enumerate(zip(totals, cand.totals, ref.orders)):
        if index == char_order:
            found, distinct = 1, False  # the word orders start afresh
        candidate.append(hyp_total if ref_total else 0)  # without a reference n-gram, none of the candidate's count
        # An n-gram can only match where its (n-1)-gram prefix did: after an order without a match, none does.
        if found and ref_total and hyp_total:
            found, distinct = _matches(units[kind].grams(n), ref.count(index), ref_total, distinct)
        else:
            found = 0
        matches.append(found)
    return ChrfStats(tuple(candidate), totals, tuple(matches))


def _matches(grams: Iterable[Gram], ref_counts: dict[Gram, int], ref_total: int, distinct: bool) -> tuple[int, bool]:
    """The clipped matches of one order, and whether each counts once: no n-gram repeats among them, or in the
    reference. Either stays true at every higher order (a repeated n-gram repeats its prefix), and then the matches
    are the n-grams both texts have, found in one pass without counting: ``distinct`` says it is known."""
    if distinct or len(ref_counts) == ref_total:
        return len(ref_counts.keys() & grams), True
    counts: dict[Gram, int] = {}
    _count_elements(counts, filter(ref_counts.__contains__, grams))
    matches = sum(counts.values())
    if len(counts) == matches:
        return matches, True
    for gram, count in counts.items():  # some found n-gram repeats in the candidate: clip it at the reference's
        if count > 1 and count > ref_counts[gram]:
            matches -= count - ref_counts[gram]
    return matches, False


def chrf_pair_stats(refs: ChrfReferences, candidate: str, beta: int = 2) -> ChrfStats:
    """The statistics of ``candidate`` against its best reference: the one with the strictly greatest F-beta, the
    first on ties."""
    cand = _Text(candidate, refs.char_order, refs.word_order, "candidate")
    if len(refs.refs) == 1:
        return _one_stats(refs.refs[0], cand, refs.char_order)
    best, best_f = None, -1.0
    size = len(cand.totals)
    for ref in refs.refs:
        stats = _one_stats(ref, cand, refs.char_order)
        precision, recall = averages(stats, 0, size)
        # sacrebleu compares F on its 0-100 scale, where two F that differ in the last bit can be equal: the first
        # reference then wins. Compared on the same scale, the same reference wins here.
        f = 100 * f_beta(precision, recall, beta)
        if f > best_f:
            best, best_f = stats, f
    return best  # type: ignore[return-value]  # the first reference always wins over -1


def as_chrf_references(reference: ReferenceLike | ChrfReferences, char_order: int, word_order: int) -> ChrfReferences:
    """``reference`` prepared for these orders; prepared references must have been made for them."""
    if not isinstance(reference, ChrfReferences):
        return ChrfReferences(reference, char_order, word_order)
    if (reference.char_order, reference.word_order) != (char_order, word_order):
        raise BleuError(
            f"references were prepared for char_order={reference.char_order}, word_order={reference.word_order}, "
            f"not {char_order}, {word_order}"
        )
    return reference


def sum_chrf_stats(stats: Iterable[ChrfStats], orders: int) -> ChrfStats:
    """Add up the statistics of many pairs (the corpus statistics) of ``orders`` orders."""
    candidate, reference, matches = [0] * orders, [0] * orders, [0] * orders
    for s in stats:
        for i in range(orders):
            candidate[i] += s.candidate[i]
            reference[i] += s.reference[i]
            matches[i] += s.matches[i]
    return ChrfStats(tuple(candidate), tuple(reference), tuple(matches))


#: What a prepared reference holds at most, per character and order: a count per n-gram, made when a candidate first
#: needs that order (119 bytes measured for CJK text where every n-gram differs, at orders 1 to 9; words take less),
#: and a few characters' worth per text besides.
BYTES_PER_CHARACTER_ORDER = 128
#: And per character whatever the orders: the character as an object of its own in a list (CJK text; 76 to 80 bytes
#: measured for characters beyond the Basic Multilingual Plane), or its id and its 8-byte window.
BYTES_PER_CHARACTER = 96


def chrf_held_size(texts: tuple[str, ...], prepared: ChrfReferences) -> int:
    """The bytes a chrF reference set holds once every order is counted (its counts grow after it is prepared)."""
    orders = prepared.char_order + prepared.word_order
    return sum(len(text) + 8 for text in texts) * (BYTES_PER_CHARACTER_ORDER * orders + BYTES_PER_CHARACTER)
