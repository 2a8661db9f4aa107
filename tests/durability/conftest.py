"""Fixtures of the durability tests (helpers live in ``_helpers.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.durability._helpers import BACKENDS, Place, write_corpus


@pytest.fixture(scope="session")
def durability_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-file corpus (Send, reducers, durability), shared read-only by every test: a
    folder corpus indexes in milliseconds, unlike the default package docs."""
    return write_corpus(tmp_path_factory.mktemp("durability-corpus"))


@pytest.fixture(params=BACKENDS)
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], Place]:
    """Factory over both backends: ``place("data")`` is a fresh place for one run's data (for
    PostgreSQL, a new database on the session's server, so tests never share threads)."""

    def make(name: str = "data") -> Place:
        if request.param == "postgres":
            return Place(tmp_path / name, request.getfixturevalue("postgres_server")
                         .create_database())
        return Place(tmp_path / name)

    return make
