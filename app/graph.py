"""The supervisor graph: plan -> dispatch (Send) -> workers -> route -> persist -> report.

```
START -> plan --dispatch--> [Send(worker, Task) for worker x sub-question] -> route
route --next_step--> [Send(...) for each task whose envelope is status="error"]  (more rounds)
                 \\-> persist -> report -> END
```

* ``dispatch`` and ``next_step`` are pure conditional edges: they only read state and build
  ``Send`` objects. A conditional edge that raises can make a resume skip the workers, so
  everything fallible lives in nodes.
* Workers write ``{"envelopes": [envelope]}``; :func:`state.envelope_reducer` upserts by
  ``envelope_id``, so a retried, resumed or re-dispatched task updates its envelope in place.
* ``route`` is the join after each map step (one node, so the next step is decided once, not once
  per worker) and records what it decided in ``notes``.
* ``persist`` upserts every not-yet-persisted envelope into the results database in one
  transaction, then writes back ``persisted=True, structured=None``: state shrinks and the
  database becomes the source of truth. Running it twice (a crash between its commit and its
  checkpoint) updates the same rows.
* ``report`` reads the rows back and writes the markdown report.

Source: LangGraph's map-reduce how-to (``Send``), "Add retry policies", and "Durable execution".
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.types import Overwrite, RetryPolicy, Send

from app.config import today_utc
from app.faults import FaultPlan
from app.models import ModelChoice
from app.plan import llm_plan, offline_plan
from app.report import ReportInput, render_markdown, report_filename, write_report
from app.store import ResultsStore
from state import ResearchInput, ResearchState, Task, normalize_as_of
from workers.base import WorkerDeps, WorkerSpec, make_worker_node
from workers.errors import is_transient

__all__ = ["GraphConfig", "build_graph", "current_envelopes", "next_round_tasks"]

ReportWriter = Callable[[ReportInput], list[tuple[str, list[str]]]]
"""Optional model synthesis for the report: returns ``[(sentence, [ref, ...])]``; the list may
carry ``tokens`` (int) and ``notes`` (list of str) attributes, which go to the ``tokens`` and
``notes`` channels (see :class:`app.synthesis.Synthesis`)."""


@dataclass
class GraphConfig:
    """Everything :func:`build_graph` wires together.

    Attributes:
        workers: the registered workers to fan out to.
        worker_deps: what the workers get (corpus, model, hooks, attempts).
        planner: the model for ``plan`` (offline -> deterministic decomposition).
        model_label: how the report names the model(s) used.
        data_dir: where the results database and reports live.
        rounds: dispatch rounds in all (1 = no re-dispatch of failed tasks).
        max_tokens: token budget; once spent no new round is dispatched (None = no budget).
        retry_interval: seconds before the first retry of a worker (RetryPolicy).
        faults: fault injection for tests and demos (None = none).
        report_out: a file path or folder for the report (None = ``data_dir/reports``).
        summarize: optional model synthesis of the report (None = extractive report only).
    """

    workers: Sequence[WorkerSpec]
    worker_deps: WorkerDeps
    planner: ModelChoice
    model_label: str
    data_dir: Path
    rounds: int = 2
    max_tokens: int | None = None
    retry_interval: float = 0.5
    faults: FaultPlan | None = None
    report_out: Path | None = None
    summarize: ReportWriter | None = None


def current_envelopes(state: ResearchState) -> list[dict[str, Any]]:
    """The envelopes of this run: those whose task is one of the current sub-questions and whose
    ``as_of`` is the run's. (A thread that is run again keeps older envelopes in the channel.)"""
    questions = set(state.get("sub_questions") or [])
    as_of = state.get("as_of")
    return [
        e
        for e in state.get("envelopes") or []
        if e.get("task_key") in questions and e.get("as_of") == as_of
    ]


def next_round_tasks(
    state: ResearchState, worker_names: Sequence[str], rounds: int, max_tokens: int | None
) -> tuple[list[Task], str | None]:
    """Decide the next map step: the failed tasks to send again, and why not if none.

    Pure: the ``route`` node (for its note) and the ``next_step`` edge (for the ``Send``s) call
    it with the same state and get the same answer.

    Returns:
        ``(tasks, reason)``: the tasks of round ``r + 1`` (each keeps its worker and
        sub-question, so its ``envelope_id`` is unchanged), and a note when failed tasks remain
        but are not re-sent (no rounds or no budget left), or when the token budget is spent,
        else None.
    """
    envelopes = current_envelopes(state)
    failed = [e for e in envelopes if e.get("status") == "error" and e["worker"] in worker_names]
    spent = state.get("tokens", 0) or 0
    over_budget = max_tokens is not None and spent >= max_tokens
    if not failed:
        # The budget note reaches the report even when nothing is left to re-dispatch.
        return [], (f"token budget spent ({spent} of {max_tokens})" if over_budget else None)
    this_round = max(e.get("round", 1) for e in envelopes)
    if this_round >= rounds:
        reason = f"{len(failed)} task(s) still failed after {this_round} round(s)"
        if over_budget:
            reason += f"; token budget spent ({spent} of {max_tokens})"
        return [], reason
    if over_budget:
        return [], (
            f"token budget spent ({spent} of {max_tokens}): {len(failed)} failed task(s) "
            "were not dispatched again"
        )
    tasks = [
        Task(
            worker=e["worker"],
            sub_question=e["task_key"],
            topic=state["topic"],
            as_of=state["as_of"],
            round=this_round + 1,
        )
        for e in failed
    ]
    return tasks, None


def _thread_id(config: RunnableConfig) -> str:
    """The run's ``thread_id``; ``"-"`` for a run without a checkpointer (no thread)."""
    return (config.get("configurable") or {}).get("thread_id") or "-"


def build_graph(cfg: GraphConfig, checkpointer: Any = None):
    """Compile the research graph.

    Args:
        cfg: the wiring (workers, models, data dir, rounds, faults).
        checkpointer: a LangGraph checkpointer (e.g. ``SqliteSaver``), or None (LangGraph Server
            and Studio bring their own).

    Returns:
        The compiled graph. Invoke it with ``{"topic": ..., "as_of": "YYYY-MM-DD"}`` and
        ``{"configurable": {"thread_id": ...}, "max_concurrency": N}``.
    """
    names = [w.name for w in cfg.workers]
    if len(set(names)) != len(names):
        raise ValueError(f"worker names must be unique: {names}")
    faults = cfg.faults or FaultPlan()
    data_dir = Path(cfg.data_dir)

    def plan(state: ResearchState) -> dict[str, Any]:
        """Turn the topic into 3 to 5 sub-questions (single writer of ``sub_questions``)."""
        topic = state["topic"]
        tokens, notes = 0, []
        if cfg.planner.offline:
            questions = offline_plan(topic)
        elif state.get("sub_questions"):
            # The thread is run again (same topic and as_of, checked by the caller): keep its
            # plan, so the same tasks get the same envelope ids and update the same rows, as
            # the deterministic offline plan does. (``--fresh`` starts a new thread.)
            questions = list(state["sub_questions"])
        else:
            result = llm_plan(topic, cfg.planner.model)
            questions, tokens, notes = result.questions, result.tokens, result.notes
        # A thread that is run again starts its notes and token count afresh: ``Overwrite``
        # bypasses the channels' reducers (concat and operator.add) for this one write.
        return {
            "sub_questions": questions,
            # Studio and LangGraph Server callers may leave as_of out: default it here, once,
            # so every task of the run carries the same date (and so the same envelope ids).
            "as_of": normalize_as_of(state.get("as_of") or today_utc()),
            "notes": Overwrite(notes),
            "tokens": Overwrite(tokens),
        }

    def dispatch(state: ResearchState) -> list[Send]:
        """Pure conditional edge: one ``Send`` per worker per sub-question (round 1)."""
        return [
            Send(
                worker.name,
                Task(
                    worker=worker.name,
                    sub_question=question,
                    topic=state["topic"],
                    as_of=state["as_of"],
                    round=1,
                ),
            )
            for question in state["sub_questions"]
            for worker in cfg.workers
        ]

    def route(state: ResearchState) -> dict[str, Any]:
        """Join of one map step: note what happens next (the ``next_step`` edge acts on it)."""
        tasks, reason = next_round_tasks(state, names, cfg.rounds, cfg.max_tokens)
        if tasks:
            return {"notes": [f"round {tasks[0]['round']}: re-dispatching {len(tasks)} failed "
                              "task(s)"]}
        return {"notes": [reason]} if reason else {}

    def next_step(state: ResearchState) -> list[Send] | str:
        """Pure conditional edge: re-send the failed tasks, or go on to ``persist``."""
        tasks, _ = next_round_tasks(state, names, cfg.rounds, cfg.max_tokens)
        return [Send(t["worker"], t) for t in tasks] if tasks else "persist"

    def persist(state: ResearchState, config: RunnableConfig) -> dict[str, Any]:
        """Upsert every unpersisted envelope in one transaction; drop payloads from state."""
        pending = [e for e in current_envelopes(state) if not e.get("persisted")]
        if not pending:
            return {}
        thread_id = _thread_id(config)
        with ResultsStore.in_dir(data_dir) as store:
            store.upsert(pending, thread_id=thread_id, topic=state["topic"])
        faults.at("persist-commit")
        return {
            "envelopes": [
                {"envelope_id": e["envelope_id"], "persisted": True, "structured": None}
                for e in pending
            ]
        }

    def report(state: ResearchState, config: RunnableConfig) -> dict[str, Any]:
        """Read this run's rows back and write the markdown report."""
        faults.at("report")
        ids = [e["envelope_id"] for e in current_envelopes(state)]
        with ResultsStore.in_dir(data_dir) as store:
            rows = store.rows(ids, thread_id=_thread_id(config))
        data = ReportInput(
            topic=state["topic"],
            as_of=state["as_of"],
            model_label=cfg.model_label,
            thread_id=_thread_id(config),
            sub_questions=list(state["sub_questions"]),
            rows=rows,
            notes=list(state.get("notes") or []),
        )
        update: dict[str, Any] = {}
        if cfg.summarize is not None:
            spent = state.get("tokens", 0) or 0
            if cfg.max_tokens is not None and spent >= cfg.max_tokens:
                extra_notes = ["no model summary: the token budget is spent"]
            else:
                summary = cfg.summarize(data)
                data.summary = list(summary)
                extra_notes = list(getattr(summary, "notes", None) or [])
                if getattr(summary, "tokens", 0):
                    update["tokens"] = int(summary.tokens)
            if extra_notes:
                data.notes += extra_notes
                update["notes"] = extra_notes
        name = report_filename(state["topic"], state["as_of"], data.thread_id)
        out = cfg.report_out
        if out is None:
            path = data_dir / "reports" / name
        elif out.is_dir() or str(out).endswith(("/", "\\")):
            path = out / name
        else:
            path = out
        write_report(render_markdown(data), path)
        return {"report_path": str(path.resolve()), **update}

    worker_retry = RetryPolicy(
        max_attempts=cfg.worker_deps.max_attempts,
        initial_interval=cfg.retry_interval,
        max_interval=max(cfg.retry_interval * 8, 1.0),
        retry_on=is_transient,
    )
    # persist and report do local I/O: retry a busy or locked SQLite database, nothing else
    # (a programming error retried is only slower to surface).
    io_retry = RetryPolicy(max_attempts=3, initial_interval=0.2,
                           retry_on=sqlite3.OperationalError)

    builder = StateGraph(ResearchState, input_schema=ResearchInput)
    builder.add_node("plan", plan, retry_policy=worker_retry)
    for worker in cfg.workers:
        builder.add_node(
            worker.name, make_worker_node(worker, cfg.worker_deps), retry_policy=worker_retry
        )
        builder.add_edge(worker.name, "route")
    builder.add_node("route", route)
    builder.add_node("persist", persist, retry_policy=io_retry)
    builder.add_node("report", report, retry_policy=io_retry)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", dispatch, names)
    builder.add_conditional_edges("route", next_step, [*names, "persist"])
    builder.add_edge("persist", "report")
    builder.add_edge("report", END)
    return builder.compile(checkpointer=checkpointer, name="research")
