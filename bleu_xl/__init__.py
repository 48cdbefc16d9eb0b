"""bleu-xl: BLEU-2 (and BLEU-N) scoring for spreadsheets, with a pure-Python core."""

from ._version import __version__
from .bleu import (
    BleuError,
    Precision,
    References,
    Score,
    Stats,
    corpus_score,
    score,
    score_many,
    signature,
)
from .compare import Interval, PairedResult, bootstrap_ci, paired_test
from .explain import Explanation, explain
from .tokenizer import tokenize

__all__ = [
    "BleuError",
    "Explanation",
    "Interval",
    "PairedResult",
    "Precision",
    "References",
    "Score",
    "Stats",
    "__version__",
    "bootstrap_ci",
    "corpus_score",
    "explain",
    "paired_test",
    "score",
    "score_many",
    "signature",
    "tokenize",
]
