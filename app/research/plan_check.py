"""Whether a thread's plan can run: one check for every way a plan reaches the map step.

``plan`` writes the sub-questions, the plan review replaces them (its resume value is checked by
:func:`app.research.review.plan_resume`), and a state edit can write anything
(``update_state(config, {"sub_questions": [...]}, as_node="plan")``, Studio's "edit state", which
docs/walkthrough.md teaches). A plan that reached ``dispatch`` or ``persist`` unchecked broke
promises (found by a new-user trial): ``[]`` ran nothing and ``persist`` then removed every row
of the thread; a repeated question made fewer envelopes than tasks ("3 (expected 6)"); an empty
question was researched. The nodes ask :func:`plan_problem` before doing anything.

Pure (no I/O), so a node that raises on it may run again and decide the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.errors import DomainError
from app.research.text import clip
from app.research.topics import question_problem

__all__ = ["BadPlan", "check_plan", "plan_problem", "topic_edit_problem"]


class BadPlan(DomainError, ValueError):
    """The thread's plan (its ``sub_questions``, or its ``topic``) cannot run as it stands: one
    line, exit 2 in the CLI; also a ``ValueError``, so LangGraph Server shows a client the
    message (as :class:`app.errors.BadTopic`).

    Attributes:
        problem: what is wrong with the plan itself (:func:`plan_problem`), without the ways
            on; None for a topic edited after ``plan`` (:func:`topic_edit_problem`).
    """

    problem: str | None = None


def plan_problem(questions: Any) -> str | None:
    """What makes ``questions`` no plan to dispatch, in one line, or None: not a list of
    strings, no question, an empty (blank) question, one that is no topic to research
    (:func:`app.research.topics.topic_problem`: a zero-width space, only "what the"; found by
    trial 9), or a question twice (the same task twice: one envelope id for two tasks).

    Checks what every plan must satisfy, a planner's too; the plan review asks more of a
    person's questions (:func:`app.research.review.plan_resume`).

    Example:
        >>> plan_problem(["What is Send?", "What is Send?"])
        "sub-question 2 repeats sub-question 1 ('What is Send?')"
        >>> plan_problem(["What is Send?"]) is None
        True
        >>> plan_problem(["what the"])[:54]
        "sub-question 1 ('what the') is no question to research"
    """
    if isinstance(questions, str) or not isinstance(questions, list | tuple):
        return f"sub_questions must be a list of strings, got {type(questions).__name__}"
    if not questions:
        return "sub_questions holds no question"
    seen: dict[str, int] = {}
    for n, question in enumerate(questions, 1):
        if not isinstance(question, str):
            return f"sub-question {n} is not text ({type(question).__name__})"
        if not question.strip():
            return f"sub-question {n} is empty"
        if why := question_problem(question):
            return f"sub-question {n} ({clip(question, 80)!r}) is no question to research: {why}"
        if question in seen:
            return (f"sub-question {n} repeats sub-question {seen[question]} "
                    f"({clip(question, 80)!r})")
        seen[question] = n
    return None


def check_plan(state: Mapping[str, Any]) -> None:
    """Raise :class:`BadPlan` when the state's plan cannot run (:func:`plan_problem`, and the
    topic a task carries must be text) or was made for another topic
    (:func:`topic_edit_problem`); before a node dispatches, persists or reports anything.

    Raises:
        BadPlan: one line naming the problem and the way on.
    """
    topic = state.get("topic")
    why = (None if isinstance(topic, str) and topic.strip()
           else f"the topic must be non-empty text, got {clip(repr(topic), 80)}")
    why = why or plan_problem(state.get("sub_questions"))
    if why:
        bad = BadPlan(f"the thread's plan cannot run: {why} (was the state edited? edit it "
                      "again with update_state, or start a new thread with research --fresh)")
        bad.problem = why
        raise bad
    if why := topic_edit_problem(state):
        raise BadPlan(why)


def topic_edit_problem(state: Mapping[str, Any]) -> str | None:
    """One line when the state's ``topic`` is not the one its plan was made for
    (``planned_topic``), else None (a thread planned before ``planned_topic`` was recorded
    passes).

    Only an edit after ``plan`` gets here (Studio's "edit state" at a review pause,
    ``update_state`` on a finished thread or a fork after ``plan``): a run's input topic is
    planned by ``plan`` itself. Carried on, the old plan's results would be persisted and
    reported under the new topic (found by a new-user trial: a report titled with the new topic
    answered the old one's questions), so the nodes refuse it and name the ways on.

    Example:
        >>> topic_edit_problem({"topic": "B", "planned_topic": "B"}) is None
        True
        >>> topic_edit_problem({"topic": "B", "planned_topic": "A"})[:40]
        "the thread's plan was made for topic 'A'"
    """
    planned = state.get("planned_topic")
    topic = state.get("topic")
    if not isinstance(planned, str) or planned == topic:
        return None
    return (f"the thread's plan was made for topic {clip(planned, 80)!r}, not "
            f"{clip(topic, 80)!r} (was the "
            "topic edited after plan?): to research the new topic, fork the thread from a "
            "checkpoint before plan and edit the topic there, or run the thread with it as "
            "input, which plans anew; to finish this plan, set the topic back")
