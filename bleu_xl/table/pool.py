"""The process pool that scores a large table on every core, and the workers' handling of signals.

On Linux the workers are forked: each reads its slice of the items from its copy of the parent's memory, so
only the results travel back through a pipe. Elsewhere each slice is sent to a worker. A worker that dies (the
system's out-of-memory killer, ``kill -9``) ends the run with :class:`WorkerLost` instead of a wait for a result
that never comes.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..core.errors import BleuXlError
from ..core.tokenizer import prepare as prepare_tokenizer

__all__ = ["PoolUnavailable", "WorkerLost", "frozen_heap", "map_chunks"]


class WorkerLost(BleuXlError):
    """A worker process died while scoring (killed by the system or a signal): the run stops, writing nothing."""


T = TypeVar("T")
R = TypeVar("R")

# The items shared with forked workers (set only while a pool runs).
_SHARED: Sequence[Any] = ()


class PoolUnavailable(BleuXlError):
    """The process pool could not start: no writable ``/dev/shm`` for its locks (some containers, serverless
    runtimes), or no ``sem_open`` at all. ``reason`` says which, for the one line that tells the user (the table is
    then scored in one process)."""

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


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """The objects alive now (a whole sheet's cells) kept out of the garbage collector's passes until the end: scoring
    makes millions of small objects, and each collection they trigger would walk the sheet again (a forked worker
    would also copy its pages). Nothing made while frozen is kept from collection."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


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
    into an exception), so no worker is left behind; a worker that dies raises :class:`WorkerLost`, and a pool
    that cannot start :class:`PoolUnavailable` (before any result).
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
    pool: ProcessPoolExecutor | None = None
    finished = False
    try:
        try:
            pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_setup)
            futures = [pool.submit(run, task) for task in tasks]  # starts the workers
        except (OSError, ImportError, NotImplementedError) as exc:  # its locks live in /dev/shm: read-only, missing
            raise PoolUnavailable(getattr(exc, "strerror", None) or str(exc)) from exc
        for future in futures:
            yield future.result()
        finished = True
    except BrokenProcessPool:
        raise WorkerLost(
            "a scoring process was killed (by the system, perhaps for lack of memory, or by a signal); "
            "nothing was written"
        ) from None
    finally:
        _SHARED = ()
        if pool is not None:
            _stop(pool, finished)


def _stop(pool: ProcessPoolExecutor, finished: bool) -> None:
    """Let the workers end when every result came; otherwise terminate them now."""
    if finished:
        pool.shutdown(wait=True)
        return
    pool.shutdown(wait=False, cancel_futures=True)
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way before 3.14
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError, AttributeError):
            process.join(5)
