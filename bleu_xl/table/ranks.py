"""Ranks within a reference: each scored candidate against the others that share its reference, as RANK.EQ does.

Rows share a reference when the ranking metric reads their references alike (its ``reference_key``). Reading every
row's references again to key it would tokenize a table's references twice; scoring already read them, so it gives
each scored row the hash of its key (:class:`KeyHashes`). Rows are grouped by that hash, and keyed exactly only
where one hash holds rows whose references differ: the groups are those of the exact keys.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..core.metrics import Metric, MetricScore
from ..excel.cells import Pair, PreviousReference

__all__ = ["KeyHashes", "rank_within_reference", "ranked_groups", "score_types"]


class KeyHashes(PreviousReference):
    """The previous reference set kept prepared (:class:`PreviousReference`), and the hash of the key of every
    reference set prepared, from what preparing it read (``metric.prepared_key``)."""

    def __init__(self) -> None:
        super().__init__()
        self.hashes: dict[tuple[str, ...], int] = {}

    def __call__(self, metric: Metric[Any, Any, Any], texts: tuple[str, ...]) -> Any:
        prepared = super().__call__(metric, texts)
        if texts not in self.hashes:
            self.hashes[texts] = hash(metric.prepared_key(texts, prepared))
        return prepared

    def of(self, pairs: Sequence[Pair], outcomes: Sequence[Any]) -> list[int | None]:
        """Each pair's key hash where its outcome is a score (``None`` elsewhere)."""
        scored = score_types(outcomes)
        hashes = self.hashes
        return [hashes[pair.references] if type(o) in scored else None for pair, o in zip(pairs, outcomes)]


def rank_within_reference(
    pairs: Sequence[Pair], outcomes: Sequence[Any], metric: Metric[Any, Any, Any]
) -> list[int | None]:
    """The ranks of :func:`ranked_groups`."""
    return ranked_groups(pairs, outcomes, metric)[0]


def ranked_groups(
    pairs: Sequence[Pair],
    outcomes: Sequence[Any],
    metric: Metric[Any, Any, Any],
    key_hashes: Sequence[int | None] | None = None,
) -> tuple[list[int | None], int]:
    """RANK.EQ among the scored candidates that share a reference: 1 is best (the highest score, or the lowest
    where lower is better, as for TER), equal scores share a rank. A candidate no other scored candidate shares
    its reference with has no rank: there is nothing to rank it against (a reference per row, as in a
    translation).

    Candidates share a reference when ``metric`` (the one that ranks) reads their references alike (its
    ``reference_key``): under BLEU, ``été`` typed on a Mac (NFD) or with a trailing space is the same reference as
    ``été``, since it scores every candidate the same against either. ``key_hashes`` (from scoring, in this
    process or in workers forked from it: Python's string hashes differ between processes started apart) holds
    the hash of each scored row's key, ``None`` for the others. Returns the ranks, and how many references have
    candidates ranked among themselves."""
    scored = score_types(outcomes)
    if key_hashes is None:
        groups = _exact_groups(pairs, outcomes, metric, range(len(outcomes)), scored)
    else:
        by_hash: dict[int, list[int]] = {}
        for i, key_hash in enumerate(key_hashes):
            if key_hash is not None:
                by_hash.setdefault(key_hash, []).append(i)
        groups = []
        for members in by_hash.values():
            if len(members) < 2:
                continue
            if len({pairs[i].references for i in members}) == 1:  # one reference set: one key
                groups.append(members)
            else:  # keys equal, or a collision of their hashes: keyed exactly
                groups += _exact_groups(pairs, outcomes, metric, members, scored)
    ranks: list[int | None] = [None] * len(outcomes)
    ranked = 0
    for members in groups:
        if len(members) < 2:
            continue
        ranked += 1
        values = [float(outcomes[i]) for i in members]
        first: dict[float, int] = {}
        for position, value in enumerate(sorted(values, reverse=metric.higher_is_better), start=1):
            first.setdefault(value, position)
        for i, value in zip(members, values):
            ranks[i] = first[value]
    return ranks, ranked


def score_types(outcomes: Sequence[Any]) -> set[type]:
    """The types of the scores among ``outcomes``: a row is scored when its outcome's type is one of them (a type
    test, a third of what ``isinstance`` of an ABC costs)."""
    return {kind for kind in set(map(type, outcomes)) if issubclass(kind, MetricScore)}


def _exact_groups(
    pairs: Sequence[Pair],
    outcomes: Sequence[Any],
    metric: Metric[Any, Any, Any],
    rows: Sequence[int],
    scored: set[type],
) -> list[list[int]]:
    """The ``rows`` whose outcome is of a ``scored`` type, grouped by the key of their references (each reference set
    read once, however many rows repeat it)."""
    keys: dict[tuple[str, ...], Hashable] = {}
    groups: dict[Hashable, list[int]] = {}
    for i in rows:
        if type(outcomes[i]) in scored:
            refs = pairs[i].references
            if type(refs) is not tuple:  # scored, so never blank or an error
                raise TypeError(f"a scored pair with references {refs!r}")
            key = keys.get(refs)
            if key is None:
                key = keys[refs] = metric.reference_key(refs)
            groups.setdefault(key, []).append(i)
    return list(groups.values())
