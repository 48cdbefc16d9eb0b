"""The forked map that writes a large workbook's rows: results in order whatever order the workers finish in, at
most a window of results waiting, and a worker that dies ends the run with WorkerLost, not a hang."""

from __future__ import annotations

import os
import time

import pytest

from bleu_xl.table.pool import ForkedMap, WorkerLost, forking

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


def test_one_at_a_time_and_left_early_stops_the_workers() -> None:
    with ForkedMap(lambda a, b: a, [(a, a) for a in range(50)], 2) as results:
        assert next(results) == 0
        with pytest.raises(RuntimeError, match="one ForkedMap at a time"), ForkedMap(lambda a, b: a, [(0, 1)], 1):
            pass
    with ForkedMap(lambda a, b: a * 2, [(a, a) for a in range(5)], 2) as results:  # a new one after the first
        assert list(results) == [0, 2, 4, 6, 8]
