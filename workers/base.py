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
* an item whose ``ref`` no source knows is dropped, counted and noted, whoever made it
  (:func:`workers.node_steps.sourced_items`): the report cites only real passages;
* every token a model served during the task is counted (:mod:`workers.usage`), the attempts
  that failed and were retried included, and written with the attempt that returns.

The steps of one node call live in :mod:`workers.node_steps`.

Dependencies (the chat model, the corpus) are looked up per run from LangGraph's runtime context
by a resolver the app passes in, with the per-run objects (stop signal, limiter, hooks: a
:class:`RunScope`); workers never import ``app``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from langgraph.runtime import Runtime

from state import Envelope, ResultItem, Task, task_fields
from workers.shared_strings import SharedStrings
from workers.usage import AttemptTokens

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

    from workers.sources import Corpus, Source
    from workers.waits import Slots

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

    Safe to set from a signal handler: Python runs it on the main thread between two bytecodes,
    maybe while that thread waits on this very object or sets it, so every lock here is
    re-entrant (a ``threading.Event``'s plain lock deadlocked the handler of a Ctrl-C that
    landed inside ``Event.wait``: trial 54).

    Example:
        >>> stop = Cancellation()
        >>> stop.set(RuntimeError("401")); stop.set(RuntimeError("later"))
        >>> stop.is_set(), str(stop.cause)
        (True, '401')
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.RLock())
        self._set = False
        self._on_set: list[Callable[[], None]] = []
        self.cause: BaseException | None = None

    def set(self, cause: BaseException | None = None) -> None:
        """Stop the run; the first cause given is kept. Calls what :meth:`on_set` registered."""
        with self._cond:
            if self._set:
                return
            self.cause = cause
            self._set = True
            callbacks, self._on_set = self._on_set, []
            self._cond.notify_all()
        for callback in callbacks:
            callback()

    def is_set(self) -> bool:
        """True once the run is stopping."""
        return self._set

    def wait(self, timeout: float) -> bool:
        """Sleep up to ``timeout`` seconds, ending at once when the run stops; True if it has."""
        with self._cond:
            if not self._set:
                self._cond.wait(max(0.0, timeout))
            return self._set

    def on_set(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` when the run stops (now, if it has): how a wait that sleeps on a
        condition of its own (:class:`workers.waits.Slots`) hears of the stop."""
        with self._cond:
            if not self._set:
                self._on_set.append(callback)
                return
        callback()


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
        built_runs: each worker's ``run`` built on these deps, by its node
            (:func:`workers.node_steps.run_builder`); not an argument. Kept on the deps, the
            runs go when the app drops the deps (an MCP restart, ``Resources.close``): a cache
            of its own, keyed by the deps, kept every deps object a long-lived server ever made,
            and its compiled agents.
    """

    corpus: Corpus | Source | None
    model: BaseChatModel | None = None
    search_k: int = 5
    max_attempts: int = 3
    retry_interval: float = 0.0
    web: Source | None = None
    tools: tuple[BaseTool, ...] = ()
    built_runs: dict[object, Callable[[Task], WorkerResult]] = field(
        default_factory=dict, init=False, repr=False, compare=False)


@dataclass
class RunScope:
    """The per-run objects of one graph run (one ``invoke``/``stream`` of a thread): never
    shared by two runs, so one run's fatal error never stops another.

    Attributes:
        cancel: once set (a fatal model error, Ctrl-C), workers that have not started their
            work raise :class:`workers.errors.RunCancelled` instead: every task waiting on
            ``limiter`` counts as started for LangGraph, which could not cancel it itself.
        limiter: bounds how many workers do their work at once (:class:`workers.waits.Slots`
            given ``cancel``, whose waiters sleep until a slot frees or the run stops; any
            ``threading.Semaphore`` also works, polled for the stop).
            Used instead of LangGraph's ``max_concurrency``, which sizes the one thread pool
            that runs both the nodes *and* the checkpointer's ``put_writes``: with fewer threads
            than tasks, a finished worker's pending writes wait behind the queued workers, and a
            crash then loses results that had finished (see docs/durability.md).
        on_attempt: optional hook run before every attempt.
        on_done: optional hook run after every finished attempt, ok or error.
        strings: the run's table of distinct strings: each envelope the node writes shares
            its equal strings with the run's earlier ones (:mod:`workers.shared_strings`).
    """

    cancel: Cancellation = field(default_factory=Cancellation)
    limiter: Slots | threading.Semaphore | None = None
    on_attempt: AttemptHook | None = None
    on_done: DoneHook | None = None
    strings: SharedStrings = field(default_factory=SharedStrings, repr=False, compare=False)


Resolver = Callable[[Runtime], tuple[WorkerDeps, RunScope]]
"""``resolve(runtime) -> (deps, scope)``: how a worker node finds, from LangGraph's runtime (its
``context`` and its run), the dependencies and the per-run objects of the run it is part of."""


@dataclass
class WorkerResult:
    """What a worker's ``run`` returns.

    Attributes:
        items: the sourced claims, each a :class:`state.ResultItem`: ``{"kind": "finding" |
            "caveat" | "passage", "text", "ref", "title", "source"}`` (+ ``"score"`` for
            passages). The report cites ``ref``: an item whose ref names no passage the
            sources know (``deps.corpus.passage(ref)`` is None, and so is ``source``'s) is
            dropped by the node, counted in the row's ``dropped_unsourced`` and named in a run
            note (:func:`workers.node_steps.sourced_items`). An item of another kind makes
            this task's envelope an error naming the kind (:func:`state.check_items`).
        tokens: tokens the worker spent outside LangChain chat models (e.g. a provider SDK called
            directly). Calls of LangChain chat models are counted by the node itself, failed
            attempts included (:mod:`workers.usage`): do not add them here.
        extra: any other payload worth keeping in the results database: merged into the
            envelope's ``structured`` payload next to ``items`` (the row's ``structured`` JSON,
            ``{"items": [...], **extra}``); a key ``items`` makes the envelope an error (it
            would replace the items checked).
        state: writes to other keys of :class:`state.ResearchState`, ``{key: value}``, returned
            by the node next to the envelope. Workers run in parallel, so each key needs a
            reducer (docs/extending.md, "Add a state key"); a key the schema does not declare,
            or one the wrapper writes (``envelopes``, ``tokens``, ``unmetered_calls``), makes
            the envelope an error.
        source: the source of the worker's own whose passages ``items`` cite, when they are
            not the run's (a worker searching a source it opened itself, docs/extending.md,
            "Add a source"): its refs are checked there too (``source.passage(ref)``).
    """

    items: list[ResultItem]
    tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    source: Source | None = None


@dataclass(frozen=True)
class WorkerSpec:
    """One registered worker.

    Attributes:
        name: the node name and the envelope's ``worker`` field (part of its id: keep it
            stable); not another node's name (``app.graph.build.NODES``) and without ``:`` or
            ``|``, which the graph refuses.
        kind: ``"function"`` (plain Python) or ``"agent"`` (a ``create_agent`` subgraph);
            ``--help`` says which before the description.
        description: one line for ``--help`` and the docs, what the worker returns.
        build: ``build(deps) -> run`` where ``run(task) -> WorkerResult``; called once per
            :class:`WorkerDeps` (the app caches one per distinct setting), on the first task,
            so an agent worker compiles its ``create_agent`` graph once.
    """

    name: str
    kind: Literal["function", "agent"]
    description: str
    build: Callable[[WorkerDeps], Callable[[Task], WorkerResult]]


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

    The node's input is the :class:`state.Task` carried by a ``Send``. Attach
    :func:`workers.retry.self_paced_retry` of ``deps.max_attempts`` (the app's graph does): the
    node waits between attempts itself (:func:`workers.retry.backoff`), and its last attempt's
    failure is an error envelope, not a retry.

    Args:
        spec: the worker.
        resolve: finds the run's :class:`WorkerDeps` and :class:`RunScope` from the runtime.

    Raises:
        ValueError: the node ran on no task (a ``Command(goto=NAME)`` hands it the run's
            state), in one line.
        Exception: a transient error while attempts are left (for the ``RetryPolicy``), or a
            fatal model error (see :func:`workers.errors.is_fatal`). Anything else, including
            a ``run`` that returns something other than a :class:`WorkerResult`, becomes an
            error envelope.
    """
    # The steps import this module's types, so they are imported when a node is built.
    from workers.node_steps import attempt_envelope, base_fields, run_builder, state_update
    from workers.usage import untrusted_note
    from workers.waits import announcing_waits

    run_for = run_builder(spec)
    carried = AttemptTokens()  # tokens of failed attempts, for the task's next attempt

    def node(task: Task, runtime: Runtime) -> dict[str, Any]:
        if "sub_question" not in task:  # reached by an edge or a bare goto: the run's state
            raise ValueError(f"worker {spec.name!r} ran without a task: a worker node runs only "
                             "on the task a Send hands it (dispatch sends them)")
        deps, scope = resolve(runtime)
        base = base_fields(spec, task, runtime, deps)
        started = time.perf_counter()
        with carried.attempt(base["task_id"] or base["envelope_id"]) as served, \
                announcing_waits(runtime.stream_writer):  # a Retry-After, a rate limit
            envelope, writes = attempt_envelope(spec, run_for, task, runtime, deps, scope, base)
        envelope = scope.strings.share(envelope)  # held in state until persist: once per run
        envelope["tokens"] = served.tokens + (envelope.get("tokens") or 0)
        envelope["seconds"] = round(time.perf_counter() - started, 3)
        if scope.on_done is not None:
            scope.on_done(task, envelope)
        runtime.stream_writer({"envelope": envelope})
        if served.untrusted:  # said, not only counted apart
            writes = {**writes, "notes": [*(writes.get("notes") or []),
                                          untrusted_note(spec.name)]}
        return state_update(envelope, writes, served.unmetered)

    node.__name__ = spec.name
    node.__doc__ = spec.description
    return node
