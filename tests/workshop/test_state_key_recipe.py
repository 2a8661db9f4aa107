"""docs/extending.md's "Add a state key" recipe works as written, on a scratch copy of the repo.

The page's ```diff blocks are applied with ``git apply`` to a copy of the repository: they must
apply (the page and the code have not drifted), change exactly the files the page says the recipe
touches, and leave a copy whose state, worker and graph tests pass, plus one more test, written
into the copy, that runs a research and finds the new key in the final state: the best score of
the passages ``docs_search`` persisted.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.workshop.scratch_clone import (
    apply_diffs,
    changed_files,
    diff_files,
    recipe_diffs,
    recipe_section,
    run_pytest,
    scratch_clone,
)

READS_THE_KEY = '''
"""Written into the scratch copy by tests/workshop/test_state_key_recipe.py."""
import os

import state
from app.storage.sqlite import SqliteResults
from tests.app.test_graph import config, memory_graph  # noqa: F401 (a fixture)
from tests.conftest import AS_OF, SEVERAL_TOPIC


def test_this_is_the_copy():
    assert os.path.dirname(os.path.dirname(state.__file__)) == os.environ["PYTHONPATH"]


def test_top_score_is_the_best_score_docs_search_found(memory_graph):
    graph, data_dir = memory_graph
    final = graph.invoke({"topic": SEVERAL_TOPIC, "as_of": AS_OF}, config("recipe"))
    with SqliteResults.in_dir(data_dir) as store:
        rows = [r for r in store.rows(thread_id="recipe") if r["worker"] == "docs_search"]
    scores = [i["score"] for r in rows for i in r["structured"]["items"]]
    assert len(rows) > 1 and scores  # several parallel writers, something found
    assert final["top_score"] == max(scores)
    assert graph.get_state(config("recipe")).values["top_score"] == max(scores)
'''


def test_the_page_says_when_a_key_needs_a_reducer():
    section = " ".join(recipe_section("Add a state key").split())
    assert "One writer per superstep" in section and "Parallel writers" in section
    assert "InvalidUpdateError: At key 'top_score': Can receive only one value per step." in section
    for reducer in ("envelope_reducer", "operator.add", "concat_lists", "dedupe_extend",
                    "merge_dicts", "add_counts", "capped_list", "keep_latest", "keep_max",
                    "keep_min"):
        assert f"`{reducer}" in section, f"the reducer table lacks {reducer}"


def test_the_recipe_applies_touches_only_its_files_and_the_tests_pass(tmp_path: Path):
    diffs, promised = recipe_diffs(recipe_section("Add a state key"))
    assert len(diffs) == 2, "the recipe should be two ```diff blocks"
    assert promised == set().union(*map(diff_files, diffs))

    clone = scratch_clone(tmp_path / "repo")
    apply_diffs(clone, diffs)
    assert changed_files(clone) == promised

    (clone / "tests" / "app" / "test_recipe_reads_the_key.py").write_text(READS_THE_KEY, "utf-8")
    proc = run_pytest(
        clone,
        "tests/app/test_recipe_reads_the_key.py",
        "tests/state/test_state_keys.py",
        "tests/state/test_reducer_in_graph.py",
        "tests/workers/test_worker_node.py",
        "tests/app/test_graph.py",
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", proc.stdout) and " failed" not in proc.stdout
