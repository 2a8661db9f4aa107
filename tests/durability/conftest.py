"""Fixtures of the durability tests (helpers live in ``_helpers.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.durability._helpers import write_corpus


@pytest.fixture(scope="session")
def durability_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-file corpus (Send, reducers, durability), shared read-only by every test: a
    folder corpus indexes in milliseconds, unlike the default package docs."""
    return write_corpus(tmp_path_factory.mktemp("durability-corpus"))
