"""The forked map that writes a large workbook's rows: results in order whatever order the workers finish in, at
most a window of results waiting, and a worker that dies ends the run with WorkerLost, not a hang."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

import pytest

from bleu_xl.table.pool import ForkedMap, WorkerLost, forking, map_chunks
from tests.helpers import alive

pytestmark = pytest.mark.skipif(not forking(), reason="workers are forked on Linux only")

SEEN_IN_PARENT = list(range(1000))  # made before the fork: the workers read it without being sent it


def test_results_come_in_order_and_the_workers_share_this_memory() -> None:
    def part(a: int, b: int) -> tuple[int, int, int]:
        time.sleep(0.02 if a % 20 == 0 else 0)  # some parts finish after later ones
        return a, sum(SEEN_IN_PARENT[a:b]), os.getpid()

    bounds = [(a, a + 10) for a in range(0, 1000, 10)]
    with ForkedMap(part, bounds, workers=2, ahead=3) as results:
        got = list(results)
    assert [a for a, _, _ in got] == [a for a, _ in bounds]
    assert [total for _, total, _ in got] == [sum(range(a, b)) for a, b in bounds]
    assert os.getpid() not in {pid for _, _, pid in got} and len({pid for _, _, pid in got}) == 2


def test_a_worker_that_dies_ends_the_run() -> None:
    def part(a: int, b: int) -> int:
        if a == 30:
            os._exit(9)  # as the out-of-memory killer would end it: no exception, no result
        return a

    with (
        pytest.raises(WorkerLost, match="a writing process was killed"),
        ForkedMap(part, [(a, a) for a in range(0, 100, 10)], 2) as results,
    ):
        list(results)


def test_left_early_the_workers_are_terminated_at_once() -> None:
    """Parts under way and queued are not waited for: the workers are gone when the map is left."""

    def slow(a: int, b: int) -> int:
        time.sleep(30)
        return a

    before = {child.pid for child in multiprocessing.active_children()}  # other tests' pools, being reaped
    start = time.monotonic()
    with ForkedMap(slow, [(a, a) for a in range(20)], 2) as results:
        workers = {child.pid for child in multiprocessing.active_children()} - before
        del results  # a signal, an error: the results are not all taken
    assert len(workers) == 2
    # The pool's own thread may be reaping them: /proc says, not is_alive().
    while any(map(alive, workers)) and time.monotonic() - start < 10:
        time.sleep(0.05)
    assert not any(map(alive, workers)), "a worker outlived the map"
    assert time.monotonic() - start < 10  # not the 30 s its part would take


def test_maps_in_two_threads_each_get_their_own_results() -> None:
    """A library caller scoring two files at once in threads: each pool's workers take its own function (handed
    to them as they fork), never the other's."""
    got: dict[int, list[int]] = {}

    def run(k: int) -> None:
        with ForkedMap(lambda a, b: a * k, [(a, a) for a in range(40)], 2, ahead=2) as results:
            got[k] = list(results)

    threads = [threading.Thread(target=run, args=(k,)) for k in (2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert got == {2: [a * 2 for a in range(40)], 3: [a * 3 for a in range(40)]}
    with ForkedMap(lambda a, b: a, [(0, 1)], 1) as outer:  # one inside another, in one thread
        with ForkedMap(lambda a, b: -a, [(5, 6)], 1) as inner:
            assert list(inner) == [-5]
        assert list(outer) == [0]


def test_a_pool_forked_while_another_thread_holds_a_lock_of_ours_does_not_wait(monkeypatch) -> None:
    """Workers forked while another thread counts chrF n-grams (its lock held) score chrF all the same; and the
    properties the write workers read take no class-wide lock (functools.cached_property does before 3.12)."""
    import functools

    from bleu_xl.core.metrics import Chrf, chrf_stats
    from bleu_xl.table import columns, scoring
    from bleu_xl.table import sheet as table_sheet

    assert not any(isinstance(value, functools.cached_property) for value in vars(scoring.Result).values())
    monkeypatch.setattr(scoring, "PARALLEL_MIN_PAIRS", 40)
    monkeypatch.setattr(scoring, "CHUNK", 25)
    rows = [["Reference", "Candidate"]] + [[f"le chat {i % 7} dort bien", f"le chat {i % 5} dors"] for i in range(100)]
    table = table_sheet.Sheet("t", rows, ["t"])
    layout = columns.find_layout(table)
    expected = scoring.score_table(table, layout, metrics=(Chrf(),), workers=1).scores
    got: list = []
    with chrf_stats._COUNTING:  # as another thread counting when the workers fork
        thread = threading.Thread(
            target=lambda: got.append(scoring.score_table(table, layout, metrics=(Chrf(),), workers=2).scores),
            daemon=True,
        )
        thread.start()
        thread.join(60)
    assert got == [expected], "the workers waited for a lock no thread of theirs holds"


_STUCK_POOL = None  # the pool whose result pipe the worker below writes to (a fork inherits it)


def _half_sent(_: int) -> None:
    """A worker killed while it sends a large result: the length of a message and only its first bytes."""
    writer = _STUCK_POOL._result_queue._writer  # type: ignore[attr-defined]
    os.write(writer.fileno(), (1_000_000).to_bytes(4, "big") + b"x" * 10)
    time.sleep(60)


def test_a_worker_killed_while_sending_leaves_no_thread_waiting_for_the_rest() -> None:
    """The pool's manager thread reads a result as its bytes arrive: a worker terminated half-way left it waiting for
    the rest for ever, and Python's exit, which joins it, hung after "terminated by SIGTERM". Stopping the pool
    closes the parent's end of the result pipe, so the read ends."""
    global _STUCK_POOL
    from bleu_xl.table import pool as pool_module

    _STUCK_POOL = pool_module._start(1, multiprocessing.get_context("fork"))
    try:
        _STUCK_POOL.submit(_half_sent, 0)
        manager = _STUCK_POOL._executor_manager_thread
        time.sleep(1.5)  # the worker forked and wrote its half message; the manager is reading it
        pool_module._stop(_STUCK_POOL, finished=False)
        manager.join(10)
        assert not manager.is_alive(), "the pool's manager thread still waits for the rest of a result"
    finally:
        _STUCK_POOL = None


def test_no_more_workers_than_chunks() -> None:
    """workers=150 on one chunk started 150 processes: a pool never needs more than it has chunks."""
    before = {child.pid for child in multiprocessing.active_children()}
    with ForkedMap(lambda a, b: (a, os.getpid()), [(0, 1), (1, 2)], workers=150) as results:
        started = {child.pid for child in multiprocessing.active_children()} - before
        got = list(results)
    assert len(started) <= 2 and [a for a, _ in got] == [0, 1]
    parts = map_chunks(_pids, list(range(10)), [(0, 5), (5, 10)], (), workers=150)
    assert len({pid for part in parts for pid in part}) <= 2


def _pids(items: list[int]) -> list[int]:
    return [os.getpid() for _ in items]
