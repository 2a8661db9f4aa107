"""The ``plan`` step: turn a topic into 3 to 5 sub-questions.

With a real LLM the planner asks for structured output (:class:`Plan`); offline it uses
:func:`offline_plan`, a deterministic decomposition, so the same topic always yields the same
sub-questions, hence the same envelope ids, in every process.
"""

from __future__ import annotations

import re

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

__all__ = ["MAX_SUB_QUESTIONS", "MIN_SUB_QUESTIONS", "Plan", "llm_plan", "offline_plan"]

MIN_SUB_QUESTIONS, MAX_SUB_QUESTIONS = 3, 5

_SPLIT = re.compile(r"\s*(?:,|;|\band\b|\bvs\.?|\bversus\b|\bor\b)\s*", re.IGNORECASE)


class Plan(BaseModel):
    """The planner's structured output."""

    sub_questions: list[str] = Field(
        description="Three to five self-contained research questions that together cover the "
        "topic: what it is, how it works, how it is used, and its caveats."
    )


def offline_plan(topic: str) -> list[str]:
    """Deterministically decompose ``topic`` into 3 to 5 sub-questions.

    A topic naming several things ("X and Y", "X vs Y", "X, Y") gets a question per thing (up to
    three) plus how they relate and their caveats; a single subject gets what / how / usage /
    caveats.

    Example:
        >>> offline_plan("checkpointer pending writes")[0]
        'What is checkpointer pending writes?'
        >>> len(offline_plan("Send and reducers"))
        4
    """
    subject = " ".join(topic.split()).rstrip("?.! ")
    parts = [p for p in _SPLIT.split(subject) if p and len(p) > 1]
    if len(parts) >= 2:
        parts = parts[:3]
        questions = [f"What is {p} and how does it work?" for p in parts]
        questions.append(f"How do {', '.join(parts[:-1])} and {parts[-1]} relate?")
        questions.append(f"What are the limitations and caveats of {subject}?")
    else:
        questions = [
            f"What is {subject}?",
            f"How does {subject} work?",
            f"How is {subject} configured and used?",
            f"What are the limitations, caveats and deprecations of {subject}?",
        ]
    return questions[:MAX_SUB_QUESTIONS]


def llm_plan(topic: str, model: BaseChatModel) -> list[str]:
    """Ask ``model`` for a :class:`Plan` (structured output) and clean it up.

    Blank and repeated questions are dropped and the list is cut to 5; with fewer than 3 left the
    offline decomposition fills in, so the fan-out never collapses.

    Raises:
        Exception: whatever the model client raises (the node's retry policy sees it).
    """
    planner = model.with_structured_output(Plan)
    plan = planner.invoke(
        "Break this research topic into three to five sub-questions that a search over "
        f"technical documentation can answer. Topic: {topic}"
    )
    if isinstance(plan, dict):
        plan = Plan.model_validate(plan)
    seen: set[str] = set()
    questions = []
    for q in plan.sub_questions:
        q = " ".join(str(q).split())
        if q and q.lower() not in seen:
            seen.add(q.lower())
            questions.append(q)
    for q in offline_plan(topic):
        if len(questions) >= MIN_SUB_QUESTIONS:
            break
        if q.lower() not in seen:
            questions.append(q)
    return questions[:MAX_SUB_QUESTIONS]
