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
