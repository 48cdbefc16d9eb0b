"""The metrics, one module each (BLEU, chrF, TER), every one a :class:`~.base.Metric` object; and the metrics a user
chooses by name. Standard library only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from ..errors import BleuError, BleuTypeError, Setting
from .base import Metric, MetricScore
from .bleu import BLEU_2, Bleu
from .chrf import CHRF_2, Chrf
from .ter import TER_DEFAULT, Ter

__all__ = [
    "BLEU_2",
    "CHRF_2",
    "KNOWN",
    "METRIC_NAMES",
    "TER_DEFAULT",
    "Bleu",
    "Chrf",
    "Metric",
    "MetricScore",
    "Ter",
    "metric_setting",
    "metrics_named",
]

#: Every metric, by the name a user chooses it with.
KNOWN: dict[str, type[Metric[Any, Any, Any]]] = {metric.key: metric for metric in (Bleu, Chrf, Ter)}
#: The names ``metrics_named`` knows: each metric's, and ``bleu2`` (BLEU with ``max_n`` 2).
METRIC_NAMES = ("bleu", "bleu2", "chrf", "ter")
#: The metrics chosen by name: the command line's option, ``metrics_named``'s ``names`` in Python.
_NAMES = Setting("metric", python="names")
#: The package whose top level holds the metric classes (bleu_xl), as Python code names them.
_PACKAGE = __name__.partition(".")[0]


def metric_setting(kind: type[Metric[Any, Any, Any]], parameter: str = "metrics") -> Setting:
    """The setting that chooses the metric ``kind``: its name for the command line, its object in Python, given as
    ``parameter`` (``score_file`` takes ``metrics``, ``compare_file`` ``metric``)."""
    return Setting("metric", kind.key, python=f"{parameter}={_PACKAGE}.{kind.__name__}()")


def metrics_named(names: Sequence[str], **settings: Any) -> tuple[Metric[Any, Any, Any], ...]:
    """The metrics of ``names`` (each may hold several, comma-separated: ``["bleu2,chrf"]``), in order, each once,
    each with the ``settings`` that are its own (``max_n=4`` goes to BLEU, ``word_order=2`` to chrF,
    ``normalized=True`` to TER); ``bleu`` when none is named. ``bleu2`` is ``bleu`` with ``max_n`` 2.

    A setting of a metric not named is refused (:class:`BleuError`), never dropped: ``normalized=True`` without
    TER would otherwise change nothing, silently; a name no metric has a setting of is a ``TypeError``."""
    if isinstance(names, str):
        raise BleuTypeError(
            f"names must be a sequence of metric names, not one string (wrap it in a list: [{names!r}])"
        )
    words = [word.strip().lower() for name in names for word in name.split(",")]
    if any(not word for word in words):
        raise BleuError(_NAMES, f" has an empty name: give {_listing()}, separated by commas")
    metrics: list[Metric[Any, Any, Any]] = []
    for word in words or ["bleu"]:
        if word not in METRIC_NAMES:
            raise BleuError(_NAMES, f" {word!r} is not a metric: use {', '.join(METRIC_NAMES)}")
        if word == "bleu2" and settings.get("max_n", 2) != 2:
            max_n = settings["max_n"]
            raise BleuError(_NAMES, " bleu2 is BLEU-2: use bleu with ", Setting("max_n", max_n), f" for BLEU-{max_n}")
        metric = KNOWN[word.removesuffix("2") if word == "bleu2" else word].from_settings(settings)
        if metric in metrics:
            raise BleuError(_NAMES, f" gives {metric.name} twice")
        metrics.append(metric)
    _check_settings_used(settings, tuple(metrics))
    return tuple(metrics)


def _check_settings_used(settings: dict[str, Any], metrics: tuple[Metric[Any, Any, Any], ...]) -> None:
    """Refuse a setting that no chosen metric has: it would be given and do nothing."""
    owners = {field.name: kind for kind in KNOWN.values() for field in fields(kind)}  # type: ignore[arg-type]
    for name in settings:
        owner = owners.get(name)
        if owner is None:
            raise BleuTypeError(f"no metric has a setting {name!r} (the settings are {', '.join(owners)})")
        if not any(isinstance(metric, owner) for metric in metrics):
            chosen = ", ".join(metric.name for metric in metrics)
            raise BleuError(
                Setting(name),
                f" is a setting of {owner.label}, which is not among the metrics chosen ({chosen}): name "
                f"{owner.key} in ",
                _NAMES,
                ", or leave ",
                Setting(name),
                " out",
            )


def _listing() -> str:
    *first, last = METRIC_NAMES
    return f"{', '.join(first)} or {last}"
