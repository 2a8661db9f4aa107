"""The steps of one worker node call, in the order :func:`workers.base.make_worker_node` runs them.

:func:`base_fields` stamps the fields every outcome shares (after this attempt's backoff),
:func:`attempt_envelope` runs the worker once (:func:`call_worker`, under the run's limiter and
stop signal) and turns its result or error into an envelope (its items checked, those citing a
ref no source knows dropped: :func:`sourced_items`), unless :func:`propagates` says the
error must leave the node (a transient one for the ``RetryPolicy``, a fatal one to stop the run),
and :func:`state_update` builds the node's state update. :func:`run_builder` builds each
worker's ``run`` once per deps object. The rules are the wrapper's (see :mod:`workers.base`).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any

from langgraph.runtime import Runtime

from state import (
    Envelope,
    ResearchState,
    ResultItem,
    Task,
    check_items,
    parallel_keys,
    task_fields,
)
from workers.base import RunScope, WorkerDeps, WorkerResult, WorkerSpec
from workers.errors import RunCancelled, is_fatal, is_transient, one_line
from workers.retry import backoff
from workers.sources.web import CURRENT_AS_OF
from workers.waits import holding, stop_waiting_when
from workers.work_threads import on_work_thread

_WRAPPER_KEYS = frozenset({"envelopes", "tokens", "unmetered_calls"})
_SCHEMA: type = ResearchState
"""The state schema worker writes are checked against (a test declares a key of its own)."""


@functools.cache
def _keys(schema: type) -> tuple[frozenset[str], frozenset[str]]:
    """``schema``'s declared keys, and those of them with a reducer."""
    return schema.__required_keys__ | schema.__optional_keys__, parallel_keys(schema)


def check_state_writes(writes: dict[str, Any]) -> None:
    """Refuse ``WorkerResult.state`` keys the wrapper owns, the schema lacks (LangGraph would
    drop an undeclared key without a word) or declares without a reducer (two workers' writes
    to it would end the map step in ``InvalidUpdateError``; one was announced ok before the
    node's guard made it an error).

    Raises:
        ValueError: naming the keys and what to do.
    """
    owned = sorted(set(writes) & _WRAPPER_KEYS)
    if owned:
        raise ValueError(f"WorkerResult.state writes {', '.join(owned)}: the node wrapper "
                         "writes those; return items and tokens instead")
    declared, parallel = _keys(_SCHEMA)
    unknown = sorted(set(writes) - declared)
    if unknown:
        raise ValueError(f"WorkerResult.state writes {', '.join(unknown)}, which ResearchState "
                         "(state/schema.py) does not declare")
    single = sorted(set(writes) - parallel)
    if single:
        raise ValueError(f"WorkerResult.state writes {', '.join(single)}, which ResearchState "
                         "declares without a reducer: the workers of a map step write in "
                         "parallel; declare it Annotated[T, reducer] (docs/extending.md)")


RunBuilder = Callable[[WorkerDeps], Callable[[Task], WorkerResult]]
"""``run_for(deps) -> run``: the worker's ``run`` for one deps object (see :func:`run_builder`)."""


def run_builder(spec: WorkerSpec) -> RunBuilder:
    """Return ``run_for(deps)``: ``spec.build(deps)``, built on first use, once per deps object.

    Built lazily, a graph compiled only to be drawn or inspected needs no corpus or model, and an
    agent worker's create_agent graph is compiled once, not per task (the app caches one deps
    object per distinct setting). The run is kept on the deps object
    (:attr:`workers.base.WorkerDeps.built_runs`, under a key of this ``run_for``'s own), so it
    lives as long as the deps do: once the app drops them (an MCP restart,
    ``Resources.close``), nothing here holds them or their compiled agent. Thread-safe.
    """
    mine = object()  # this node's key: two workers (or two graphs) share a deps object
    lock = threading.Lock()

    def run_for(deps: WorkerDeps) -> Callable[[Task], WorkerResult]:
        with lock:
            run = deps.built_runs.get(mine)
            if run is None:
                run = deps.built_runs[mine] = spec.build(deps)
            return run

    return run_for


def base_fields(spec: WorkerSpec, task: Task, runtime: Runtime,
                deps: WorkerDeps) -> dict[str, Any]:
    """The envelope fields every outcome shares: the task's key fields, ``attempts`` (1-based,
    after waiting out this attempt's backoff) and LangGraph's ``task_id`` (telemetry only,
    never the key)."""
    info = runtime.execution_info
    question = str(task.get("sub_question", ""))
    who = f"{spec.name} on {question[:60] + '...' if len(question) > 60 else question!r}"
    attempt = backoff(runtime, deps.retry_interval, who)
    return {
        **task_fields(spec.name, task),
        "attempts": attempt,
        "task_id": info.task_id if info else None,
    }


def attempt_envelope(spec: WorkerSpec, run_for: RunBuilder, task: Task, runtime: Runtime,
                     deps: WorkerDeps, scope: RunScope,
                     base: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run one attempt: the envelope (``tokens``: what the worker counted itself) and the
    worker's other state writes, or raise for the RetryPolicy (transient, attempts left) or
    to stop the run (fatal)."""
    spent = 0  # what a worker counted for a result that turns out malformed is still spent
    try:
        result = call_worker(spec, run_for, task, deps, scope, base["attempts"])
        spent = result.tokens
        items = check_items(result.items)
        check_state_writes(result.state)
        if "items" in result.extra:
            raise ValueError("WorkerResult.extra has a key 'items', which would replace the "
                             "result's items: return them as items, other payload under "
                             "another key")
        items, unknown = sourced_items(items, deps.corpus, result.source)
    except Exception as exc:
        if propagates(spec, exc, task, runtime, deps, scope, base["attempts"]):
            raise
        error = Envelope(**base, status="error", error=one_line(exc), tokens=spent)
        return error.to_state(), {}
    structured = {"items": items, **result.extra}
    writes = dict(result.state)
    if unknown:  # counted in the row, and said in the run's notes
        structured["dropped_unsourced"] = len(unknown)
        writes["notes"] = [*(writes.get("notes") or []), unsourced_note(spec.name, unknown)]
    return Envelope(
        **base,
        status="ok",
        structured=structured,
        tokens=result.tokens,
    ).to_state(), writes


def sourced_items(items: list[ResultItem],
                  *sources: Any) -> tuple[list[ResultItem], list[str]]:
    """The items whose ``ref`` names a passage of one of ``sources`` (``source.passage(ref)``
    is not None), and the refs of those dropped. The node passes ``deps.corpus`` (the corpus,
    and with ``--web`` or MCP servers the web pages and tool answers the run has recorded:
    :func:`app.graph.sources.combine_sources`) and the result's own ``source``, if any.

    The one ref check of every worker's items, plain function or agent: the report cites an
    item by its ``ref``, so an item citing what no source knows (``"nowhere#0"``, a bare
    ``doc_id``, a model's invented ref) is dropped rather than shown as a source.

    Args:
        items: checked result items (:func:`state.check_items`).
        sources: where refs resolve, asked in order; None knows no ref.

    Raises:
        Exception: whatever a ``passage`` raised (a closed or damaged index).

    Example:
        >>> class One:
        ...     def passage(self, ref): return object() if ref == "a.md#0" else None
        >>> sourced_items([{"ref": "a.md#0"}, {"ref": "nowhere#0"}], None, One())
        ([{'ref': 'a.md#0'}], ['nowhere#0'])
    """
    known: dict[str, bool] = {}
    kept: list[ResultItem] = []
    unknown: list[str] = []
    for item in items:
        ref = item["ref"]
        if ref not in known:
            known[ref] = any(source is not None and source.passage(ref) is not None
                             for source in sources)
        if known[ref]:
            kept.append(item)
        else:
            unknown.append(ref)
    return kept, unknown


def unsourced_note(name: str, refs: list[str], shown: int = 3) -> str:
    """The run note of the items worker ``name`` cited ``refs`` with, refs no source knows.

    Example:
        >>> print(unsourced_note("glossary", ["nowhere#0", "Send", "a#9", "b#9"]))
        glossary: 4 item(s) dropped, their ref names no passage the sources know: 'nowhere#0', \
'Send', 'a#9' and 1 more (a ref is a passage's, '<doc_id>#<n>')
    """
    return (f"{name}: {len(refs)} item(s) dropped, their ref names no passage the sources "
            f"know: {named_refs(refs, shown)} (a ref is a passage's, '<doc_id>#<n>')")


def named_refs(refs: Sequence[str], shown: int = 3) -> str:
    """The first ``shown`` of ``refs`` quoted (each cut at 80 characters), then how many more.

    Example:
        >>> named_refs(["a#0", "b#1", "c#2", "d#3"])
        "'a#0', 'b#1', 'c#2' and 1 more"
    """
    named = ", ".join(repr(r if len(r) <= 80 else r[:77] + "...") for r in refs[:shown])
    return named + (f" and {len(refs) - shown} more" if len(refs) > shown else "")


def call_worker(spec: WorkerSpec, run_for: RunBuilder, task: Task, deps: WorkerDeps,
                scope: RunScope, attempt: int) -> WorkerResult:
    """Call the worker's ``run`` on ``task`` under the run's limiter, unless the run is stopping.

    Raises:
        RunCancelled: the run was cancelled before the attempt started.
        TypeError: ``run`` returned something other than a :class:`WorkerResult`.
        Exception: whatever ``spec.build`` or ``run`` raised.
    """
    # A wait for a provider's Retry-After, a rate limiter's token or a free slot of the
    # limiter (workers.pacing) ends when the run stops.
    slot = f"a free worker slot ({spec.name} not started)"
    with stop_waiting_when(scope.cancel), holding(scope.limiter, slot):
        if scope.cancel.is_set():
            raise RunCancelled(f"{spec.name} not started: the run is stopping",
                               scope.cancel.cause)
        if scope.on_attempt is not None:
            scope.on_attempt(task, attempt)
        # A web search made during this task (by an agent's tool too) is cached under the
        # task's as_of: a rerun or resume finds it instead of paying again.
        as_of = CURRENT_AS_OF.set(task["as_of"])
        try:
            result = on_work_thread(run_for(deps), task)  # on few threads, not the pool's
        finally:
            CURRENT_AS_OF.reset(as_of)
    if not isinstance(result, WorkerResult):
        raise TypeError(f"{spec.name}.run returned {type(result).__name__}, not a WorkerResult")
    return result


def propagates(spec: WorkerSpec, exc: Exception, task: Task, runtime: Runtime,
               deps: WorkerDeps, scope: RunScope, attempt: int) -> bool:
    """True when ``exc`` must leave the node instead of becoming an error envelope.

    A fatal error (:func:`workers.errors.is_fatal`) stops the run: it cancels the run's scope
    (unless it is the cancellation itself), so no other worker spends a call on a dead key. A
    transient one with attempts left is announced on LangGraph's "custom" stream (a slow or
    flaky provider would otherwise look like a hang) for the RetryPolicy to run the node again.
    """
    if is_fatal(exc):
        if not isinstance(exc, RunCancelled):
            scope.cancel.set(exc)
        return True
    if is_transient(exc) and attempt < deps.max_attempts:
        runtime.stream_writer({"retry": {
            "worker": spec.name, "task_key": task["sub_question"], "attempt": attempt,
            "max_attempts": deps.max_attempts, "error": one_line(exc, 160),
        }})
        return True
    return False


def state_update(envelope: dict[str, Any], writes: dict[str, Any],
                 unmetered: int) -> dict[str, Any]:
    """The node's state update: the worker's other writes, its envelope, and the run totals
    (``tokens``, ``unmetered_calls``) only when non-zero.

    Example:
        >>> state_update({"envelope_id": "e", "tokens": 7}, {"notes": ["n"]}, 0)
        {'notes': ['n'], 'envelopes': [{'envelope_id': 'e', 'tokens': 7}], 'tokens': 7}
    """
    update: dict[str, Any] = {**writes, "envelopes": [envelope]}
    if envelope["tokens"]:
        update["tokens"] = envelope["tokens"]
    if unmetered:
        update["unmetered_calls"] = unmetered
    return update
