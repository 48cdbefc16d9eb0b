"""Shared fixtures: generated text pairs for the oracle and property tests."""

from __future__ import annotations

import pytest

from benchmarks.synthetic import make_pairs


@pytest.fixture(scope="session")
def pairs() -> list[tuple[str, str]]:
    return make_pairs(3000)
