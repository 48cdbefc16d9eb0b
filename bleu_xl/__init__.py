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
from .tokenizer import tokenize

__all__ = [
    "BleuError",
    "Precision",
    "References",
    "Score",
    "Stats",
    "__version__",
    "corpus_score",
    "score",
    "score_many",
    "signature",
    "tokenize",
]
