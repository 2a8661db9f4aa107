"""Fixtures for the tests that point the app at a model over real HTTP, and the CLI to run.

* ``fake_openai``: a running :class:`tests.llm.fake_openai.FakeOpenAI` (the scripted
  OpenAI-compatible server; its module says what it answers and which faults it can script);
  ``fake_openai.url`` is the ``OPENAI_BASE_URL``.
* ``llm_corpus`` (session): a tiny corpus folder (:data:`CORPUS_FILES`) about the fictional
  glimmer relay, the subject the fake server's plan asks about.
* ``cli_in_process``: ``run(args, env) -> CliResult``, ``app.cli.main`` in this process with
  ``env`` as the whole environment the app reads.
* :func:`llm_env` (the environment for a run against the server, with :data:`FAKE_KEY`),
  :func:`research_args` (the ``research`` command line) and :func:`run_cli` (the CLI in a
  subprocess), imported by the test modules.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.llm.fake_openai import FAKE_KEY, FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]

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


def llm_env(server: FakeOpenAI, **extra: str) -> dict[str, str]:
    """The environment for a run against ``server``: no user setting leaks in, fast retries."""
    from app.config import ENV_VARS

    env = {k: v for k, v in os.environ.items()
           if k not in ENV_VARS and not k.startswith(("RESEARCH_", "OPENAI_"))}
    env.update({
        "OPENAI_BASE_URL": server.url,
        "OPENAI_API_KEY": FAKE_KEY,
        "RESEARCH_RETRY_INTERVAL": "0.01",
        "RESEARCH_REQUESTS_PER_SECOND": "1000",
        "RESEARCH_TIMEOUT": "20",
        "PYTHONUTF8": "1",
        "PYTHONIOENCODING": "utf-8",
        "COLUMNS": "200",
    })
    env.pop("PYTHONPATH", None)
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def research_args(corpus: Path, data_dir: Path, *extra: str, topic: str = TOPIC) -> list[str]:
    return ["research", topic, "--model", "openai:gpt-4.1-mini", "--corpus", str(corpus),
            "--data-dir", str(data_dir), "--as-of", AS_OF, *extra]


def run_cli(args: list[str], env: Mapping[str, str], cwd: Path,
            timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``python -m app *args`` in a subprocess (cwd: a temp folder, so no ``.env`` leaks in)."""
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=cwd, env=dict(env), capture_output=True, text=True, encoding="utf-8",
        timeout=timeout,
    )


@dataclass
class CliResult:
    """What a CLI run gave: like ``subprocess.CompletedProcess``."""

    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli_in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                   tmp_path: Path) -> Any:
    """``run(args, env) -> CliResult``: ``app.cli.main(args)`` in this process, with ``env`` as
    the whole environment the app reads (every ``ENV_VARS`` name not in it is removed) and the
    working directory a temp folder. Saves the interpreter start and the imports of a subprocess
    (seconds each); the full run and the key checks use a real subprocess."""
    from app.cli import main
    from app.config import ENV_VARS

    def run(args: list[str], env: Mapping[str, str]) -> CliResult:
        for name in list(os.environ):
            if name in ENV_VARS or name.startswith(("RESEARCH_", "OPENAI_")):
                monkeypatch.delenv(name)
        for name, value in env.items():
            if name in ENV_VARS or name.startswith(("RESEARCH_", "OPENAI_")):
                monkeypatch.setenv(name, value)
        monkeypatch.chdir(tmp_path)
        capsys.readouterr()
        code = main(args)
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run
