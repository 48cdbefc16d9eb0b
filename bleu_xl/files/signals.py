"""Termination signals while a command writes its output: held over the few statements that must not be cut in
two, and turned into an exception everywhere else so that every cleanup runs (temporary files, locks, workers).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["Terminated", "hold_signals", "release_signals", "stop_on_signals"]

_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}


def hold_signals() -> set[int] | None:
    """Delay SIGTERM/SIGHUP (POSIX) over a few statements that must not be cut in two."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)


def release_signals(previous: set[int] | None) -> None:
    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class Terminated(BaseException):
    """SIGTERM or SIGHUP: a BaseException, so that no ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` for the block, so that the cleanups run: the worker pool
    is terminated and the partial output removed. Only the main thread can take signals; elsewhere, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    parent = os.getpid()

    def stop(signum: int, frame: Any) -> None:
        if os.getpid() != parent:  # a forked worker before its own setup ran: just go
            os._exit(128 + signum)
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, stop) for sig in sorted(_STOP_SIGNALS)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
