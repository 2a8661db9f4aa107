"""The tests' CLI fork server (``tests/cli_fork.py``) runs the CLI as a fresh interpreter does:
the same exit code, stdout and stderr for the same arguments, environment and working directory,
a ``.env`` file read from the run's own folder, and a timeout that kills the run."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_env import ROOT, clean_env
from tests.cli_fork import ForkServer
from tests.conftest import AS_OF, SMALL_TOPIC


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    fork = ForkServer(clean_env(), ROOT)
    yield fork
    fork.close()


def fresh(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=240)


def timeless(text: str) -> str:
    return re.sub(r"\d+(\.\d+)? s\b", "N s", text)


def test_a_forked_run_answers_as_a_fresh_interpreter(server: ForkServer, tmp_path: Path,
                                                     small_corpus: Path) -> None:
    (tmp_path / ".env").write_text("RESEARCH_ROUND=3\n", encoding="utf-8")  # a typo: warned
    env = clean_env({"RESEARCH_ROUNDS": None})  # unset: the .env file may supply it
    cases = [
        ["research", "", "--data-dir", str(tmp_path / "d1")],  # bad input: exit 2, one line
        ["threads", "--data-dir", str(tmp_path / "d2")],
        ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
         "--data-dir", str(tmp_path / "d3"), "--quiet"],
    ]
    for args in cases:
        forked = server.run(args, env, tmp_path, timeout=240)
        if args[0] == "research" and args[1]:  # the same run again lands on its finished thread
            args = [*args[:-2], str(tmp_path / "d4"), "--quiet"]
        plain = fresh(args, env, tmp_path)
        assert (forked.returncode, forked.stderr) == (plain.returncode, plain.stderr), args
        assert timeless(forked.stdout.replace("d3", "d4")) == timeless(plain.stdout), args
    assert "RESEARCH_ROUND" in forked.stderr and forked.returncode == 0


def test_a_run_past_its_timeout_is_killed_and_the_server_goes_on(
        server: ForkServer, tmp_path: Path, small_corpus: Path) -> None:
    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
            "--data-dir", str(tmp_path / "data")]
    with pytest.raises(subprocess.TimeoutExpired):
        server.run(args, clean_env(), ROOT, timeout=0.01)
    again = server.run(["threads", "--data-dir", str(tmp_path / "other")], clean_env(), ROOT,
                       timeout=240)
    assert again.returncode == 0, again.stderr
