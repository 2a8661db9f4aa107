"""The worker node wrapper (``workers.base.make_worker_node``) in a real ``Send`` fan-out: what a
worker returns reaches state, or becomes that task's error envelope saying why.

* an item of an unknown kind makes the envelope an error naming the kind (never a silent drop in
  the report), and the tokens the work spent are still counted;
* ``WorkerResult.state`` writes reach their keys (folded by the key's reducer); a key the schema
  does not declare (LangGraph would drop it without a word) or one the wrapper owns makes the
  envelope an error naming it.
"""

from __future__ import annotations

from typing import Annotated, Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

import state.schema
from state import ResearchState, Task, keep_max
from workers.base import RunScope, WorkerDeps, WorkerResult, WorkerSpec, make_worker_node

AS_OF = "2026-11-30"


def _no_deps(_runtime: Any) -> tuple[WorkerDeps, RunScope]:
    """The worker node's resolver: no corpus or model (these workers use neither)."""
    return WorkerDeps(corpus=None), RunScope()
QUESTIONS = ("first question", "second question")


def run_worker(result_for, schema: type = ResearchState) -> dict[str, Any]:
    """Fan ``QUESTIONS`` out to a worker whose ``run(task)`` returns ``result_for(task)``."""
    spec = WorkerSpec(name="probe", kind="function", description="test",
                      build=lambda _deps: result_for)
    builder = StateGraph(schema)
    builder.add_node("probe", make_worker_node(spec, _no_deps))
    builder.add_conditional_edges(START, lambda _s: [
        Send("probe", Task(worker="probe", sub_question=q, topic="t", as_of=AS_OF, round=1))
        for q in QUESTIONS
    ], ["probe"])
    builder.add_edge("probe", END)
    return builder.compile().invoke({"topic": "t"})


def passage(text: str, kind: str = "passage", **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "text": text, "ref": "doc.md#0", "title": "doc.md",
            "source": "docs/doc.md", **extra}


def test_an_unknown_item_kind_is_an_error_envelope_naming_it():
    def run(task: Task) -> WorkerResult:
        kind = "summary" if task["sub_question"] == QUESTIONS[0] else "passage"
        return WorkerResult(items=[passage("x", kind=kind)], tokens=7)

    out = run_worker(run)
    by_question = {e["task_key"]: e for e in out["envelopes"]}
    bad, good = by_question[QUESTIONS[0]], by_question[QUESTIONS[1]]
    assert bad["status"] == "error" and bad["structured"] is None
    assert bad["error"] == ("ValueError: item 0 has the unknown kind 'summary'; the kinds are "
                            "finding, caveat, passage")
    assert good["status"] == "ok" and good["structured"]["items"][0]["kind"] == "passage"
    assert out["tokens"] == 14  # the malformed result's tokens were spent all the same


class ScoredState(ResearchState, total=False):
    top_score: Annotated[float | None, keep_max]


def test_state_writes_reach_a_declared_key_through_its_reducer(monkeypatch):
    # the wrapper checks writes against ResearchState: declare the key there, as the recipe does
    monkeypatch.setattr("workers.base._STATE_KEYS",
                        ScoredState.__required_keys__ | ScoredState.__optional_keys__)

    def run(task: Task) -> WorkerResult:
        score = {QUESTIONS[0]: -2.0, QUESTIONS[1]: -7.5}[task["sub_question"]]
        return WorkerResult(items=[passage("x", score=score)], state={"top_score": score})

    out = run_worker(run, ScoredState)
    assert out["top_score"] == -2.0
    assert all(e["status"] == "ok" for e in out["envelopes"])


def test_an_undeclared_or_owned_state_key_is_an_error_envelope_naming_it():
    assert "undeclared_key" not in state.schema.ResearchState.__optional_keys__

    def run(task: Task) -> WorkerResult:
        key = "undeclared_key" if task["sub_question"] == QUESTIONS[0] else "envelopes"
        return WorkerResult(items=[], state={key: 1.0})

    errors = {e["task_key"]: e["error"] for e in run_worker(run)["envelopes"]}
    assert errors == {
        QUESTIONS[0]: "ValueError: WorkerResult.state writes undeclared_key, which ResearchState "
                      "(state/schema.py) does not declare",
        QUESTIONS[1]: "ValueError: WorkerResult.state writes envelopes: the node wrapper writes "
                      "those; return items and tokens instead",
    }
