"""Each fast path of the core against the obvious version beside it, on bench_core's texts: the gain it earns.

Run: python benchmarks/bench_fast_paths.py [--pairs 2000] [--runs 7]
Prints the best and median time of each pair of versions in microseconds a call, and the ratio of the medians
(obvious / fast). A property test holds each pair equal; this says what the fast one is worth.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from synthetic import make_pairs  # this folder: benchmark data, not part of the package

from bleu_xl.core import column_sums, tokenizer
from bleu_xl.core.metrics import bleu, counting
from bleu_xl.core.metrics import chrf_stats as chrf
from bleu_xl.files.write import xlsx_rows
from bleu_xl.table import packed
from bleu_xl.table import pairs as table_pairs
from bleu_xl.table.layout import Layout
from bleu_xl.table.sheet import Sheet


def _time(fn: Callable[[], object], calls: int, runs: int) -> list[float]:
    fn()  # untimed: caches, the token pattern
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) / calls * 1e6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    pairs = make_pairs(args.pairs, seed=1)
    refs = [r for r, _ in pairs]
    cands = [c for _, c in pairs]
    texts = refs + cands
    cand_tokens = [tokenizer.tokenize(c) for c in cands]
    prepared = [bleu.References(r, 2) for r in refs]
    bigram_lists = [list(counting.ngrams(t, 2)) for t in cand_tokens]
    indices = list(range(3000))
    column = list(range(3000))
    scores = [bleu.Bleu().sentence_score([r], c) for r, c in pairs]
    sheet = Sheet("t", [["Reference", "Candidate"], *map(list, pairs)], ["t"])
    layout = Layout(0, 1, [0])
    table_rows = layout.data_rows(len(sheet.rows))

    def count_fast() -> None:
        for grams in bigram_lists:
            counting._count_elements({}, grams)

    def count_obvious() -> None:
        for grams in bigram_lists:
            counting._count_into({}, grams)

    def clip_fast() -> None:
        for refs_, tokens in zip(prepared, cand_tokens):
            counting.clipped_matches(counting.ngrams(tokens, 2), refs_.max_counts[1])

    def clip_obvious() -> None:
        for refs_, tokens in zip(prepared, cand_tokens):
            sum(counting.clipped_counts(counting.ngram_counts(tokens, 2), refs_.max_counts[1]).values())

    contenders = [
        (
            "tokenize (a text)",
            lambda: [tokenizer.tokenize(t) for t in texts],
            lambda: [tokenizer.tokenize_literally(t) for t in texts],
            len(texts),
        ),
        ("bigram counts (a candidate)", count_fast, count_obvious, len(bigram_lists)),
        ("clipped bigram matches (a pair)", clip_fast, clip_obvious, len(pairs)),
        (
            "one reference prepared (a text)",
            lambda: [bleu.References(r, 2) for r in refs],
            lambda: [bleu.References([r], 2) for r in refs],
            len(refs),
        ),
        (
            "chrF statistics (a pair)",
            lambda: [chrf.chrf_pair_stats(chrf.ChrfReferences(r), c) for r, c in pairs],
            lambda: [chrf.obvious_stats(r, c) for r, c in pairs],
            len(pairs),
        ),
        (
            "resample gather (a column of 3,000)",
            lambda: [column_sums.fast_gather(indices)(column) for _ in range(100)],
            lambda: [column_sums.gather(indices)(column) for _ in range(100)],
            100,
        ),
        (
            "outcomes back from a worker (a score)",
            lambda: packed.unpack(pickle.loads(pickle.dumps(packed.pack(scores), pickle.HIGHEST_PROTOCOL))),
            lambda: pickle.loads(pickle.dumps(scores, pickle.HIGHEST_PROTOCOL)),
            len(scores),
        ),
        (
            "a cell's text as XML (a text)",
            lambda: [xlsx_rows.xml_text(t) for t in texts],
            lambda: [xlsx_rows.xml_text_literally(t) for t in texts],
            len(texts),
        ),
        (
            "a table's row paired (a row)",
            lambda: table_pairs.pairs_of(sheet, layout),
            lambda: table_pairs.pairs_of_literally(sheet, layout),
            len(pairs),
        ),
        (
            "a row's references found (a row)",
            lambda: layout.rows_with_references(sheet.rows, table_rows),
            lambda: layout.rows_with_references_literally(sheet.rows, table_rows),
            len(table_rows),
        ),
    ]
    print(f"{'fast path':38} {'fast us':>10} {'obvious us':>11} {'obvious/fast':>13}  (medians of {args.runs})")
    for name, fast, obvious, calls in contenders:
        f = statistics.median(_time(fast, calls, args.runs))
        o = statistics.median(_time(obvious, calls, args.runs))
        print(f"{name:38} {f:10.2f} {o:11.2f} {o / f:12.1f}x")


if __name__ == "__main__":
    main()
