"""The ``plan`` step: turn a topic into 3 to 5 sub-questions.

With a real LLM the planner asks for structured output (:class:`Plan`); offline it uses
:func:`offline_plan`, a deterministic decomposition, so the same topic always yields the same
sub-questions, hence the same envelope ids, in every process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

__all__ = [
    "MAX_SUB_QUESTIONS",
    "MIN_SUB_QUESTIONS",
    "PLANNER_PROMPT",
    "TEMPLATE_WORDS",
    "Plan",
    "PlanResult",
    "llm_plan",
    "offline_plan",
]

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
        'What is meant by checkpointer pending writes?'
        >>> offline_plan("Send and reducers")[1:3]
        ['What is meant by reducers?', 'How do Send and reducers relate?']
    """
    subject = " ".join(topic.split()).rstrip("?.! ")
    parts = [p for p in _SPLIT.split(subject) if p and len(p) > 1]
    # Templates that read right whether the subject is singular or plural ("reducers").
    if len(parts) >= 2:
        parts = parts[:3]
        questions = [f"What is meant by {p}?" for p in parts]
        questions.append(f"How do {', '.join(parts[:-1])} and {parts[-1]} relate?")
        questions.append(f"What are the limitations and caveats of {subject}?")
    else:
        questions = [
            f"What is meant by {subject}?",
            f"What is the mechanism behind {subject}?",
            f"Which settings and usage patterns apply to {subject}?",
            f"What are the limitations, caveats and deprecations of {subject}?",
        ]
    return questions[:MAX_SUB_QUESTIONS]


def _template_words() -> frozenset[str]:
    from workers.sources.query import query_terms

    subjects = ("qqqsubj", "qqqsubj and zzzsubj")
    words = {w for s in subjects for q in offline_plan(s) for w in query_terms(q)}
    return frozenset(words - {"qqqsubj", "zzzsubj"})


TEMPLATE_WORDS: frozenset[str] = _template_words()
"""The searchable words :func:`offline_plan` adds around the subject ("meant", "mechanism",
"behind", "settings", "usage", "patterns", "apply", "limitations", "caveats", "deprecations",
"relate"): derived from the templates, so they never drift. They say nothing about the topic,
so they must not count as evidence that a passage is on topic (see
:mod:`app.research.relevance`)."""


PLANNER_PROMPT = (
    "You plan research over a corpus of technical documentation. Break the user's topic into "
    "three to five self-contained sub-questions that a keyword search over that documentation "
    "can answer: what it is, how it works, how it is configured and used, and its limitations "
    "or caveats. Each sub-question must make sense on its own (name the subject in it)."
)


@dataclass
class PlanResult:
    """What :func:`llm_plan` returns.

    Attributes:
        questions: 3 to 5 cleaned sub-questions.
        tokens: the tokens the planner call cost (usage reported by the provider; 0 when not
            reported).
        notes: run notes, e.g. that the model's plan was unusable and the offline one was used.
    """

    questions: list[str]
    tokens: int = 0
    notes: list[str] = field(default_factory=list)


def llm_plan(topic: str, model: BaseChatModel) -> PlanResult:
    """Ask ``model`` for a :class:`Plan` (structured output, by function calling: see
    :func:`app.llm.models.structured_output`) and clean it up.

    Blank and repeated questions are dropped and the list is cut to 5; with fewer than 3 left the
    offline decomposition fills in, so the fan-out never collapses. An answer that does not fit
    the schema (bad JSON, wrong fields) is not fatal: the offline decomposition is used and a note
    says so.

    A rate limit (HTTP 429) is waited out within the call, up to the model's rate-limit
    patience (:func:`workers.pacing.patiently`), before the node's attempts see an error.

    Raises:
        Exception: whatever the model client raises (the node's retry policy sees it; a 401 or
            404 stops the run); ``RateLimitPatienceSpent`` once the patience is spent.
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    from app.llm.models import parse_structured, structured_output
    from workers.pacing import patiently
    from workers.usage import count_tokens

    runnable = structured_output(model, Plan)
    messages = [SystemMessage(PLANNER_PROMPT), HumanMessage(f"Topic: {topic}")]
    with count_tokens() as served:
        out = patiently(model, lambda: runnable.invoke(messages), "the planner")
    tokens = served.tokens
    plan, reason = parse_structured(out, Plan, "the planner")
    if plan is None:
        note = f"the planner's answer was unusable ({reason}): used the offline plan"
        return PlanResult(offline_plan(topic), tokens, [note])
    questions: list[str] = []
    seen: set[str] = set()
    for q in plan.sub_questions:
        q = " ".join(str(q).split())
        if q and q.lower() not in seen:
            seen.add(q.lower())
            questions.append(q)
    for q in offline_plan(topic):
        if len(questions) >= MIN_SUB_QUESTIONS:
            break
        if q.lower() not in seen:
            seen.add(q.lower())
            questions.append(q)
    return PlanResult(questions[:MAX_SUB_QUESTIONS], tokens)
