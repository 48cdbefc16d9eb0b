"""The process pool that scores a large table on every core, and the workers' handling of signals.

On Linux the workers are forked: each reads its slice of the items from its copy of the parent's memory, so
only the results travel back through a pipe. Elsewhere each slice is sent to a worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..core.tokenizer import prepare as prepare_tokenizer

__all__ = ["PoolUnavailable", "map_chunks"]

T = TypeVar("T")
R = TypeVar("R")

# The items shared with forked workers (set only while a pool runs).
_SHARED: Sequence[Any] = ()


class PoolUnavailable(Exception):
    """The process pool could not start: no writable ``/dev/shm`` for its locks (some containers, serverless
    runtimes), or no ``sem_open`` at all. ``reason`` says which, for the one line that tells the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _run_shared(task: tuple[Callable[..., Any], int, int, tuple[Any, ...]]) -> Any:
    fn, start, stop, args = task
    return fn(_SHARED[start:stop], *args)


def _run_sent(task: tuple[Callable[..., Any], Sequence[Any], tuple[Any, ...]]) -> Any:
    fn, items, args = task
    return fn(items, *args)


def _worker_setup() -> None:
    """In each worker: die with the default action on SIGTERM/SIGHUP, leave Ctrl-C to the parent, and (Linux)
    be killed when the parent dies, so that no worker outlives the run."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before prctl: stop now
            os._exit(1)


def map_chunks(
    fn: Callable[..., list[R]],
    items: Sequence[T],
    bounds: Sequence[tuple[int, int]],
    args: tuple[Any, ...],
    workers: int | None = None,
) -> Iterator[list[R]]:
    """``fn(items[a:b], *args)`` for each ``(a, b)`` of ``bounds``, in order, over a pool of ``workers``
    processes (by default one per core). ``fn`` must be a module-level function.

    The pool is terminated when the caller stops for any reason (an error, Ctrl-C, a termination signal turned
    into an exception), so no worker is left behind.
    """
    global _SHARED
    workers = workers or os.cpu_count() or 1
    if "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith("linux"):
        prepare_tokenizer()  # built once here, inherited by every worker
        _SHARED = items
        context, run = multiprocessing.get_context("fork"), _run_shared
        tasks: list[Any] = [(fn, a, b, args) for a, b in bounds]
    else:
        context, run = multiprocessing.get_context(), _run_sent
        tasks = [(fn, items[a:b], args) for a, b in bounds]
    try:
        try:
            pool = context.Pool(workers, initializer=_worker_setup)
        except (OSError, ImportError) as exc:  # its locks live in /dev/shm, which may be read-only or missing
            raise PoolUnavailable(getattr(exc, "strerror", None) or str(exc)) from exc
        with pool:  # leaving it terminates the workers
            yield from pool.imap(run, tasks)
            pool.close()
            pool.join()
    finally:
        _SHARED = ()
