"""A served run's plan stays within the operator's ``RESEARCH_SUB_QUESTIONS_LIMIT`` where it is
made, not only at ``dispatch`` (trial 25, finding 16 and its sibling).

* A plan review answered with more sub-questions than the bound pauses again with the reason,
  and the thread stays paused: it was taken, then refused at dispatch with "was the state
  edited?", the pause gone and every way on (approve, a plain resume) refused the same.
* A planner's plan over the bound is cut to it, with a note: it too ended the run at dispatch.

The graph runs in process, as the server runs it (served ``Resources``, a checkpointer, the
choices as the run's context).
"""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from app.graph.resources import Resources
from app.runs.threads import research_graph
from app.settings.config import Settings
from tests.durability._helpers import AS_OF, TOPIC, write_corpus
from tests.results_db import db_rows

QUESTIONS = [f"What does the reducer do in case {n}?" for n in range(1, 6)]


@pytest.fixture
def served(tmp_path):
    def make(bound: int):
        corpus = write_corpus(tmp_path / "corpus")
        settings = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus),
                            model="offline", retry_interval=0.01, sub_questions_limit=bound)
        res = Resources(settings, served=True)
        made.append(res)
        return research_graph(InMemorySaver(), web=False, resources=res)

    made: list[Resources] = []
    yield make
    for res in made:
        res.close()


def test_a_review_over_the_bound_pauses_again_saying_why(served, tmp_path):
    graph = served(3)
    config, context = {"configurable": {"thread_id": "bound"}}, {"review": True, "rounds": 1}
    out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    planned = out["sub_questions"]
    assert out["__interrupt__"][0].value["stage"] == "plan"

    out = graph.invoke(Command(resume={"sub_questions": QUESTIONS}), config, context=context)
    (pause,) = out["__interrupt__"]
    assert pause.value["stage"] == "plan"
    assert pause.value["error"] == ("sub_questions holds 5 questions, past this server's bound "
                                    "of 3 (RESEARCH_SUB_QUESTIONS_LIMIT)")
    state = graph.get_state(config)
    assert state.next == ("review_plan",) and len(state.interrupts) == 1
    assert state.values["sub_questions"] == planned  # nothing taken

    out = graph.invoke(Command(resume={"sub_questions": QUESTIONS[:3]}), config,
                       context=context)
    assert out["__interrupt__"][0].value["stage"] == "results"
    out = graph.invoke(Command(resume={"approve": True}), config, context=context)
    assert out["outcome"] == "ok" and out["sub_questions"] == QUESTIONS[:3]
    assert {r["task_key"] for r in db_rows(tmp_path / "data", "bound")} == set(QUESTIONS[:3])


def test_a_planners_plan_over_the_bound_is_cut_with_a_note(served):
    graph = served(1)
    out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, {"configurable": {"thread_id": "cut"}},
                       context={"rounds": 1})
    assert out["outcome"] == "ok" and len(out["sub_questions"]) == 1
    assert ("plan cut to 1 of its 3 sub-questions: this server's bound "
            "(RESEARCH_SUB_QUESTIONS_LIMIT)") in out["notes"]


def test_approving_a_plan_an_edit_put_over_the_bound_is_refused_at_the_review():
    from app.research.review import ReviewError, plan_resume

    with pytest.raises(ReviewError, match=r"^the plan holds 5 sub-questions, past this server's "
                       r"bound of 3 \(RESEARCH_SUB_QUESTIONS_LIMIT\): replace it with "
                       r"sub_questions, at most 3$"):
        plan_resume({"approve": True}, QUESTIONS, bound=3)
    assert plan_resume({"approve": True}, QUESTIONS) == QUESTIONS  # the CLI's: no bound
