"""Fixtures of the end-to-end tests.

* ``server`` (session): one ``langgraph dev`` serving the repository's ``langgraph.json``
  (``tests/e2e/langgraph_dev.py``), shared by every test that drives the served graph; their
  modules are one ``xdist_group`` so that under ``pytest-xdist`` one worker starts it once.
* ``finished`` (a copy per test of a data dir a module made once): a data dir with one
  finished offline run, and its thread id, for the storage-fault tests (their modules are
  ``xdist_group``s of their own, so each makes its template once).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e._storage_helpers import research
from tests.e2e.langgraph_dev import Server, serve


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> Iterator[Server]:
    """The session's ``langgraph dev`` (see :func:`tests.e2e.langgraph_dev.serve`)."""
    yield from serve(tmp_path_factory, small_corpus)


@pytest.fixture(scope="module")
def _finished_template(tmp_path_factory: pytest.TempPathFactory,
                       small_corpus: Path) -> tuple[Path, str]:
    data = tmp_path_factory.mktemp("finished") / "data"
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    return data, json.loads(proc.stdout)["thread_id"]


@pytest.fixture
def finished(_finished_template: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    """A copy of a data dir with one finished run; returns (data dir, thread id)."""
    template, thread_id = _finished_template
    data = tmp_path / "data"
    shutil.copytree(template, data)
    return data, thread_id
