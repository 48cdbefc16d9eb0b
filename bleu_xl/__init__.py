"""bleu-xl: BLEU-2 (and BLEU-N), chrF and TER scoring for spreadsheets, with a pure-Python core."""

from ._version import __version__
from .core.bootstrap import (
    Bootstrap,
    ChrfBootstrap,
    Interval,
    PairedResult,
    Resampling,
    TooFewResamples,
    bootstrap_ci,
    paired_test,
)
from .core.errors import BleuError, BleuTypeError, BleuXlError, Setting, render
from .core.explain import Explanation, explain
from .core.metrics import METRIC_NAMES, Bleu, Chrf, Metric, MetricScore, Ter, metrics_named
from .core.metrics.bleu import Precision, References, Score, Stats, corpus_score, score, score_many, signature
from .core.metrics.chrf import ChrfReferences, ChrfScore, ChrfStats, chrf, chrf_signature, corpus_chrf
from .core.metrics.ter import (
    Change,
    TerChanges,
    TerOptionsError,
    TerReferences,
    TerScore,
    TerStats,
    TerTooLong,
    corpus_ter,
    ter,
    ter_changes,
)
from .core.randomization import Randomization
from .core.tokenizer import tokenize

#: The names that read and write files (and so import the spreadsheet libraries): loaded when first used, so that
#: ``import bleu_xl`` stays as light as its core (the Excel add-ins import it on every start).
_FILES = (
    "EXCEL_SETUP_PARTS",
    "ComparedFile",
    "InputError",
    "ReadTable",
    "ScoredFile",
    "compare_file",
    "score_file",
    "setup_excel",
    "version_line",
    "write_lite_bundle",
    "write_release",
    "write_template",
)

__all__ = [
    "EXCEL_SETUP_PARTS",
    "METRIC_NAMES",
    "Bleu",
    "BleuError",
    "BleuTypeError",
    "BleuXlError",
    "Bootstrap",
    "Change",
    "Chrf",
    "ChrfBootstrap",
    "ChrfReferences",
    "ChrfScore",
    "ChrfStats",
    "ComparedFile",
    "Explanation",
    "InputError",
    "Interval",
    "Metric",
    "MetricScore",
    "PairedResult",
    "Precision",
    "Randomization",
    "ReadTable",
    "References",
    "Resampling",
    "Score",
    "ScoredFile",
    "Setting",
    "Stats",
    "Ter",
    "TerChanges",
    "TerOptionsError",
    "TerReferences",
    "TerScore",
    "TerStats",
    "TerTooLong",
    "TooFewResamples",
    "__version__",
    "bootstrap_ci",
    "chrf",
    "chrf_signature",
    "compare_file",
    "corpus_chrf",
    "corpus_score",
    "corpus_ter",
    "explain",
    "metrics_named",
    "paired_test",
    "render",
    "score",
    "score_file",
    "score_many",
    "setup_excel",
    "signature",
    "ter",
    "ter_changes",
    "tokenize",
    "version_line",
    "write_lite_bundle",
    "write_release",
    "write_template",
]


def __getattr__(name: str) -> object:
    if name in _FILES:
        from . import jobs

        value = getattr(jobs, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bleu_xl' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FILES))
