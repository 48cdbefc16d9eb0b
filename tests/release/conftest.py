"""The checkout built once per test process, and installed once into a fresh virtual environment."""

from __future__ import annotations

import pytest

from .dists import Dists, Venv, build


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    return build(tmp_path_factory.mktemp("build"))


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory, dists: Dists) -> Venv:
    return Venv(tmp_path_factory.mktemp("installed") / "venv", dists.wheel)
