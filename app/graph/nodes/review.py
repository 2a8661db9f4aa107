"""``review_plan`` and ``review_results``: the human review pauses (``app.research.review``).

Nothing before the ``interrupt()`` but reading state: a node that pauses runs again from its
start on resume."""

from __future__ import annotations

from typing import Any

from app.graph.resources import Resources
from app.research.review import ask_plan, ask_results
from app.research.rounds import current_envelopes
from state import ResearchState

__all__ = ["review_plan", "review_results"]


def review_plan(state: ResearchState, *, res: Resources) -> dict[str, Any]:
    """Pause for the plan review; write the replaced sub-questions, if any (``report`` notes the
    replacement). A served run's review refuses a plan over the operator's
    ``sub_questions_limit`` and pauses again saying so, as ``dispatch`` would refuse it after
    the pause was gone.

    Once the run's tasks have run, the plan is past reviewing: a ``Command(goto="review_plan")``
    sent while the results review waits (Studio's "go to node") must not make a second pending
    interrupt, which no bare resume could answer. It notes that and pauses nothing; its edge
    then ends that branch (:func:`app.graph.edges.after_review_plan`)."""
    if current_envelopes(state):
        return {"notes": ["plan review skipped: this run's tasks have already run"]}
    bound = res.settings.sub_questions_limit if res.served else None
    questions = ask_plan(state["sub_questions"], bound)
    if questions == list(state["sub_questions"]):
        return {}
    return {"sub_questions": questions}  # report notes it (app.research.review.replaced_plan_note)


def review_results(state: ResearchState) -> dict[str, Any]:
    """Pause for the results review before anything is persisted; write what was dropped, and
    the tasks to redo with their round (the edge then dispatches them, and the review pauses
    again after that map step)."""
    return ask_results(state, current_envelopes(state))
