"""The research graph for LangGraph Server and LangGraph Studio (``langgraph dev``).

``langgraph.json`` names ``./app/server/studio.py:served_graph``, a graph factory: the server calls
it for every run (and for every read of a thread's state or the graph's schema) and gets the one
graph compiled here *without* a checkpointer (the server brings its own; the CLI compiles the
same graph with a ``SqliteSaver`` instead: see :func:`app.runs.compiled.open_graph`). The factory
is the served graph's edge: it sees a run's context before the server drops the keys the context
schema lacks, and refuses, with one line naming the key, what a client may not ask
(:mod:`app.settings.client`).

A client chooses, in ``context``, among the fields of :class:`app.settings.config.RunContext` (e.g.
``{"rounds": 3, "model": "offline", "corpus_name": "handbook"}``; Studio shows them as the
graph's context form), each within the operator's bound and list. Everything else is the
operator's, from the server process's environment only (:func:`app.settings.env.load_settings`:
``RESEARCH_*`` variables and ``.env``, read once, here): where data and reports go, the
database, the corpus folders, the keys, retries, fault injection. A field the client leaves
out, or a run with no context, takes the operator's default.

Who may call the server at all is ``app/server/auth.py``'s (``RESEARCH_API_TOKENS``).

Per-run objects (the stop signal a fatal model error sets, the concurrency limiter, fault
plans) are made for each run (:mod:`app.graph.resources`): one run's bad key never cancels the next.
The corpus of each distinct setting is opened on first use (about a second and a half to index
the package docs, then cached in the data dir) and stays open for the life of the process.

Input: ``{"topic": "checkpointer pending writes"}``, with an optional ``"as_of": "YYYY-MM-DD"``
(``plan`` defaults it to today, UTC). A topic the CLI refuses (empty, over 500 characters,
nothing to search for: :func:`app.research.topics.topic_problem`) is refused before the run
exists, with an HTTP 400 (:mod:`app.server.prerun`, the auth module's pre-run hook), and by
``plan`` again (:class:`app.errors.BadTopic`) for a run that does not pass the hook. The final
state carries ``outcome`` (``ok``, ``partial``, ``failed``), ``failed_tasks`` and
``report_path``. The server passes the thread's id as ``config["configurable"]["thread_id"]``,
which ``persist`` records with each row.

Source: LangGraph Server's graph factories (``langgraph_sdk.runtime.ServerRuntime``: "the
server calls your graph factory in multiple contexts").
"""

from __future__ import annotations

import atexit
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph_sdk.runtime import ServerRuntime

from app.graph.resources import Resources
from app.runs.threads import research_graph
from app.server.checkpoint_flush import keep_checkpoints_flushed
from app.server.run_settings import default_recursion_limit
from app.settings.client import check_run_config, resolve
from app.settings.config import Settings
from app.settings.env import load_settings

__all__ = ["RESOURCES", "graph", "make_graph", "served_graph"]


def make_graph(settings: Settings | None = None) -> Any:
    """Compile the research graph without a checkpointer.

    Args:
        settings: the operator's settings (default: :func:`app.settings.env.load_settings`).

    Raises:
        app.settings.config.ConfigError: a setting cannot be used.
    """
    return _build(settings)[0]


def _build(settings: Settings | None) -> tuple[Any, Resources]:
    settings = settings or load_settings()
    resources = Resources(settings, served=True)
    atexit.register(resources.close)
    # With RESEARCH_WEB=1 (and TAVILY_API_KEY) the served graph has the web_search worker too.
    return research_graph(None, web=settings.web, resources=resources), resources


graph, RESOURCES = _build(None)
"""The compiled research graph LangGraph Server serves as ``research``, and its
:class:`app.graph.resources.Resources` (``RESOURCES.settings``: the operator's settings, read
once)."""


def served_graph(config: RunnableConfig, runtime: ServerRuntime) -> Any:
    """The graph factory ``langgraph.json`` names: check a run's context and config, then
    return :data:`graph`.

    Args:
        config: the run's config (the server's defaults filled in).
        runtime: the server's runtime; for a run (``threads.create_run``) it carries the context
            the client sent, or its ``configurable`` when it sent no context.

    Returns:
        for a run, a context manager holding :data:`graph` whose exit stops the run's queued
        workers (:func:`_stopped_when_done`); else :data:`graph`.

    Raises:
        app.settings.config.ConfigError: one line naming the refused key; the run fails before it
            starts, and nothing is written.
    """
    keep_checkpoints_flushed()  # langgraph dev's shared saver exists by the first call
    execution = runtime.execution_runtime
    if execution is None:
        return graph
    settings = RESOURCES.settings
    context = execution.context
    resolve(context if isinstance(context, dict) else None, settings)
    check_run_config(config, settings, default_recursion_limit())
    run_id = (config.get("configurable") or {}).get("run_id")
    return _stopped_when_done(str(run_id)) if run_id else graph


@contextmanager
def _stopped_when_done(run_id: str) -> Iterator[Any]:
    """:data:`graph` for the run ``run_id``, whose queued workers give up when the server is
    done with the run, cancelled included (it holds a factory's context for the whole run and
    leaves it then: ``langgraph_api.stream``); else a cancelled run's tasks waiting for a worker
    slot went on calling their models one by one (trial 54, F2)."""
    RESOURCES.start_run(run_id)  # a retried attempt of a stopped run runs again
    try:
        yield graph
    finally:
        RESOURCES.stop_run(run_id)

