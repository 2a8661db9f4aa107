"""Fixtures of the end-to-end tests.

* ``server`` (session): one ``langgraph dev`` serving the repository's ``langgraph.json``
  (``tests/e2e/langgraph_dev.py``), shared by every test that drives the served graph; their
  modules are one ``xdist_group`` so that under ``pytest-xdist`` one worker starts it once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.langgraph_dev import Server, serve


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> Iterator[Server]:
    """The session's ``langgraph dev`` (see :func:`tests.e2e.langgraph_dev.serve`)."""
    yield from serve(tmp_path_factory, small_corpus)
