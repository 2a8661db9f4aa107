"""The app's CLI in a clean environment: the one place that decides which variables a test (or a
walkthrough script) run may inherit from the machine.

* :func:`is_app_setting`: a variable the app or its OpenAI client reads
(``app.settings.config.ENV_VARS``,
  ``RESEARCH_*``, ``OPENAI_*``).
* :func:`clean_env`: the environment of a CLI subprocess: the machine's, minus every app
  setting, with every ``ENV_VARS`` name set to the empty string (unset for the app, and it
  outranks a ``.env`` file: environment beats ``.env``), plus ``extra``.
* :func:`use_env`: the same for a run in this process (``os.environ`` through pytest's
  ``monkeypatch``, undone after the test).
* :func:`run_cli`: ``python -m app ...`` in a subprocess with :func:`clean_env` (a child of
  the fork server of ``tests/cli_fork.py`` when ``TESTS_CLI_FORK=1``, as in the test suite).

Plain Python (no pytest import), so ``scripts/_walkthrough.py`` runs the app the same way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

    from tests.cli_fork import ForkServer

ROOT = Path(__file__).resolve().parents[1]
"""The repository root (the folder holding ``app/``, ``workers/`` and ``state/``)."""

CLI_TIMEOUT = 240.0
"""Seconds before a CLI subprocess is abandoned (a hang guard, not a speed target)."""

APP_PREFIXES = ("RESEARCH_", "OPENAI_")


def is_app_setting(name: str) -> bool:
    """True for a variable that can change what a run does: a setting of
    ``app.settings.config.ENV_VARS``
    or any ``RESEARCH_*``/``OPENAI_*`` variable (the OpenAI client reads others, such as
    ``OPENAI_ORG_ID``, on its own)."""
    from app.settings.config import ENV_VARS  # light: the config module imports no LangGraph code

    return name in ENV_VARS or name.startswith(APP_PREFIXES)


def clean_env(extra: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """The environment for a CLI subprocess: the user's settings cannot leak in.

    Every app setting (:func:`is_app_setting`) is removed, and every variable the app reads
    (``app.settings.config.ENV_VARS``) is then set to the empty string, which the app treats as
    unset
    *and* which outranks a ``.env`` file in the working directory (environment beats ``.env``),
    so a developer's ``.env`` cannot switch the run to a real model either. ``PYTHONPATH`` is
    dropped; output is UTF-8, and ``COLUMNS=200`` keeps rich's lines unwrapped.

    Args:
        extra: variables applied last; a ``None`` value removes the variable (so that a
            ``.env`` file can supply it).
    """
    from app.settings.config import ENV_VARS

    env = {k: v for k, v in os.environ.items() if not is_app_setting(k)}
    env.update({name: "" for name in ENV_VARS})
    env.update({"PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"})
    env.pop("PYTHONPATH", None)
    for name, value in (extra or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def use_env(monkeypatch: pytest.MonkeyPatch, env: Mapping[str, str]) -> None:
    """Make ``env``'s app settings the only ones in ``os.environ`` (for a run in this process):
    every app setting (:func:`is_app_setting`) is removed, then those of ``env`` are set."""
    for name in list(os.environ):
        if is_app_setting(name):
            monkeypatch.delenv(name)
    for name, value in env.items():
        if is_app_setting(name):
            monkeypatch.setenv(name, value)


def run_cli(*args: str | os.PathLike[str], env: Mapping[str, str | None] | None = None,
            cwd: Path = ROOT, timeout: float = CLI_TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m app *args`` with ``sys.executable``; capture stdout and stderr (text).
    The result's ``pid`` is the run's process id (what its run log records).

    Args:
        env: variables set on top of :func:`clean_env` (``None`` removes one).
        cwd: the working directory (default: the repository root).
        timeout: seconds before the run is abandoned (``subprocess.TimeoutExpired``).
    """
    full_env = clean_env(env)
    server = _fork_server()
    if server is not None and server.serves(full_env):
        return server.run([str(a) for a in args], full_env, Path(cwd), timeout)
    with subprocess.Popen([sys.executable, "-m", "app", *map(str, args)], cwd=cwd, env=full_env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          encoding="utf-8") as proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    done.pid = proc.pid  # type: ignore[attr-defined]
    return done


_server: ForkServer | None = None
_server_lock = threading.Lock()


def _fork_server() -> ForkServer | None:
    """This process's CLI fork server (:mod:`tests.cli_fork`), started at its first use, when
    ``TESTS_CLI_FORK=1`` (the suite's ``tests/conftest.py`` sets it; scripts run each command
    in a fresh interpreter unless it is set) and the platform can fork; else None."""
    global _server
    if os.environ.get("TESTS_CLI_FORK") != "1" or not hasattr(os, "pidfd_open"):
        return None
    with _server_lock:
        if _server is None:
            from tests.cli_fork import ForkServer

            _server = ForkServer(clean_env(), ROOT)
        return _server
