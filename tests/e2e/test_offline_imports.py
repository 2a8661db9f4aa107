"""An offline run on SQLite imports nothing it does not use (issue 21, item 12).

84 % of a warm run's time is imports, so what a run does not use is imported only when it is
used: the OpenAI integration (``langchain_openai``, ``openai``) for a real model, ``psycopg``
for a database URL, ``pypdf`` and ``python-docx`` for such files, ``tavily`` for ``--web``, the
MCP client for MCP tools. The run is the real CLI in a subprocess (``python -m app`` through
``runpy``); the modules are read from ``sys.modules`` as the process exits (``atexit``), so a
late import inside the run counts too. ``scripts/bench_research.py`` prints the time it costs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import AS_OF, ROOT, SMALL_TOPIC, clean_env

UNUSED_OFFLINE = ("langchain_openai", "openai", "psycopg", "psycopg_pool", "pypdf", "docx",
                  "tavily", "mcp", "langchain_mcp_adapters", "langgraph.checkpoint.postgres",
                  "lxml", "dotenv")
"""Top-level packages (or modules) an offline run on SQLite over a folder of Markdown files,
without a ``.env`` file, has no use for (lxml reads HTML files, python-dotenv a ``.env``)."""

_MODULES_AT_EXIT = """\
import atexit, json, runpy, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["python -m app", *sys.argv[2:]]
runpy.run_module("app", run_name="__main__", alter_sys=True)
"""


def modules_of_a_run(tmp_path: Path, *args: str | Path) -> set[str]:
    """The modules loaded by the end of ``python -m app ARGS`` (which must exit 0), run in
    ``tmp_path`` (so no ``.env`` file is there)."""
    listing = tmp_path / "modules.json"
    env = {**clean_env(), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _MODULES_AT_EXIT, str(listing),
                           *map(str, args)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return set(json.loads(listing.read_text(encoding="utf-8")))


def loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


def test_an_offline_run_on_sqlite_imports_no_integration_it_does_not_use(
        tmp_path: Path, small_corpus: Path) -> None:
    modules = modules_of_a_run(tmp_path, "research", SMALL_TOPIC, "--as-of", AS_OF,
                               "--data-dir", tmp_path / "data", "--corpus", small_corpus,
                               "--model", "offline", "--quiet")
    assert "app.runs.run" in modules and "langgraph.checkpoint.sqlite" in modules  # it ran
    assert (tmp_path / "data").is_dir()
    imported = [name for name in UNUSED_OFFLINE if loaded(modules, name)]
    assert not imported, f"an offline run on SQLite imported {imported}"


def test_threads_of_a_data_dir_that_does_not_exist_imports_no_langgraph(tmp_path: Path) -> None:
    # trial 15, finding 10: `threads` took 5 s to say there was no data dir (a typo)
    modules = modules_of_a_run(tmp_path, "threads", "--data-dir", tmp_path / "typo")
    assert "app.cli.commands" in modules  # it ran
    assert not loaded(modules, "langgraph") and not loaded(modules, "langchain_core")
