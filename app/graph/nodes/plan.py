"""``plan``: the topic becomes sub-questions (3 to 5 with an LLM, 1 to 3 offline, 4 for a
comparison of three things), and what the edges route by is written into state
(:class:`state.Routing`): the review flag, the rounds, the workers, the first round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from app.errors import BadAsOf, BadTopic
from app.graph.nodes.common import (
    check_no_review_skipped,
    check_rows_are_the_threads,
    check_same_corpus,
)
from app.graph.resources import Resources
from app.research.plan import corpus_plan, llm_plan
from app.research.review import kept_drops
from app.research.rounds import new_round
from app.research.text import clip
from app.research.topics import SERVED_EXAMPLE, topic_problem
from app.runs.ids import visible_topic
from app.settings.checks import as_of_or_today
from app.settings.config import RunContext
from state import ResearchState, Routing, make_envelope_id
from workers.errors import is_transient, one_line
from workers.registry import WEB_WORKER_NAMES
from workers.retry import backoff
from workers.usage import AttemptTokens, untrusted_note
from workers.waits import announcing_waits, stop_waiting_when

__all__ = ["NO_VERDICT", "plan", "run_workers"]

NO_VERDICT: dict[str, Any] = {"outcome": None, "failed_tasks": [], "warnings": [],
                              "report": None, "report_path": None}
"""What ``plan`` writes over the verdict keys at a run's start, until this run's ``report`` writes
them: no ``outcome`` (None: not judged yet), so a rerun that pauses, fails or is stopped before
``report`` never hands back the last run's verdict and report
(``tests/app/test_rerun_verdict.py``). The lists are empty, not None, so a reader's
``get("failed_tasks", [])`` still iterates.
Plain writes: ``LastValue`` channels."""


def _check_input(state: ResearchState, config: RunnableConfig, ctx: RunContext, res: Resources,
                 checkpoint_id: str | None) -> tuple[str, str]:
    """A served run's input, checked nowhere else (the CLI refuses a bad topic before the run):
    the topic and its ``as_of``, the plan's corpus on a rerun or fork, rows of another thread
    of its id (a CLI thread's, or any the server has no checkpoint of), a review it would skip.
    Returns the topic as checked and as the CLI reads it (:func:`app.runs.ids.visible_topic`:
    a served topic with a newline or a tab was checked collapsed, then refused raw by every
    later node; one ending in a zero-width space got a sub-question ending "?\u200b?"), and
    the ``as_of``, normalized (today when empty: once, for every task). Raises as :func:`plan`.
    """
    topic = state.get("topic")
    if topic is not None and not isinstance(topic, str):
        shown = clip(repr(topic), 80)
        raise BadTopic(f"the topic must be text, got {type(topic).__name__} {shown}")
    topic = visible_topic(topic or "")  # as the CLI reads a topic
    if why := topic_problem(topic, **({"example": SERVED_EXAMPLE} if res.served else {})):
        raise BadTopic(why)
    try:  # Studio may omit it (today); an edit before plan (update_state as __start__)
        as_of = as_of_or_today(state.get("as_of"))
    except ValueError as exc:
        raise BadAsOf(str(exc)) from None
    # a rerun or fork: its plan's corpus
    check_same_corpus(state, ctx.corpus_name, res.served, res.settings.named_corpora())
    check_rows_are_the_threads(res.storage(), config, state, res.served)
    check_no_review_skipped(config, checkpoint_id, bool(ctx.review), res.served)
    return topic, as_of


def plan(state: ResearchState, config: RunnableConfig, runtime: Runtime[RunContext], *,
         res: Resources, workers: Sequence[str], tokens: AttemptTokens) -> dict[str, Any]:
    """Plan the run (writes ``sub_questions``, as ``review_plan`` may after it, and ``routing``)
    and clear the thread's previous verdict (:data:`NO_VERDICT`).

    Every token the planner was served counts, those of failed attempts included (``tokens``
    holds a failed attempt's until the next). A thread run again (or forked) starts its rounds
    one past the highest it has seen, so a fresh result never looks older than a stale one;
    on its own plan it keeps what a review dropped (:func:`app.research.review.kept_drops`).
    A run with another topic than the plan's (``planned_topic``) plans anew.

    Raises:
        app.errors.BadTopic: the topic is no topic to research (:func:`topic_problem`).
        app.errors.BadAsOf: the ``as_of`` is no date (:func:`state.normalize_as_of`).
        app.errors.CorpusMismatch: a served rerun of the thread names another corpus.
        app.errors.CliThread: a served run on a CLI thread's id.
        app.errors.ForeignRows: a served run on an id whose rows this thread did not write
            (:func:`app.graph.nodes.common.check_rows_are_the_threads`).
        app.errors.AwaitsReview: a served run without review on a thread paused at a review
            (:func:`app.graph.nodes.common.check_no_review_skipped`).
    """
    ctx = res.context(runtime)
    info = runtime.execution_info
    topic, as_of = _check_input(state, config, ctx, res, info and info.checkpoint_id)
    state = {**state, "topic": topic}
    res.check_mcp()  # every MCP server answers, or the run fails with a line naming it
    attempt = backoff(runtime, res.settings.retry_interval, "the planner")
    with tokens.attempt(info.task_id if info else state["topic"]) as served:
        questions, notes = _questions(state, ctx, attempt, runtime, res)
    notes = [*notes, *_said_usage(served)]  # said, not only counted apart
    if questions != state.get("sub_questions"):  # a new plan: within a served run's bound
        questions, notes = _within_bound(questions, notes, res)
    kept_plan = bool(state.get("sub_questions")) and questions == state.get("sub_questions")
    # a rerun on its plan keeps what its review dropped (a drop's id names its as_of)
    workers = run_workers(workers, bool(ctx.web))
    tasks = {make_envelope_id(w, q, as_of) for w in workers for q in questions}
    dropped, kept = kept_drops(state, tasks) if kept_plan else ([], [])
    first = new_round(state)
    routing = Routing(review=bool(ctx.review), rounds=ctx.rounds, first_round=first,
                      workers=list(workers), corpus_name=ctx.corpus_name)
    # A thread that is run again starts its notes, token counts and drops afresh: ``Overwrite``
    # bypasses the channels' reducers (concat_lists, add_count, dedupe_extend) for this write.
    planned = {} if kept_plan else {"planned": questions}  # the planner's own plan
    return {
        "topic": state["topic"],
        "planned_topic": state["topic"],
        "sub_questions": questions,
        **planned,
        "as_of": as_of,
        "routing": routing,
        "round": first,
        "redo": [],
        "notes": Overwrite(kept + notes),
        "tokens": Overwrite(served.tokens),
        "unmetered_calls": Overwrite(served.unmetered),
        "dropped": Overwrite(dropped),
        **NO_VERDICT,
    }


def _said_usage(served: Any) -> list[str]:
    """The planner's note when its server reported a usage no response can have (``served``:
    the attempt's :class:`workers.usage.TokenTally`), else none."""
    return [untrusted_note("the planner")] if served.untrusted else []


def run_workers(workers: Sequence[str], web: bool) -> list[str]:
    """The compiled graph's ``workers`` this run fans out to (``routing["workers"]``): the web
    workers (:data:`workers.registry.WEB_WORKER_NAMES`) only when the run's context searches the
    web. LangGraph Server compiles one graph for every client, with the operator's workers;
    ``web`` is each client's choice (else ``web: false`` failed every ``web_search`` task).

    Example:
        >>> run_workers(["docs_search", "analyst", "web_search"], web=False)
        ['docs_search', 'analyst']
    """
    return [w for w in workers if web or w not in WEB_WORKER_NAMES]


def _within_bound(questions: list[str], notes: list[str], res: Resources
                  ) -> tuple[list[str], list[str]]:
    """A new plan's first ``sub_questions_limit`` questions on a served run (the operator's
    bound, which ``dispatch`` applies: a plan of 3 on a bound of 2 ended the run in "was the
    state edited?"), with a note saying so; the CLI's plan as it is."""
    bound = res.settings.sub_questions_limit if res.served else None
    if bound is None or len(questions) <= bound:
        return questions, notes
    return questions[:bound], [*notes, f"plan cut to {bound} of its {len(questions)} "
                               "sub-questions: this server's bound (RESEARCH_SUB_QUESTIONS_LIMIT)"]


def _questions(state: ResearchState, ctx: RunContext, attempt: int,
               runtime: Runtime[RunContext], res: Resources) -> tuple[list[str], list[str]]:
    """The sub-questions and the planner's notes."""
    planner = res.models(ctx).planner
    topic = state["topic"]
    if state.get("sub_questions") and state.get("planned_topic", topic) == topic:
        # The thread is run again on its topic: keep its plan, offline or not, so the same
        # tasks get the same envelope ids and update the same rows even when the planner
        # changed since (an upgrade). ``--fresh`` starts a new thread, which plans anew; so
        # does another topic on this thread (the CLI refuses it, a LangGraph Server client's
        # next input or a Studio edit may give one): the old plan's rows go at persist.
        return list(state["sub_questions"]), []
    if planner.offline:
        # What the corpus holds about the topic divides the work: one read-only
        # search of the local index, deterministic for the same corpus; a rerun never gets here.
        return corpus_plan(topic, res.corpus(ctx), reached=ctx.search_k), []
    try:
        with stop_waiting_when(res.run(runtime).scope.cancel), \
                announcing_waits(runtime.stream_writer):  # Retry-After waits, said
            result = llm_plan(topic, planner.model)
    except Exception as exc:
        if attempt >= res.settings.max_attempts:
            raise  # this run's attempts are spent: the policy's max_attempts are the same
        if is_transient(exc):  # said, as a worker's retry is: not 20-40 s of silence
            runtime.stream_writer({"retry": {
                "worker": "planner", "task_key": topic, "attempt": attempt,
                "max_attempts": res.settings.max_attempts, "error": one_line(exc, 160)}})
        raise
    return result.questions, result.notes
