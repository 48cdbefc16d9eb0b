"""Termination signals held over the few statements of writing an output that must not be cut in two (a lock or a
temporary file made but not yet known to its cleanup). Elsewhere the command line turns them into an exception,
so that every cleanup runs."""

from __future__ import annotations

import signal

__all__ = ["hold_signals", "release_signals"]

_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}


def hold_signals() -> set[int] | None:
    """Delay SIGTERM/SIGHUP (POSIX) over a few statements that must not be cut in two."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)


def release_signals(previous: set[int] | None) -> None:
    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
