"""bleu-xl: BLEU-2 (and BLEU-N) and chrF scoring for spreadsheets, with a pure-Python core."""

from ._version import __version__
from .core.bleu import (
    Precision,
    References,
    Score,
    Stats,
    corpus_score,
    score,
    score_many,
    signature,
)
from .core.bootstrap import Bootstrap, ChrfBootstrap, Interval, PairedResult, bootstrap_ci, paired_test
from .core.chrf import ChrfReferences, ChrfScore, ChrfStats, chrf, chrf_signature, corpus_chrf
from .core.errors import BleuError, BleuXlError, Setting
from .core.explain import Explanation, explain
from .core.tokenizer import tokenize

__all__ = [
    "BleuError",
    "BleuXlError",
    "Bootstrap",
    "ChrfBootstrap",
    "ChrfReferences",
    "ChrfScore",
    "ChrfStats",
    "Explanation",
    "Interval",
    "PairedResult",
    "Precision",
    "References",
    "Score",
    "Setting",
    "Stats",
    "__version__",
    "bootstrap_ci",
    "chrf",
    "chrf_signature",
    "corpus_chrf",
    "corpus_score",
    "explain",
    "paired_test",
    "score",
    "score_many",
    "signature",
    "tokenize",
]
