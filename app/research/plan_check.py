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

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from app.errors import DomainError
from app.research.envelope_edits import envelope_edit_problem, round_of, this_run
from app.research.text import clip
from app.research.topics import question_problem, topic_problem
from app.runs.ids import question_key
from app.settings.checks import check_as_of
from app.settings.config import ROUNDS_BOUND
from workers.registry import WEB_WORKER_NAMES

__all__ = ["MOST_ROUND", "BadPlan", "check_plan", "envelope_edit_problem", "plan_problem",
           "round_of", "round_problem", "routing_problem", "this_run", "topic_edit_problem"]

EDITED = "was the state edited? edit it again with update_state"
"""The way on from a plan a state edit broke, for any client; a caller adds how to start anew."""

MOST_ROUND = 2**53 - 1
"""The highest round a thread dispatches in: the largest whole number a JSON client (Studio's
JavaScript) reads exactly, far below the results database's ``bigint`` (2**63 - 1), so a run
that starts at it still has rounds to run. An edit giving an envelope round 2**63 - 1 was
accepted, and every later run of the thread ran its tasks, then failed on its own round 2**63
(trial 122, F1)."""


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
    (:func:`app.research.topics.topic_problem`: a zero-width space, only "what the"), or a
    question twice, case, spacing and invisible characters aside (:func:`app.runs.ids.question_key`:
    the same task twice, one envelope id for two tasks; or "What is Send?" beside "what is send
    ?", researched twice into two sets of rows, trial 64, F4).

    Checks what every plan must satisfy, a planner's too; the plan review asks more of a
    person's questions (:func:`app.research.review.plan_resume`).

    Example:
        >>> plan_problem(["What is Send?", "what is  send ?"])
        "sub-question 2 repeats sub-question 1 ('what is send ?')"
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
        shown = question_key(question)  # case, spacing and invisible characters aside
        if shown in seen:
            return (f"sub-question {n} repeats sub-question {seen[shown]} "
                    f"({clip(question, 80)!r})")
        seen[shown] = n
    return None


def routing_problem(routing: Any, workers: Sequence[str], *, rounds_bound: int = ROUNDS_BOUND,
                    corpora: Collection[str] | None = None, planned: bool = False) -> str | None:
    """What makes ``routing`` (the state's :class:`state.Routing`, which ``plan`` writes and a
    state edit can rewrite) no routing to run by, in one line naming the field, or None. A
    state without one (None: written before ``plan`` ran) passes, and so does a field left
    out (the edges take its default).

    Unchecked, ``"workers": ["evil_worker"]`` ran no task and ``persist`` removed every
    row of the thread; ``rounds`` past the operator's bound and ``review: "x"`` were kept. Once
    ``plan`` ran (``planned``), the routing it wrote is no longer optional, nor its ``review``
    and ``rounds``: an edit to ``None`` or ``{}`` ran on without review and with one round
    (``tests/app/test_state_edits.py``).

    Args:
        routing: the state's ``routing``.
        workers: the compiled graph's worker names.
        rounds_bound: the most rounds a run may take (a served run: the operator's
            ``rounds_limit``).
        corpora: the corpus names a served run may name (``RESEARCH_CORPORA``); None: any text.

    Example:
        >>> routing_problem({"workers": ["evil"]}, ["docs_search"])
        "routing.workers: 'evil' is not a worker of this graph (docs_search)"
        >>> routing_problem({"rounds": 9}, ["a"], rounds_bound=5)
        'routing.rounds must be 1 to 5 (the rounds bound), got 9'
        >>> routing_problem(None, ["a"]) is None
        True
    """
    if routing is None:
        return "routing is missing: plan wrote one (review, rounds, workers)" if planned else None
    if not isinstance(routing, Mapping):
        return f"routing must be a mapping of {', '.join(_FIELDS)}, got {type(routing).__name__}"
    if extra := sorted(str(k) for k in routing if k not in _FIELDS):
        return (f"routing has no field {clip(repr(extra[0]), 80)} (its fields: "
                f"{', '.join(_FIELDS)})")
    if planned and (left := [name for name in ("review", "rounds") if name not in routing]):
        return f"routing.{left[0]} is missing: plan wrote it"
    if "review" in routing and not isinstance(routing["review"], bool):
        return f"routing.review must be true or false, got {_shown(routing['review'])}"
    for name, low, high in (("rounds", 1, rounds_bound), ("first_round", 1, None)):
        value = routing.get(name, low)
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (
                high is not None and value > high):
            span = f"{low} to {high} (the rounds bound)" if high else f"a whole number >= {low}"
            return f"routing.{name} must be {span}, got {_shown(value)}"
    return _workers_problem(routing.get("workers", list(workers)), workers,
                            planned) or _corpus_problem(routing.get("corpus_name"), corpora)


_FIELDS = ("review", "rounds", "first_round", "workers", "corpus_name")
"""The fields of :class:`state.Routing`."""


def _shown(value: Any) -> str:
    return clip(repr(value), 80)


def _workers_problem(chosen: Any, workers: Sequence[str], planned: bool) -> str | None:
    """Once ``plan`` ran, every worker it fans out to whatever the client asked (all but the
    web workers, which follow the run's ``web``) stays, else an edit narrowing
    ``routing.workers`` to ``["docs_search"]`` ended ``ok`` and ``persist`` removed the other
    workers' rows, a choice a client makes nowhere else."""
    if isinstance(chosen, str) or not isinstance(chosen, list | tuple):
        return f"routing.workers must be a list of worker names, got {type(chosen).__name__}"
    if not chosen:
        return "routing.workers names no worker (no task would run)"
    for name in chosen:
        if name not in workers:
            return (f"routing.workers: {_shown(name)} is not a worker of this graph "
                    f"({', '.join(workers)})")
    left = [w for w in workers if w not in chosen and w not in WEB_WORKER_NAMES]
    if planned and left:
        return (f"routing.workers leaves out {_shown(left[0])}: plan fans out to every worker "
                "of this graph")
    return None


def _corpus_problem(name: Any, corpora: Collection[str] | None) -> str | None:
    if name is not None and not isinstance(name, str):
        return f"routing.corpus_name must be text or null, got {type(name).__name__}"
    if name is not None and corpora is not None and name not in corpora:
        known = ", ".join(sorted(corpora)) or "none"
        return (f"routing.corpus_name: {_shown(name)} is not a corpus of this server "
                f"(known: {known})")
    return None


def _state_problem(state: Mapping[str, Any]) -> str | None:
    """The first of ``as_of``, ``round``, ``dropped`` and ``redo`` (what the edges and the
    tasks read besides the plan),
    ``planned`` and ``notes`` (what ``report`` reads) that a state edit gave the wrong type, in
    one line, or None (unchecked, ``{"redo": 5}`` failed in an edge, HTTP 500; ``{"planned": 5}``
    and ``{"notes": {"a": 1}}`` failed ``report`` after ``persist``)."""
    as_of = state.get("as_of")
    try:  # else "../../etc" failed the next run as a bare ValueError
        check_as_of(as_of)  # the CLI's and the served input's rule, "" refused
    except (TypeError, ValueError) as exc:
        return str(exc)
    round_ = state.get("round")
    if round_ is not None and (isinstance(round_, bool) or not isinstance(round_, int)
                               or round_ < 1):
        return f"round must be a whole number >= 1, got {_shown(round_)}"
    if why := round_problem(state):
        return why
    tokens = state.get("tokens")
    if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int)
                               or tokens < 0):  # -10**12 made the budget endless
        return f"tokens must be a whole number >= 0, got {_shown(tokens)}"
    for key in ("dropped", "redo"):
        value = state.get(key)
        if value is not None and (not isinstance(value, list | tuple)
                                  or not all(isinstance(v, str) for v in value)):
            return f"{key} must be a list of envelope ids, got {_shown(value)}"
    for key, what in (("planned", "questions"), ("notes", "text lines")):
        value = state.get(key)
        if value is not None and (not isinstance(value, list | tuple)
                                  or not all(isinstance(v, str) for v in value)):
            return f"{key} must be a list of {what}, got {_shown(value)}"
    return None


def round_problem(state: Mapping[str, Any]) -> str | None:
    """What makes the state's ``round`` one this run cannot be in, or None: a round before its
    routing's ``first_round`` (an edit of either). Its tasks' envelopes would never count as
    this run's, so ``dispatch`` sent them again and again until LangGraph's recursion limit,
    paying each time (33M tokens counted in 7 minutes).

    Example:
        >>> round_problem({"round": 1, "routing": {"first_round": 50}})
        "round 1 is before this run's first round, 50 (routing.first_round)"
    """
    round_, routing = state.get("round"), state.get("routing")
    first = routing.get("first_round") if isinstance(routing, Mapping) else None
    if (isinstance(round_, int) and not isinstance(round_, bool) and isinstance(first, int)
            and not isinstance(first, bool) and round_ < first):
        return f"round {round_} is before this run's first round, {first} (routing.first_round)"
    return None


def check_plan(state: Mapping[str, Any], workers: Sequence[str] | None = None, *,
               rounds_bound: int = ROUNDS_BOUND, corpora: Collection[str] | None = None,
               questions_bound: int | None = None,
               anew: str = "start a new thread with research --fresh",
               envelope_workers: Sequence[str] | None = None) -> None:
    """Raise :class:`BadPlan` when the state's plan cannot run (:func:`plan_problem`, the
    topic a task carries must be text, and with ``workers`` its routing:
    :func:`routing_problem`; ``round``, ``dropped`` and ``redo`` of their types), was made
    for another topic (:func:`topic_edit_problem`) or holds an envelope an edit made unfit
    (:func:`app.research.envelope_edits.envelope_edit_problem`: its fields, its id, a worker
    the routing does not run);
    before a node dispatches, persists or reports anything.

    Args:
        state: the graph's state.
        workers, rounds_bound, corpora: as :func:`routing_problem` takes them (``workers``
            None: the routing is not checked).
        questions_bound: the most sub-questions the plan may hold (a served run: the
            operator's ``sub_questions_limit``: a client's edit of 200 ran 600
            tasks); None: no bound (the CLI's operator runs what it plans).
        anew: how the caller's client starts a new thread (the CLI's command by default).
        envelope_workers: the workers whose envelopes this run may hold (a served run: the
            graph's; None, the CLI: any, a forker's own node's included).

    Raises:
        BadPlan: one line naming the problem and the way on.
    """
    topic = state.get("topic")
    why = (topic_problem(topic) if isinstance(topic, str) and topic.strip()
           else f"the topic must be non-empty text, got {clip(repr(topic), 80)}")
    why = why or plan_problem(state.get("sub_questions")) or _state_problem(state)
    if not why and questions_bound is not None and len(state["sub_questions"]) > questions_bound:
        why = (f"sub_questions holds {len(state['sub_questions'])} questions, past this "
               f"server's bound of {questions_bound} (RESEARCH_SUB_QUESTIONS_LIMIT)")
    if not why and workers is not None:
        why = routing_problem(state.get("routing"), workers, rounds_bound=rounds_bound,
                              corpora=corpora, planned=True)
    if why:
        bad = BadPlan(f"the thread's plan cannot run: {why} ({EDITED}, or {anew})")
        bad.problem = why
        raise bad
    if why := topic_edit_problem(state):
        raise BadPlan(why)
    if why := envelope_edit_problem(state, envelope_workers):
        raise BadPlan(f"{why} ({EDITED}, or {anew})")


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
