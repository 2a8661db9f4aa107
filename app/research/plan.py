"""The ``plan`` step: turn a topic into sub-questions, distinct facets of it (issue 19): 3 to 5
with an LLM, 1 to 3 offline (as many as the topic and the corpus offer; 4 for a comparison of
three things).

With a real LLM the planner asks for structured output (:class:`Plan`); offline it uses
:func:`offline_plan`, a deterministic decomposition from the kind of question the topic asks
(:mod:`app.research.topics`) and what a first search of the corpus finds about it
(:mod:`app.research.facets`): the same topic on the same corpus always yields the same
sub-questions, and a thread run again keeps its plan (the ``plan`` node), so its envelope ids
never change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from app.research.facets import (
    document_facets,
    finds_more,
    first_search,
    phrase_facets,
    reached_refs,
    searched,
    with_article,
)
from app.research.text import clip
from app.research.topics import comparison, main_question, question_problem, subject, topic_kind

__all__ = [
    "MAX_SUB_QUESTIONS",
    "asked_whole",
    "clean_plan",
    "MIN_SUB_QUESTIONS",
    "OFFLINE_SUB_QUESTIONS",
    "PLANNER_PROMPT",
    "corpus_plan",
    "main_question",
    "topic_kind",
    "Plan",
    "PlanResult",
    "llm_plan",
    "offline_plan",
]

MIN_SUB_QUESTIONS, MAX_SUB_QUESTIONS = 3, 5
"""How many sub-questions the LLM planner is asked for (:class:`Plan`)."""
OFFLINE_SUB_QUESTIONS = 3
"""The most sub-questions :func:`offline_plan` asks: the topic itself and up to two facets
(a comparison of three things asks the comparison and each thing: four).
It asks fewer when the topic and the corpus offer no distinct facet: a facet searching the
first question's words again did no work the first task did not (issue 19)."""


class Plan(BaseModel):
    """The planner's structured output."""

    sub_questions: list[str] = Field(
        description="Three to five self-contained research questions, phrased as a person would "
        "ask them: the first asks the topic itself; each other asks a distinct facet of it "
        "(a part, a related setting, a kind of use or failure) and searches words the others "
        "do not."
    )


def offline_plan(topic: str, found: Sequence[Any] = (), reached: int = 1,
                 source: Any = None) -> list[str]:
    """Deterministically divide ``topic`` into 1 to :data:`OFFLINE_SUB_QUESTIONS`
    sub-questions, distinct facets of it.

    The first asks the topic itself (:func:`main_question`); a comparison ("X vs Y", "X or Y:
    which one?", "the difference between X and Y", "A vs B vs C": :func:`comparison`) asks how
    the things differ, then about each thing; a subject of several phrases ("retry policy of a
    graph node") about each phrase; then, from ``found`` (the passages a first search of the
    corpus for the topic returned, best first: :func:`app.research.facets.first_search`),
    about each of the next distinct documents the first question's own search does not
    reach ("What is `Name`?": :func:`app.research.facets.document_facets`). A sub-question
    is kept only when the plan check takes it (:func:`app.research.topics.question_problem`:
    "What is $*?" has no word to search) and it searches words no earlier one searches (a
    search focused on the topic ranks by the words a question shares with it:
    :func:`workers.sources.query.search_query`). No facet wraps the whole topic in a template:
    with no distinct facet, the plan is the topic alone; nor is a phrase's facet asked whose
    search finds nothing on it beyond the first question's passages (with ``source``:
    :func:`app.research.facets.finds_more`). Same input, same plan, in every process.

    Args:
        topic: the research topic, a phrase or a question.
        found: :class:`workers.sources.Passage` objects of the topic's first search, or none.
        reached: how many of ``found`` the first sub-question's search returns (the run's
            ``search_k``): their documents are the first task's evidence, never a facet.
        source: the corpus, to search each phrase's facet as its worker will; none: kept.

    Example:
        >>> offline_plan("Send vs reducers")
        ['How do Send and reducers differ?', 'What is Send?', 'What are reducers?']
        >>> offline_plan("How do I keep pending writes across a process crash?")[1:]
        ['How do you keep pending writes?', 'What is a process crash?']
        >>> offline_plan("checkpointer pending writes")
        ['What are checkpointer pending writes?']
    """
    kind, bare = topic_kind(topic), subject(topic)
    compared = comparison(topic) if kind == "compare" else None
    if compared:  # each thing compared is a name (not "Validate an IPv4")
        questions = [compared.question, *map(main_question, compared.parts)]
    else:
        questions = [main_question(topic), *([] if asked_whole(topic) else
                                             phrase_facets(kind, with_article(topic, bare)))]
    most = max(OFFLINE_SUB_QUESTIONS, len(questions) if compared else 0)
    seen: set[frozenset[str]] = set()
    kept: list[str] = []
    first: frozenset[str] | None = None  # the first question's passages, once searched
    for question in questions:  # a facet searching the words of an earlier one adds nothing
        if kept and question_problem(question):  # "What is $*?": no word the plan check takes
            continue
        if kept and source is not None and not compared:  # its section: off-topic findings
            first = reached_refs(source, kept[0], topic, reached) if first is None else first
            if not finds_more(source, question, topic, first, reached):
                continue
        terms = searched(question, topic)
        if terms not in seen or not kept:
            seen.add(terms)
            kept.append(question)
    if len(kept) < most:
        kept += document_facets(topic, found, seen, reached)
    return kept[:most]


_WHOLE = re.compile(
    r"[A-Za-z][\w+]*-v?\d+(?:\.\d+)+\b|\b(?:[A-Z][\w+]*|version)\s+v?\d+(?:\.\d+)+\b")
"""A thing of a version ("bash-5.2", "Python 3.11"): its features are not all releases', and
the version alone is no question, so it is asked whole, no phrase its own facet."""


def asked_whole(topic: str) -> bool:
    """Whether ``topic`` is asked whole, so no phrase of its subject is a facet of its own: a
    facet must be a question a person would ask about the topic, and the phrases of these are
    not. A thing of a version (:data:`_WHOLE`): one drops what makes the question the question
    (trial 125, F4: "What are the new features in bash-5.2?" planned "What are the new
    features?" and "What is bash-5.2?", answered "This is GNU Bash, version 5.2."). A yes/no
    question about a thing (:data:`_THINGS_YES_NO`): it asks whether the thing can do
    something *with* its qualifier, so its first phrase asks another question (the
    qualifier's answer may be no where the rest's is yes) and its second one about the
    qualifier, not the thing ("Can bash do math with decimal numbers?" planned "Can bash do
    math?" and "What are decimal numbers?", trial 125, F4). The asker's own yes/no question
    keeps its facets: "Can I write my views with async def?" wants to do a thing, and asks
    how to write views and what async def is (trial 121, F3).

    Example:
        >>> asked_whole("What are the new features in bash-5.2?"), asked_whole("What is HTTP/2?")
        (True, False)
        >>> asked_whole("What is the retry policy of a graph node?"), asked_whole(
        ...     "How do I round to 2.5 points?"), asked_whole("What changed in Python 3.11?")
        (False, False, True)
        >>> asked_whole("Can bash do math with decimal numbers?"), asked_whole(
        ...     "Can I write my views with async def?")
        (True, False)
    """
    return _WHOLE.search(topic) is not None or _THINGS_YES_NO.match(topic) is not None


_THINGS_YES_NO = re.compile(
    r"^\W*(?:can|could|may|might|must|should|shall|will|would|is|are|was|were|does|do|did|"
    r"has|have)\s+(?!(?:i|we|you|one|it|there|this|that|my|our|your|me|us)\b)[^\W\d_]",
    re.IGNORECASE)
"""A yes/no question whose subject is a thing ("Can *bash* do math ...?", "Is *the
checkpointer* safe ...?"), not the asker ("Can I ...", "Should we ...", "Can my app ..."), a
placeholder ("Is it possible to ...", "Is there a way ...") or a pointer ("Does this ...")."""


def corpus_plan(topic: str, source: Any, reached: int = 1) -> list[str]:
    """:func:`offline_plan` of ``topic`` with the facets a first search of ``source`` finds
    (:func:`app.research.facets.first_search`): what the ``plan`` node asks offline.

    Args:
        topic: the research topic.
        source: the run's corpus (a :class:`workers.sources.Source`).
        reached: the run's ``search_k`` (see :func:`offline_plan`).
    """
    return offline_plan(topic, first_search(source, topic), reached, source)


PLANNER_PROMPT = (
    "You plan research over a corpus of technical documentation. Break the user's topic into "
    "three to five self-contained sub-questions that a keyword search over that documentation "
    "can answer, phrased as a person would ask them (never wrap the topic in a template such as "
    "'What is meant by ...'). The first asks the topic itself: what it is, how to do it, why, "
    "how two things differ, or a default value, as the topic asks. Each other one asks a "
    "distinct facet of the topic (a part of it, a related setting or document, a way it is used "
    "or fails) and must search words the others do not, while keeping enough of the topic's "
    "own key words (at least half of them) that its search stays on the topic. Each must make "
    "sense on its own."
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

    The plan is cleaned by :func:`clean_plan`, each change said in a note: blank and repeated
    questions (case or spacing aside) are dropped, and so is one the plan check would
    refuse (too long, control characters, no word to search:
    :func:`app.research.topics.question_problem`); the list is cut to 5; with fewer than 3
    left the offline decomposition's questions fill in (as many as it offers: it wraps no
    topic in a template to make up the count). An answer that does not fit
    the schema (bad JSON, wrong fields, tool-call arguments that are not a JSON object:
    :class:`workers.errors.UnreadableAnswer`) is not fatal: the offline decomposition is used and
    a note says so.

    A rate limit (HTTP 429) is waited out within the call, up to the model's rate-limit
    patience (:func:`workers.pacing.patiently`), before the node's attempts see an error.

    Raises:
        Exception: whatever the model client raises (the node's retry policy sees it; a 401 or
            404 stops the run); ``RateLimitPatienceSpent`` once the patience is spent.
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    from app.llm.models import other_answers, parse_structured, structured_output
    from workers.errors import UnreadableAnswer
    from workers.pacing import patiently
    from workers.usage import count_tokens

    runnable = structured_output(model, Plan)
    messages = [SystemMessage(PLANNER_PROMPT), HumanMessage(f"Topic: {topic}")]
    with count_tokens() as served:
        try:
            out = patiently(model, lambda: runnable.invoke(messages), "the planner")
        except UnreadableAnswer as exc:  # an answer, unreadable: as one that does not fit
            out = {"raw": None, "parsed": None, "parsing_error": str(exc).split(": ", 1)[-1]}
    tokens = served.tokens
    plan, reason = parse_structured(out, Plan, "the planner")
    if plan is None:
        note = f"the planner's answer was unusable ({reason}): used the offline plan"
        return PlanResult(offline_plan(topic), tokens, [note])
    questions, notes = clean_plan(plan.sub_questions, topic)
    if others := other_answers(out, Plan):
        notes.insert(0, f"the planner sent {others + 1} different plans in one message: the "
                        "first was used")
    return PlanResult(questions, tokens, notes)


def clean_plan(asked: Sequence[str], topic: str) -> tuple[list[str], list[str]]:
    """The sub-questions to run of a planner's ``asked``, and a note for each change made to
    them, so none is silent (once, 0 questions ran the offline plan, 500 were cut to 5,
    and "What is the glimmer relay ?" ran beside "What is the glimmer relay?", paying
    for the same searches twice, all without a word).

    A blank question is dropped; one asked before, case or spacing aside
    (:func:`app.runs.ids.question_key`), is asked once; one the plan
    check would refuse (:func:`app.research.topics.question_problem`) is left out, named. The
    first :data:`MAX_SUB_QUESTIONS` are kept; with fewer than :data:`MIN_SUB_QUESTIONS` the
    offline decomposition's questions fill in, as many as it offers.

    Args:
        asked: the planner's sub-questions, as it sent them.
        topic: the run's topic (for the offline questions).

    Example:
        >>> questions, notes = clean_plan(["Why relay?", "why  relay ?", " "], "Send vs reducers")
        >>> questions
        ['Why relay?', 'How do Send and reducers differ?', 'What is Send?']
        >>> for note in notes:
        ...     print(note.split(":")[0])
        1 of the planner's sub-questions repeat an earlier one (case or spacing aside
        the planner's plan held 1 sub-question(s) to ask, fewer than 3
    """
    from app.runs.ids import question_key

    questions: list[str] = []
    notes: list[str] = []
    seen: dict[str, bool] = {}  # each question's key: whether it is asked
    kept: dict[str, str] = {}  # each asked question's key: the question
    again: list[tuple[str, str]] = []  # (a repeat, the question it repeats)
    for q in asked:
        q = " ".join(str(q).split())
        if not q:
            continue
        if (key := question_key(q)) in seen:
            again += [(q, kept[key])] if seen[key] else []  # one left out: said once, above
            continue
        why = question_problem(q)  # the plan check would refuse the plan at dispatch
        seen[key] = not why
        if why:
            notes.append(f"the planner's sub-question {clip(q, 80)!r} was left out: {why}")
            continue
        kept[key] = q
        questions.append(q)
    if again:  # shown: a repeat that is not a mere copy, when there is one
        q, first = next(((q, k) for q, k in again if q != k), again[0])
        notes.append(f"{len(again)} of the planner's sub-questions repeat an earlier one (case "
                     f"or spacing aside: {clip(q, 80)!r} repeats {clip(first, 80)!r}): each "
                     "question is asked once")
    if len(questions) > MAX_SUB_QUESTIONS:
        left = len(questions) - MAX_SUB_QUESTIONS
        notes.append(f"the planner's plan held {len(questions)} sub-questions: the first "
                     f"{MAX_SUB_QUESTIONS} are asked, the other {left} left out (at most "
                     f"{MAX_SUB_QUESTIONS})")
    return _filled(questions[:MAX_SUB_QUESTIONS], seen, topic, notes), notes


def _filled(questions: list[str], seen: dict[str, bool], topic: str, notes: list[str]
            ) -> list[str]:
    """``questions`` with the offline plan's added while fewer than :data:`MIN_SUB_QUESTIONS`,
    and a note in ``notes`` saying how many (none when it offers none new)."""
    from app.runs.ids import question_key

    had = len(questions)
    for q in offline_plan(topic):
        if len(questions) >= MIN_SUB_QUESTIONS:
            break
        if question_key(q) not in seen:
            seen[question_key(q)] = True
            questions.append(q)
    if len(questions) > had:
        held = ("no sub-question to ask" if not had else
                f"{had} sub-question(s) to ask, fewer than {MIN_SUB_QUESTIONS}")
        notes.append(f"the planner's plan held {held}: the offline plan added "
                     f"{len(questions) - had}")
    return questions
