"""The research graph for LangGraph Server and LangGraph Studio (``langgraph dev``).

``langgraph.json`` names ``./app/studio.py:graph``: the server imports this module and runs
``graph`` with a checkpointer of its own, so the graph is compiled here *without* one (the CLI
compiles the same graph with a ``SqliteSaver`` instead: see :func:`app.run.open_graph`).

Settings are per run, as with the CLI: a client passes ``context`` (any fields of
:class:`app.config.RunContext`, e.g. ``{"model": "offline", "rounds": 3}``; Studio shows them
as the graph's context form). A field the client leaves out, or a run with no context, takes the
server process's own settings (:func:`app.config.load_settings`: ``RESEARCH_*`` variables and
``.env``), so ``RESEARCH_DATA_DIR`` decides where the results database and reports go. The
provider credentials (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``) come from the server's
environment only, never from a run's context.

A client's context may not ask for a hard crash (``crash_at``) or a run log file (``run_log``):
those fault-injection settings are the command line's (``app.resources.LOCAL_ONLY``).

Per-run objects (the stop signal a fatal model error sets, the concurrency limiter, fault
plans) are made for each run (:mod:`app.resources`): one run's bad key never cancels the next.
The corpus of each distinct setting is opened on first use (about a second and a half to index
the package docs, then cached in the data dir) and stays open for the life of the process.

Input: ``{"topic": "checkpointer pending writes"}``, with an optional ``"as_of": "YYYY-MM-DD"``
(``plan`` defaults it to today, UTC). The final state carries ``outcome`` (``ok``, ``partial``,
``failed``), ``failed_tasks`` and ``report_path``. The server passes the thread's id as
``config["configurable"]["thread_id"]``, which ``persist`` records with each row.
"""

from __future__ import annotations

import atexit
from typing import Any

from app.config import Settings, load_settings
from app.resources import Resources
from app.threads import research_graph

__all__ = ["graph", "make_graph"]


def make_graph(settings: Settings | None = None) -> Any:
    """Compile the research graph without a checkpointer.

    Args:
        settings: the process's settings: the runs' defaults and the credentials (default:
            :func:`app.config.load_settings`).

    Raises:
        app.config.ConfigError: a setting cannot be used.
    """
    settings = settings or load_settings()
    resources = Resources(credentials=settings, defaults=settings.context(), served=True)
    atexit.register(resources.close)
    # With RESEARCH_WEB=1 (and TAVILY_API_KEY) the served graph has the web_search worker too.
    return research_graph(None, web=settings.web, resources=resources)


graph = make_graph()
"""The compiled research graph LangGraph Server serves as ``research``."""
