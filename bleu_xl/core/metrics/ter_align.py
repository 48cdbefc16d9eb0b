"""TER's alignment: the fewest edits (insertions, deletions, substitutions of one word, shifts of a phrase) that turn
a candidate's words into a reference's, found as Tercom finds them, with sacrebleu 2.6's choices (checked by the
tests against sacrebleu; this is not its code).

Tercom shifts greedily: while some shift of a phrase lowers the edit distance, it makes the one that lowers it most
(ties: the longer phrase, then the earlier one, then the earlier place to move it to), and counts it as one edit;
the edits are then the shifts plus the word edit distance left. A phrase is shifted only where it is wrong (one of
its words is not matched) to a place in the reference it equals and that is itself not matched, by at most
``MAX_SHIFT_SIZE`` words and ``MAX_SHIFT_DISTANCE`` places; at most ``MAX_SHIFT_CANDIDATES`` shifts are tried in
all, and the edit distance is computed in a beam of ``BEAM_WIDTH`` cells either side of the (length-scaled)
diagonal.

Two ways to the same numbers: :func:`obvious_alignment` computes every edit distance and alignment in the beam, as
the definition reads; :func:`alignment` computes them bit-parallel (Myers 1999, as Hyyrö 2001 gives it for the
global distance: each column of the table is two bit vectors) wherever the beam cannot matter, and in the beam
otherwise. The beam cannot matter when it holds every optimal path of the whole table: then its distance is the
whole table's, and so is its alignment (Tercom's choice among equal moves only ever looks at cells on optimal
paths). It holds them when the reference has at most 24 words (the beam is the whole table), when
``distance + |candidate length - reference length| <= 46`` (no optimal path strays that far from the diagonal),
or else when no cell just outside the beam is on an optimal path (its distance from the start, read from the
columns, plus its distance to the end, read from the columns of the reversed texts, exceeds the distance). A
property test holds the two ways equal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "BEAM_WIDTH",
    "MAX_SHIFT_CANDIDATES",
    "MAX_SHIFT_DISTANCE",
    "MAX_SHIFT_SIZE",
    "Alignment",
    "alignment",
    "obvious_alignment",
]

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DISTANCE = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000

#: The operations of an alignment, each on the candidate's words in their shifted order and the reference's.
KEEP, SUBSTITUTE, INSERT, DELETE = "=", "~", "+", "-"  # INSERT takes a reference word, DELETE a candidate word
_UNSET = "?"
_INFINITE = 10**16

#: Where the beam holds every cell of an optimal path: a path of cost d through cell (i, j) has |j - i m / n| at most
#: (d + |n - m|) / 2, and the beam holds every cell within 24 of the scaled diagonal (23, to be clear of rounding).
_EXACT_BOUND = 46
#: A reference of at most this many words: the beam holds the whole table.
_WHOLE_TABLE = BEAM_WIDTH - 1


class Alignment(NamedTuple):
    """How a candidate's words turn into a reference's: ``edits`` is ``shifts`` plus the word edits of ``ops``.

    ``order`` gives the candidate's words (by their index) in their order after the shifts, ``moved`` the indices
    of the words a shift moved, and ``ops`` the edits that turn the shifted words into the reference's, one
    character each: ``=`` a word kept, ``~`` a word substituted by the reference's, ``-`` a candidate word
    deleted, ``+`` a reference word inserted.
    """

    edits: int
    shifts: int
    order: tuple[int, ...]
    moved: frozenset[int]
    ops: str


def alignment(candidate: Sequence[str], reference: Sequence[str]) -> Alignment:
    """The TER alignment of ``candidate``'s words to ``reference``'s, its distances computed bit-parallel where
    the beam cannot change them (the same as :func:`obvious_alignment`)."""
    return _align(list(candidate), list(reference), fast=True)


def obvious_alignment(candidate: Sequence[str], reference: Sequence[str]) -> Alignment:
    """The TER alignment as the definition reads: every edit distance computed in the beam, cell by cell."""
    return _align(list(candidate), list(reference), fast=False)


def _align(words: list[str], ref: list[str], *, fast: bool) -> Alignment:
    n, m = len(words), len(ref)
    if m == 0:
        return Alignment(n, 0, tuple(range(n)), frozenset(), DELETE * n)
    order = list(range(n))
    moved: set[int] = set()
    shifts = checked = 0
    beam = _Beam(n, m)
    masks = _Masks(ref) if fast else None
    positions: dict[str, list[int]] = {}
    for j, word in enumerate(ref):
        positions.setdefault(word, []).append(j)
    while True:
        table = _Table(words, ref, beam, masks)
        best, checked = _best_shift(words, ref, positions, table, checked)
        if checked >= MAX_SHIFT_CANDIDATES or best is None or best[0] <= 0:
            break
        _, length, start, target = best
        start, target = -start, -target
        shifts += 1
        moved.update(order[start : start + length])
        words = _shifted(words, start, length, target)
        order = _shifted(order, start, length, target)
    return Alignment(shifts + table.distance, shifts, tuple(order), frozenset(moved), table.ops())


def _shifted(items: list, start: int, length: int, target: int) -> list:
    """``items`` with its ``length`` items from ``start`` moved before index ``target`` (as Tercom counts it: a
    target inside the phrase moves it that far past its end)."""
    phrase = items[start : start + length]
    if target < start:
        return items[:target] + phrase + items[target:start] + items[start + length :]
    if target > start + length:
        return items[:start] + items[start + length : target] + phrase + items[target:]
    return items[:start] + items[start + length : length + target] + phrase + items[length + target :]


def _best_shift(
    words: list[str], ref: list[str], positions: dict[str, list[int]], table: _Table, checked: int
) -> tuple[tuple[int, int, int, int] | None, int]:
    """The best shift of ``words`` as (gain, length, -start, -target), or ``None``; and the shifts tried so far."""
    n, m = len(words), len(ref)
    align, hyp_errors, ref_errors = table.alignment()
    if not hyp_errors[-1] or not ref_errors[-1]:  # every candidate word, or every reference word, is kept
        return None, checked
    best: tuple[int, int, int, int] | None = None
    distance = table.distance
    for start_h, word in enumerate(words):
        for start_r in positions.get(word, ()):
            if abs(start_r - start_h) > MAX_SHIFT_DISTANCE:
                continue
            length = 0
            while length < MAX_SHIFT_SIZE and words[start_h + length] == ref[start_r + length]:
                length += 1
                # A phrase is shifted only where it is wrong, to where the reference is not matched either, and
                # never to a place inside itself.
                if (
                    hyp_errors[start_h + length] != hyp_errors[start_h]
                    and ref_errors[start_r + length] != ref_errors[start_r]
                    and not start_h <= align[start_r] < start_h + length
                ):
                    tried = -1
                    for place in range(start_r - 1, start_r + length):
                        target = align[place] + 1 if place >= 0 else 0
                        if target == tried:
                            continue
                        tried = target
                        gain = distance - table.distance_after(start_h, length, target)
                        checked += 1
                        candidate = (gain, length, -start_h, -target)
                        if best is None or candidate > best:
                            best = candidate
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return best, checked
                if start_h + length == n or start_r + length == m:
                    break
    return best, checked


class _Beam:
    """The cells of each row of the table that the beam computes, for a candidate of ``n`` words against a
    reference of ``m`` (every shift keeps ``n``): row i holds columns ``lows[i]`` to ``highs[i] - 1`` (worked out
    when first asked for)."""

    __slots__ = ("_limits", "m", "n")

    def __init__(self, n: int, m: int) -> None:
        self.n, self.m = n, m
        self._limits: tuple[list[int], list[int]] | None = None

    @property
    def lows(self) -> list[int]:
        return self._bounds()[0]

    @property
    def highs(self) -> list[int]:
        return self._bounds()[1]

    def _bounds(self) -> tuple[list[int], list[int]]:
        if self._limits is None:
            n, m = self.n, self.m
            ratio = m / n if n else 1
            width = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
            lows, highs = [0], [m + 1]
            for i in range(1, n + 1):
                diagonal = math.floor(i * ratio)
                lows.append(max(0, diagonal - width))
                highs.append(m + 1 if i == n else min(m + 1, diagonal + width))
            self._limits = lows, highs
        return self._limits

    def holds_every_path(self, forward: _Columns, backward: _Columns, distance: int) -> bool:
        """Whether every optimal path of the whole table stays in the beam: none of the cells just outside it that a
        path leaving it would cross first (below the beam where it moves right from one row to the next, and the
        first cell past its right end) is on an optimal path, the last row included (its beam starts past column
        0 when the reference is much longer than the candidate). ``forward`` are the columns of the words,
        ``backward`` those of the reversed words against the reversed reference."""
        n, m = self.n, self.m
        lows, highs = self._bounds()
        vps, vns, rvps, rvns = forward.vps, forward.vns, backward.vps, backward.vns
        for i in range(1, n + 1):
            vp, vn, rvp, rvn = vps[i], vns[i], rvps[n - i], rvns[n - i]
            outside = [*range(lows[i - 1], lows[i]), *range(highs[i], min(m, max(highs[i], highs[i - 1])) + 1)]
            for j in outside:
                below, after = (1 << j) - 1, (1 << (m - j)) - 1
                start = i + (vp & below).bit_count() - (vn & below).bit_count()
                end = n - i + (rvp & after).bit_count() - (rvn & after).bit_count()
                if start + end == distance:
                    return False
        return True

    def rows(self, words: list[str], ref: list[str], costs: list[list[int]], start: int, ops: list[str] | None) -> None:
        """Fill ``costs`` (and ``ops``, when given) from row ``start + 1`` on; rows up to ``start`` are given."""
        m = self.m
        del costs[start + 1 :]
        if ops is not None:
            del ops[start + 1 :]
        for i in range(start + 1, self.n + 1):
            previous = costs[i - 1]
            row = [_INFINITE] * (m + 1)
            moves = [_UNSET] * (m + 1)
            word = words[i - 1]
            for j in range(self.lows[i], self.highs[i]):
                if j == 0:
                    row[0] = previous[0] + 1
                    moves[0] = DELETE
                    continue
                # Ties: a kept or substituted word, then a deleted one, then an inserted one (Tercom's order).
                same = word == ref[j - 1]
                cost, move = _INFINITE, _UNSET
                if previous[j - 1] + (not same) < cost:
                    cost, move = previous[j - 1] + (not same), KEEP if same else SUBSTITUTE
                if previous[j] + 1 < cost:
                    cost, move = previous[j] + 1, DELETE
                if row[j - 1] + 1 < cost:
                    cost, move = row[j - 1] + 1, INSERT
                row[j] = cost
                moves[j] = move
            costs.append(row)
            if ops is not None:
                ops.append("".join(moves))


class _Columns:
    """The whole table's columns as bit vectors of its vertical steps (Hyyrö's global edit distance): ``vps[i]``
    has bit j set where cell (i, j + 1) is one more than cell (i, j), ``vns[i]`` where it is one less; and the
    last cell, the distance."""

    __slots__ = ("distance", "vns", "vps")

    def __init__(self, vps: list[int], vns: list[int], distance: int) -> None:
        self.vps, self.vns, self.distance = vps, vns, distance

    def cost(self, i: int) -> int:
        """The last cell of column ``i``: the distance of the first ``i`` words to the reference."""
        return i + self.vps[i].bit_count() - self.vns[i].bit_count()


class _Table:
    """The edit distance table of one ordering of the candidate's words against the reference: its distance, its
    alignment, and the distance after a shift (from the rows the shift leaves as they are).

    With ``masks`` (each reference word's bit mask, forwards and backwards) the columns are computed bit-parallel,
    and the beam's table only when the beam could make a difference; without them, always the beam's table."""

    __slots__ = ("_ops", "backward", "beam", "costs", "distance", "exact", "forward", "masks", "moves", "ref", "words")

    def __init__(self, words: list[str], ref: list[str], beam: _Beam, masks: _Masks | None) -> None:
        self.words, self.ref, self.beam, self.masks = words, ref, beam, masks
        self.costs: list[list[int]] = []
        self.moves: list[str] = []
        self.backward: _Columns | None = None
        self._ops: str | None = None
        self.exact = False
        if masks is not None:
            self.forward = _columns(words, len(ref), masks.forward)
            self.exact = self._holds_every_path(words, self.forward, None)
        if self.exact:
            self.distance = self.forward.distance
        else:
            self._fill()
            self.distance = self.costs[len(words)][len(ref)]

    def _holds_every_path(self, words: list[str], forward: _Columns, backward: _Columns | None) -> bool:
        """Whether the beam holds every optimal path of ``words``' whole table (``backward``: their reversed
        columns, worked out here when not given and needed)."""
        n, m = len(words), len(self.ref)
        if m <= _WHOLE_TABLE or forward.distance + abs(n - m) <= _EXACT_BOUND:
            return True
        if backward is None:
            backward = self._backward(words, words is self.words)
        return self.beam.holds_every_path(forward, backward, forward.distance)

    def _backward(self, words: list[str], own: bool) -> _Columns:
        if own:
            if self.backward is None:
                self.backward = _columns(words[::-1], len(self.ref), self.masks.backward)  # type: ignore[union-attr]
            return self.backward
        return _columns(words[::-1], len(self.ref), self.masks.backward)  # type: ignore[union-attr]

    def _fill(self) -> None:
        if not self.costs:
            self.costs = [list(range(len(self.ref) + 1))]
            self.moves = [INSERT * (len(self.ref) + 1)]
            self.beam.rows(self.words, self.ref, self.costs, 0, self.moves)

    def ops(self) -> str:
        """The edits that turn the words into the reference, in order (Tercom's choice among equally short ones)."""
        if self._ops is None:
            self._ops = self._trace()
        return self._ops

    def _trace(self) -> str:
        i, j = len(self.words), len(self.ref)
        backwards = []
        if self.exact:
            words, ref, vps, vns = self.words, self.ref, self.forward.vps, self.forward.vns
            cost = self.distance
            while i > 0 and j > 0:
                # The cells above and diagonally above-left, from column i - 1's bit vectors.
                below = (1 << (j - 1)) - 1
                vp, vn = vps[i - 1], vns[i - 1]
                diagonal = i - 1 + (vp & below).bit_count() - (vn & below).bit_count()
                same = words[i - 1] == ref[j - 1]
                if diagonal + (not same) == cost:
                    backwards.append(KEEP if same else SUBSTITUTE)
                    cost, i, j = diagonal, i - 1, j - 1
                    continue
                bit = 1 << (j - 1)
                above = diagonal + (1 if vp & bit else -1 if vn & bit else 0)
                if above + 1 == cost:
                    backwards.append(DELETE)
                    cost, i = above, i - 1
                else:
                    backwards.append(INSERT)
                    cost, j = cost - 1, j - 1
            backwards += DELETE * i + INSERT * j
        else:
            moves = self.moves
            while i > 0 or j > 0:
                move = moves[i][j]
                backwards.append(move)
                if move in (KEEP, SUBSTITUTE):
                    i, j = i - 1, j - 1
                elif move == INSERT:
                    j -= 1
                elif move == DELETE:
                    i -= 1
                else:  # pragma: no cover - the beam always reaches its last cell
                    raise AssertionError("the beam lost the alignment")
        return "".join(reversed(backwards))

    def alignment(self) -> tuple[list[int], list[int], list[int]]:
        """Where each reference word sits among the candidate's (the index of the candidate word it is kept as,
        substituted by or inserted after; -1 before the first), and the running counts of the candidate's and of
        the reference's words that are not kept (index k: among the first k words)."""
        align = []
        hyp_errors, ref_errors = [0], [0]
        h = -1
        for op in self.ops():
            if op in (KEEP, SUBSTITUTE):
                h += 1
                align.append(h)
                wrong = op == SUBSTITUTE
                hyp_errors.append(hyp_errors[-1] + wrong)
                ref_errors.append(ref_errors[-1] + wrong)
            elif op == DELETE:
                h += 1
                hyp_errors.append(hyp_errors[-1] + 1)
            else:
                align.append(h)
                ref_errors.append(ref_errors[-1] + 1)
        return align, hyp_errors, ref_errors

    def distance_after(self, start: int, length: int, target: int) -> int:
        """The edit distance once ``length`` words from ``start`` are moved before ``target``."""
        words, ref = self.words, self.ref
        shifted = _shifted(words, start, length, target)
        same = min(start, target)  # the columns (and the beam's rows) before this one are the table's
        if self.masks is not None:
            n, m = len(words), len(ref)
            forward, peq = self.forward, self.masks.forward
            distance = _resume(shifted, same, m, peq, forward.vps[same], forward.vns[same], forward.cost(same))
            if m <= _WHOLE_TABLE or distance + abs(n - m) <= _EXACT_BOUND:
                return distance
            columns = _columns(shifted[same:], m, peq, forward.vps[: same + 1], forward.vns[: same + 1])
            if self._holds_every_path(shifted, columns, None):
                return distance
        self._fill()
        costs = self.costs[: same + 1]
        self.beam.rows(shifted, ref, costs, same, None)
        return costs[-1][-1]


class _Masks:
    """Each reference word's positions as a bit mask, forwards and (made when first asked for) backwards: the
    reversed reference's."""

    __slots__ = ("_backward", "forward", "ref")

    def __init__(self, ref: list[str]) -> None:
        self.ref = ref
        self.forward = _bit_masks(ref)
        self._backward: dict[str, int] | None = None

    @property
    def backward(self) -> dict[str, int]:
        if self._backward is None:
            self._backward = _bit_masks(self.ref[::-1])
        return self._backward


def _bit_masks(ref: list[str]) -> dict[str, int]:
    """Each reference word's positions as a bit mask (bit j: word j)."""
    masks: dict[str, int] = {}
    for j, word in enumerate(ref):
        masks[word] = masks.get(word, 0) | 1 << j
    return masks


def _columns(
    words: list[str], m: int, peq: dict[str, int], vps: list[int] | None = None, vns: list[int] | None = None
) -> _Columns:
    """The whole table's columns of ``words`` against the reference whose masks are ``peq`` (``m`` words), after
    the columns ``vps`` and ``vns`` when given (the words then go on from there)."""
    mask = (1 << m) - 1
    top = 1 << (m - 1)
    if vps is None or vns is None:
        vps, vns = [mask], [0]
    vp, vn = vps[-1], vns[-1]
    distance = len(vps) - 1 + vp.bit_count() - vn.bit_count()
    get = peq.get
    for word in words:
        eq = get(word, 0)
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = vn | ~(xh | vp)
        hn = vp & xh
        if hp & top:
            distance += 1
        elif hn & top:
            distance -= 1
        hp = (hp << 1) | 1  # the first row grows by one a column: a global distance
        vp = ((hn << 1) | ~(xv | hp)) & mask
        vn = hp & xv
        vps.append(vp)
        vns.append(vn)
    return _Columns(vps, vns, distance)


def _resume(words: list[str], start: int, m: int, peq: dict[str, int], vp: int, vn: int, distance: int) -> int:
    """The full table's distance of ``words``, from its column ``start`` (``vp``, ``vn``, its last cell) on."""
    mask = (1 << m) - 1
    top = 1 << (m - 1)
    get = peq.get
    for i in range(start, len(words)):
        eq = get(words[i], 0)
        xv = eq | vn
        xh = (((eq & vp) + vp) ^ vp) | eq
        hp = vn | ~(xh | vp)
        hn = vp & xh
        if hp & top:
            distance += 1
        elif hn & top:
            distance -= 1
        hp = (hp << 1) | 1
        vp = ((hn << 1) | ~(xv | hp)) & mask
        vn = hp & xv
    return distance
