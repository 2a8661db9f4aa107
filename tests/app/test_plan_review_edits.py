"""A state edit that leaves the plan unrunnable while a review waits is refused in one line,
never a thread ended without a word (hostile trial H, F1).

Found through the CLI: ``update_state(config, {"sub_questions": "one question"}, as_node="plan")``
at the plan review (a Studio user typing one question into the list field), then
``review THREAD_ID --approve``: the review showed 32 one-letter questions, and the approval
printed a summary ``envelopes: 0 (expected 96)``, ``report: (none)``, exit 1, with no line saying
why; the thread was over (``review`` then said it awaits nothing). ``as_of: "2026-02-30"`` gave
``run failed: ValueError`` (exit 1) where every other unrunnable plan is ``BadPlan`` (exit 2), and
the same string edit while the *results* review waited ended the thread at once, its results
never persisted. The edge after ``review_plan`` judged the plan by its pending tasks (none, or a
``ValueError`` from ``make_envelope_id``) and ended the run; now it hands the plan to
``dispatch``, which checks it (``app.research.plan_check.check_plan``).
"""

from __future__ import annotations

import pytest
from langgraph.types import Command

import tests.app.test_review_graph as review_graph
from app.research.plan_check import BadPlan
from app.research.review import awaited, resume_command
from tests.durability._helpers import AS_OF, TOPIC
from tests.results_db import db_rows

studio = review_graph.studio  # the served graph's shape, given an in-memory checkpointer
CONTEXT = {"review": True}

UNRUNNABLE = [
    ({"sub_questions": "What is a checkpointer?"},
     "sub_questions must be a list of strings, got str"),
    ({"sub_questions": [7, 8]}, "sub-question 1 is not text (int)"),
    ({"as_of": "2026-02-30"}, "there is no such date (February 2026 has 28 days)"),
]


def _config(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}


@pytest.mark.parametrize(("edit", "line"), UNRUNNABLE)
def test_approving_a_plan_an_edit_made_unrunnable_is_refused_in_one_line(studio, edit, line):
    graph, data = studio
    config = _config("plan-edit")
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=CONTEXT)
    graph.update_state(config, edit, as_node="plan")
    snap = graph.get_state(config)
    assert snap.next == ("review_plan",)
    with pytest.raises(BadPlan) as refused:
        graph.invoke(resume_command(snap, {"approve": True}), config, context=CONTEXT)
    assert line in str(refused.value)
    after = graph.get_state(config)
    assert after.next, "the approval ended the thread instead of refusing its plan"
    assert after.values.get("outcome") is None and db_rows(data, "plan-edit") == []


def test_an_unrunnable_plan_edit_while_the_results_review_waits_ends_nothing(studio):
    graph, data = studio
    config = _config("results-edit")
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=CONTEXT)
    graph.invoke(Command(resume={"approve": True}), config, context=CONTEXT)
    assert graph.get_state(config).next == ("review_results",)
    graph.update_state(config, {"sub_questions": "What is a checkpointer?"},
                       as_node="review_plan")
    snap = graph.get_state(config)
    assert snap.next, "the edit ended the thread: its results were never persisted"
    with pytest.raises(BadPlan) as refused:
        graph.invoke(None, config, context=CONTEXT)
    assert "sub_questions must be a list of strings, got str" in str(refused.value)
    assert db_rows(data, "results-edit") == []


def test_approving_the_planners_plan_still_runs_it(studio):
    graph, data = studio
    config = _config("plan-ok")
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=CONTEXT)
    out = graph.invoke(Command(resume={"approve": True}), config, context=CONTEXT)
    assert [i.value["stage"] for i in out["__interrupt__"]] == ["results"]
    (review,) = awaited(graph.get_state(config))
    assert review.payload["envelopes"]
