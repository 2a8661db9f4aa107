"""Shared fixtures: a small corpus folder about a made-up subject, and the CLI in a subprocess.

* ``small_corpus`` (session): a folder of a few ``.md``/``.txt`` files about the fictional
  "Zorblax relay", with distinctive sentences (what it is, how it works, how it is configured,
  its caveats). One file is long enough to be split into several passages, so a citation that
  names the wrong passage of a document is caught. Indexing it costs milliseconds, unlike the
  default package-docs corpus (about 1.5 s), which the test suite indexes at most once.
* ``make_corpus`` (session): a factory for other folders (``make_corpus({"a.md": "..."})``).
* ``run_cli(*args)``, ``clean_env()``, ``ROOT``, ``CLI_TIMEOUT``: re-exported from
  ``tests/cli_env.py``, their one owner (``python -m app ...`` in a subprocess, from the
  repository root, with an environment the user's settings cannot leak into).
  Each run is a child of a fork server that has imported LangGraph once
  (``tests/cli_fork.py``; ``TESTS_CLI_FORK=0`` starts a fresh interpreter per run instead).
* ``run_cli_many([...])``: several CLI runs at once (a thread pool of subprocesses), for tests
  that need many independent runs and should not pay for them one after another.
* ``postgres_server`` (session): a throwaway PostgreSQL server on 127.0.0.1 (``tests/pgserver.py``);
  ``postgres_url``: a fresh empty database on it for one test. Without the server binaries the
  tests that need it are skipped, unless ``REQUIRE_POSTGRES=1`` (set by ``.ci/run``) makes that
  an error.
* ``storage`` (parametrized ``sqlite``/``postgres``): an :class:`app.storage.Storage` of each
  backend, empty, for tests of the storage contract.

The suite runs under pytest-xdist (``-n auto``, sized by :func:`pytest_xdist_auto_num_workers`):
session fixtures are set up once per worker, so each one's resources (ports, folders) are its
own; a module whose module-scoped fixtures are costly is one ``xdist_group``.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli_env import CLI_TIMEOUT as CLI_TIMEOUT  # re-exported: the owner is tests/cli_env.py
from tests.cli_env import ROOT as ROOT
from tests.cli_env import clean_env as clean_env
from tests.cli_env import run_cli
from tests.pgserver import PostgresServer, PostgresUnavailable

if TYPE_CHECKING:
    from app.storage import Storage

os.environ.setdefault("TESTS_CLI_FORK", "1")  # run_cli forks its runs from a preloaded server

AS_OF = "2026-11-30"
"""The ``--as-of`` every test run uses, so envelope ids and file names are predictable."""

SMALL_TOPIC = "zorblax relay"
"""A topic the small corpus answers (its offline plan is the topic alone: one sub-question)."""

SEVERAL_TOPIC = "zorblax relay vs glimmer packets"
"""A comparison the small corpus answers: its offline plan asks three sub-questions on any
corpus, for the tests that kill a run part-way through its tasks."""

SMALL_CORPUS_FILES: dict[str, str] = {
    "zorblax.md": textwrap.dedent(
        """\
        # The Zorblax relay

        The Zorblax relay is a fictional courier protocol that moves glimmer packets between the
        moon stations of Quelloria. Each Zorblax relay station keeps a brass ledger of every
        glimmer packet it has forwarded, and the ledger is never rewritten.

        ## How the Zorblax relay works

        A Zorblax relay works by folding each glimmer packet into three copper envelopes before
        launch. The outer copper envelope carries the destination station, and the inner copper
        envelope carries the checksum of the glimmer packet.

        When a glimmer packet arrives, the receiving station unfolds the copper envelopes in
        reverse order and compares the checksum with its brass ledger. A packet whose checksum
        is already in the ledger is acknowledged again instead of being stored twice.

        ## Configuring the Zorblax relay

        The Zorblax relay is configured with a quellfile that names the moon stations and the
        launch window of each route. Operators use the quellfile to choose how many copper
        envelopes a route needs, from one to five.

        ## Limitations and caveats of the Zorblax relay

        The Zorblax relay must not be used during a double eclipse, because the copper envelopes
        lose their charge in the dark. Warning: a quellfile that asks for more than five copper
        envelopes per glimmer packet is rejected at launch.

        The single-envelope mode of the Zorblax relay is deprecated since relay version 4 and
        will be removed in relay version 6.
        """
    ),
    "history.txt": textwrap.dedent(
        """\
        The first Zorblax relay was built by the cartographer Imbrel Vashti in the year of the
        seventh comet. Vashti designed the relay so that a lost glimmer packet could be resent
        without ever being counted twice.

        Before the Zorblax relay, moon stations exchanged news by heliograph, which only worked
        when both stations faced the sun.
        """
    ),
    "stations/quelloria.md": textwrap.dedent(
        """\
        # Moon stations of Quelloria

        Quelloria has nine moon stations, and the largest of them is Harrowgate on the pale moon.
        Every moon station runs one Zorblax relay per route it serves.

        Harrowgate limits each route to forty glimmer packets per launch window.
        """
    ),
    "notes/ignored.bin": "binary-looking file that the corpus must skip\n",
}


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml's addopts): one pytest-xdist worker more than the CPUs this
    process may use. Most tests wait on what they start (CLI processes, PostgreSQL, PgBouncer,
    ``langgraph dev``, leases and retry waits), so one spare worker keeps the cores busy.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS=N`` or ``-n N`` overrides it; ``-n 0`` runs the tests in
    this process, one after another."""
    return len(os.sched_getaffinity(0)) + 1


def run_cli_many(
    runs: Mapping[str, Sequence[str | os.PathLike[str]]], max_workers: int = 4
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Run several CLI invocations at once; return ``{name: CompletedProcess}``."""
    with ThreadPoolExecutor(max_workers=max_workers) as pool:
        futures = {name: pool.submit(run_cli, *args) for name, args in runs.items()}
        return {name: future.result() for name, future in futures.items()}


def write_corpus(folder: Path, files: Mapping[str, str]) -> Path:
    """Write ``{relative_path: text}`` under ``folder``; return ``folder``."""
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def make_corpus(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """Factory: ``make_corpus(files=None, name="corpus")`` writes a fresh corpus folder (the
    small Zorblax corpus by default) and returns its path."""

    def make(files: Mapping[str, str] | None = None, name: str = "corpus") -> Path:
        folder = tmp_path_factory.mktemp(name)
        return write_corpus(folder, SMALL_CORPUS_FILES if files is None else files)

    return make


@pytest.fixture(scope="session")
def small_corpus(make_corpus: Callable[..., Path]) -> Path:
    """The small Zorblax corpus folder, shared by the whole session (read-only: do not edit)."""
    return make_corpus(name="zorblax-corpus")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session, stopped and deleted at the end."""
    try:
        with PostgresServer.start() as server:
            yield server
    except PostgresUnavailable as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {exc}")
        pytest.skip(str(exc))


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database: tests never see each other's threads or rows."""
    return postgres_server.create_database()


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's clean environment (:func:`clean_env`) in this process, for tests that call
    :func:`app.cli.main` in-process rather than in a subprocess."""
    env = clean_env()
    for name in list(os.environ):
        if name not in env:
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)


@pytest.fixture(params=["sqlite", "postgres"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    """An empty storage of each backend (the SQLite one in ``tmp_path / "data"``)."""
    from app.storage import open_storage

    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    return open_storage(tmp_path / "data", url)


@pytest.fixture(scope="session")
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """:func:`run_cli` as a fixture."""
    return run_cli
