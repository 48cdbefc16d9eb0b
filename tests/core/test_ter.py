"""TER against sacrebleu 2.6's TER (the oracle): its tokenizer options, random texts (empty ones, many shifts,
several references), every option at sentence and corpus level, the WMT22 sample; and the core's own promises
(the fast alignment equal to the obvious one, the words that changed, the metric object, the bootstrap)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from bleu_xl import (
    BleuError,
    BleuXlError,
    Resampling,
    Ter,
    TerOptionsError,
    TerReferences,
    corpus_ter,
    metrics_named,
    ter,
    ter_changes,
)
from bleu_xl.core.metrics.ter_align import alignment, obvious_alignment
from bleu_xl.core.metrics.ter_tokenizer import TerTokenizer, ter_words

ROOT = Path(__file__).resolve().parents[2]
WMT22 = ROOT.parent / "shared" / "data" / "wmt22-sample"
OPTIONS = list(itertools.product([False, True], repeat=4))  # normalized, no_punct, asian_support, case_sensitive
#: asian_support alone does nothing in sacrebleu's TER (it acts with normalized or no_punct): refused.
ASIAN_ALONE = [options for options in OPTIONS if options[2] and not (options[0] or options[1])]
ACCEPTED = [options for options in OPTIONS if options not in ASIAN_ALONE]

PIECES = [
    *"aAbBcCxyz",
    *"'.,-0123 !?\"()&;:/@[]_{}~<>",
    "\n",
    "\n-",
    "\t",
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "'s",
    "'S",
    "東",
    "京",
    "。",
    "、",
    "（",
    "ｶ",
    "ひら",
    "カタ",
    "İ",
    "ß",
    "\uff0e",
    "\u3000",
]
WORDS = ["the", "The", "cat", "sat", "on", "mat", "a", "dog", "ran", "fast", "delivery", "free", "order", "now"]


def _texts(rng: random.Random, count: int) -> list[str]:
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 20))) for _ in range(count)]


def _sentence(rng: random.Random, vocabulary: list[str], low: int, high: int) -> list[str]:
    return [rng.choice(vocabulary) for _ in range(rng.randint(low, high))]


def _edited(rng: random.Random, ref: list[str], vocabulary: list[str], edits: int) -> list[str]:
    """The reference with phrases moved (most edits), words dropped, added and replaced."""
    hyp = list(ref)
    for _ in range(edits):
        roll = rng.random()
        if roll < 0.5 and hyp:
            i = rng.randrange(len(hyp))
            phrase = hyp[i : i + rng.randint(1, 6)]
            del hyp[i : i + len(phrase)]
            k = rng.randint(0, len(hyp))
            hyp[k:k] = phrase
        elif roll < 0.65 and hyp:
            del hyp[rng.randrange(len(hyp))]
        elif roll < 0.8:
            hyp.insert(rng.randint(0, len(hyp)), rng.choice(vocabulary))
        elif hyp:
            hyp[rng.randrange(len(hyp))] = rng.choice(vocabulary)
    return hyp


def _pairs(seed: int, count: int) -> list[tuple[str, str]]:
    """Reference and candidate texts: identical, empty on either side, a few edits, many shifts, unrelated."""
    rng = random.Random(seed)
    pairs = [("", ""), ("", "a b"), ("a b", ""), ("  ", "x"), ("the cat", "the cat")]
    for _ in range(count):
        ref = _sentence(rng, WORDS, 1, 20)
        kind = rng.random()
        hyp = _edited(rng, ref, WORDS, rng.randint(0, 12)) if kind < 0.7 else _sentence(rng, WORDS, 0, 20)
        pairs.append((" ".join(ref), " ".join(hyp)))
    return pairs


def _sacrebleu(options: tuple[bool, ...]) -> TER:
    normalized, no_punct, asian_support, case_sensitive = options
    return TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)


def _settings(options: tuple[bool, ...]) -> dict[str, bool]:
    return dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), options))


# --- the oracle --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTIONS)
def test_words_equal_sacrebleu_tokenizer(options: tuple[bool, ...]) -> None:
    """A candidate's words, and a reference's (which sacrebleu reads twice over)."""
    tokenizer, sacre = TercomTokenizer(*options), _sacrebleu(options)
    for text in _texts(random.Random(sum(options) * 31 + options[0]), 150):
        assert ter_words(text, *options) == tokenizer(text.rstrip()).split(), repr(text)
        reference = sacre._extract_reference_info([sacre._preprocess_segment(text)])["ref_words"][0]
        assert TerTokenizer(*options).reference(text) == reference, repr(text)


@pytest.mark.parametrize("options", ACCEPTED)
def test_sentence_and_corpus_equal_sacrebleu(options: tuple[bool, ...]) -> None:
    rng = random.Random(sum(options))
    pairs = _pairs(len(options) * 7 + sum(options), 12)
    # Punctuation, case and CJK on some pairs, so that every option changes something.
    pairs += list(zip(_texts(rng, 8), _texts(rng, 8)))
    sacre = _sacrebleu(options)
    for ref, hyp in pairs:
        theirs = sacre.sentence_score(hyp, [ref])
        ours = ter(ref, hyp, **_settings(options))
        assert (ours.edits, ours.ref_length) == (theirs.num_edits, theirs.ref_length), (ref, hyp)
        assert ours.ter * 100 == theirs.score
    refs, hyps = zip(*pairs)
    theirs = sacre.corpus_score(list(hyps), [list(refs)])
    ours = corpus_ter(refs, hyps, **_settings(options))
    assert ours.ter * 100 == pytest.approx(theirs.score, abs=1e-9)
    assert ours.edits == theirs.num_edits


def test_several_references_equal_sacrebleu() -> None:
    rng = random.Random(11)
    sacre = TER()
    rows = []
    for _ in range(30):
        ref = _sentence(rng, WORDS, 0, 20)
        refs = [" ".join(_edited(rng, ref, WORDS, rng.randint(0, 6))) for _ in range(rng.randint(2, 4))]
        hyp = " ".join(_edited(rng, ref, WORDS, rng.randint(0, 8)))
        theirs = sacre.sentence_score(hyp, refs)
        ours = ter(refs, hyp)
        assert (ours.edits, ours.ref_length, ours.ter * 100) == (theirs.num_edits, theirs.ref_length, theirs.score)
        rows.append((refs, hyp))
    width = max(len(refs) for refs, _ in rows)
    streams = [[refs[k] if k < len(refs) else None for refs, _ in rows] for k in range(width)]
    theirs = sacre.corpus_score([hyp for _, hyp in rows], streams)
    assert corpus_ter([refs for refs, _ in rows], [hyp for _, hyp in rows]).ter * 100 == pytest.approx(theirs.score)


def test_long_sentences_where_the_beam_and_the_candidate_limit_matter() -> None:
    """Long texts far from their references: distances outside the exact bound (the beam's table), and more than
    1000 shifts to try (Tercom stops there)."""
    rng = random.Random(5)
    vocabulary = [f"w{k}" for k in range(6)]
    sacre = TER()
    for ref_len, hyp_len in ((60, 20), (60, 60)):  # the second tries 1000 shifts
        ref = _sentence(rng, vocabulary, ref_len, ref_len)
        hyp = _sentence(rng, vocabulary, hyp_len, hyp_len)
        ref_text, hyp_text = " ".join(ref), " ".join(hyp)
        assert ter(ref_text, hyp_text).edits == sacre.sentence_score(hyp_text, [ref_text]).num_edits


@pytest.mark.parametrize("options", [(False,) * 4, (True, False, True, False)])
def test_wmt22_sample_equals_sacrebleu(options: tuple[bool, ...]) -> None:
    """Real references and system outputs (French, Japanese, Chinese; CJK split per character when normalised
    with asian_support): the first pairs of each system."""
    if not WMT22.is_dir():
        pytest.skip(f"the WMT22 sample is not at {WMT22} (it is never copied into the repository)")
    sacre = _sacrebleu(options)
    for system in sorted(WMT22.glob("generaltest2022.*.hyp.*")):
        pair, lang = system.name.split(".")[1], system.suffix[1:]
        refs = (WMT22 / f"generaltest2022.{pair}.ref.A.{lang}").read_text(encoding="utf-8").splitlines()[:8]
        hyps = system.read_text(encoding="utf-8").splitlines()[:8]
        for ref, hyp in zip(refs, hyps):
            theirs = sacre.sentence_score(hyp, [ref])
            ours = ter(ref, hyp, **_settings(options))
            assert (ours.edits, ours.ref_length) == (theirs.num_edits, theirs.ref_length), (system.name, ref)


@pytest.mark.parametrize("options", ASIAN_ALONE)
def test_asian_support_alone_is_refused_since_it_changes_no_score(options: tuple[bool, ...]) -> None:
    """sacrebleu's TER reads every text alike with asian_support alone and without it: only the signature would
    differ, so the switch is refused rather than left to say it split CJK text."""
    without = (options[0], options[1], False, options[3])
    for text in _texts(random.Random(5), 60):
        assert TercomTokenizer(*options)(text) == TercomTokenizer(*without)(text)
    with pytest.raises(
        TerOptionsError, match=r"^asian_support does nothing alone: give normalized too \(or no_punct\)$"
    ):
        Ter(**_settings(options))
    with pytest.raises(TerOptionsError):
        ter("東京", "京都", asian_support=True)
    assert issubclass(TerOptionsError, BleuError) and issubclass(TerOptionsError, BleuXlError)


# --- the fast alignment and the obvious one ------------------------------------------------------------------------

_WORD = st.sampled_from(["a", "b", "c", "d", "e"])


@settings(max_examples=80, deadline=None)
@given(st.lists(_WORD, max_size=40), st.lists(_WORD, max_size=40))
def test_fast_alignment_equals_the_obvious_one(hyp: list[str], ref: list[str]) -> None:
    assert alignment(hyp, ref) == obvious_alignment(hyp, ref)


_MANY_WORDS = st.sampled_from([f"w{k}" for k in range(12)])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_MANY_WORDS, max_size=6),
    st.lists(_MANY_WORDS, max_size=6),
    st.integers(20, 60),
    st.booleans(),
)
def test_fast_alignment_equals_the_obvious_one_on_lengths_far_apart(
    short: list[str], ends: list[str], extra: int, candidate_short: bool
) -> None:
    """One side a few words, the other many more (past the beam's width): the beam of the first and last rows starts
    or ends inside the table, and the optimal paths may leave it there."""
    long = [*short[:2], *(f"z{k % 7}" for k in range(extra)), *ends]
    hyp, ref = (short, long) if candidate_short else (long, short)
    assert alignment(hyp, ref) == obvious_alignment(hyp, ref)


def test_fast_alignment_equals_the_obvious_one_past_the_exact_bound() -> None:
    """Texts long and different enough that the fast path must look past the exact bound: cells outside the beam
    that are on no optimal path (the beam holds them all), and a long run of extra words first, where the only
    optimal paths leave the beam (the beam's table, for the ordering and for its shifts)."""
    rng = random.Random(3)
    sacre = TER()
    for ref_len, hyp_len in ((40, 100), (70, 30), (60, 60)):
        vocabulary = [f"w{k}" for k in range(rng.randint(3, 30))]
        ref = _sentence(rng, vocabulary, ref_len, ref_len)
        hyp = _edited(rng, ref, vocabulary, 40)[:hyp_len] + _sentence(rng, vocabulary, 0, 10)
        assert alignment(hyp, ref) == obvious_alignment(hyp, ref)
    rng = random.Random(9)
    for extra in (40, 60, 100):
        vocabulary = [f"w{k}" for k in range(40)]
        ref = _sentence(rng, vocabulary, 60, 60)
        hyp = [f"x{k}" for k in range(extra)] + _edited(rng, ref, vocabulary, 6)
        fast = alignment(hyp, ref)
        assert fast == obvious_alignment(hyp, ref)
        assert fast.edits == sacre.sentence_score(" ".join(hyp), [" ".join(ref)]).num_edits


def test_fast_alignment_keeps_the_beam_of_the_last_row() -> None:
    """A candidate much shorter than its reference: the last row's beam starts past column 0, so the only optimal
    path (the two words kept at the start) leaves it, and sacrebleu counts one edit more than the whole table."""
    sacre = TER()
    for extra in (26, 40):
        ref = ["A", "B"] + ["z"] * extra
        fast = alignment(["A", "B"], ref)
        assert fast == obvious_alignment(["A", "B"], ref)
        assert fast.edits == sacre.sentence_score("A B", [" ".join(ref)]).num_edits == extra + 1
    assert ter("A B " + "z " * 26, "A B").edits == 27


# --- the words that changed ----------------------------------------------------------------------------------------


def test_changes_read_without_deletions_give_the_reference() -> None:
    for ref, hyp in _pairs(21, 60):
        changes = ter_changes(ref, hyp)
        parts = changes.parts
        # Kept words as the candidate writes them, inserted ones as the reference does: TER reads them lowercased.
        kept = [w.lower() for kind, text in parts if kind != "deleted" for w in text.split()]
        assert kept == TerTokenizer().reference(ref)
        assert sorted(w for kind, text in parts if kind != "inserted" for w in text.split()) == sorted(hyp.split())
        assert changes.edits == ter(ref, hyp).edits


def test_changes_show_the_candidates_own_words() -> None:
    changes = ter_changes("Free delivery on every order", "Every order ships with FREE delivery")
    assert changes.text == "[-ships with-] FREE delivery {+on+} {>Every order<}"
    assert ter_changes("the cat", "the cat").text == "the cat"
    assert ter_changes("", "a b").text == "[-a b-]"
    assert ter_changes("a b", "").text == "{+a b+}"
    assert ter_changes(["x y z", "a b"], "a b").text == "a b"  # the closest reference


# --- the metric object ---------------------------------------------------------------------------------------------


def test_metric_object() -> None:
    (metric,) = metrics_named(["ter"], normalized=True)
    assert metric == Ter(normalized=True)
    assert not metric.higher_is_better and metric.highest is None
    assert (
        metric.signature(2) == "bleu-xl:ter-1|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|shift:10/50|beam:25|refs:2"
    )
    score = metric.sentence_score(["a b c", "a b"], "a c")
    assert (score.edits, score.ref_length, score.ter) == (1, 2.5, 0.4)
    assert score.as_dict()["signature"] == score.signature
    assert metric.reference_key(("The  cat", "a")) == metric.reference_key(("a", "the cat"))
    assert metric.from_numbers(metric.as_numbers(score.stats)) == score.stats._replace(changes=None)
    with pytest.raises(BleuError, match="normalized must be True or False"):
        Ter(normalized=1)  # type: ignore[arg-type]
    with pytest.raises(BleuError, match="prepared for"):
        ter(TerReferences("a b"), "a", normalized=True)


def test_corpus_adds_up_edits_and_lengths() -> None:
    score = corpus_ter(["a b c d", "a b"], ["a b c d", "b a x"])
    assert (score.edits, score.ref_length) == (2, 6.0)
    assert score.ter == 2 / 6
    assert ter("", "").ter == 0.0 and ter("", "x").ter == 1.0


def test_bootstrap_resamples_ter() -> None:
    refs = [" ".join(_sentence(random.Random(i), WORDS, 3, 10)) for i in range(60)]
    good = [" ".join(_edited(random.Random(i), r.split(), WORDS, 1)) for i, r in enumerate(refs)]
    bad = [" ".join(_edited(random.Random(i), r.split(), WORDS, 6)) for i, r in enumerate(refs)]
    resampling = Resampling(Ter(), samples=200)
    interval = resampling.interval(refs, good)
    assert interval.low <= interval.score <= interval.high
    assert interval.score == corpus_ter(refs, good).ter
    result = resampling.paired(refs, bad, good)
    assert result.difference < 0 and result.significant
    assert result.verdict("bad", "good").startswith("good is better than bad (it scores lower, and lower is better)")
    few = resampling.paired(refs[:40], bad[:40], good[:40])  # too few to say better: which scores lower, and p
    assert few.verdict("bad", "good").startswith(f"good scores lower than bad (lower is better), {few.p_text}; only 40")


# --- text TER reads as one word --------------------------------------------------------------------------------------

UNSPACED = {
    "2024年5月にNikeの新しいｼｭｰｽﾞを発売します": "Chinese or Japanese",  # a date, a Latin brand, half-width katakana
    "我们在2024年推出了3款新产品": "Chinese or Japanese",  # digits between the characters
    "ありがとうございました": "Chinese or Japanese",  # kana alone: no setting splits it
    "立即购买": "Chinese or Japanese",  # "buy now": two words, scored 1 against 马上购买
    "東京タワー": "Chinese or Japanese",  # a name, two words to TER's eye: noted too
    "จัดส่งฟรีทุกคำสั่งซื้อ วันนี้เท่านั้น": "Thai",
    "ສົ່ງຟຣີທຸກຄໍາສັ່ງຊື້": "Lao",
    "ပို့ဆောင်ခအခမဲ့": "Burmese",
    "ដឹកជញ្ជូនឥតគិតថ្លៃ": "Khmer",
}
SPACED = ["Free delivery on every order", "모든 주문 무료 배송", "Sony ソニー", "東京 渋谷", "l'été, à Zürich", ""]


def test_text_written_without_spaces_is_found_as_ter_reads_it() -> None:
    """A word of four or more characters of a script without spaces between words: TER scores such a pair all or
    nothing, exactly as sacrebleu does (the numbers are not touched)."""
    plain, split = Ter(), Ter(normalized=True, asian_support=True)
    for text, script in UNSPACED.items():
        assert plain.unspaced_script(text) == script, text
        assert split.unspaced_script(text) == (None if script == "Chinese or Japanese" else script), text
        assert plain.sentence_score(text, text[:-1]).ter * 100 == TER().sentence_score(text[:-1], [text]).score
    for text in SPACED:
        assert plain.unspaced_script(text) is None and split.unspaced_script(text) is None, text
    assert plain.sentence_score("我们在2024年推出了3款新产品", "我们在2024年推出了三款新产品").ter == 1.0
    assert not any(metric.misreads_unspaced_text for metric in metrics_named(["bleu,chrf"]))
    assert metrics_named(["bleu"])[0].unspaced_script("我们在2024年推出了3款新产品") is None


def test_the_note_says_what_splits_each_script() -> None:
    from bleu_xl import render

    both = render(Ter().unspaced_note({"Thai", "Chinese or Japanese", "Khmer"}))
    assert both == (
        "written without spaces between words (Chinese or Japanese, Thai, Khmer): TER reads such a sentence as one "
        "word or a few, so its scores are all or nothing (as sacrebleu's are); normalized with asian_support makes "
        "each Chinese character a word; no TER setting splits Thai or Khmer: chrF (or BLEU) scores them by characters"
    )
    assert render(Ter().unspaced_note({"Lao"})).endswith(
        "; no TER setting splits Lao: chrF (or BLEU) scores it by characters"
    )


def test_a_text_that_is_not_a_string_is_a_type_error_as_in_bleu_and_chrf() -> None:
    """None or a number, on either side, alone or among references: a TypeError naming the side (it was an
    AttributeError from deep in the tokenizer)."""
    for call, side, kind in (
        (lambda: ter("a b", None), "candidate", "NoneType"),
        (lambda: ter("a b", 5), "candidate", "int"),
        (lambda: ter(["a b", None], "a b"), "reference", "NoneType"),
        (lambda: corpus_ter(["a b"], [None]), "candidate", "NoneType"),
        (lambda: ter_changes("a b", 2.5), "candidate", "float"),
    ):
        with pytest.raises(TypeError, match=rf"^a {side} must be a string, not {kind}$"):
            call()


def test_a_text_past_the_words_ter_aligns_is_refused_on_either_side() -> None:
    """The search for shifts grows faster than the square of the words (seconds a pair past 200, minutes for a page):
    a text longer than MAX_WORDS is refused, naming its side, and one of MAX_WORDS is scored as sacrebleu scores it."""
    from bleu_xl.core.metrics.ter import MAX_WORDS, TerTooLong

    words = [f"w{i % 40}" for i in range(MAX_WORDS)]
    fits, past = " ".join(words), " ".join([*words, "w"])
    for reference, candidate, side in (
        (past, "w1", "reference"),
        ("w1", past, "candidate"),
        ([fits, past], "w1", "reference"),
    ):
        with pytest.raises(TerTooLong, match=f"^the {side} has {MAX_WORDS + 1} words as TER splits it"):
            ter(reference, candidate)
    assert issubclass(TerTooLong, BleuError)
    edited = " ".join(word if i % 10 else "x" for i, word in enumerate(words))
    assert ter(fits, edited).ter == pytest.approx(TER().sentence_score(edited, [fits]).score / 100)
