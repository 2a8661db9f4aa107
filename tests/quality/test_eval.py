"""The research eval (``scripts/eval_research.py``): its scoring, its set, and the quality it
measures.

* the scorer counts what a reader sees (the report's Sources list, the run's warnings), and an
  off-topic question is never counted as passed without the warning;
* the labeled set is what ``scripts/make_eval_set.py`` generates from this corpus (not edited
  by hand);
* a fresh eval run meets the quality thresholds below (a quality check: nothing is timed) and,
  on the corpus the committed results were measured on, gives exactly those results, so the
  README's quality table (rewritten from them) is current.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

THRESHOLDS = {"recall": 0.95, "top3": 0.9, "on_target": 0.6}
"""What the offline agent must keep reaching on the whole set (answerable questions): issue 13's
targets. Measured before the focused search: recall 0.98, top 3 0.83, on target 0.10."""


def _script(name: str):
    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ev = _script("eval_research")
gen = _script("make_eval_set")

REPORT = """\
# Research report: x

## 1. What is meant by x?

- a claim [1]

## Sources

1. `langgraph.types.RetryPolicy#0`: langgraph 1.2.24 docstring: langgraph.types.RetryPolicy
2. `langgraph.types.RetryPolicy.__init__#1`: langgraph 1.2.24 docstring: ...
3. `langgraph.types#0`: langgraph 1.2.24 docstring: langgraph.types
4. `pydoc:for#2`: Python 3.11.7 pydoc topic: for
"""


def test_scorer_reads_the_sources_list_in_order_and_scores_the_gold_family():
    refs = ev.cited_refs(REPORT)
    assert refs == ["langgraph.types.RetryPolicy#0", "langgraph.types.RetryPolicy.__init__#1",
                    "langgraph.types#0", "pydoc:for#2"]
    q = {"id": "q", "area": "langgraph", "topic": "t", "gold": "langgraph.types.RetryPolicy"}
    row = ev.score(q, refs, None)
    assert (row["rank"], row["recall"], row["top3"], row["on_target"]) == (1, True, True, 2)
    method = {**q, "gold": "langgraph.types.RetryPolicy.__init__"}
    assert ev.score(method, refs, None)["on_target"] == 2  # itself and its class, not the module
    late = ev.score({**q, "gold": "pydoc:for"}, refs, None)
    assert (late["rank"], late["recall"], late["top3"], late["on_target"]) == (4, True, False, 1)
    missing = ev.score({**q, "gold": "pydoc:while"}, refs, None)
    assert (missing["rank"], missing["recall"], missing["on_target"]) == (None, False, 0)


def test_off_topic_counts_only_when_warned_and_is_unmeasured_without_warnings():
    q = {"id": "none-01", "area": "none", "topic": "zebra marmalade", "gold": None}
    warning = [{"code": "no_relevant_sources", "message": "the sources say nothing about it"}]
    assert ev.score(q, ["a#0"], warning)["warned"] is True
    assert ev.score(q, ["a#0"], [])["warned"] is False
    assert ev.score(q, ["a#0"], None)["warned"] is None
    answerable = ev.score({**q, "gold": "a"}, ["a#0"], warning)
    assert ev.totals([answerable])["all"]["false_alarms"] == 1
    off = ev.totals([ev.score(q, [], None)])["off_topic"]
    assert off == {"questions": 1, "warned": None, "measured": False}
    off = ev.totals([ev.score(q, [], [])])["off_topic"]
    assert off == {"questions": 1, "warned": 0, "measured": True}


def test_readme_quality_table_is_rendered_from_the_committed_results():
    results = json.loads(ev.RESULTS_PATH.read_text(encoding="utf-8"))
    text = ev.README.read_text(encoding="utf-8")
    assert ev.render_readme(text, results) == text, (
        "README.md's quality table is stale: run uv run python scripts/eval_research.py --write")


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def eval_run(tmp_path_factory):
    """The whole set, run once on one data dir: ``(rows, totals, corpus description, dir)``."""
    from workers.sources import Corpus

    data_dir = tmp_path_factory.mktemp("eval")
    rows = ev.evaluate(ev.load_set()["questions"], data_dir)
    with Corpus.open(data_dir) as corpus:
        description = corpus.description
    return rows, ev.totals(rows), description, data_dir


def test_labeled_set_is_what_the_generator_builds(eval_run):
    from workers.sources import Corpus

    labeled = ev.load_set()
    assert len(labeled["questions"]) >= 40
    areas = {q["area"] for q in labeled["questions"]}
    assert {"langgraph", "langchain", "pydantic", "python", "none"} <= areas
    *_, description, data_dir = eval_run
    if description != labeled["corpus"]:
        pytest.skip(f"the set was generated on another corpus ({labeled['corpus']})")
    with Corpus.open(data_dir) as corpus:
        assert gen.dumps(gen.build_set(corpus)) == gen.SET_PATH.read_text(encoding="utf-8")


def test_eval_meets_the_quality_thresholds(eval_run):
    rows, totals, *_ = eval_run
    overall = totals["all"]
    misses = [r["id"] for r in rows if r["gold"] and not r["recall"]]
    for metric, floor in THRESHOLDS.items():
        assert overall[metric] >= floor, (metric, overall, misses)
    assert overall["false_alarms"] == 0, [r["id"] for r in rows if r["gold"] and r["warned"]]
    off = totals["off_topic"]
    if off["measured"]:
        assert off["warned"] == off["questions"], [r for r in rows if r["warned"] is False]


def test_committed_results_are_what_the_eval_measures_now(eval_run):
    rows, totals, description, _ = eval_run
    committed = json.loads(ev.RESULTS_PATH.read_text(encoding="utf-8"))
    if description != committed["corpus"]:
        pytest.skip(f"the results were measured on another corpus ({committed['corpus']})")
    assert totals == committed["totals"], (
        "the eval's numbers changed: run uv run python scripts/eval_research.py --write")
    assert rows == committed["questions"]
