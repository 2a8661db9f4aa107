"""Fixtures of the workshop tests: the walkthrough corpus, and an environment that is offline.

The corpus is the one the walkthrough scripts use (``scripts/_walkthrough.py``), so these tests
and the scripts search the same three short documents about Send, reducers and checkpointers.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.cli_env import clean_env, use_env

ROOT = Path(__file__).resolve().parents[2]
"""The repository root."""


def load_walkthrough_helpers() -> ModuleType:
    """Import ``scripts/_walkthrough.py`` (``scripts/`` is not a package)."""
    spec = importlib.util.spec_from_file_location("_walkthrough", ROOT / "scripts/_walkthrough.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def walkthrough() -> ModuleType:
    """The walkthrough helpers module (``TOPIC``, ``AS_OF``, ``CORPUS_FILES``, ...)."""
    return load_walkthrough_helpers()


@pytest.fixture(scope="session")
def workshop_corpus(tmp_path_factory: pytest.TempPathFactory, walkthrough: ModuleType) -> Path:
    """The walkthrough corpus folder (read-only: shared by the session)."""
    return walkthrough.write_corpus(tmp_path_factory.mktemp("workshop-corpus"))


@pytest.fixture
def offline_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """Make ``app.settings.env.load_settings`` see no user setting: every variable it reads is
    set to the empty string (unset for the app, and it outranks a ``.env`` file), no API key."""
    use_env(monkeypatch, clean_env())
    return monkeypatch
