"""What the research graph's nodes look up from their run's context: heavy objects, cached by the
settings they depend on, and per-run objects, made once per run.

* Heavy (built once per distinct setting, shared by every run that asks the same): the chat
  models of each role (with LangChain's rate limiter), the corpus, the workers' dependencies.
  The same ``RunContext`` values always give the same objects, so a run never builds a model
  twice (the CLI validates the model specs through this cache before the run starts, and the
  graph then finds them built).
* Per run (never shared by two runs of one compiled graph): the stop signal, the concurrency
  limiter and the fault plan, by LangGraph's ``runtime.control`` (:mod:`app.graph.run_objects`).
  So one run's fatal error (a bad key) cancels that run only, in the CLI and in LangGraph
  Server alike.

The web search and MCP sources are made by :mod:`app.graph.sources`; this module caches them.

Source: LangGraph's runtime context (``context_schema``, ``Runtime.context``) and
``langgraph.runtime.RunControl`` ("intended for a single graph run").
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from app.graph.internals import DURABILITY_KEY
from app.graph.model_errors import model_error
from app.graph.run_objects import RunObjects, RunTable
from app.graph.sources import combine_sources, open_web, start_mcp, web_cache_key
from app.llm.models import ModelChoice, make_model
from app.settings.client import check_durability, given_choices, resolve
from app.settings.config import ConfigError, RunContext, Settings
from app.settings.credentials import default_model
from app.storage import Storage, storage_of
from workers.base import RunScope, WorkerDeps

__all__ = ["Models", "Resources"]

ReportWriter = Callable[[Any], list[tuple[str, list[str]]]]

@dataclass(frozen=True)
class Models:
    """The chat models of one context, and how the report names them."""

    planner: ModelChoice
    worker: ModelChoice
    report: ModelChoice
    label: str
    """e.g. ``offline (deterministic, extractive)`` or ``openai:x (planner: offline)``."""
    summarize: ReportWriter | None
    """The report model's sourced summary (None offline: the report is extractive)."""


class Resources:
    """The lookup (and cache) behind the research graph's nodes.

    Args:
        settings: the operator's settings (:class:`app.settings.config.Settings`: paths, database,
            keys, retries, fault injection, bounds, and the default of each client choice),
            built once from the process's environment; nodes read them as :attr:`settings`.
            None: the declared defaults.
        served: the graph serves remote clients (LangGraph Server): a run's context is checked
            against the operator's bounds and lists (:func:`app.settings.client.resolve`).

    Thread-safe: nodes of one superstep run in parallel threads.
    """

    def __init__(self, settings: Settings | None = None, served: bool = False) -> None:
        self.settings = settings or Settings()
        self.served = served
        self._lock = threading.RLock()
        self._models: dict[tuple, Models] = {}
        self._corpora: dict[tuple, Any] = {}
        self._webs: dict[tuple, Any] = {}
        self._deps: dict[tuple, WorkerDeps] = {}
        self._storage: Storage | None = None
        self._mcp: Any = None  # (hub, results, tools) once started; see mcp()
        self._runs = RunTable()

    # --- the context ---------------------------------------------------------------------------

    def context(self, runtime: Runtime | RunContext | dict | None) -> RunContext:
        """The effective client choices of a run: ``runtime.context`` (or the context itself)
        over the operator's defaults (``settings.context()``) where it says nothing. A served
        graph checks them (:func:`app.settings.client.resolve`; the edge, ``app/server/studio.py``,
        has already refused what LangGraph Server would drop).

        Raises:
            app.settings.config.ConfigError: (served) a choice past its bound, a model not allowed,
                an unknown corpus name, an operator setting, a durability other than the
                operator's (the request's ``durability``, which the factory does not see:
                :func:`app.settings.client.check_durability`).
        """
        ctx = runtime.context if isinstance(runtime, Runtime) else runtime
        if self.served:
            check_durability(_durability(), self.settings)
            return resolve(ctx, self.settings)
        if isinstance(ctx, dict):  # a caller that bypassed LangGraph's coercion
            ctx = RunContext(**ctx)
        defaults = self.settings.context()
        if ctx is None or ctx == defaults:
            return defaults
        return replace(defaults, **given_choices(ctx))

    # --- heavy objects, cached by the settings they depend on ---------------------------------

    def _model_key(self, ctx: RunContext) -> tuple:
        ops = self.settings
        fallback = ctx.model or ops.model or default_model(ops)
        return (*(ctx.model_for(role) or fallback for role in ("planner", "worker", "report")),
                ops.timeout, ops.requests_per_second, ops.max_attempts, ops.retry_interval,
                ops.retry_patience, ops.rate_limit_patience)

    def models(self, ctx: RunContext) -> Models:
        """The models of ``ctx``'s roles, built on first use.

        Raises:
            app.settings.config.ConfigError: a model spec cannot be used (no key, unknown provider).
        """
        key = self._model_key(ctx)
        with self._lock:
            if key not in self._models:
                self._models[key] = self._build_models(ctx, key)
            return self._models[key]

    def _build_models(self, ctx: RunContext, key: tuple) -> Models:
        settings = self.settings
        planner_spec, worker_spec, report_spec = key[:3]
        built: dict[str, ModelChoice] = {}
        for spec in dict.fromkeys((planner_spec, worker_spec, report_spec)):
            try:
                built[spec] = make_model(spec, settings)  # one client per distinct spec
            except ConfigError as exc:
                raise model_error(exc, spec, ctx, settings, served=self.served) from None
        planner, worker, report = built[planner_spec], built[worker_spec], built[report_spec]
        label = worker.label
        others = [f"{role}: {choice.label}" for role, choice in
                  (("planner", planner), ("report", report)) if choice.label != worker.label]
        if others:
            label = f"{label} ({', '.join(others)})"
        summarize = None
        if not report.offline:  # the model writes a sourced summary of the persisted rows
            from app.research.synthesis import make_summarizer

            summarize = make_summarizer(report.model, max_attempts=settings.max_attempts,
                                        retry_interval=settings.retry_interval)
        return Models(planner, worker, report, label, summarize)

    def _corpus_key(self, ctx: RunContext) -> tuple:
        folder = self.settings.corpus_folder(ctx.corpus_name)
        return (str(Path(self.settings.data_dir).resolve()),
                str(Path(folder).resolve()) if folder else None)

    def corpus(self, ctx: RunContext, progress: Any = None, before_build: Any = None) -> Any:
        """The corpus ``ctx`` names (``corpus_name``: one of the operator's
        ``RESEARCH_CORPORA``; None: the operator's ``corpus`` folder, or the package docs),
        opened on first use and kept open until :meth:`close`. Files over the operator's
        ``max_file_bytes`` are skipped and named in its ``notes``; of a manual in several
        languages, the operator's ``corpus_language`` is indexed.

        Args:
            ctx: the run's choices.
            progress: ``progress(files_done, files_total, reading)`` while a folder is
                indexed, ``reading`` the file read next (not called when its index is reused:
                ``workers.sources.folder.Progress``).
            before_build: ``before_build(content_fingerprint, fingerprint)`` before its index
                is built, which may raise to refuse the build (``Corpus.open``).

        Raises:
            workers.sources.CorpusError: the corpus folder has nothing to index (served: a
                ``ConfigError`` saying so, naming the corpus by name, not its folder).
            app.settings.config.ConfigError: no corpus has that name.
        """
        key = self._corpus_key(ctx)
        with self._lock:
            if key not in self._corpora:
                from workers.sources import Corpus, CorpusError

                try:
                    self._corpora[key] = Corpus.open(
                        Path(self.settings.data_dir), folder=key[1],
                        max_file_bytes=self.settings.max_file_bytes,
                        language=self.settings.corpus_language, progress=progress,
                        before_build=before_build)
                except CorpusError as exc:
                    if not self.served:
                        raise
                    raise _served_corpus_error(exc, ctx.corpus_name, key[1]) from None
            return self._corpora[key]

    def _web_key(self, ctx: RunContext) -> tuple | None:
        """What the web source of ``ctx`` depends on (None: web search is off)."""
        return web_cache_key(self.settings) if ctx.web else None

    def web(self, ctx: RunContext) -> Any:
        """The web source of ``ctx`` (``--web``), made on first use; None when web search is off.

        The operator's ``search_provider`` picks the search: Tavily (``tavily_search``) or a
        SearXNG instance (``searxng_search``). Either sits behind its endpoint's Retry-After gate
        and the one cache of the data dir (``web.sqlite``), so searches already answered there
        are never asked again, whichever process (or provider) asks.

        Raises:
            app.settings.config.ConfigError: web search is on but the provider is not set up
                (no ``TAVILY_API_KEY``; no ``SEARXNG_URL``).
        """
        if not ctx.web:
            return None
        key = self._web_key(ctx)
        with self._lock:
            if key not in self._webs:
                self._webs[key] = open_web(self.settings)
            return self._webs[key]

    def mcp(self) -> tuple[Any, ...] | None:
        """The MCP servers of the operator's ``mcp_config``, started on first use and held
        until :meth:`close`: ``(hub, results, tools)`` (:class:`workers.mcp_tools.McpHub`, the
        :class:`~workers.mcp_record.McpResults` record (the data dir's ``mcp.sqlite``, or
        PostgreSQL with ``database_url``), the sync tools offered to
        the agent workers); None when no config is set. One session per server for the life of
        these resources (the CLI: one run), so a stdio server is one process, not one per call.

        Raises:
            app.settings.config.ConfigError: the config is unusable, or a server did not start
                (one line naming it).
        """
        path = self.settings.mcp_config
        if not path:
            return None
        with self._lock:
            if self._mcp is None:
                self._mcp = start_mcp(self.settings, served=self.served)
            return self._mcp

    def check_mcp(self) -> None:
        """Check every MCP server once at a run's start: start them, or ping them when they
        are already started (a served process keeps its sessions between runs), and start them
        again when one no longer answers.

        Raises:
            app.settings.config.ConfigError: one line naming the server that does not answer.
        """
        from workers.mcp_tools import McpError

        started = self._mcp is not None
        held = self.mcp()
        if held is None or not started:
            return
        try:
            held[0].check()
        except McpError:
            # A server died since the last run (a served process outlives its servers): start
            # them all again, once; the workers' deps that hold the old tools are dropped.
            with self._lock:
                if self._mcp is held:
                    self._mcp = None
                    self._deps.clear()
            held[0].close()
            self.mcp()

    def worker_deps(self, ctx: RunContext) -> WorkerDeps:
        """The workers' dependencies for ``ctx``: one object per distinct setting. With web
        search on, ``corpus`` resolves web citations too (``CombinedSource``).

        The plain settings a worker reads are listed once, in ``plain``: they are both passed
        to :class:`workers.base.WorkerDeps` and part of the cache key, so a run whose context
        differs in one of them never gets another run's value (a setting for your own worker:
        add a ``WorkerDeps`` field and one entry here; docs/extending.md, "Add a setting").
        A client's choice comes from ``ctx``, an operator's from :attr:`settings`."""
        plain = {"search_k": ctx.search_k, "max_attempts": self.settings.max_attempts,
                 "retry_interval": self.settings.retry_interval}
        key = (self._model_key(ctx), self._corpus_key(ctx), self._web_key(ctx),
               *sorted(plain.items()))
        with self._lock:
            if key not in self._deps:
                web, mcp = self.web(ctx), self.mcp()
                corpus = combine_sources(self.corpus(ctx), web, mcp and mcp[1])
                self._deps[key] = WorkerDeps(corpus=corpus, model=self.models(ctx).worker.model,
                                             web=web, tools=mcp[2] if mcp else (), **plain)
            return self._deps[key]

    # --- per-run objects -----------------------------------------------------------------------

    def run(self, runtime: Runtime) -> RunObjects:
        """The per-run objects of the run ``runtime`` belongs to, made on its first lookup."""
        return self.run_for(runtime.control, self.context(runtime), _server_run_id())

    def run_for(self, control: Any, ctx: RunContext, run_id: str | None = None) -> RunObjects:
        """The per-run objects of the run whose ``RunControl`` is ``control`` (the CLI passes
        its own to ``graph.stream(control=...)`` to reach them, e.g. to cancel on Ctrl-C):
        the limiter sized by ``ctx.max_concurrency``, the operator's fault plan. ``run_id``:
        LangGraph Server's id of the run, by which :meth:`stop_run` reaches them."""
        return self._runs.get(control, ctx, self.settings, run_id)

    def start_run(self, run_id: str) -> None:
        """LangGraph Server starts (an attempt of) the run ``run_id``
        (:meth:`app.graph.run_objects.RunTable.start`)."""
        self._runs.start(run_id)

    def stop_run(self, run_id: str) -> None:
        """Stop LangGraph Server's run ``run_id`` (ended or cancelled): its queued workers give
        up instead of calling their models (:meth:`app.graph.run_objects.RunTable.stop`)."""
        self._runs.stop(run_id)

    def release(self, control: Any) -> None:
        """Forget the per-run objects of a finished run."""
        self._runs.release(control)

    def resolve_worker(self, runtime: Runtime) -> tuple[WorkerDeps, RunScope]:
        """The :data:`workers.base.Resolver` of the worker nodes."""
        return self.worker_deps(self.context(runtime)), self.run(runtime).scope

    def storage(self) -> Storage:
        """Where runs keep their checkpoints and rows: PostgreSQL when the operator's
        ``database_url`` is set (migrations over ``database_direct_url``), else the SQLite files
        of its ``data_dir`` (both the operator's, never a run's). One object for the life of
        these resources, made on first use; it opens no connection itself."""
        with self._lock:
            if self._storage is None:
                self._storage = storage_of(self.settings)
            return self._storage

    def close(self) -> None:
        """Close the corpora opened so far, and the MCP sessions."""
        with self._lock:
            corpora, self._corpora = list(self._corpora.values()), {}
            self._deps.clear()
            mcp, self._mcp = self._mcp, None
        for corpus in corpora:
            corpus.close()
        if mcp is not None:
            mcp[0].close()  # a stdio server's process ends with its session


def _served_corpus_error(exc: Exception, name: str | None, folder: str | None) -> ConfigError:
    """A corpus a served run cannot use, as a ``ConfigError`` (a ``ValueError``: LangGraph
    Server returns its message to the client, any other exception's as "An internal error
    occurred"), the server's folder named by its corpus name only."""
    from workers.sources.text import safe_name

    if not folder:
        return ConfigError(str(exc))
    label = f"of corpus_name {name!r}" if name else "of the server's corpus"
    return ConfigError(str(exc).replace(safe_name(str(Path(folder).resolve())), label))


def _durability() -> str | None:
    """The durability LangGraph runs the current node's run with
    (:data:`app.graph.internals.DURABILITY_KEY`); None outside a node."""
    try:
        return (get_config().get("configurable") or {}).get(DURABILITY_KEY)
    except RuntimeError:  # not inside a node
        return None


def _server_run_id() -> str | None:
    """LangGraph Server's id of the run this node runs in (``configurable["run_id"]``, which
    the server sets for every run), or None (a CLI run, or outside a run)."""
    from langgraph.config import get_config

    try:
        run_id = get_config().get("configurable", {}).get("run_id")
    except RuntimeError:  # not inside a runnable's context
        return None
    return str(run_id) if run_id else None
