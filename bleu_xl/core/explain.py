"""Why a candidate scored as it did: the n-grams that matched, the extra ones, and what it missed of the reference.

Standard library only (part of the core).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .metrics.base import ReferenceLike, as_whole
from .metrics.bleu import References, Score, as_references, check_settings, pair_stats, score_from_stats
from .metrics.counting import clipped_counts, ngram_counts
from .tokenizer import is_cjk, is_sea, tokenize

__all__ = ["Explanation", "OrderReport", "explain", "order_name"]

ORDER_NAMES = {1: "words", 2: "bigrams", 3: "trigrams"}


def order_name(n: int) -> str:
    """The n-grams of order ``n`` as the explanations name them: words, bigrams, trigrams, 4-grams..."""
    return ORDER_NAMES.get(n, f"{n}-grams")


Shown = tuple[str, int]  # an n-gram written out ("veio bem") and its count


@dataclass(frozen=True)
class OrderReport:
    """One n-gram order: what matched (clipped counts), what the candidate added, what it missed."""

    n: int
    matched: tuple[Shown, ...]
    extra: tuple[Shown, ...]
    missing: tuple[Shown, ...]

    @property
    def name(self) -> str:
        """The order's n-grams as the explanations name them: words, bigrams, trigrams, 4-grams..."""
        return order_name(self.n)


@dataclass(frozen=True)
class Explanation:
    score: Score
    candidate_tokens: tuple[str, ...]
    orders: tuple[OrderReport, ...]
    #: Whether the candidate's tokens are a reference's, in its order: a score of 1 says less (a candidate of the
    #: same words in another order, or of words from several references, can score it).
    identical: bool = False

    def summary(self) -> str:
        """One short line, e.g. ``missing: bem, embalado | extra: intacto | bigrams missed: veio bem, bem embalado``;
        an order the candidate is too short to have is named as left out of the score, with the reason."""
        parts = []
        left = self.left_out()
        for report in self.orders if not self.identical else ():  # a reference's own text misses nothing
            if report.n == 1:
                if report.missing:
                    parts.append(f"missing: {_listing(report.missing)}")
                if report.extra:
                    parts.append(f"extra: {_listing(report.extra)}")
            elif report.missing and report.n not in left and self.candidate_tokens:
                # a left-out order's misses do not count, nor the higher orders of an empty candidate
                parts.append(f"{order_name(report.n)} missed: {_listing(report.missing)}")
        if not parts and not self.identical:
            # Every word is a reference's: say which longer n-grams (bigrams, in BLEU-2) none holds, if any.
            parts = [
                f"extra {order_name(report.n)}: {_listing(report.extra)}"
                for report in self.orders[1:]
                if report.extra and report.n not in left and self.candidate_tokens
            ]
        if not parts:
            parts.append("exact match" if self.identical else "every n-gram matches, though no reference reads so")
        if left:
            c = len(self.candidate_tokens)
            names = ", ".join(map(order_name, left))
            parts.append(f"{names} left out of the score: the candidate has only {c} word{'s' if c > 1 else ''}")
        return " | ".join(parts)

    def left_out(self) -> tuple[int, ...]:
        """The orders left out of the score because the candidate has no n-gram of them (fewer than n tokens);
        none for an empty candidate, which scores 0 whatever the orders."""
        if not self.candidate_tokens:
            return ()
        return tuple(n for n, p in enumerate(self.score.precisions, start=1) if p.left_out)

    def matched_tokens(self) -> tuple[bool, ...]:
        """For each candidate token, whether it is one of the clipped unigram matches (for highlighting)."""
        left = dict(self.orders[0].matched)
        marks = []
        for token in self.candidate_tokens:
            if left.get(token, 0) > 0:
                left[token] -= 1
                marks.append(True)
            else:
                marks.append(False)
        return tuple(marks)


def _listing(grams: Sequence[Shown]) -> str:
    return ", ".join(gram if count == 1 else f"{gram} ×{count}" for gram, count in grams)


def _unspaced(token: str) -> bool:
    """A token of a script written without spaces: a CJK character, or a Thai, Lao, Myanmar or Khmer cluster."""
    return (len(token) == 1 and is_cjk(token)) or is_sea(token[0])


def _text(gram: object) -> str:
    """An n-gram as text: words with spaces, CJK characters and Thai, Lao, Myanmar or Khmer clusters side by
    side as they are written."""
    if isinstance(gram, str):
        return gram
    out = gram[0]  # type: ignore[index]
    for before, token in pairwise(gram):  # type: ignore[arg-type]
        out += token if _unspaced(before) and _unspaced(token) else " " + token
    return out


def explain(
    reference: ReferenceLike | References, candidate: str, *, max_n: int = 2, smoothing: str = "add1"
) -> Explanation:
    """The score of ``candidate`` and, for each n up to ``max_n``, the n-grams behind it (in text order)."""
    max_n = as_whole(max_n)
    check_settings(max_n, smoothing)
    refs = as_references(reference, max_n)
    tokens = tokenize(candidate)
    score = score_from_stats(pair_stats(refs, tokens), smoothing=smoothing, refs=len(refs))
    closest = next(words for words in refs.tokens if len(words) == score.r)
    reports = []
    for n in range(1, max_n + 1):
        ref_counts = refs.max_counts[n - 1]
        cand_counts = ngram_counts(tokens, n)
        clipped = clipped_counts(cand_counts, ref_counts)
        matched, extra, missing = [], [], []
        for gram, count in cand_counts.items():  # dicts keep first-occurrence order
            hit = clipped.get(gram, 0)
            if hit:
                matched.append((_text(gram), hit))
            if count > hit:
                extra.append((_text(gram), count - hit))
        # Missing: what the candidate lacks of the reference whose length decided r (with several references,
        # the n-grams of the others are alternatives, not gaps), in that reference's order.
        for gram, count in ngram_counts(closest, n).items():
            short = count - cand_counts.get(gram, 0)
            if short > 0:
                missing.append((_text(gram), short))
        reports.append(OrderReport(n, tuple(matched), tuple(extra), tuple(missing)))
    identical = any(len(words) == len(tokens) and list(words) == tokens for words in refs.tokens)
    return Explanation(score, tuple(tokens), tuple(reports), identical)
