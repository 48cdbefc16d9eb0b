"""The metric objects give what the functions people already call give (the same floats and signatures, on any
text), and every face can take any metric through the same methods."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_xl
from bleu_xl import (
    Bleu,
    BleuError,
    Bootstrap,
    Chrf,
    ChrfBootstrap,
    Metric,
    MetricScore,
    Resampling,
    bootstrap_ci,
    chrf,
    chrf_signature,
    corpus_chrf,
    corpus_score,
    metrics_named,
    paired_test,
    score,
    score_many,
    signature,
)

texts = st.text(max_size=50)
wordy = st.lists(
    st.sampled_from(["le", "chat", "noir", "東", "京", "été", "the", "cat", "ok!", "(hi)", "2026", "ß", "Ｘ", " "]),
    min_size=0,
    max_size=12,
).map(" ".join)
text = st.one_of(texts, wordy)
references = st.one_of(text, st.lists(text, min_size=1, max_size=3))
bleus = st.builds(Bleu, st.integers(1, 9), st.sampled_from(Bleu.SMOOTHING_METHODS))
chrfs = st.builds(Chrf, st.integers(1, 9), st.integers(0, 9), st.integers(1, 9))


def same(a: MetricScore, b: MetricScore) -> None:
    """Equal floats, statistics and signatures."""
    assert float(a) == float(b) and a.stats == b.stats and a.signature == b.signature and a.refs == b.refs


@settings(max_examples=400, deadline=None)
@given(metric=bleus, reference=references, candidate=text)
def test_bleu_objects_score_as_the_functions_do(metric: Bleu, reference, candidate) -> None:
    try:
        old = score(reference, candidate, max_n=metric.max_n, smoothing=metric.smoothing)
    except BleuError as error:
        with pytest.raises(BleuError, match=str(error)):
            metric.sentence_score(reference, candidate)
        return
    same(metric.sentence_score(reference, candidate), old)
    refs = 1 if isinstance(reference, str) else len(reference)
    assert metric.signature(refs) == signature(metric.max_n, metric.smoothing, refs)
    assert [float(s) for s in metric.score_many(reference, [candidate, ""])] == [
        float(s) for s in score_many(reference, [candidate, ""], max_n=metric.max_n, smoothing=metric.smoothing)
    ]


@settings(max_examples=400, deadline=None)
@given(metric=chrfs, reference=references, candidate=text)
def test_chrf_objects_score_as_the_functions_do(metric: Chrf, reference, candidate) -> None:
    settings_ = {"char_order": metric.char_order, "word_order": metric.word_order, "beta": metric.beta}
    same(metric.sentence_score(reference, candidate), chrf(reference, candidate, **settings_))
    assert metric.signature(3) == chrf_signature(**settings_, refs=3)
    assert metric.name == chrf(reference, candidate, **settings_).name


@settings(max_examples=150, deadline=None)
@given(
    bleu=bleus,
    chrf_metric=chrfs,
    pairs=st.lists(st.tuples(st.one_of(wordy, st.lists(wordy, min_size=1, max_size=2)), text), min_size=1, max_size=6),
)
def test_corpus_scores_and_their_statistics_as_numbers(bleu: Bleu, chrf_metric: Chrf, pairs) -> None:
    refs, cands = [r for r, _ in pairs], [c for _, c in pairs]
    try:
        old_bleu = corpus_score(refs, cands, max_n=bleu.max_n, smoothing=bleu.smoothing)
    except BleuError:
        old_bleu = None
    if old_bleu is not None:
        same(bleu.corpus_score(refs, cands), old_bleu)
    settings_ = {"char_order": chrf_metric.char_order, "word_order": chrf_metric.word_order, "beta": chrf_metric.beta}
    same(chrf_metric.corpus_score(refs, cands), corpus_chrf(refs, cands, **settings_))
    for metric in (bleu, chrf_metric) if old_bleu is not None else (chrf_metric,):
        pair_scores = [metric.sentence_score(r, c) for r, c in pairs]
        same(metric.corpus_of(pair_scores), metric.corpus_score(refs, cands))
        for scored in pair_scores:  # the flat numbers the bootstrap resamples rebuild the statistics
            assert metric.from_numbers(metric.as_numbers(scored.stats)) == scored.stats


def test_the_bootstraps_people_call_are_the_resampling_of_a_metric() -> None:
    refs = ["le chat noir dort", "the cat sat on the mat", "東京タワー", "livraison offerte cette semaine"] * 5
    a = ["le chat dort", "the cat sat on a mat", "東京", "livraison offerte"] * 5
    b = ["le chat noir", "a cat on the mat", "東京タワー", "livraisons offertes"] * 5
    assert Bootstrap(samples=50, seed=3, max_n=3).interval(refs, a) == Resampling(Bleu(3), samples=50, seed=3).interval(
        refs, a
    )
    assert bootstrap_ci(refs, a, samples=50) == Resampling(samples=50).interval(refs, a)
    assert paired_test(refs, a, b, samples=50) == Resampling(samples=50).paired(refs, a, b)
    chrf_pp = Chrf(word_order=2)
    assert ChrfBootstrap(samples=50, word_order=2).paired(refs, a, b) == Resampling(chrf_pp, samples=50).paired(
        refs, a, b
    )
    assert Bootstrap(max_n=3).max_n == 3 and Bootstrap(smoothing="none").smoothing == "none"
    assert Bootstrap() == Resampling() and ChrfBootstrap(word_order=2) == Resampling(chrf_pp)  # the same settings
    assert hash(Bootstrap()) == hash(Resampling()) and Bootstrap(seed=1) != Resampling()
    with pytest.raises(TypeError, match="metric object"):
        Resampling(metric="bleu")  # type: ignore[arg-type]
    with pytest.raises(BleuError, match="max_n"):
        Bootstrap(max_n=0)


def test_metrics_are_chosen_by_name_each_with_its_own_settings() -> None:
    assert metrics_named(["bleu,chrf"], max_n=4, word_order=2) == (Bleu(4), Chrf(word_order=2))
    assert metrics_named([]) == (Bleu(),)
    assert metrics_named(["bleu2"]) == (Bleu(2),)
    with pytest.raises(BleuError, match=r"^names gives BLEU-2 twice$"):
        metrics_named(["bleu", "bleu2"])
    with pytest.raises(BleuError, match="bleu2 is BLEU-2"):
        metrics_named(["bleu2"], max_n=3)
    assert [metric.key for metric in metrics_named(["chrf", "bleu"])] == ["chrf", "bleu"]
    with pytest.raises(TypeError, match=r"not one string \(wrap it in a list: \['bleu,chrf'\]\)"):
        metrics_named("bleu,chrf")  # type: ignore[arg-type]  # read a letter at a time: "'b' is not a metric"


@pytest.mark.parametrize(
    ("names", "setting", "owner"),
    [
        ([], {"normalized": True}, "TER"),
        (["bleu,chrf"], {"asian_support": False}, "TER"),  # given, even at its default: it would do nothing
        (["ter"], {"max_n": 4}, "BLEU"),
        (["bleu2"], {"smoothing": "none", "word_order": 2}, "chrF"),
        (["chrf"], {"case_sensitive": True}, "TER"),
        (["ter"], {"beta": 3}, "chrF"),
    ],
)
def test_a_setting_of_a_metric_not_named_is_refused_not_dropped(names: list[str], setting: dict, owner: str) -> None:
    name = next(n for n in setting if n not in ("smoothing",))
    with pytest.raises(BleuError, match=f"^{name} is a setting of {owner}, which is not among the metrics chosen"):
        metrics_named(names, **setting)
    with pytest.raises(TypeError, match="no metric has a setting 'max_N'"):
        metrics_named(["bleu"], max_N=4)


@pytest.mark.parametrize("metric", [Bleu(), Bleu(4, "none"), Chrf(), Chrf(4, 2, 3)], ids=lambda m: m.name)
def test_every_metric_is_one_object_every_face_can_take(metric: Metric) -> None:
    """Settings checked when made, equal settings equal metrics, picklable (the process pool sends them), and the
    methods every face calls."""
    settings_ = {field.name: getattr(metric, field.name) for field in dataclasses.fields(metric)}
    assert metric == type(metric)(**settings_)
    assert pickle.loads(pickle.dumps(metric)) == metric and hash(metric) == hash(pickle.loads(pickle.dumps(metric)))
    prepared = metric.prepare(("le chat noir", "the black cat"))
    scored = metric.sentence_score(prepared, "le chat")
    assert isinstance(scored, MetricScore) and 0 < float(scored) < 1 and scored.refs == 2
    assert len(metric.detail_values(scored)) == len(metric.details())
    assert metric.held_size(("le chat noir", "the black cat"), prepared) > 0
    assert metric.reference_key(("le chat noir",)) == metric.reference_key(("le chat noir",))
    assert metric.higher_is_better
    with pytest.raises(BleuError):
        type(metric)(**{dataclasses.fields(metric)[0].name: 0})


@pytest.mark.parametrize(
    "metric", [Bleu(), Bleu(4, "none"), Chrf(), Chrf(4, 2, 3), bleu_xl.Ter()], ids=lambda m: m.name
)
def test_a_score_travels_between_processes_whole(metric: Metric) -> None:
    """A score comes back from a worker process equal, of its own type, its statistics of theirs."""
    scored = metric.sentence_score(metric.prepare(("le chat noir", "the black cat")), "le chat")
    back = pickle.loads(pickle.dumps(scored, pickle.HIGHEST_PROTOCOL))
    assert back == scored and type(back) is type(scored) and type(back.stats) is type(scored.stats)
    assert back.signature == scored.signature and back.as_dict() == scored.as_dict()


def test_the_package_exports_the_metric_objects() -> None:
    assert {"Bleu", "Chrf", "Metric", "MetricScore", "Resampling", "metrics_named"} <= set(bleu_xl.__all__)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: signature(99, "add1"), "max_n must be a whole number from 1 to 9, not 99"),
        (lambda: signature(2, "exp"), "smoothing must be one of"),
        (lambda: signature(2, "add1", -1), "refs must be a whole number of at least 1, not -1"),
        (lambda: signature(2, "add1", 2.0), "refs must be a whole number of at least 1, not 2.0"),
        (lambda: chrf_signature(char_order=0), "char_order must be a whole number from 1 to 9, not 0"),
        (lambda: chrf_signature(word_order=-3), "word_order must be"),
        (lambda: chrf_signature(beta=0), "beta must be"),
        (lambda: chrf_signature(refs=True), "refs must be a whole number of at least 1, not True"),
        (lambda: bleu_xl.core.metrics.ter.ter_signature(normalized="yes"), "normalized must be True or False"),
        (lambda: bleu_xl.core.metrics.ter.ter_signature(asian_support=True), "asian_support does nothing alone"),
    ],
)
def test_a_signature_of_settings_no_score_can_have_is_refused(make, message: str) -> None:
    """A signature pins what a score was made with: one no metric object can be made with pins nothing."""
    with pytest.raises(bleu_xl.BleuError, match=message):
        make()


def test_the_signature_functions_say_what_the_objects_say() -> None:
    assert signature(4, "none", 3) == Bleu(4, "none").signature(3)
    assert chrf_signature(6, 2, 2, 2) == Chrf(word_order=2).signature(2)
    assert bleu_xl.core.metrics.ter.ter_signature(True, refs=2) == bleu_xl.Ter(normalized=True).signature(2)


@pytest.mark.parametrize("metric", [Bleu(), Chrf(), bleu_xl.Ter()], ids=lambda m: m.name)
def test_a_corpus_given_as_generators_is_a_type_error_that_says_so(metric) -> None:
    with pytest.raises(TypeError, match=r"^references must be a sequence \(a list or a tuple\), not generator$"):
        metric.corpus_score((r for r in ["a b"]), ["a b"])
    with pytest.raises(TypeError, match=r"^candidates must be a sequence \(a list or a tuple\), not map$"):
        metric.corpus_score(["a b"], map(str, ["a b"]))
    assert float(metric.corpus_score(("a b",), ("a b",))) in (0.0, 1.0)


def test_numpy_integers_are_whole_numbers_and_sets_no_corpus() -> None:
    np = pytest.importorskip("numpy")
    assert signature(np.int64(3), refs=np.int64(2)) == signature(3, refs=2)
    assert chrf_signature(np.int64(6), np.int64(2), refs=np.int64(2)) == chrf_signature(6, 2, refs=2)
    with pytest.raises(TypeError, match=r"^references must be a sequence \(a list or a tuple\), not set$"):
        Bleu().corpus_score({"a b"}, ["a b"])  # a set pairs with the candidates in no order


def test_settings_given_as_numpy_values_are_taken_as_python_ones() -> None:
    """Settings read from a DataFrame: numpy's int64 and True were refused by the metric objects with a message that
    read wrong (`max_n must be a whole number from 1 to 9, not np.int64(4)`); they are Python's once made."""
    np = pytest.importorskip("numpy")
    import json

    from bleu_xl import Bleu, Chrf, Randomization, Resampling, Ter, chrf, explain, score

    made = [
        (Bleu(max_n=np.int64(4)), "max_n", 4),
        (Chrf(char_order=np.int64(5), word_order=np.int32(1), beta=np.int8(3)), "beta", 3),
        (Resampling(samples=np.int64(100), seed=np.uint16(7)), "seed", 7),
        (Resampling(level=np.float32(0.5)), "level", 0.5),
        (Resampling(level=np.float64(0.9)), "level", 0.9),
        (Randomization(trials=np.int64(100)), "trials", 100),
        (Ter(normalized=np.True_, asian_support=np.bool_(True)), "asian_support", True),
    ]
    for metric, name, value in made:
        assert getattr(metric, name) == value and type(getattr(metric, name)) is type(value), metric
    assert json.dumps(score("a b c", "a b c", max_n=np.int64(3)).as_dict())  # plain ints all the way
    assert chrf("a b c", "a b c", char_order=np.int64(3)).chrf == 1.0
    assert explain("a b c", "a b d", max_n=np.int64(2)).score.bleu == score("a b c", "a b d").bleu
    for wrong in (np.float64(4.0), np.int64(0), np.True_):
        with pytest.raises(BleuError, match="max_n must be a whole number"):
            Bleu(max_n=wrong)
    with pytest.raises(BleuError, match="normalized must be True or False"):
        Ter(normalized=np.int64(1))
