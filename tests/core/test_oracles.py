"""bleu-xl against independent implementations (sacrebleu, NLTK) wherever their definitions coincide."""

from __future__ import annotations

import math
import random
import warnings
from types import ModuleType

import pytest
from sacrebleu.metrics import BLEU

from benchmarks.synthetic import make_pairs
from bleu_xl import corpus_score, score, tokenize
from bleu_xl.core.metrics.bleu import Stats, score_from_stats


def pretok(text: str) -> str:
    return " ".join(tokenize(text))


def sacre(max_n: int) -> BLEU:
    # tokenize="none" on our own tokens, so only the scoring is compared; no smoothing. Effective order: an order
    # the candidate has no n-gram of is left out of the geometric mean, as in bleu-xl since scoring 0.2.
    return BLEU(tokenize="none", max_ngram_order=max_n, smooth_method="none", effective_order=True)


def ours_from_sacre_counts(res, max_n: int, smoothing: str = "add1"):
    stats = Stats(tuple(res.counts), tuple(res.totals), res.sys_len, res.ref_len)
    assert len(stats.matches) == max_n
    return score_from_stats(stats, smoothing=smoothing)


@pytest.mark.parametrize("max_n", [2, 4])
def test_sentence_scores_agree_with_sacrebleu(pairs, max_n: int) -> None:
    metric = sacre(max_n)
    compared_unsmoothed = 0
    for ref, cand in pairs:
        if not tokenize(ref):
            continue
        ours = score(ref, cand, max_n=max_n)
        res = metric.sentence_score(pretok(cand), [pretok(ref)])
        # The statistics are the same numbers.
        assert [p.matches for p in ours.precisions] == res.counts
        assert [p.total for p in ours.precisions] == res.totals
        assert (ours.c, ours.r) == (res.sys_len, res.ref_len)
        # Where every precision has matches, smoothing plays no part and the scores agree to 1e-12.
        if all(p.matches for p in ours.precisions):
            compared_unsmoothed += 1
            assert abs(ours.bleu - res.score / 100) < 1e-12
            assert abs(ours.bp - res.bp) < 1e-12
        # Everywhere: our smoothing applied to sacrebleu's counts gives exactly our score.
        assert ours_from_sacre_counts(res, max_n) == ours
        # And without smoothing we are sacrebleu, zeros included.
        plain = score(ref, cand, max_n=max_n, smoothing="none")
        assert abs(plain.bleu - res.score / 100) < 1e-12
    assert compared_unsmoothed > len(pairs) // 3  # the comparison is not vacuous


def test_multi_reference_sentence_agrees_with_sacrebleu() -> None:
    rng = random.Random(7)
    metric = sacre(2)
    checked = 0
    for ref1, cand in make_pairs(800, seed=11):
        ref2 = make_pairs(1, seed=rng.randrange(10**6))[0][1] or "x"
        refs = [ref1, ref2]
        if not all(tokenize(r) for r in refs):
            continue
        ours = score(refs, cand, smoothing="none")
        res = metric.sentence_score(pretok(cand), [pretok(r) for r in refs])
        assert [p.matches for p in ours.precisions] == res.counts
        assert (ours.c, ours.r) == (res.sys_len, res.ref_len)
        assert abs(ours.bleu - res.score / 100) < 1e-12
        checked += 1
    assert checked > 700


@pytest.mark.parametrize("max_n", [2, 4])
def test_corpus_scores_agree_with_sacrebleu(pairs, max_n: int) -> None:
    usable = [(r, c) for r, c in pairs if tokenize(r)]
    refs = [r for r, _ in usable]
    cands = [c for _, c in usable]
    res = sacre(max_n).corpus_score([pretok(c) for c in cands], [[pretok(r) for r in refs]])
    ours = corpus_score(refs, cands, max_n=max_n, smoothing="none")
    assert [p.matches for p in ours.precisions] == res.counts
    assert [p.total for p in ours.precisions] == res.totals
    assert (ours.c, ours.r) == (res.sys_len, res.ref_len)
    assert abs(ours.bleu - res.score / 100) < 1e-12
    # At corpus level every order has matches, so add-1 changes nothing.
    assert corpus_score(refs, cands, max_n=max_n).bleu == ours.bleu
    assert ours_from_sacre_counts(res, max_n) == corpus_score(refs, cands, max_n=max_n)


def test_corpus_with_two_references_agrees_with_sacrebleu(pairs) -> None:
    usable = [(r, c) for r, c in pairs[:1000] if tokenize(r) and tokenize(c)]
    refs_a = [r for r, _ in usable]
    refs_b = [c for _, c in usable[1:]] + [usable[0][1]]  # a second, differently sized reference stream
    cands = [c for _, c in usable]
    res = sacre(4).corpus_score([pretok(c) for c in cands], [[pretok(r) for r in refs_a], [pretok(r) for r in refs_b]])
    ours = corpus_score(list(zip(refs_a, refs_b)), cands, max_n=4, smoothing="none")
    assert (ours.c, ours.r) == (res.sys_len, res.ref_len)
    assert abs(ours.bleu - res.score / 100) < 1e-12


def _nltk_bleu() -> ModuleType:
    """NLTK's BLEU module, imported where a test needs it: the import takes seconds, which every test process paid
    while collecting the tests."""
    from nltk.translate import bleu_score

    return bleu_score


def test_multi_reference_brevity_penalty_agrees_with_nltk() -> None:
    nltk_bleu = _nltk_bleu()
    rng = random.Random(3)
    checked = 0
    for _ in range(2000):
        refs = [" ".join(["w"] * rng.randint(1, 30)) for _ in range(rng.randint(1, 4))]
        cand = " ".join(rng.choice("abw") for _ in range(rng.randint(1, 30)))
        ours = score(refs, cand)
        ref_toks = [tokenize(r) for r in refs]
        hyp = tokenize(cand)
        r = nltk_bleu.closest_ref_length(ref_toks, len(hyp))
        assert ours.r == r
        assert ours.bp == nltk_bleu.brevity_penalty(r, len(hyp))
        checked += 1
    assert checked == 2000


def test_multi_reference_sentence_bleu_agrees_with_nltk() -> None:
    nltk_bleu = _nltk_bleu()
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for (r1, cand), (r2, _) in zip(make_pairs(600, seed=21), make_pairs(600, seed=22)):
            refs = [r1, r2]
            ours = score(refs, cand)
            if not all(tokenize(r) for r in refs) or not all(p.matches for p in ours.precisions):
                continue
            theirs = nltk_bleu.sentence_bleu([tokenize(r) for r in refs], tokenize(cand), weights=(0.5, 0.5))
            assert math.isclose(ours.bleu, theirs, rel_tol=0, abs_tol=1e-12)
            checked += 1
    assert checked > 300
