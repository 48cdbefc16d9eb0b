"""Shared fixtures: generated text pairs for the oracle and property tests, and a workbook of copy to score."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic import make_pairs
from tests.helpers import COPY_ROWS, xlsx_text


@pytest.fixture(scope="session")
def pairs() -> list[tuple[str, str]]:
    return make_pairs(3000)


@pytest.fixture
def copy_workbook(tmp_path: Path) -> Path:
    """copy.xlsx, sheet "Copy": the rows of ``tests.helpers.COPY_ROWS``, every text a text cell."""
    return xlsx_text(tmp_path / "copy.xlsx", COPY_ROWS)
