"""What every worker shares: its dependencies, its registration record, and the node wrapper.

A worker is ``build(deps) -> run`` with ``run(task) -> WorkerResult`` (see :class:`WorkerSpec`).
:func:`make_worker_node` turns it into the LangGraph node that a ``Send`` targets. The wrapper is
where the durability rules live, so each worker module stays about its own job
(docs/architecture.md, "Layout and import rules" and "The envelope contract"):

* the envelope is stamped with :func:`state.task_fields` (its id from
  :func:`state.make_envelope_id`) from the task's own inputs, never from LangGraph's runtime
  ``task_id`` (recorded as telemetry only);
* a transient error is re-raised while attempts are left, so LangGraph's ``RetryPolicy`` retries
  the node (a failed attempt leaves no writes);
* on the last attempt, or for a permanent error, the worker returns an error envelope instead of
  failing the run; only a fatal model error (bad key, unknown model) stops the run;
* every token a model served during the task is counted (:mod:`workers.usage`), the attempts
  that failed and were retried included, and written with the attempt that returns.

Dependencies (the chat model, the corpus) are looked up per run from LangGraph's runtime context
by a resolver the app passes in, with the per-run objects (stop signal, limiter, hooks: a
:class:`RunScope`); workers never import ``app``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from langgraph.runtime import Runtime

from state import Envelope, ResearchState, ResultItem, Task, check_items, task_fields
from workers.errors import RunCancelled, is_fatal, is_transient, one_line
from workers.pacing import stop_waiting_when
from workers.retry import backoff
from workers.sources.web import CURRENT_AS_OF
from workers.usage import AttemptTokens

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

    from workers.sources import Corpus, Source

__all__ = [
    "Cancellation", "Resolver", "RunScope", "WorkerDeps", "WorkerResult", "WorkerSpec",
    "guard_worker_node", "make_worker_node",
]

AttemptHook = Callable[[Task, int], None]
"""Called as ``hook(task, attempt)`` at the start of every attempt; may raise (fault injection)."""
DoneHook = Callable[[Task, dict[str, Any]], None]
"""Called as ``hook(task, envelope)`` after a worker produced its envelope (telemetry,
crash demos)."""


class Cancellation:
    """A run-wide stop signal, set once, remembering the error that caused it (None: Ctrl-C).

    Example:
        >>> stop = Cancellation()
        >>> stop.set(RuntimeError("401")); stop.set(RuntimeError("later"))
        >>> stop.is_set(), str(stop.cause)
        (True, '401')
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self.cause: BaseException | None = None

    def set(self, cause: BaseException | None = None) -> None:
        """Stop the run; the first cause given is kept."""
        with self._lock:
            if not self._event.is_set():
                self.cause = cause
                self._event.set()

    def is_set(self) -> bool:
        """True once the run is stopping."""
        return self._event.is_set()


@dataclass(frozen=True)
class WorkerDeps:
    """What a worker's ``build`` gets: the long-lived objects it works with.

    The app builds one per distinct run context and caches it (the same settings give the same
    object), so an agent worker compiles its ``create_agent`` graph once, not per run.

    Attributes:
        corpus: the searchable corpus (``workers.sources.Corpus``).
        model: the chat model agent workers drive (offline or a real LLM).
        search_k: how many passages a search returns.
        max_attempts: attempts per task (the node gives up after this many; see
            :func:`make_worker_node`).
        retry_interval: seconds before the first retry, doubled per attempt (at most 8x, or
            1 s), plus up to 1 s of jitter: LangGraph's ``RetryPolicy`` formula.
        web: the web source when the run searches the web (``--web``;
            :class:`workers.sources.web.WebSource`), else None. The ``web_search`` worker and
            the agents' ``search_web`` tool use it.
        tools: more tools offered to every agent worker next to the corpus tools (the
            operator's MCP servers' tools, :mod:`workers.mcp_tools`); empty by default.
    """

    corpus: Corpus | Source | None
    model: BaseChatModel | None = None
    search_k: int = 5
    max_attempts: int = 3
    retry_interval: float = 0.0
    web: Source | None = None
    tools: tuple[BaseTool, ...] = ()


@dataclass
class RunScope:
    """The per-run objects of one graph run (one ``invoke``/``stream`` of a thread): never
    shared by two runs, so one run's fatal error never stops another.

    Attributes:
        cancel: once set (a fatal model error, Ctrl-C), workers that have not started their
            work raise :class:`workers.errors.RunCancelled` instead: every task waiting on
            ``limiter`` counts as started for LangGraph, which could not cancel it itself.
        limiter: bounds how many workers do their work at once (a ``threading.Semaphore``).
            Used instead of LangGraph's ``max_concurrency``, which sizes the one thread pool
            that runs both the nodes *and* the checkpointer's ``put_writes``: with fewer threads
            than tasks, a finished worker's pending writes wait behind the queued workers, and a
            crash then loses results that had finished (see docs/durability.md).
        on_attempt: optional hook run before every attempt.
        on_done: optional hook run after every finished attempt, ok or error.
    """

    cancel: Cancellation = field(default_factory=Cancellation)
    limiter: threading.Semaphore | None = None
    on_attempt: AttemptHook | None = None
    on_done: DoneHook | None = None


Resolver = Callable[[Runtime], tuple[WorkerDeps, RunScope]]
"""``resolve(runtime) -> (deps, scope)``: how a worker node finds, from LangGraph's runtime (its
``context`` and its run), the dependencies and the per-run objects of the run it is part of."""

@dataclass
class WorkerResult:
    """What a worker's ``run`` returns.

    Attributes:
        items: the sourced claims, each a :class:`state.ResultItem`: ``{"kind": "finding" |
            "caveat" | "passage", "text", "ref", "title", "source"}`` (+ ``"score"`` for
            passages). The report cites ``ref``; a claim whose ref the corpus does not know is
            dropped by the worker. An item of another kind makes this task's envelope an error
            naming the kind (:func:`state.check_items`).
        tokens: tokens the worker spent outside LangChain chat models (e.g. a provider SDK called
            directly). Calls of LangChain chat models are counted by the node itself, failed
            attempts included (:mod:`workers.usage`): do not add them here.
        extra: any other payload worth keeping in the results database.
        state: writes to other keys of :class:`state.ResearchState`, ``{key: value}``, returned
            by the node next to the envelope. Workers run in parallel, so each key needs a
            reducer (docs/extending.md, "Add a state key"); a key the schema does not declare,
            or one the wrapper writes (``envelopes``, ``tokens``, ``unmetered_calls``), makes
            the envelope an error.
    """

    items: list[ResultItem]
    tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class WorkerSpec:
    """One registered worker.

    Attributes:
        name: the node name and the envelope's ``worker`` field (part of its id: keep it stable).
        kind: ``"function"`` (plain Python) or ``"agent"`` (a ``create_agent`` subgraph).
        description: one line for ``--help`` and the docs.
        build: ``build(deps) -> run`` where ``run(task) -> WorkerResult``; called once per
            :class:`WorkerDeps` (the app caches one per distinct setting), on the first task,
            so an agent worker compiles its ``create_agent`` graph once.
    """

    name: str
    kind: Literal["function", "agent"]
    description: str
    build: Callable[[WorkerDeps], Callable[[Task], WorkerResult]]


_WRAPPER_KEYS = frozenset({"envelopes", "tokens", "unmetered_calls"})
_STATE_KEYS = ResearchState.__required_keys__ | ResearchState.__optional_keys__


def _check_state_writes(writes: dict[str, Any]) -> None:
    """Refuse ``WorkerResult.state`` keys the wrapper owns or the schema lacks (LangGraph would
    drop an undeclared key without a word)."""
    owned = sorted(set(writes) & _WRAPPER_KEYS)
    if owned:
        raise ValueError(f"WorkerResult.state writes {', '.join(owned)}: the node wrapper "
                         "writes those; return items and tokens instead")
    unknown = sorted(set(writes) - _STATE_KEYS)
    if unknown:
        raise ValueError(f"WorkerResult.state writes {', '.join(unknown)}, which ResearchState "
                         "(state/schema.py) does not declare")


def guard_worker_node(name: str, node: Callable[..., Any],
                      allowed: frozenset[str]) -> Callable[..., dict[str, Any]]:
    """Wrap a ``Send`` target so that whatever it returns, the graph gets a valid worker update:
    a result that is not a dict, that writes keys outside ``allowed`` (a node that echoes its
    task, ``{**task, **update}``, writes ``topic``) or whose ``envelopes`` are not dicts becomes
    this task's error envelope, naming what was wrong.

    Parallel workers may only write channels with a reducer: a key without one (``topic``,
    ``as_of``: the input's; ``sub_questions``: ``plan``'s) takes one write per superstep, and
    two would end it in ``InvalidUpdateError`` with the writes saved, so that no resume gets
    past it.

    Args:
        name: the worker's name (the envelope's ``worker``).
        node: ``node(task, runtime) -> dict``.
        allowed: the state keys a worker may write (the graph passes
            :func:`state.parallel_keys`, the channels with a reducer).
    """

    def guarded(task: Task, runtime: Runtime) -> dict[str, Any]:
        update = node(task, runtime)
        problem = None
        if not isinstance(update, dict):
            problem = f"returned {type(update).__name__}, not a dict"
        elif set(update) - allowed:
            problem = (f"wrote {', '.join(sorted(set(update) - allowed))}, which a worker "
                       f"may not write (only {', '.join(sorted(allowed))})")
        elif not all(isinstance(e, dict) for e in update.get("envelopes") or []):
            problem = "wrote envelopes that are not dicts"
        if problem is None:
            return update
        envelope = Envelope(**task_fields(name, task), status="error",
                            error=f"{name} {problem}").to_state()
        runtime.stream_writer({"envelope": envelope})
        return {"envelopes": [envelope]}

    guarded.__name__ = getattr(node, "__name__", name)
    guarded.__doc__ = getattr(node, "__doc__", None)
    return guarded


def make_worker_node(spec: WorkerSpec, resolve: Resolver) -> Callable[..., dict[str, Any]]:
    """Build the LangGraph node for ``spec``: ``node(task, runtime) -> {"envelopes": [...], ...}``.

    The node's input is the :class:`state.Task` carried by a ``Send``. Attach a ``RetryPolicy``
    with ``retry_on=``:func:`retry_on`, ``max_attempts=``:data:`ATTEMPTS_CAP` and no interval of
    its own (the app's graph does): the node waits (:func:`backoff`) and gives up after
    ``deps.max_attempts`` by itself.

    Args:
        spec: the worker.
        resolve: finds the run's :class:`WorkerDeps` and :class:`RunScope` from the runtime.

    Raises:
        Exception: a transient error while attempts are left (for the ``RetryPolicy``), or a
            fatal model error (see :func:`workers.errors.is_fatal`). Anything else, including
            a ``run`` that returns something other than a :class:`WorkerResult`, becomes an
            error envelope.
    """
    run_for = _run_builder(spec)
    carried = AttemptTokens()  # tokens of failed attempts, for the task's next attempt

    def node(task: Task, runtime: Runtime) -> dict[str, Any]:
        deps, scope = resolve(runtime)
        base = _base_fields(spec, task, runtime, deps)
        started = time.perf_counter()
        with carried.attempt(base["task_id"] or base["envelope_id"]) as served:
            envelope, writes = _attempt_envelope(spec, run_for, task, runtime, deps, scope, base)
        envelope["tokens"] = served.tokens + (envelope.get("tokens") or 0)
        envelope["seconds"] = round(time.perf_counter() - started, 3)
        if scope.on_done is not None:
            scope.on_done(task, envelope)
        runtime.stream_writer({"envelope": envelope})
        return _state_update(envelope, writes, served.unmetered)

    node.__name__ = spec.name
    node.__doc__ = spec.description
    return node


_RunBuilder = Callable[[WorkerDeps], Callable[[Task], WorkerResult]]
"""``run_for(deps) -> run``: the worker's ``run`` for one deps object (see :func:`_run_builder`)."""


def _run_builder(spec: WorkerSpec) -> _RunBuilder:
    """Return ``run_for(deps)``: ``spec.build(deps)``, built on first use, once per deps object.

    Built lazily, a graph compiled only to be drawn or inspected needs no corpus or model, and an
    agent worker's create_agent graph is compiled once, not per task (the app caches one deps
    object per distinct setting). The deps object is kept with its run, so its id is never
    reused while the entry exists. Thread-safe.
    """
    built: dict[int, tuple[WorkerDeps, Callable[[Task], WorkerResult]]] = {}
    lock = threading.Lock()

    def run_for(deps: WorkerDeps) -> Callable[[Task], WorkerResult]:
        with lock:
            entry = built.get(id(deps))
            if entry is None:
                entry = built[id(deps)] = (deps, spec.build(deps))
            return entry[1]

    return run_for


def _base_fields(spec: WorkerSpec, task: Task, runtime: Runtime,
                 deps: WorkerDeps) -> dict[str, Any]:
    """The envelope fields every outcome shares: the task's key fields, ``attempts`` (1-based,
    after waiting out this attempt's backoff) and LangGraph's ``task_id`` (telemetry only,
    never the key)."""
    info = runtime.execution_info
    attempt = backoff(runtime, deps.retry_interval)
    return {
        **task_fields(spec.name, task),
        "attempts": attempt,
        "task_id": info.task_id if info else None,
    }


def _attempt_envelope(spec: WorkerSpec, run_for: _RunBuilder, task: Task, runtime: Runtime,
                      deps: WorkerDeps, scope: RunScope,
                      base: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run one attempt: the envelope (``tokens``: what the worker counted itself) and the
    worker's other state writes, or raise for the RetryPolicy (transient, attempts left) or
    to stop the run (fatal)."""
    spent = 0  # what a worker counted for a result that turns out malformed is still spent
    try:
        result = _call_worker(spec, run_for, task, deps, scope, base["attempts"])
        spent = result.tokens
        items = check_items(result.items)
        _check_state_writes(result.state)
    except Exception as exc:
        if _propagates(spec, exc, task, runtime, deps, scope, base["attempts"]):
            raise
        error = Envelope(**base, status="error", error=one_line(exc), tokens=spent)
        return error.to_state(), {}
    return Envelope(
        **base,
        status="ok",
        structured={"items": items, **result.extra},
        tokens=result.tokens,
    ).to_state(), dict(result.state)


def _call_worker(spec: WorkerSpec, run_for: _RunBuilder, task: Task, deps: WorkerDeps,
                 scope: RunScope, attempt: int) -> WorkerResult:
    """Call the worker's ``run`` on ``task`` under the run's limiter, unless the run is stopping.

    Raises:
        RunCancelled: the run was cancelled before the attempt started.
        TypeError: ``run`` returned something other than a :class:`WorkerResult`.
        Exception: whatever ``spec.build`` or ``run`` raised.
    """
    # A wait for a provider's Retry-After (workers.pacing) ends when the run stops.
    with scope.limiter or contextlib.nullcontext(), stop_waiting_when(scope.cancel):
        if scope.cancel.is_set():
            raise RunCancelled(f"{spec.name} not started: the run is stopping",
                               scope.cancel.cause)
        if scope.on_attempt is not None:
            scope.on_attempt(task, attempt)
        # A web search made during this task (by an agent's tool too) is cached under the
        # task's as_of: a rerun or resume finds it instead of paying again.
        as_of = CURRENT_AS_OF.set(task["as_of"])
        try:
            result = run_for(deps)(task)
        finally:
            CURRENT_AS_OF.reset(as_of)
    if not isinstance(result, WorkerResult):
        raise TypeError(f"{spec.name}.run returned {type(result).__name__}, not a WorkerResult")
    return result


def _propagates(spec: WorkerSpec, exc: Exception, task: Task, runtime: Runtime,
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


def _state_update(envelope: dict[str, Any], writes: dict[str, Any],
                  unmetered: int) -> dict[str, Any]:
    """The node's state update: the worker's other writes, its envelope, and the run totals
    (``tokens``, ``unmetered_calls``) only when non-zero.

    Example:
        >>> _state_update({"envelope_id": "e", "tokens": 7}, {"notes": ["n"]}, 0)
        {'notes': ['n'], 'envelopes': [{'envelope_id': 'e', 'tokens': 7}], 'tokens': 7}
    """
    update: dict[str, Any] = {**writes, "envelopes": [envelope]}
    if envelope["tokens"]:
        update["tokens"] = envelope["tokens"]
    if unmetered:
        update["unmetered_calls"] = unmetered
    return update
