"""docs/extending.md's "Add a node" recipe works as written, on a scratch copy of the repo.

The page's ```diff blocks are applied with ``git apply`` to a copy of the repository and the
README regenerated there as the page says: exactly the files the page names change. In the copy
the README and graph tests pass, plus one written into the copy: a research whose workers all
fail reports the new node's note for every sub-question.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.workshop.scratch_clone import apply_recipe, run_pytest

USES_THE_NODE = '''
"""Written into the scratch copy by tests/workshop/test_node_recipe.py."""
from pathlib import Path

from app.graph import build_graph
from app.research.plan import offline_plan
from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
from workers.registry import registered


def test_the_node_is_between_persist_and_report():
    edges = {(e.source, e.target) for e in build_graph().get_graph().edges}
    assert {("persist", "coverage"), ("coverage", "report")} <= edges
    assert ("persist", "report") not in edges


def test_a_run_whose_workers_all_fail_notes_every_sub_question(tmp_path, small_corpus):
    fail = [a for w in registered() for a in ("--fail-worker", w.name)]
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                   "--data-dir", tmp_path / "data", "--model", "offline", "--rounds", "1",
                   *fail)
    assert proc.returncode == 1, proc.stderr[-2000:]  # every task failed
    path = next(line.split("report written:", 1)[1].strip()
                for line in proc.stdout.splitlines() if "report written:" in line)
    report = Path(path).read_text(encoding="utf-8")
    for question in offline_plan(SMALL_TOPIC):
        assert f"no worker answered {question!r}" in report
'''


def test_the_node_recipe_applies_touches_only_its_files_and_the_tests_pass(tmp_path: Path):
    clone = apply_recipe("Add a node", tmp_path / "repo", regenerates_readme=True)
    assert "coverage" in (clone / "README.md").read_text(encoding="utf-8")

    (clone / "tests" / "app" / "test_recipe_uses_the_node.py").write_text(USES_THE_NODE, "utf-8")
    # test_worker_names: the recipe keeps NODES, the fixed nodes a worker may not be named
    # after, equal to the graph's (trial 38: it left them out of date)
    proc = run_pytest(clone, "tests/app/test_recipe_uses_the_node.py",
                      "tests/app/test_readme.py", "tests/app/test_graph.py",
                      "tests/app/test_worker_names.py")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", proc.stdout) and " failed" not in proc.stdout
