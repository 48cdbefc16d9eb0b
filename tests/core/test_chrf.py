"""chrF and chrF++ against sacrebleu 2.6's CHRF (the oracle): random Unicode pairs, several references, the WMT22
sample; and the core's own promises (statistics that add up, the signature, the settings, the fast paths)."""

from __future__ import annotations

import doctest
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

import bleu_xl.core.metrics.chrf
from bleu_xl import BleuError, ChrfReferences, chrf, chrf_signature, corpus_chrf
from bleu_xl.core.metrics.chrf import (
    ChrfStats,
    chrf_from_stats,
    chrf_pair_stats,
    chrf_words,
    obvious_stats,
    sum_chrf_stats,
)

ROOT = Path(__file__).resolve().parents[2]
WMT22 = ROOT.parent / "shared" / "data" / "wmt22-sample"
EXACT = 1e-12

# --- random Unicode text -------------------------------------------------------------------------------------------

POOLS = {
    "latin": list("aeiouyàâäéèêëîïôöùûüçœæÀÉÈÇÔbcdfglmnprstvzBCDLMPST"),
    "ascii_punct": list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "other_punct": list("«»“”‘’—–…¿¡·、。！（）"),
    "cjk": list("東京大阪の新しい商品が届きました配送無料今日だけ価格品質한국어문장"),
    "thai": list("กขคงจฉชซญดตถทนบปผพฟภมยรลวศษสหอฮะาำิีึืุู่้๊๋็์"),
    "emoji": ["😀", "👍🏽", "👩\u200d💻", "🇫🇷", "❤\ufe0f", "🎉"],
    "digits": list("0123456789"),
    "combining": ["e\u0301", "a\u0308", "\u0301"],
    "zero_width": ["\u200b", "\u200d", "\ufeff"],  # not whitespace to str.split: they stay
}
#: Whitespace runs as str.split sees them: ASCII, no-break, ideographic, thin, line and paragraph separators.
SPACES = [" ", "  ", "\t", "\n", " \r\n ", "\u00a0", "\u3000", "\u2009", "\u2028", "\x1f", "   \t"]


def _word(rng: random.Random) -> str:
    pools = rng.sample(sorted(POOLS), rng.choice([1, 1, 1, 2]))
    weights = [0.9 if pool in ("latin", "cjk", "thai") else 0.3 for pool in pools]
    return "".join(rng.choice(POOLS[rng.choices(pools, weights)[0]]) for _ in range(rng.randint(1, 6)))


def _text(rng: random.Random, words: list[str]) -> str:
    lead = rng.choice(SPACES) if rng.random() < 0.1 else ""
    tail = rng.choice(SPACES) if rng.random() < 0.1 else ""
    return (
        lead
        + "".join(w + (rng.choice(SPACES) if rng.random() < 0.3 else " ") for w in words[:-1])
        + (words[-1] if words else "")
        + tail
    )


def _edit(rng: random.Random, words: list[str]) -> list[str]:
    """A candidate's words made from a reference's: dropped, replaced, swapped, recased, punctuated."""
    out = []
    for word in words:
        roll = rng.random()
        if roll < 0.1:
            continue
        if roll < 0.2:
            word = _word(rng)
        elif roll < 0.25:
            word = word.upper() if rng.random() < 0.5 else word.capitalize()
        elif roll < 0.35:
            mark = rng.choice(POOLS["ascii_punct"] + POOLS["other_punct"])
            word = word + mark if rng.random() < 0.6 else mark + word
        out.append(word)
    if len(out) > 2 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return out


def random_case(rng: random.Random) -> tuple[list[str], str]:
    """One or more references (some empty or whitespace-only) and a candidate (sometimes empty or unrelated)."""
    words = [_word(rng) for _ in range(rng.randint(0, 12))]
    refs = [_text(rng, words)]
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        roll = rng.random()
        refs.append("" if roll < 0.15 else rng.choice(SPACES) if roll < 0.25 else _text(rng, _edit(rng, words)))
    rng.shuffle(refs)
    roll = rng.random()
    if roll < 0.05:
        cand = ""
    elif roll < 0.08:
        cand = rng.choice(SPACES)
    elif roll < 0.15:
        cand = _text(rng, [_word(rng) for _ in range(rng.randint(1, 8))])
    elif roll < 0.2:
        cand = refs[0]
    else:
        cand = _text(rng, _edit(rng, words))
    return refs, cand


SETTINGS = list(itertools.product(range(1, 7), range(3), range(1, 4)))  # char_order, word_order, beta
PAIRS_PER_WORD_ORDER = 3500  # 10,500 random pairs in all


@pytest.mark.parametrize("word_order", range(3))
def test_random_unicode_pairs_equal_sacrebleu(word_order: int) -> None:
    """Sentence and corpus chrF for every char_order 1-6 and beta 1-3 (and this word_order) on 3,500 random pairs:
    equal to sacrebleu's CHRF(...).sentence_score(...).score / 100 and corpus_score to 1e-12, with the same
    statistics (so the same reference was chosen)."""
    rng = random.Random(2300 + word_order)
    combos = [(c, w, b) for c, w, b in SETTINGS if w == word_order]
    groups: dict[tuple[int, int, int], list[tuple[list[str], str]]] = {combo: [] for combo in combos}
    for i in range(PAIRS_PER_WORD_ORDER):
        groups[combos[i % len(combos)]].append(random_case(rng))
    several = 0
    for (char_order, _, beta), cases in groups.items():
        metric = CHRF(char_order=char_order, word_order=word_order, beta=beta)
        settings_ = {"char_order": char_order, "word_order": word_order, "beta": beta}
        ours_stats = []
        for refs, cand in cases:
            ours = chrf(refs if len(refs) > 1 else refs[0], cand, **settings_)
            theirs = metric.sentence_score(cand, refs).score / 100
            assert abs(ours.chrf - theirs) <= EXACT, (refs, cand, settings_, ours.chrf, theirs)
            ours_stats.append(list(itertools.chain.from_iterable(zip(*ours.stats))))  # sacrebleu's layout
            several += len(refs) > 1
        # A corpus of these pairs: each segment's references as streams, None where a segment has fewer.
        width = max(len(refs) for refs, _ in cases)
        streams = [[refs[k] if k < len(refs) else None for refs, _ in cases] for k in range(width)]
        cands = [cand for _, cand in cases]
        ours_corpus = corpus_chrf([refs for refs, _ in cases], cands, **settings_)
        # corpus_score is these statistics added up and scored (read once here, for both checks)
        their_stats = metric._extract_corpus_statistics(cands, streams)
        assert ours_stats == their_stats, settings_  # the same counts: the same reference chosen for every pair
        assert abs(ours_corpus.chrf - metric._aggregate_and_compute(their_stats).score / 100) <= EXACT, settings_
    assert several > PAIRS_PER_WORD_ORDER // 5  # several references are common, not a corner


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrF2", "chrF++"])
def test_wmt22_sample_equals_sacrebleu(word_order: int) -> None:
    """Real references and system outputs (Chinese, Japanese, French): chrF2 and chrF++ per segment and per
    system, equal to sacrebleu to 1e-12. The files are read where the project's shared data lives."""
    if not WMT22.is_dir():
        pytest.skip(f"the WMT22 sample is not at {WMT22} (it is never copied into the repository)")
    systems = sorted(WMT22.glob("generaltest2022.*.hyp.*"))
    assert len(systems) == 8
    metric = CHRF(word_order=word_order)
    for hyp_path in systems:
        pair, lang = hyp_path.name.split(".")[1], hyp_path.suffix[1:]
        refs = (WMT22 / f"generaltest2022.{pair}.ref.A.{lang}").read_text(encoding="utf-8").splitlines()
        hyps = hyp_path.read_text(encoding="utf-8").splitlines()
        assert len(refs) == len(hyps) == 500
        for ref, hyp in zip(refs, hyps):
            ours = chrf(ref, hyp, word_order=word_order).chrf
            assert abs(ours - metric.sentence_score(hyp, [ref]).score / 100) <= EXACT, (hyp_path.name, hyp)
        ours_corpus = corpus_chrf(refs, hyps, word_order=word_order).chrf
        assert abs(ours_corpus - metric.corpus_score(hyps, [refs]).score / 100) <= EXACT, hyp_path.name


# --- sacrebleu's rules, one at a time --------------------------------------------------------------------------------


def _sacre(refs: list[str], cand: str, **kwargs: int) -> float:
    return CHRF(**kwargs).sentence_score(cand, refs).score / 100


def test_whitespace_is_removed_and_zero_width_characters_stay() -> None:
    assert chrf("abc", "a b\u3000c\u00a0").chrf == 1.0  # every str.split whitespace goes
    assert chrf("abc", "ab\u200bc").chrf < 1.0  # a zero-width space is a character
    assert chrf("abc", "ab\u200bc").chrf == pytest.approx(_sacre(["abc"], "ab\u200bc"), abs=EXACT)


def test_case_and_unicode_forms_are_kept() -> None:
    assert chrf("Livraison", "livraison").chrf < 1.0
    assert chrf("\u00e9", "e\u0301").chrf == 0.0  # NFC against NFD: no character in common
    assert chrf("ＡＢＣ", "ABC").chrf == 0.0  # full-width letters are other characters


def test_chrf_plus_plus_splits_one_ascii_mark_off_a_word() -> None:
    assert chrf_words("(hi) «bonjour», l'été! a . ?!") == [
        "(hi",
        ")",
        "«bonjour»",
        ",",
        "l'été",
        "!",
        "a",
        ".",
        "?",
        "!",
    ]
    for cand in ("le chat.", "le chat «noir»", "(le) chat"):
        assert chrf("le chat", cand, word_order=2).chrf == pytest.approx(
            _sacre(["le chat"], cand, word_order=2), abs=EXACT
        )


def test_orders_a_short_text_lacks_are_left_out_and_count_no_candidate_ngram() -> None:
    score = chrf("ab", "abcdef")
    assert score.stats == ChrfStats((6, 5, 0, 0, 0, 0), (2, 1, 0, 0, 0, 0), (2, 1, 0, 0, 0, 0))
    assert score.precision == pytest.approx((2 / 6 + 1 / 5) / 2) and score.recall == 1.0


def test_precision_and_recall_are_averaged_before_one_f_beta() -> None:
    score = chrf("abcd", "abxy", char_order=2, beta=3)
    p = r = (2 / 4 + 1 / 3) / 2
    assert score.chrf == pytest.approx(10 * p * r / (9 * p + r))
    assert score.chrf == pytest.approx(_sacre(["abcd"], "abxy", char_order=2, beta=3), abs=EXACT)


def test_several_references_the_strictly_best_wins_the_first_on_ties() -> None:
    best = chrf(["le chien", "le chat noir", "le chat"], "le chat")
    assert best.chrf == 1.0 and best.refs == 3
    # An empty reference scores 0; first, it wins over a later reference that also scores 0, and brings its zero
    # counts (not the other's) into a corpus.
    first = chrf(["", "xyz"], "abc")
    assert first.chrf == 0.0 and first.stats == ChrfStats((0,) * 6, (0,) * 6, (0,) * 6)
    second = chrf(["xyz", ""], "abc")
    assert second.stats.reference[0] == 3
    assert corpus_chrf([["", "xyz"], "abc"], ["abc", "abc"]).chrf == pytest.approx(
        CHRF().corpus_score(["abc", "abc"], [["", "abc"], ["xyz", None]]).score / 100, abs=EXACT
    )


@pytest.mark.parametrize("text", ["", " ", "\t\n", "\u3000"])
def test_empty_or_whitespace_texts_score_zero_never_an_error(text: str) -> None:
    assert chrf(text, "le chat").chrf == chrf("le chat", text).chrf == chrf(text, text).chrf == 0.0
    assert corpus_chrf([text], [text]).chrf == 0.0


# --- the core's promises ---------------------------------------------------------------------------------------------


def test_corpus_statistics_add_up() -> None:
    rng = random.Random(5)
    cases = [random_case(rng) for _ in range(300)]
    for word_order in (0, 2):
        scores = [chrf(refs, cand, word_order=word_order) for refs, cand in cases]
        total = sum_chrf_stats((s.stats for s in scores), 6 + word_order)
        corpus = corpus_chrf([refs for refs, _ in cases], [c for _, c in cases], word_order=word_order)
        assert corpus.stats == total
        assert corpus == chrf_from_stats(total, word_order=word_order, refs=corpus.refs)
        assert corpus.refs == max(len(refs) for refs, _ in cases)


#: Latin-1 with NUL, controls and Latin-1's whitespace (whose codes name other characters), characters beyond
#: Latin-1 enough for a text to have more than 11 distinct ones (then n-grams are tuples, not integers).
FAST_PATH_ALPHABET = "ab cé\x00\x01\xff\x85\xa0\x1c’€東京大阪の新しい商品が届,.!( )\t"


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.text(alphabet=FAST_PATH_ALPHABET, max_size=16), min_size=1, max_size=3),
    st.text(alphabet=FAST_PATH_ALPHABET, max_size=16),
    st.integers(1, 9),
    st.integers(0, 3),
)
def test_fast_paths_are_the_definition(refs: list[str], cand: str, char_order: int, word_order: int) -> None:
    """N-grams as integers or tuples, reference counts made on demand, orders skipped after one without a match: the
    same statistics as substrings counted with Counter, against each reference."""
    prepared = ChrfReferences(refs, char_order, word_order)
    for ref, one in zip(refs, prepared.refs):
        solo = ChrfReferences(ref, char_order, word_order)
        assert chrf_pair_stats(solo, cand) == obvious_stats(ref, cand, char_order, word_order), (ref, cand)
        del one
    # prepared references are reused: a second candidate against the same object gives fresh statistics
    assert chrf(prepared, cand, char_order=char_order, word_order=word_order) == chrf(
        refs, cand, char_order=char_order, word_order=word_order
    )


@pytest.mark.parametrize("char_order", [1, 6, 8, 9])
@pytest.mark.parametrize("distinct_wide", [0, 1, 11, 12])
def test_character_ids_never_take_one_character_for_another(distinct_wide: int, char_order: int) -> None:
    """Up to 11 characters beyond Latin-1 take codes of Latin-1 whitespace, a candidate's unknown ones the space's:
    on the edges (11 and 12 such characters, orders 8 and 9) the statistics are the definition's."""
    wide = "東京大阪の新しい商品が届"
    reference = "ab\x00\x01\xff" + wide[:distinct_wide] + "ab" + wide[:distinct_wide]
    candidates = [
        reference,
        reference[::-1],
        "ab\x00\x01\xff€€ab",  # characters the reference lacks, Latin-1 and beyond
        "\t\x85\xa0\x1c ab\x00 " + wide[:3],  # whitespace: never counted, whatever its code names
        wide[::-1] + "ab\x00\x01",
        "€東京€",
        "",
    ]
    prepared = ChrfReferences(reference, char_order, 0)
    for candidate in candidates:
        assert chrf_pair_stats(prepared, candidate) == obvious_stats(reference, candidate, char_order), candidate


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=14), st.lists(st.integers(1, 8), min_size=1, max_size=8))
def test_integer_ngrams_are_their_characters_ids_whatever_the_order_asked(ids: bytes, orders: list[int]) -> None:
    """Each window of an order holds the ids of its n characters and nothing more, the orders asked in any order."""
    import sys

    from bleu_xl.core.metrics.chrf_stats import _IntGrams

    grams = _IntGrams(ids)
    for n in orders:
        windows = [int.from_bytes(ids[i : i + n] + bytes(8 - n), sys.byteorder) for i in range(len(ids) - n + 1)]
        assert list(grams.grams(n)) == windows


def test_prepared_references_survive_pickling_and_copying() -> None:
    """Prepared references travel to worker processes: pickled or copied, part counted or not, they score alike."""
    import copy
    import pickle

    references = ["le chat’s mat — €5", "東京大阪の新しい商品が届きました", "x"]
    candidates = ["le chat’s hat — €6", "東京の商品", "", "the mat"]
    for word_order in (0, 2):
        prepared = ChrfReferences(references, 6, word_order)
        expected = [chrf_pair_stats(ChrfReferences(references, 6, word_order), c) for c in candidates]
        for candidate in candidates[:2]:
            chrf_pair_stats(prepared, candidate)  # some orders counted, some not
        for clone in (pickle.loads(pickle.dumps(prepared)), copy.deepcopy(prepared), prepared):
            assert [chrf_pair_stats(clone, c) for c in candidates] == expected


def _scored_in_threads(shared: ChrfReferences, candidates: list[str]) -> list[ChrfStats]:
    """Each candidate scored against ``shared`` in a thread of its own, all starting together."""
    import threading

    start = threading.Barrier(len(candidates))
    got: list[ChrfStats] = []

    def score(candidate: str) -> None:
        start.wait()
        got.append(chrf_pair_stats(shared, candidate))

    threads = [threading.Thread(target=score, args=(candidate,)) for candidate in candidates]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return got


def test_prepared_references_shared_by_threads_score_as_fresh_ones() -> None:
    """Threads that score against one prepared reference while it counts its orders get the fresh statistics."""
    import sys

    rng = random.Random(23)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(10):
            reference = "".join(rng.choice("abcdefgh’") for _ in range(6_000))
            candidates = [reference[i : i + 1_500] for i in range(0, 6_000, 1_500)]
            expected = sorted(chrf_pair_stats(ChrfReferences(reference, 6, 0), c) for c in candidates)
            assert sorted(_scored_in_threads(ChrfReferences(reference, 6, 0), candidates)) == expected
    finally:
        sys.setswitchinterval(interval)


def test_score_reads_by_name_and_as_json() -> None:
    score = chrf("livraison offerte", "livraisons offertes", word_order=2)
    assert float(score) == score.chrf and score.name == "chrF2++"
    assert score.words is not None and chrf("a", "a").words is None
    data = score.as_dict()
    assert data["chrf"] == score.chrf and data["signature"] == score.signature
    assert data["characters"] == {
        "precision": score.characters.precision,
        "recall": score.characters.recall,
        "f": score.characters.f,
    }
    assert [(o["kind"], o["n"]) for o in data["orders"]] == [("char", n) for n in range(1, 7)] + [
        ("word", 1),
        ("word", 2),
    ]


def test_signature_pins_every_choice() -> None:
    assert chrf_signature() == "bleu-xl:chrf-1|nc:6|nw:0|beta:2|case:mixed|space:no|eff:yes|punct:ascii|refs:1"
    assert chrf(["a", "b"], "a", char_order=4, word_order=2, beta=3).signature == (
        "bleu-xl:chrf-1|nc:4|nw:2|beta:3|case:mixed|space:no|eff:yes|punct:ascii|refs:2"
    )


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("char_order", 0),
        ("char_order", 10),
        ("word_order", -1),
        ("word_order", 10),
        ("beta", 0),
        ("beta", 10),
        ("beta", 1.5),
        ("char_order", True),
        ("char_order", "6"),
    ],
)
def test_settings_out_of_bounds_are_refused(setting: str, value: object) -> None:
    with pytest.raises(BleuError, match=setting):
        chrf("a", "a", **{setting: value})
    with pytest.raises(BleuError, match=setting):
        corpus_chrf(["a"], ["a"], **{setting: value})


def test_bad_input_is_a_short_error() -> None:
    with pytest.raises(BleuError, match="no reference given"):
        chrf([], "a")
    with pytest.raises(TypeError, match="reference must be a string"):
        chrf([None], "a")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="candidate must be a string"):
        chrf("a", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="wrap it in a list"):
        corpus_chrf("a", ["a"])  # type: ignore[arg-type]
    with pytest.raises(BleuError, match="2 references but 1 candidates"):
        corpus_chrf(["a", "b"], ["a"])
    with pytest.raises(BleuError, match="no pairs"):
        corpus_chrf([], [])
    with pytest.raises(BleuError, match="prepared for char_order=6, word_order=0"):
        chrf(ChrfReferences("a"), "a", word_order=2)


def test_docstring_examples() -> None:
    result = doctest.testmod(bleu_xl.core.metrics.chrf)
    assert result.attempted > 0 and result.failed == 0


# --- the bootstrap over chrF statistics ------------------------------------------------------------------------------


def test_chrf_bootstrap_resamples_the_pairs_statistics() -> None:
    from bleu_xl import Chrf, ChrfBootstrap
    from bleu_xl.core.bootstrap import statistics_columns
    from bleu_xl.core.column_sums import PLAIN, drawn_indices

    rng = random.Random(11)
    cases = [random_case(rng) for _ in range(60)]
    refs, cands = [r for r, _ in cases], [c for _, c in cases]
    metric = Chrf(6, 2, 2)
    columns = statistics_columns(metric, [stats for stats, _ in metric.corpus_stats(refs, cands)])
    for indices, sums in zip(drawn_indices(len(refs), 5, 3), PLAIN.resampled(columns, 5, 3)):
        drawn = corpus_chrf([refs[i] for i in indices], [cands[i] for i in indices], word_order=2)
        assert metric.from_numbers(sums) == drawn.stats  # a resample is the corpus of the pairs it drew
    interval = ChrfBootstrap(samples=200, seed=5, word_order=2).interval(refs, cands)
    assert interval.score == corpus_chrf(refs, cands, word_order=2).chrf
    assert interval.low <= interval.score <= interval.high
    assert interval == ChrfBootstrap(samples=200, seed=5, word_order=2).interval(refs, cands)  # a seed repeats
    with pytest.raises(BleuError, match="char_order"):
        ChrfBootstrap(char_order=0)
    with pytest.raises(BleuError, match="samples"):
        ChrfBootstrap(samples=0)


def test_the_documented_chrf_example_is_true() -> None:
    import re

    readme = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, flags=re.S) if "bleu_xl.chrf(" in b)
    test = doctest.DocTestParser().get_doctest(block, {}, "README chrF", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3
