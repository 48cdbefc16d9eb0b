"""Signals while scoring or writing: the run stops with the termination status, its worker processes go with it
(even when the parent is killed outright), and no partial, temporary or lock file is left."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import COMMAND, alive, living_parents, long_csv


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    parents = living_parents()
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def start_scoring(tmp_path: Path, rows: int) -> subprocess.Popen:
    """``bleu-xl score`` of a long CSV into out.xlsx, in a child process that the test then signals."""
    source = long_csv(tmp_path / "long.csv", rows)
    return subprocess.Popen(
        [*COMMAND, "score", str(source), "-o", str(tmp_path / "out.xlsx"), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_workers(process: subprocess.Popen) -> set[int]:
    """The pool's worker processes, once scoring has started them."""
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        workers |= descendants(process.pid)
        time.sleep(0.01)
    assert len(workers) >= 2, "the run never started its worker pool"
    return workers


def wait_gone(workers: set[int]) -> None:
    end = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers), "a worker outlived the run"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_sigterm_while_scoring_stops_every_worker(tmp_path: Path) -> None:
    process = start_scoring(tmp_path, 50_000)
    workers = wait_for_workers(process)
    process.send_signal(signal.SIGTERM)
    stderr = process.communicate(timeout=60)[1]  # no hang: nothing holds stderr open
    assert process.returncode == 128 + signal.SIGTERM
    assert "terminated by SIGTERM" in stderr and "Traceback" not in stderr
    wait_gone(workers)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]  # no output, no partial, no lock


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    process = start_scoring(tmp_path, 50_000)
    workers = wait_for_workers(process)
    process.kill()  # SIGKILL: no handler runs in the parent
    process.communicate(timeout=60)
    wait_gone(workers)


def wait_writing(tmp_path: Path, process: subprocess.Popen) -> set[int]:
    """The processes below the run once it writes its output (the workers that make the rows' XML)."""
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".out.xlsx.*.partial")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.002)
    assert list(tmp_path.glob(".out.xlsx.*.partial")), "the run finished before it was seen writing"
    return descendants(process.pid)


def test_sighup_while_writing_removes_the_partial_file(tmp_path: Path) -> None:
    process = start_scoring(tmp_path, 30_000)  # past 20,000 rows: written by worker processes
    workers = wait_writing(tmp_path, process)
    process.send_signal(signal.SIGHUP)
    stderr = process.communicate(timeout=60)[1]
    assert process.returncode == 128 + signal.SIGHUP and "terminated by SIGHUP" in stderr, stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]
    wait_gone(workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_ctrl_c_twice_while_writing_ends_at_once(tmp_path: Path) -> None:
    """The pool forgot its workers before terminating them: a stopped run waited for the parts under way, and a
    second Ctrl-C left it hung at exit."""
    process = start_scoring(tmp_path, 30_000)
    workers = wait_writing(tmp_path, process)
    process.send_signal(signal.SIGINT)
    time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)  # no hang
    assert process.returncode in (130, -signal.SIGINT)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]
    wait_gone(workers)
