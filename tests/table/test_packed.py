"""Outcomes packed to travel back from a worker come back equal, of the same types, in the same order: every
metric's scores (TER's with their changes), blanks, errors, and anything packing does not know."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl.core.errors import BleuXlError
from bleu_xl.core.metrics import Bleu, Chrf, Ter
from bleu_xl.excel.cell_values import Blank, CellError
from bleu_xl.table.packed import pack, unpack

WORDS = st.lists(st.sampled_from(["le", "chat", "dort", "été", "東京", ",", "Chat"]), min_size=1, max_size=8)
METRICS = [Bleu(), Bleu(max_n=4, smoothing="none"), Chrf(), Chrf(word_order=2), Ter(), Ter(normalized=True)]


def _outcome(kind: int, ref: list[str], cand: list[str], metric_index: int) -> object:
    if kind == 0:
        return Blank()
    if kind == 1:
        return CellError("#VALUE!", "reference is blank")
    if kind == 2:
        return CellError("#N/A")
    if kind == 3:
        return ("not", "an outcome")  # travels as itself
    try:
        return METRICS[metric_index].sentence_score([" ".join(ref)], " ".join(cand))
    except BleuXlError as exc:  # BLEU against punctuation alone: an error, as a cell shows it
        return CellError("#VALUE!", str(exc))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), WORDS, WORDS, st.integers(0, len(METRICS) - 1)), max_size=30))
def test_packed_outcomes_come_back_equal(rows: list[tuple[int, list[str], list[str], int]]) -> None:
    outcomes = [_outcome(*row) for row in rows]
    back = unpack(pickle.loads(pickle.dumps(pack(outcomes), protocol=pickle.HIGHEST_PROTOCOL)))
    assert back == outcomes
    assert [type(o) for o in back] == [type(o) for o in outcomes]
    for got, sent in zip(back, outcomes):
        if hasattr(sent, "stats"):
            assert type(got.stats) is type(sent.stats) and got.signature == sent.signature and float(got) == float(sent)


def test_types_not_built_from_their_fields_travel_as_themselves() -> None:
    """Packing rebuilds a type from its fields only where that gives the same value back: not one whose
    ``__post_init__`` changes a field, not one of keyword-only fields; and many types at once travel as they are."""
    import dataclasses

    @dataclasses.dataclass(slots=True)
    class Scaled:
        v: float

        def __post_init__(self) -> None:
            self.v = self.v * 100

    @dataclasses.dataclass(slots=True, kw_only=True)
    class Named:
        v: float

    outcomes = [Scaled(0.5), Named(v=0.25), Blank(), Scaled(0.75)]
    assert unpack(pack(outcomes)) == outcomes
    many = [dataclasses.make_dataclass(f"K{i}", [("v", int)], slots=True)(i) for i in range(300)]
    packed = pack(many)
    assert packed.kinds == b"" and unpack(packed) == many
