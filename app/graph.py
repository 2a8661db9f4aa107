"""The supervisor graph: plan -> dispatch (Send) -> workers -> route -> persist -> report.

```
START -> plan --Command(goto=[Send(worker, Task) for worker x sub-question])--> workers -> route
route --Command(goto=[Send(...) for each task whose envelope is status="error"])  (more rounds)
      \\-Command(goto="persist")--> persist -> report -> END
```

* ``plan`` and ``route`` fan out themselves, returning ``Command(update=..., goto=[Send, ...])``:
  the ``Send`` objects are built before the node returns, so a fan-out that raises leaves no
  writes and the resume runs the node, and its fan-out, again. (A conditional edge that raised
  after its node wrote would be skipped on resume, and no worker would run: langgraph#8834.)
* Workers write ``{"envelopes": [envelope]}``; :func:`state.envelope_reducer` upserts by
  ``envelope_id``, so a retried, resumed or re-dispatched task updates its envelope in place.
* ``route`` is the join after each map step (one node, so the next step is decided once, not once
  per worker) and records what it decided in ``notes``.
* ``persist`` upserts every not-yet-persisted envelope into the results database in one
  transaction, then writes back ``persisted=True, structured=None``: state shrinks and the
  database becomes the source of truth. Running it twice (a crash between its commit and its
  checkpoint) updates the same rows.
* ``report`` reads the rows back, writes the markdown report, and records the run's
  ``outcome`` (``ok``, ``partial`` or ``failed``) and ``failed_tasks`` in state, so a LangGraph
  Server client reads the same verdict the CLI prints.
* Settings arrive per run as LangGraph's runtime context (``context_schema=RunContext``, read
  as ``runtime.context``); nodes look up the heavy objects (models, corpus) and the per-run ones
  (stop signal, limiter, faults) through :class:`app.resources.Resources`. Progress goes to the
  ``custom`` stream (``runtime.stream_writer``).

Source: LangGraph's map-reduce how-to (``Send``), "Add retry policies", and "Durable execution".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command, Overwrite, RetryPolicy, Send

from app.config import RunContext, as_of_or_today
from app.plan import llm_plan, offline_plan
from app.report import ReportInput, render_markdown, report_filename, report_path, write_report
from app.resources import Resources
from app.review import ask_plan, ask_results
from app.rounds import (
    STEPS_AFTER_MAP,
    STEPS_PER_ROUND,
    current_envelopes,
    fan_out,
    first_round_tasks,
    next_round_tasks,
    run_outcome,
)
from app.storage import is_transient_storage_error
from state import ResearchInput, ResearchState, Task, parallel_keys
from workers.base import WorkerSpec, guard_worker_node, make_worker_node
from workers.pacing import stop_waiting_when
from workers.retry import ATTEMPTS_CAP, backoff, give_up, retry_on
from workers.usage import AttemptTokens

__all__ = ["build_graph"]


def unmetered_note(count: int) -> str:
    """The run note for ``count`` model responses that reported no token usage."""
    return (f"{count} model response(s) reported no token usage: the token count is incomplete "
            "and the token budget (--max-tokens) cannot count them")


def _planned(runtime: Runtime, tasks: Sequence[Task]) -> list[Send]:
    """Round 1's ``Send`` objects, built first (if that raises, nothing was said or written),
    then the ``planned`` progress event: the sub-questions and the task count."""
    sends = fan_out(tasks)
    questions = list(dict.fromkeys(task["sub_question"] for task in tasks))
    runtime.stream_writer({"planned": {"sub_questions": questions, "total": len(tasks)}})
    return sends


def _dispatched(runtime: Runtime, tasks: Sequence[Task]) -> list[Send]:
    """A later round's ``Send`` objects, then the ``dispatched`` progress event."""
    sends = fan_out(tasks)
    runtime.stream_writer({"dispatched": {"round": tasks[0]["round"], "tasks": len(tasks)}})
    return sends


def _thread_id(config: RunnableConfig) -> str:
    """The run's ``thread_id``; ``"-"`` for a run without a checkpointer (no thread)."""
    return (config.get("configurable") or {}).get("thread_id") or "-"


def build_graph(workers: Sequence[WorkerSpec] | None = None, *,
                resources: Resources | None = None, checkpointer: Any = None):
    """Compile the research graph. Its settings come per run, as LangGraph's runtime context.

    Args:
        workers: the workers to fan out to (default: ``workers.registry.WORKERS``); fixed per
            compiled graph, since each is a node.
        resources: where nodes look up the models, corpus and per-run objects of their run's
            context (default: a fresh :class:`app.resources.Resources` with no credentials).
        checkpointer: a LangGraph checkpointer (e.g. ``SqliteSaver``), or None (LangGraph Server
            and Studio bring their own).

    Returns:
        The compiled graph, ``context_schema=RunContext``. Invoke it with
        ``{"topic": ..., "as_of": "YYYY-MM-DD"}``, ``{"configurable": {"thread_id": ...}}`` and
        ``context=RunContext(...)`` (or a dict of its fields; None: the resources' defaults).
        Nodes write progress to the ``custom`` stream: ``{"planned": {"sub_questions",
        "total"}}``, ``{"envelope": envelope}``, ``{"retry": {...}}``, ``{"persisted":
        {"count"}}``, ``{"report": {"path", "outcome"}}``.

    Raises:
        ValueError: two workers share a name.
    """
    if workers is None:
        from workers.registry import WORKERS

        workers = WORKERS
    workers = tuple(workers)
    names = [w.name for w in workers]
    if len(set(names)) != len(names):
        raise ValueError(f"worker names must be unique: {names}")
    res = resources or Resources()
    planner_tokens = AttemptTokens()  # tokens of failed planner attempts, for the next one

    def plan(state: ResearchState, runtime: Runtime[RunContext]) -> Command:
        """Turn the topic into 3 to 5 sub-questions (single writer of ``sub_questions``) and
        fan out: one ``Send`` per worker per sub-question (round 1).

        Every token the planner was served counts, those of failed attempts included."""
        ctx = res.context(runtime)
        res.run(runtime)  # records the superstep this run starts in (see route)
        attempt = backoff(runtime, res.settings.retry_interval)
        info = runtime.execution_info
        with planner_tokens.attempt(info.task_id if info else state["topic"]) as served:
            questions, notes = _plan(state, ctx, attempt, runtime)
        # Studio and LangGraph Server callers may leave as_of out: default it here, once, so
        # every task of the run carries the same date (and so the same envelope ids).
        as_of = as_of_or_today(state.get("as_of"))
        tasks = first_round_tasks(state["topic"], as_of, questions, names)
        sends = _planned(runtime, tasks)  # before any write: if it raises, plan runs again
        # A thread that is run again starts its notes and token counts afresh: ``Overwrite``
        # bypasses the channels' reducers (concat and operator.add) for this one write.
        return Command(
            update={
                "sub_questions": questions,
                "as_of": as_of,
                "notes": Overwrite(notes),
                "tokens": Overwrite(served.tokens),
                "unmetered_calls": Overwrite(served.unmetered),
                "dropped": Overwrite([]),
            },
            goto="review_plan" if ctx.review else sends,
        )

    def _plan(state: ResearchState, ctx: RunContext, attempt: int,
              runtime: Runtime[RunContext]) -> tuple[list[str], list[str]]:
        """The sub-questions and the planner's notes."""
        planner = res.models(ctx).planner
        topic = state["topic"]
        notes: list[str] = []
        if planner.offline:
            questions = offline_plan(topic)
        elif state.get("sub_questions"):
            # The thread is run again (same topic and as_of, checked by the caller): keep its
            # plan, so the same tasks get the same envelope ids and update the same rows, as
            # the deterministic offline plan does. (``--fresh`` starts a new thread.)
            questions = list(state["sub_questions"])
        else:
            try:
                with stop_waiting_when(res.run(runtime).scope.cancel):  # Retry-After waits
                    result = llm_plan(topic, planner.model)
            except Exception as exc:
                if attempt >= res.settings.max_attempts:
                    raise give_up(exc) from None  # this run's attempts are spent
                raise
            questions, notes = result.questions, result.notes
        return questions, notes

    def route(state: ResearchState, config: RunnableConfig,
              runtime: Runtime[RunContext]) -> Command:
        """Join of one map step: re-send the failed tasks (another round), or go on to
        ``persist``; note what it decided."""
        ctx = res.context(runtime)
        tasks, reason = next_round_tasks(state, names, ctx.rounds, ctx.max_tokens)
        if tasks:
            left = res.run(runtime).steps_left(config)
            if left is not None and left < STEPS_PER_ROUND + STEPS_AFTER_MAP:
                limit = config.get("recursion_limit")
                reason = (f"{len(tasks)} failed task(s) were not dispatched again: round "
                          f"{tasks[0]['round']} would pass this run's recursion limit of "
                          f"{limit} steps (each round takes {STEPS_PER_ROUND}; see "
                          "app.rounds.recursion_limit)")
                tasks = []
        if tasks:
            note = f"round {tasks[0]['round']}: re-dispatching {len(tasks)} failed task(s)"
            return Command(update={"notes": [note]}, goto=_dispatched(runtime, tasks))
        return Command(update={"notes": [reason]} if reason else {},
                       goto="review_results" if ctx.review else "persist")

    def review_plan(state: ResearchState, runtime: Runtime[RunContext]) -> Command:
        """Pause for the plan review (``app.review.ask_plan``); then fan out the approved, or
        replaced, sub-questions. Nothing before the ``interrupt()`` but reading state: the node
        runs again from its start on resume."""
        questions = ask_plan(state["sub_questions"])
        tasks = first_round_tasks(state["topic"], state["as_of"], questions, names)
        if questions == list(state["sub_questions"]):
            return Command(goto=fan_out(tasks))
        return Command(update={"sub_questions": questions,
                               "notes": [f"plan replaced at review: {len(questions)} "
                                         "sub-question(s)"]},
                       goto=_planned(runtime, tasks))

    def review_results(state: ResearchState, runtime: Runtime[RunContext]) -> Command:
        """Pause for the results review before anything is persisted (``app.review``); then
        drop, redo (pausing again after that map step), or go on to ``persist``. Nothing before
        the ``interrupt()`` but reading state: the node runs again from its start on resume."""
        update, tasks = ask_results(state, current_envelopes(state))
        if not tasks:
            return Command(update=update, goto="persist")
        return Command(update=update, goto=_dispatched(runtime, tasks))

    def persist(state: ResearchState, config: RunnableConfig,
                runtime: Runtime[RunContext]) -> dict[str, Any]:
        """Upsert every unpersisted envelope in one transaction; drop payloads from state."""
        ctx = res.context(runtime)
        pending = [e for e in current_envelopes(state) if not e.get("persisted")]
        if not pending:
            return {}
        thread_id = _thread_id(config)
        with res.storage(ctx).results() as store:
            store.upsert(pending, thread_id=thread_id, topic=state["topic"])
        res.run(runtime).faults.at("persist-commit")
        runtime.stream_writer({"persisted": {"count": len(pending)}})
        return {
            "envelopes": [
                {"envelope_id": e["envelope_id"], "persisted": True, "structured": None}
                for e in pending
            ]
        }

    def report(state: ResearchState, config: RunnableConfig,
               runtime: Runtime[RunContext]) -> dict[str, Any]:
        """Read this run's rows back, write the markdown report, and record the outcome."""
        ctx = res.context(runtime)
        res.run(runtime).faults.at("report")
        models = res.models(ctx)
        ids = [e["envelope_id"] for e in current_envelopes(state)]
        with res.storage(ctx).results() as store:
            rows = store.rows(ids, thread_id=_thread_id(config))
        data = ReportInput(
            topic=state["topic"],
            as_of=state["as_of"],
            model_label=models.label,
            thread_id=_thread_id(config),
            sub_questions=list(state["sub_questions"]),
            rows=rows,
            notes=list(state.get("notes") or []),
        )
        update: dict[str, Any] = {}
        # Files the corpus skipped (an encrypted or broken PDF...): the reader should know what
        # the report could not draw on.
        extra_notes: list[str] = list(getattr(res.corpus(ctx), "notes", None) or [])
        if models.summarize is not None:
            spent = state.get("tokens", 0) or 0
            if ctx.max_tokens is not None and spent >= ctx.max_tokens:
                extra_notes.append("no model summary: the token budget is spent")
            else:
                with stop_waiting_when(res.run(runtime).scope.cancel):  # Retry-After waits
                    summary = models.summarize(data)
                data.summary = list(summary)
                extra_notes += list(getattr(summary, "notes", None) or [])
                if getattr(summary, "tokens", 0):
                    update["tokens"] = int(summary.tokens)
                if getattr(summary, "unmetered", 0):
                    update["unmetered_calls"] = int(summary.unmetered)
        unmetered = (state.get("unmetered_calls") or 0) + update.get("unmetered_calls", 0)
        if unmetered:  # a server that omits usage must not switch the budget off silently
            extra_notes.append(unmetered_note(unmetered))
        if extra_notes:
            data.notes += extra_notes
            update["notes"] = extra_notes
        name = report_filename(state["topic"], state["as_of"], data.thread_id)
        path = report_path(res.settings.report_out, res.settings.data_dir, name)
        write_report(render_markdown(data), path)
        outcome, failed = run_outcome(state)
        runtime.stream_writer({"report": {"path": str(path.resolve()), "outcome": outcome}})
        return {"report_path": str(path.resolve()), "outcome": outcome,
                "failed_tasks": failed, **update}

    # The RetryPolicy re-runs a node; how many times and after which wait is the run's own
    # setting (context.max_attempts, context.retry_interval): the nodes wait (backoff) and stop
    # (give_up) themselves, so the policy has a cap and no interval of its own.
    worker_retry = RetryPolicy(max_attempts=ATTEMPTS_CAP, initial_interval=0.0,
                               backoff_factor=1.0, max_interval=0.0, jitter=False,
                               retry_on=retry_on)
    # persist and report do database I/O: retry a busy or locked SQLite database or a dropped
    # PostgreSQL connection, nothing else (a programming error retried is only slower to
    # surface).
    io_retry = RetryPolicy(max_attempts=3, initial_interval=0.2,
                           retry_on=is_transient_storage_error)

    allowed = parallel_keys()  # the channels parallel workers may write: those with a reducer
    builder = StateGraph(ResearchState, context_schema=RunContext, input_schema=ResearchInput)
    # plan and route fan out themselves (``Command(goto=[Send, ...])``): a fan-out that raises
    # leaves no writes, so the resume runs the node, and its fan-out, again (a conditional edge
    # that raised after its node wrote would be skipped on resume: langgraph#8834).
    builder.add_node("plan", plan, retry_policy=worker_retry,
                     destinations=(*names, "review_plan"))
    for worker in workers:
        node = guard_worker_node(worker.name, make_worker_node(worker, res.resolve_worker),
                                 allowed=allowed)
        builder.add_node(worker.name, node, retry_policy=worker_retry)
        builder.add_edge(worker.name, "route")
    builder.add_node("route", route, destinations=(*names, "review_results", "persist"))
    builder.add_node("review_plan", review_plan, destinations=tuple(names))
    builder.add_node("review_results", review_results, destinations=(*names, "persist"))
    builder.add_node("persist", persist, retry_policy=io_retry)
    builder.add_node("report", report, retry_policy=io_retry)
    builder.add_edge(START, "plan")
    builder.add_edge("persist", "report")
    builder.add_edge("report", END)
    return builder.compile(checkpointer=checkpointer, name="research")
