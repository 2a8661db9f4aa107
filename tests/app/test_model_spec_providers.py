"""A model spec is checked by the rules ``init_chat_model`` documents, without importing
LangChain: ``check_model_spec`` once called LangChain's private ``_parse_model`` (imported
lazily, so the check passed any spec had it gone), and ``threads`` with a model variable set
imported LangChain while loading its settings (issue 21, item 12: what a command does not use
is imported only when used). The documented lists are read here from the installed
``init_chat_model``'s docstring, so a LangChain upgrade that adds a provider fails this test
until :data:`app.settings.model_spec.PROVIDERS` has it."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings.model_spec import NAME_PREFIXES, PROVIDERS, check_model_spec
from tests.conftest import ROOT, clean_env
from tests.e2e.test_offline_imports import _MODULES_AT_EXIT, loaded


def _documented() -> tuple[set[str], set[str]]:
    """The providers and the bare-name prefixes ``init_chat_model``'s docstring lists."""
    from langchain.chat_models import init_chat_model

    doc = init_chat_model.__doc__ or ""
    supported = doc.split("Supported values and the integration package each requires:")[1]
    providers = set(re.findall(r"^\s*- `([a-z_]+)`\s+->", supported, re.M))
    inferred = doc.split("Inferred providers by prefix (case-insensitive):")[1]
    inferred = inferred.split("model_provider:")[0]
    prefixes = {p.removesuffix("...") for p in re.findall(r"`([^`]+\.\.\.)`", inferred)}
    return providers, prefixes


def test_the_providers_and_prefixes_are_those_init_chat_model_documents() -> None:
    providers, prefixes = _documented()
    assert len(providers) >= 20 and len(prefixes) >= 15  # the docstring was read
    assert set(PROVIDERS) == providers
    assert set(NAME_PREFIXES) == prefixes


@pytest.mark.parametrize("spec", ["openai:gpt-4.1-mini", "anthropic:claude-x", "gpt-4.1-mini",
                                  "Claude-Opus-4-7", "ollama:llama3:8b", "offline", ""])
def test_a_spec_init_chat_model_documents_passes(spec: str) -> None:
    check_model_spec(spec)


@pytest.mark.parametrize("spec", ["foo", "bogus:x", "OpenAI:gpt-4", "azure-openai:x", "llama3"])
def test_a_spec_it_cannot_tell_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        check_model_spec(spec)


def test_threads_with_a_model_setting_imports_no_langchain(tmp_path: Path) -> None:
    listing = tmp_path / "modules.json"
    env = {**clean_env({"RESEARCH_MODEL": "openai:gpt-4.1-mini",
                        "RESEARCH_WORKER_MODEL": "anthropic:claude-x"}),
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _MODULES_AT_EXIT, str(listing), "threads",
                           "--data-dir", str(tmp_path / "data")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning" not in proc.stderr, proc.stderr  # both specs are good ones
    import json

    modules = set(json.loads(listing.read_text(encoding="utf-8")))
    assert "app.cli.commands" in modules  # it ran
    assert not loaded(modules, "langchain"), sorted(m for m in modules if "langchain" in m)
