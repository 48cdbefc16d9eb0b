"""Ranks within a reference: rows grouped by the hash of their reference key (from scoring) rank as rows grouped by
the key itself, whatever the hashes share."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import Bleu, Chrf, Ter
from bleu_xl.excel.cell_values import CellError
from bleu_xl.table import ranks, scoring
from bleu_xl.table.layout import Layout
from bleu_xl.table.sheet import Sheet

SUMMER = "Notre collection d'été est arrivée"
#: References BLEU reads alike (NFD, case, spacing, punctuation) and apart, a blank one, an error.
REFERENCES = [
    SUMMER,
    unicodedata.normalize("NFD", SUMMER),
    SUMMER.upper() + " ",
    SUMMER + "!",
    "Nouvelle collection",
    "nouvelle  collection.",
    "...",
    "",
    CellError("#N/A"),
]
CANDIDATES = ["Notre collection est arrivée", "La collection d'été", "Nouvelle", "collection été", "", "!!"]
METRICS = [Bleu(), Chrf(), Ter(), Bleu(max_n=4)]


def _table(rows: list[tuple[object, object, object]]) -> tuple[Sheet, Layout]:
    sheet = Sheet("t", [["Reference", "Second", "Candidate"], *map(list, rows)], ["t"])
    return sheet, Layout(0, 2, [0, 1])


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.sampled_from(REFERENCES), st.sampled_from([None, *REFERENCES[:5]]), st.sampled_from(CANDIDATES)),
        min_size=1,
        max_size=14,
    ),
    metric=st.sampled_from(METRICS),
    collide=st.booleans(),
)
def test_rows_grouped_by_key_hash_rank_as_by_key(rows: list[tuple[object, object, object]], metric, collide) -> None:
    """One reference or two, read alike or apart, blank or an error: the hashes scoring gives rank the rows as their
    keys do, and so do hashes that all collide (every scored row given the same one)."""
    sheet, layout = _table(rows)
    pairs = scoring.pairs_of(sheet, layout)
    (outcomes,), key_hashes = scoring.score_chunk_keyed(pairs, [metric])
    if collide:
        key_hashes = [None if h is None else 7 for h in key_hashes]
    assert ranks.ranked_groups(pairs, outcomes, metric, key_hashes) == ranks.ranked_groups(pairs, outcomes, metric)


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.sampled_from([*REFERENCES[:7], "Été", "ÉTÉ", "été ", "東京 été"]), min_size=1, max_size=3))
@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.signature())
def test_prepared_key_is_the_reference_key(metric, texts: list[str]) -> None:
    """The key read from a prepared reference set is the key read from its texts."""
    refs = tuple(texts)
    try:
        prepared = metric.prepare(refs)
    except Exception:  # a reference set the metric cannot use is never scored, so never keyed
        return
    assert metric.prepared_key(refs, prepared) == metric.reference_key(refs)


def test_a_table_scored_by_workers_ranks_as_one_scored_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hashes come from forked workers (one hash secret with this process); where workers would be spawned, the
    rows are keyed here instead. Both rank as one process does."""
    rows = [(REFERENCES[i % 5], None, CANDIDATES[i % 4]) for i in range(scoring.PARALLEL_MIN_PAIRS + 300)]
    sheet, layout = _table(rows)
    one = scoring.score_table(sheet, layout, workers=1)
    two = scoring.score_table(sheet, layout, workers=2)
    assert one.ranks == two.ranks and one.groups == two.groups == 2
    monkeypatch.setattr(scoring, "forking", lambda: False)  # ranks keyed here, as after spawned workers
    apart = scoring.score_table(sheet, layout, workers=2)
    assert apart.ranks == one.ranks
