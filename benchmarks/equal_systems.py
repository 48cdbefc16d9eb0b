"""How often a paired test calls two equally good systems different: its false-positive rate, by number of pairs.

Run: python benchmarks/equal_systems.py [--pairs 5,10,20,30,50,100,200] [--repeats 300] [--draws 1000]
Each repeat makes ``pairs`` references (12 to 20 words of benchmarks/synthetic.py's vocabulary) and two candidates of
each, A and B, edited from the reference alike (``perturb``: words dropped, replaced, swapped, added), so that A and
B are equally good by construction; then both paired tests run on them under BLEU-2, the paired bootstrap with
``--draws`` resamples and approximate randomization with as many trials, each with its own seed. A test at the 0.05
level should call about 5% of them different. The rate printed is the share with p < 0.05, and its standard error.
This is why a bootstrap verdict on fewer than ``bleu_xl.core.bootstrap.FEW_PAIRS`` pairs says it is not to be
trusted (benchmarks/README.md has the figures).
"""

from __future__ import annotations

import argparse
import math
import random

from synthetic import _join, _units, perturb  # this folder: benchmark data, not part of the package

from bleu_xl import Bleu, Randomization, Resampling
from bleu_xl.fast.column_sums import NumpySums


def equal_systems(rng: random.Random, pairs: int) -> tuple[list[str], list[str], list[str]]:
    """References and two candidate columns edited from them alike: equally good systems."""
    refs, a, b = [], [], []
    for _ in range(pairs):
        units = _units(rng, rng.randint(12, 20), False)
        refs.append(_join(units, False))
        a.append(perturb(rng, units, False))
        b.append(perturb(rng, units, False))
    return refs, a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="5,10,20,30,50,100,200")
    parser.add_argument("--repeats", type=int, default=300)
    parser.add_argument("--draws", type=int, default=1000)
    args = parser.parse_args()
    sums, metric = NumpySums(), Bleu()
    shares = f"(share of {args.repeats} called different, p < 0.05)"
    print(f"{'pairs':>6} {'bootstrap':>14} {'randomization':>16}   {shares}")
    for pairs in (int(n) for n in args.pairs.split(",")):
        rng = random.Random(pairs)
        called = {"bs": 0, "ar": 0}
        for seed in range(args.repeats):
            refs, a, b = equal_systems(rng, pairs)
            bootstrap = Resampling(metric, samples=args.draws, seed=seed).paired(refs, a, b, sums=sums)
            randomization = Randomization(metric, args.draws, seed).paired(refs, a, b, sums=sums)
            called["bs"] += bootstrap.significant
            called["ar"] += randomization.significant

        def rate(count: int) -> str:
            share = count / args.repeats
            return f"{share:6.1%} ± {math.sqrt(share * (1 - share) / args.repeats):4.1%}"

        print(f"{pairs:>6} {rate(called['bs']):>14} {rate(called['ar']):>16}")


if __name__ == "__main__":
    main()
