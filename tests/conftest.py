"""Shared fixtures: generated text pairs for the oracle and property tests, and a workbook of copy to score."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from benchmarks.synthetic import make_pairs
from tests.helpers import BYTECODE_DIRECTORY, COPY_ROWS, xlsx_text


def _bytecode_kept_outside_the_checkout() -> None:
    """Where the environment forbids writing bytecode beside the sources (PYTHONDONTWRITEBYTECODE), the commands
    the tests start (a few hundred) keep it in a private directory of this run instead: compiling the package
    again cost each start about 0.1 s. The checkout stays free of it, as the setting wants."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    cache = tempfile.mkdtemp(prefix=BYTECODE_DIRECTORY)
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = cache


_bytecode_kept_outside_the_checkout()


@pytest.fixture(scope="session")
def pairs() -> list[tuple[str, str]]:
    return make_pairs(3000)


@pytest.fixture
def copy_workbook(tmp_path: Path) -> Path:
    """copy.xlsx, sheet "Copy": the rows of ``tests.helpers.COPY_ROWS``, every text a text cell."""
    return xlsx_text(tmp_path / "copy.xlsx", COPY_ROWS)


@pytest.fixture(params=["checks apart", "checks in the child"])
def both_ways_of_checking(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test run twice: with every sheet's checks in a process of their own beside the reader (as a large
    sheet's are), and in the reader's child (as a small sheet's are). The reads in this process fork their child
    with the setting; a command the test starts reads as it would anyway."""
    from bleu_xl.files.read import workbook

    if request.param == "checks apart":
        monkeypatch.setattr(workbook, "APART_MIN_BYTES", 0)
