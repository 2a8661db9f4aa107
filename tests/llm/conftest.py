"""Fixtures for the tests that point the app at a model over real HTTP, and the CLI to run.

* ``fake_openai``: a running :class:`tests.llm.fake_openai.FakeOpenAI` (the scripted
  OpenAI-compatible server; its module says what it answers and which faults it can script);
  ``fake_openai.url`` is the ``OPENAI_BASE_URL``.
* ``llm_corpus`` (session): a tiny corpus folder (:data:`CORPUS_FILES`) about the fictional
  glimmer relay, the subject the fake server's plan asks about.
* ``cli_in_process``: ``run(args, env) -> CliResult``, ``app.cli.main`` in this process with
  ``env`` as the whole environment the app reads.
* :func:`llm_env` (the settings of a run against the server, with :data:`FAKE_KEY`) and
  :func:`research_args` (the ``research`` command line), imported by the test modules; the CLI
  in a subprocess is ``tests.cli_env.run_cli(*args, env=llm_env(server), cwd=tmp_path)``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.cli_env import clean_env, use_env
from tests.llm.fake_openai import FAKE_KEY, FakeOpenAI

AS_OF = "2026-01-15"
TOPIC = "glimmer relay"

CORPUS_FILES = {
    "relay.md": textwrap.dedent(
        """\
        # The glimmer relay

        The glimmer relay is a fictional courier protocol that carries glimmer packets between
        the moon stations of Quelloria. Each station keeps a brass ledger of every packet it
        has forwarded, and the ledger is never rewritten, so a packet is never counted twice.
        Operators read the ledger at the end of every launch window to settle their accounts.

        ## How the glimmer relay works

        The glimmer relay folds each glimmer packet into three copper envelopes before launch.
        The outer copper envelope names the destination and the inner one holds a checksum.
        When a packet arrives, the receiving station unfolds the envelopes in reverse order and
        compares the checksum with its brass ledger before it acknowledges the packet.

        ## Limitations of the glimmer relay

        The glimmer relay must not be used during a double eclipse, because copper envelopes
        lose their charge in the dark. Warning: more than five copper envelopes per packet is
        rejected at launch. The single-envelope mode is deprecated since relay version 4.
        """
    ),
    "stations.txt": textwrap.dedent(
        """\
        Quelloria has nine moon stations. Every moon station runs one glimmer relay per route,
        and Harrowgate limits each route to forty glimmer packets per launch window.
        """
    ),
}


@pytest.fixture
def fake_openai() -> Any:
    """A running :class:`FakeOpenAI`; ``fake_openai.url`` is the ``OPENAI_BASE_URL``."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def llm_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny corpus folder about the fictional glimmer relay."""
    folder = tmp_path_factory.mktemp("llm-corpus")
    for rel, text in CORPUS_FILES.items():
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


def llm_env(server: FakeOpenAI, **extra: str | None) -> dict[str, str | None]:
    """The settings of a run against ``server``, fast retries: the variables to set on top of
    :func:`tests.cli_env.clean_env` (``run_cli(..., env=)`` and ``cli_in_process`` both apply
    them there). ``extra`` comes last; a ``None`` value removes a variable (a ``.env`` file in
    the working directory can then supply it)."""
    return {
        "OPENAI_BASE_URL": server.url,
        "OPENAI_API_KEY": FAKE_KEY,
        "RESEARCH_RETRY_INTERVAL": "0.01",
        "RESEARCH_REQUESTS_PER_SECOND": "1000",
        "RESEARCH_TIMEOUT": "20",
        **extra,
    }


def research_args(corpus: Path, data_dir: Path, *extra: str, topic: str = TOPIC) -> list[str]:
    return ["research", topic, "--model", "openai:gpt-4.1-mini", "--corpus", str(corpus),
            "--data-dir", str(data_dir), "--as-of", AS_OF, *extra]


@dataclass
class CliResult:
    """What a CLI run gave: like ``subprocess.CompletedProcess``."""

    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli_in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                   tmp_path: Path) -> Any:
    """``run(args, env) -> CliResult``: ``app.cli.main(args)`` in this process, with the app
    settings of ``clean_env(env)`` as the only ones in ``os.environ`` (the environment a
    subprocess of ``run_cli(..., env=env)`` gets) and the working directory a temp folder. Saves
    the interpreter start and the imports of a subprocess (seconds each); the full run and the
    key checks use a real subprocess."""
    from app.cli import main

    def run(args: list[str], env: Mapping[str, str | None]) -> CliResult:
        use_env(monkeypatch, clean_env(env))
        monkeypatch.chdir(tmp_path)
        capsys.readouterr()
        code = main(args)
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run


@pytest.fixture
def run(cli_in_process: Any, fake_openai: FakeOpenAI, llm_corpus: Path, tmp_path: Path) -> Any:
    """``run(*flags, **env) -> (proc, summary or None, data_dir)``: ``research --json`` against
    the fake (in this process, :func:`cli_in_process`), one data dir per test, ``env`` added to
    the fake's (:func:`llm_env`)."""
    import json

    def go(*flags: str, **env: str) -> tuple[CliResult, dict | None, Path]:
        data = tmp_path / "data"
        proc = cli_in_process(research_args(llm_corpus, data, "--json", *flags),
                              llm_env(fake_openai, **env))
        summary = json.loads(proc.stdout) if proc.stdout.lstrip().startswith("{") else None
        return proc, summary, data

    return go
