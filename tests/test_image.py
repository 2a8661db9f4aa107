"""The image that ``langgraph build`` makes installs what ``uv.lock`` pins, and nothing secret.

``langgraph dockerfile OUT`` writes the Dockerfile that ``langgraph build`` builds (no Docker
daemon needed). With ``"source": {"kind": "uv"}`` in ``langgraph.json`` it installs the output of
``uv export --frozen`` (langgraph-cli ``uv_lock.py``); these tests run that export command as the
Dockerfile writes it (with the Dockerfile's ``ENV`` lines before it) and check the requirements
it makes. Building and running the image needs Docker: not tested here (docs/deploy.md).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "mapreduce-research-agent"
SERVER_PACKAGES = {"langgraph-api", "langgraph-runtime-inmem"}
"""The in-memory server of ``langgraph dev``: the API image brings its own server."""

_SKIP = shutil.ignore_patterns(".venv", ".git", ".data", ".langgraph_api", "__pycache__",
                               ".pytest_cache", ".ruff_cache", ".hypothesis", ".env")


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _lock() -> dict[str, str]:
    """Package name -> version, from ``uv.lock``."""
    data = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    return {p["name"]: p.get("version", "") for p in data["package"]}


def _dockerfile(folder: Path, out: Path) -> str:
    """``langgraph dockerfile out`` run in ``folder`` (its ``langgraph.json``)."""
    env = {**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    done = subprocess.run([sys.executable, "-m", "langgraph_cli", "dockerfile", str(out)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return out.read_text(encoding="utf-8")


def _uv() -> list[str]:
    found = shutil.which("uv")
    if found:
        return [found]
    pytest.importorskip("uv")  # .ci/run installs uv with pip when it is missing
    return [sys.executable, "-m", "uv"]


def _export(dockerfile: str, folder: Path) -> list[str]:
    """Run the Dockerfile's ``uv export`` on a copy of ``pyproject.toml`` and ``uv.lock``, with
    the ``ENV`` lines the Dockerfile sets before it; return the requirement lines."""
    lines = dockerfile.splitlines()
    export = next(i for i, line in enumerate(lines) if line.startswith("RUN uv export"))
    image_env: dict[str, str] = {}
    for line in lines[:export]:
        if line.startswith("ENV "):
            key, _, value = line[4:].partition("=")
            image_env[key.strip()] = value.strip().strip("'\"")
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    shutil.copy(ROOT / "uv.lock", folder / "uv.lock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("UV_")} | image_env
    cmd = shlex.split(lines[export][len("RUN "):])
    assert cmd[:2] == ["uv", "export"] and "--frozen" in cmd, lines[export]
    done = subprocess.run([*_uv(), *cmd[1:]], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = folder / cmd[cmd.index("-o") + 1]
    return [line.strip() for line in out.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_image_installs_the_locked_versions_without_dev_tools(tmp_path: Path) -> None:
    dockerfile = _dockerfile(ROOT, tmp_path / "Dockerfile")
    assert "-r uv_requirements.txt" in dockerfile  # the export is what gets installed
    requirements = _export(dockerfile, tmp_path)
    lock = _lock()
    pinned = {}
    for line in requirements:
        name, sep, version = line.partition("==")
        assert sep, f"not pinned: {line}"
        pinned[_name(name)] = version.split(";")[0].strip()
    assert pinned and all(lock[name] == v for name, v in pinned.items()), pinned
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    runtime = {_name(r) for r in pyproject["project"]["dependencies"]}
    assert runtime <= set(pinned), runtime - set(pinned)
    dev = {_name(r) for r in pyproject["dependency-groups"]["dev"]}
    assert not (dev | SERVER_PACKAGES) & set(pinned), (dev | SERVER_PACKAGES) & set(pinned)


def test_the_image_is_the_api_version_the_lock_was_tested_with(tmp_path: Path) -> None:
    config = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
    api = _lock()["langgraph-api"]
    assert config["api_version"] == api, "pin api_version to uv.lock's langgraph-api"
    dockerfile = _dockerfile(ROOT, tmp_path / "Dockerfile")
    base = dockerfile.splitlines()[0]
    assert base == f"FROM langchain/langgraph-api:{api}-py{config['python_version']}", base


def test_secrets_environments_and_run_data_stay_out_of_the_image(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=_SKIP)
    (repo / ".env").write_text("OPENAI_API_KEY=sk-secret\n", encoding="utf-8")
    for folder in (".venv", ".data", ".git", ".langgraph_api", ".pytest_cache"):
        (repo / folder).mkdir()
        (repo / folder / "x").write_text("x", encoding="utf-8")
    dockerfile = _dockerfile(repo, tmp_path / "Dockerfile")
    added = {line.split()[1] for line in dockerfile.splitlines() if line.startswith("ADD ")}
    assert {"app", "workers", "state", "pyproject.toml", "README.md"} <= added, added
    leaked = added & {".env", ".venv", ".data", ".git", ".langgraph_api", ".pytest_cache"}
    assert not leaked, leaked


def test_deploy_docs_show_the_langgraph_json_that_is_served() -> None:
    # Trial 12, finding 4: docs/deploy.md showed "./app/server/studio.py:graph" and no "auth";
    # a user who copied it served a graph that took any context key and checked no user.
    docs = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", docs, re.S)
              if '"graphs"' in block]
    assert blocks, "docs/deploy.md shows no langgraph.json"
    served = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
    assert all(block == served for block in blocks)
