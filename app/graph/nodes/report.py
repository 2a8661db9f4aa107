"""``report``: the rows read back, the markdown report written (to a file, to the results
database and into state), the run's verdict recorded."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from app.graph.nodes.common import check_run_plan, check_same_corpus, thread_id_of
from app.graph.resources import Models, Resources
from app.research.outcome import dropped_all, kept_notes, run_outcome
from app.research.relevance import (
    DROPPED_AT_REVIEW,
    WORDS_NOT_FOUND,
    RunWarning,
    corpus_stats,
    judge,
)
from app.research.report import (
    ReportInput,
    render_markdown,
    report_filename,
    report_path,
    write_report,
)
from app.research.report_files import report_thread
from app.research.review import replaced_plan_note
from app.research.rounds import current_envelopes
from app.research.unreached import unreached_notes, unreached_tools
from app.settings.config import RunContext
from state import ResearchState
from workers.attempts import KeptAcrossAttempts
from workers.usage import MAX_RESPONSE_TOKENS
from workers.waits import announcing_waits, stop_waiting_when

__all__ = ["KeptSummaries", "report", "unmetered_note"]


class KeptSummaries:
    """The report model's summaries of ``report`` attempts that failed after it, for the same
    task's next ``RetryPolicy`` attempt.

    ``IO_RETRY`` runs ``report`` again when its database is busy; the summary comes before
    that write, and a failed attempt leaves no writes. So the retry reuses the summary it paid
    for instead of asking the model again, and the attempt that returns writes its tokens, once
    (``tests/app/test_report_retry.py``). Keyed by LangGraph's task id (the same for every
    attempt of one task); bounded: the oldest entries (tasks that never came back) are dropped
    past ``limit``. Best effort, within one process: a crash or another server replica asks the
    model again (a ``summarize`` node of its own, whose write LangGraph checkpoints, would keep
    it across those too).

    Example:
        >>> kept = KeptSummaries()
        >>> try:
        ...     with kept.attempt("task-1") as slot:
        ...         slot["summary"] = "paid for"
        ...         raise TimeoutError("database is locked")
        ... except TimeoutError:
        ...     pass
        >>> with kept.attempt("task-1") as slot:
        ...     slot.get("summary")
        'paid for'
    """

    def __init__(self, limit: int = 64) -> None:
        self._kept = KeptAcrossAttempts[dict[str, Any]](limit)

    @contextmanager
    def attempt(self, key: str) -> Iterator[dict[str, Any]]:
        """One attempt of task ``key``: yields its slot (``{"summary": ...}`` when an earlier
        attempt made one); kept for the next attempt if the block raises, dropped if not."""
        slot = self._kept.take(key) or {}
        try:
            yield slot
        except BaseException:
            if slot:
                self._kept.keep(key, slot)
            raise


def unmetered_note(count: int, served: bool = False) -> str:
    """The run note for ``count`` model responses whose token usage the client could not read
    (the server sent none, an answer the integration could not read, or a count no response
    can have: :func:`workers.usage.token_count`), naming the budget as the run's client sets
    it (a served run's: its context's ``max_tokens``, not the CLI's flag).

    Example:
        >>> unmetered_note(2, served=True)[-55:]
        'the token budget (context max_tokens) cannot count them'
    """
    budget = "context max_tokens" if served else "--max-tokens"
    return (f"{count} model response(s) gave no token usage the client could read (none, or "
            f"not a whole number from 0 to {MAX_RESPONSE_TOKENS:,}): the token count is "
            f"incomplete and the token budget ({budget}) cannot count them")


def report(state: ResearchState, config: RunnableConfig, runtime: Runtime[RunContext], *,
           res: Resources, workers: Sequence[str], summaries: KeptSummaries
           ) -> dict[str, Any]:
    """Read this run's rows back, write the markdown report, and record the verdict in state:
    ``outcome``, ``failed_tasks`` and the relevance ``warnings``, so a LangGraph Server client
    reads what the CLI prints.

    The report goes to the file ``report_path`` (for the CLI), to the results database's
    ``reports`` table (upserted by thread id: ``inspect THREAD_ID --report``) and into state as
    ``report`` (a client of the thread, on any replica). A retried or resumed ``report`` writes
    all three again, with the same text for the same rows; a retry reuses the model summary
    its failed attempt made (``summaries``: :class:`KeptSummaries`).

    Raises:
        app.research.plan_check.BadPlan: the plan cannot run or was made for another topic
            (a state edit after ``persist``): nothing is written.
        app.errors.CorpusMismatch: a served run continues the thread on another corpus."""
    ctx = res.context(runtime)
    check_run_plan(state, res, workers)
    check_same_corpus(state, ctx.corpus_name, res.served)
    res.run(runtime).faults.at("report")
    models = res.models(ctx)
    ids = [e["envelope_id"] for e in current_envelopes(state)]
    with res.storage().results() as store:
        rows = store.rows(ids, thread_id=thread_id_of(config))
    corpus = res.corpus(ctx)
    # the one verdict (the report's and the state's); the corpus's vocabulary is weighed only
    # when the corpus is the run's one source (the web or an MCP tool may know other words)
    alone = not ctx.web and not res.settings.mcp_config
    data = ReportInput(
        topic=state["topic"], as_of=state["as_of"], model_label=models.label,
        thread_id=thread_id_of(config), sub_questions=list(state["sub_questions"]), rows=rows,
        notes=list(state.get("notes") or []), planned=state.get("planned"),
        dropped=dropped_all(state),
    )
    # judged against what the report answers: the topic, or a replacing plan's questions
    asked = data.asked
    relevance = judge(asked, rows, corpus_stats(corpus, asked) if alone else None,
                      tools_failed=unreached_tools(state.get("notes") or []))
    data.relevance = relevance
    # Files the corpus skipped (an encrypted or broken PDF...): the reader should know what
    # the report could not draw on.
    extra_notes = [why] if (why := replaced_plan_note(state)) else []  # however replaced
    extra_notes += list(getattr(corpus, "notes", None) or [])
    # and the MCP tools the agents were not offered (a schema that cannot be used...)
    if (mcp := res.mcp()) is not None:
        extra_notes += getattr(mcp[0], "notes", [])
    outcome, failed = run_outcome(state, rows)  # the rows say which kept an earlier result
    # A search that did not answer is named as not reached, never read as an empty answer.
    extra_notes += unreached_notes(rows) + kept_notes(failed)
    info = runtime.execution_info
    with summaries.attempt(info.task_id if info else thread_id_of(config)) as kept:
        update = _summarize(state, ctx, models, data, extra_notes, runtime, res, kept)
        markdown, path = _noted_write(state, data, res, update, extra_notes)
    runtime.stream_writer({"report": {"path": str(path.resolve()), "outcome": outcome}})
    return {"report_path": str(path.resolve()), "report": markdown, "outcome": outcome,
            "failed_tasks": failed, "warnings": _warnings(data), **update}


def _noted_write(state: ResearchState, data: ReportInput, res: Resources,
                 update: dict[str, Any], extra_notes: list[str]) -> tuple[str, Path]:
    """Add the run's last notes (``extra_notes``, the unmetered responses, the words no source
    mentions, a replaced report file) to ``data`` and to the state ``update``, then
    :func:`_write` the report; its markdown and path."""
    unmetered = (state.get("unmetered_calls") or 0) + update.get("unmetered_calls", 0)
    if unmetered:  # a server that omits usage must not switch the budget off silently
        extra_notes.append(unmetered_note(unmetered, res.served))
    if extra_notes:
        data.notes += extra_notes
        update["notes"] = extra_notes
    replaced: list[str] = []
    markdown, path = _write(state, data, res, replaced)
    if replaced:
        update["notes"] = [*update.get("notes", []), *replaced]
    return markdown, path


def _write(state: ResearchState, data: ReportInput, res: Resources, notes: list[str]
           ) -> tuple[str, Path]:
    """Render ``data`` and write it to the report file and the results database's ``reports``
    table; the markdown and the file's path. A report of another thread at that path (``--out``
    shared by two topics) is replaced with a line in ``notes`` naming the thread."""
    name = report_filename(state["topic"], state["as_of"], data.thread_id)
    path = report_path(res.settings.report_out, res.settings.data_dir, name)
    markdown = render_markdown(data)
    other = report_thread(path)
    write_report(markdown, path)
    with res.storage().results() as store:  # for every machine that reaches the database
        store.save_report(data.thread_id, markdown)
    if other is not None and other != data.thread_id:  # said, not replaced silently
        with res.storage().results(read_only=True) as store:  # its data dir, or another's
            here = store is not None and bool(store.count(thread_id=other))
        where = "" if here else " of the data dir that ran it"
        notes.append(f"{path} held the report of thread {other}, replaced by this one (its "
                     f"text stays in the results database{where}: inspect {other} --report)")
    return markdown, path


def _warnings(data: ReportInput) -> list[dict[str, str]]:
    """The run's warnings for state and the summary: the relevance verdict's, the topic's words
    no retrieved passage mentions (the report's first line), and one line when every result was
    dropped at review (nothing to find below)."""
    warnings = list(data.relevance.warnings) if data.relevance is not None else []
    if data.relevance is not None and data.relevance.missing:
        warnings.append(RunWarning(WORDS_NOT_FOUND, data.relevance.note(data.asked)))
    if data.dropped:
        warnings.append(RunWarning(DROPPED_AT_REVIEW, f"every result ({data.dropped}) was "
                                   "dropped at review: nothing was persisted, and the report "
                                   "has no finding"))
    return [w.to_dict() for w in warnings]


def _summarize(state: ResearchState, ctx: RunContext, models: Models, data: ReportInput,
               notes: list[str], runtime: Runtime[RunContext], res: Resources,
               kept: dict[str, Any]) -> dict[str, Any]:
    """The report model's sourced summary into ``data`` (not offline, not past the token
    budget): the one a failed attempt of this task made (``kept["summary"]``), else asked now
    and kept there; its notes into ``notes``; the state update for its tokens."""
    update: dict[str, Any] = {}
    if models.summarize is None:
        return update
    spent = state.get("tokens", 0) or 0
    if "summary" not in kept and ctx.max_tokens is not None and spent >= ctx.max_tokens:
        notes.append("no model summary: the token budget is spent")
        return update
    if "summary" not in kept:
        with stop_waiting_when(res.run(runtime).scope.cancel), \
                announcing_waits(runtime.stream_writer):  # Retry-After waits, said
            kept["summary"] = models.summarize(data)
    summary = kept["summary"]
    data.summary = list(summary)
    notes += list(getattr(summary, "notes", None) or [])
    if getattr(summary, "tokens", 0):
        update["tokens"] = int(summary.tokens)
    if getattr(summary, "unmetered", 0):
        update["unmetered_calls"] = int(summary.unmetered)
    return update
