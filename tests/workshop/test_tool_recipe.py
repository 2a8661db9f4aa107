"""docs/extending.md's "Add a tool" recipe works as written, on a scratch copy of the repo.

The page's ```diff blocks are applied with ``git apply`` to a copy of the repository: exactly
the files the page names change. In the copy, the tool and offline-model tests pass, plus two
written into the copy: the tool finds the page *about* a thing (by title) in a real corpus, and
a research's analyst calls it once per task (one tool call more than the critic's).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.workshop.scratch_clone import apply_recipe, run_pytest

USES_THE_TOOL = '''
"""Written into the scratch copy by tests/workshop/test_tool_recipe.py."""
import json

from tests.conftest import AS_OF, run_cli
from tests.results_db import db_rows
from workers.sources import Corpus
from workers.tools import make_title_tool


def _corpus(folder):
    folder.mkdir()
    (folder / "zorblax.md").write_text("# Zorblax relay\\n\\nThe zorblax relay forwards frames "
                                       "between stations.\\n", encoding="utf-8")
    (folder / "stations.md").write_text("# Station notes\\n\\nStations talk through a zorblax "
                                        "relay now and then.\\n", encoding="utf-8")
    return folder


def test_the_tool_finds_the_page_about_a_thing(tmp_path):
    corpus = Corpus.open(tmp_path / "data", folder=_corpus(tmp_path / "docs"))
    try:
        out = json.loads(make_title_tool(corpus).invoke({"query": "zorblax"}))
    finally:
        corpus.close()
    titles = {r["title"].lower() for r in out["results"]}
    assert titles and all("zorblax" in t for t in titles), out  # not the station notes


def test_the_analyst_calls_it_once_per_task(tmp_path):
    proc = run_cli("research", "zorblax relay", "--as-of", AS_OF, "--model", "offline",
                   "--corpus", _corpus(tmp_path / "docs"), "--data-dir", tmp_path / "data")
    assert proc.returncode == 0, proc.stderr[-2000:]
    calls = {}
    for row in db_rows(tmp_path / "data"):
        if row["worker"] in ("analyst", "critic"):
            calls.setdefault(row["worker"], set()).add(json.loads(row["structured"])["tool_calls"])
    assert {c + 1 for c in calls["critic"]} == calls["analyst"], calls
'''


def test_the_tool_recipe_applies_touches_only_its_files_and_the_tests_pass(tmp_path: Path):
    clone = apply_recipe("Add a tool", tmp_path / "repo", regenerates_readme=False)

    (clone / "tests" / "workers" / "test_recipe_uses_the_tool.py").write_text(USES_THE_TOOL,
                                                                            "utf-8")
    proc = run_pytest(clone, "tests/workers/test_recipe_uses_the_tool.py",
                      "tests/workers/test_tools.py", "tests/app/offline/test_model.py")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", proc.stdout) and " failed" not in proc.stdout
