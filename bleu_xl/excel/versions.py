"""Which bleu-xl this is, as a user quotes it: the package's version and the scoring definitions' versions, named
apart, since they move apart (a release that changes no score keeps the signatures; a scoring change moves both)."""

from __future__ import annotations

from .._version import __version__
from ..core.metrics.bleu import SCORING_VERSION
from ..core.metrics.chrf import CHRF_VERSION
from ..core.metrics.ter import TER_VERSION

__all__ = ["version_line"]


def version_line() -> str:
    """``bleu-xl 0.2.0, scoring 0.2.0 (signatures bleu-xl:0.2.0, chrF bleu-xl:chrf-1, TER bleu-xl:ter-1)``: the
    package, then the scoring definition that signatures name (BLEU's, and chrF's and TER's apart)."""
    return (
        f"bleu-xl {__version__}, scoring {SCORING_VERSION} "
        f"(signatures bleu-xl:{SCORING_VERSION}, chrF bleu-xl:{CHRF_VERSION}, TER bleu-xl:{TER_VERSION})"
    )
