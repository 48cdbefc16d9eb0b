"""The process pool that scores a large table on every core, and the workers' handling of signals.

On Linux the workers are forked: each reads its slice of the items from its copy of the parent's memory, so
only the results travel back through a pipe. Elsewhere each slice is sent to a worker. A worker that dies (the
system's out-of-memory killer, ``kill -9``) ends the run with :class:`WorkerLost` instead of a wait for a result
that never comes.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

from ..core.errors import BleuXlError
from ..core.tokenizer import prepare as prepare_tokenizer

__all__ = ["ForkedMap", "PoolUnavailable", "WorkerLost", "forking", "frozen_heap", "map_chunks"]


class WorkerLost(BleuXlError):
    """A worker process died while scoring (killed by the system or a signal): the run stops, writing nothing."""


T = TypeVar("T")
R = TypeVar("R")

# In a forked worker: the items it shares with its parent, or the function a ForkedMap runs. Each worker is given
# its pool's own by its initializer, whose arguments a fork passes in memory (nothing pickled), so pools started at
# once by several threads never see each other's.
_SHARED: Sequence[Any] = ()
_FORKED: Callable[[int, int], Any] | None = None


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


def _run_forked(bounds: tuple[int, int]) -> Any:
    if _FORKED is None:  # a worker started otherwise than by fork: never, as ForkedMap forks only
        raise RuntimeError("ForkedMap's function is not in this worker")
    return _FORKED(*bounds)


def forking() -> bool:
    """True where workers are forked (Linux): they inherit this process's memory instead of being sent it."""
    return "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith("linux")


def _worker_setup(shared: Sequence[Any] = (), forked: Callable[[int, int], Any] | None = None) -> None:
    """In each worker: take the pool's ``shared`` items or ``forked`` function, die with the default action on
    SIGTERM/SIGHUP, leave Ctrl-C to the parent, and (Linux) be killed when the parent dies, so that no worker
    outlives the run."""
    global _SHARED, _FORKED
    _SHARED, _FORKED = shared, forked
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
    would also copy its pages). Whatever is frozen while it lasts (scoring freezes its pairs once they are made) is
    thawed with the rest at the end. The freeze takes every object alive at that moment, another thread's too: one
    that becomes garbage in a cycle while scoring runs is freed when it ends."""
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
    workers = _worker_count(workers, len(bounds))
    shared: tuple[Any, ...] = ()
    if forking():
        prepare_tokenizer()  # built once here, inherited by every worker
        context, run, shared = multiprocessing.get_context("fork"), _run_shared, (items,)
        tasks: list[Any] = [(fn, a, b, args) for a, b in bounds]
    else:
        context, run = multiprocessing.get_context(), _run_sent
        tasks = [(fn, items[a:b], args) for a, b in bounds]
    pool: ProcessPoolExecutor | None = None
    finished = False
    try:
        pool = _start(workers, context, shared)
        try:
            futures = [pool.submit(run, task) for task in tasks]  # starts the workers
        except (OSError, ImportError, NotImplementedError) as exc:
            raise _unavailable(exc) from exc
        for future in futures:
            yield future.result()
        finished = True
    except BrokenProcessPool:
        raise _lost("scoring") from None
    finally:
        if pool is not None:
            _stop(pool, finished)


class ForkedMap(Generic[R]):
    """``fn(a, b)`` for each ``(a, b)`` of ``bounds``, in order, in forked worker processes that inherit ``fn``
    and all it refers to (a closure over a whole sheet costs nothing to send). Used as a context manager: the
    workers start on entry (before the caller starts threads of its own, which a fork would not take along), and
    are terminated on exit when the results were not all taken (``doing`` names their work in the message of one
    that dies). At most ``ahead`` results wait to be taken, so a slow consumer (a compressor) bounds the memory they
    hold.

    Raises :class:`PoolUnavailable` on entry where workers cannot be forked (Windows, macOS: the caller runs ``fn``
    itself), :class:`WorkerLost` when one dies."""

    def __init__(
        self,
        fn: Callable[[int, int], R],
        bounds: Sequence[tuple[int, int]],
        workers: int | None = None,
        ahead: int | None = None,
        doing: str = "writing",
    ) -> None:
        self._fn = fn
        self._doing = doing
        self._bounds = list(bounds)
        self._workers = _worker_count(workers, len(self._bounds))
        self._ahead = max(ahead or 2 * self._workers, 1)
        self._pool: ProcessPoolExecutor | None = None
        self._pending: collections.deque[Future[R]] = collections.deque()
        self._next = 0
        self._finished = False
        self._frozen = frozen_heap()
        self._entered = False

    def __enter__(self) -> Iterator[R]:
        if not forking():
            raise PoolUnavailable("worker processes are not forked on this system")
        self._entered = True
        self._frozen.__enter__()  # the workers never walk the objects they inherit (nor copy their pages)
        try:
            self._pool = _start(self._workers, multiprocessing.get_context("fork"), ((), self._fn))
            while self._next < len(self._bounds) and len(self._pending) < self._ahead:
                self._submit()  # the first submission forks every worker
        except (OSError, ImportError, NotImplementedError) as exc:
            self.__exit__(None, None, None)
            raise _unavailable(exc) from exc
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self._results()

    def __exit__(self, *_: Any) -> None:
        if not self._entered:
            return
        try:
            if self._pool is not None:
                pool, self._pool = self._pool, None
                _stop(pool, self._finished)
        finally:
            self._entered = False
            self._frozen.__exit__(None, None, None)

    def _submit(self) -> None:
        assert self._pool is not None
        self._pending.append(self._pool.submit(_run_forked, self._bounds[self._next]))
        self._next += 1

    def _results(self) -> Iterator[R]:
        try:
            while self._pending:
                result = self._pending.popleft().result()
                if self._next < len(self._bounds):
                    self._submit()
                yield result
            self._finished = True
        except BrokenProcessPool:
            raise _lost(self._doing) from None


def _worker_count(workers: int | None, chunks: int) -> int:
    """The processes a pool starts: ``workers`` (by default one a core), never more than its chunks of work
    (workers=150 on one chunk started 150 of them)."""
    return max(1, min(workers or os.cpu_count() or 1, chunks))


def _start(workers: int, context: Any, given: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool whose workers are set up with ``_worker_setup(*given)`` (forked: ``given`` is never pickled)."""
    try:
        return ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_setup, initargs=given)
    except (OSError, ImportError, NotImplementedError) as exc:
        raise _unavailable(exc) from exc


def _unavailable(exc: BaseException) -> PoolUnavailable:
    """The pool's locks live in /dev/shm: read-only or missing there."""
    return PoolUnavailable(getattr(exc, "strerror", None) or str(exc))


def _lost(doing: str) -> WorkerLost:
    return WorkerLost(
        f"a {doing} process was killed (by the system, perhaps for lack of memory, or by a signal); nothing was written"
    )


def _stop(pool: ProcessPoolExecutor, finished: bool) -> None:
    """Let the workers end when every result came; otherwise terminate them now (a part under way is not waited
    for, nor the parts queued behind it)."""
    if finished:
        pool.shutdown(wait=True)
        return
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14: shuts the pool down too
    if terminate is not None:
        terminate()
        return
    # No public way before 3.14; taken before shutdown(), which forgets them.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError, AttributeError):
            process.join(5)
    # A worker terminated while it sent a result leaves the pool's thread reading the rest, which no one will send;
    # Python's exit joins that thread. The workers gone, this process holds the pipe's last writing end (it never
    # writes there): closed, the read ends, and the thread with it.
    with contextlib.suppress(OSError, AttributeError):
        results._writer.close()  # type: ignore[union-attr]
