"""The research graph for LangGraph Server and LangGraph Studio (``langgraph dev``).

``langgraph.json`` names ``./app/studio.py:graph``: the server imports this module and runs
``graph`` with a checkpointer of its own, so the graph is compiled here *without* one (the CLI
compiles the same graph with a ``SqliteSaver`` instead: see :func:`app.run.open_graph`).

The wiring is the CLI's (:func:`app.run.graph_config`) from :func:`app.config.load_settings`:
offline unless a model is configured (``RESEARCH_MODEL`` or ``OPENAI_API_KEY``, in the
environment or in ``.env``), the results database and reports in ``RESEARCH_DATA_DIR``, the
corpus from ``RESEARCH_CORPUS`` or the installed packages' docs (indexed on first import,
about a second and a half, then cached in the data dir).

Input: ``{"topic": "checkpointer pending writes"}``, with an optional ``"as_of": "YYYY-MM-DD"``
(``plan`` defaults it to today, UTC).
The server passes the thread's id as ``config["configurable"]["thread_id"]``, which ``persist``
records with each row. The corpus stays open for the life of the process.
"""

from __future__ import annotations

import atexit
from pathlib import Path
from typing import Any

from app.config import Settings, load_settings
from app.graph import build_graph
from app.run import graph_config
from workers.corpus import Corpus

__all__ = ["graph", "make_graph"]


def make_graph(settings: Settings | None = None) -> Any:
    """Compile the research graph without a checkpointer.

    Args:
        settings: the settings to wire it with (default: :func:`app.config.load_settings`).

    Raises:
        workers.corpus.CorpusError: the corpus folder has nothing to index.
        app.config.ConfigError: a setting or model spec cannot be used.
    """
    settings = settings or load_settings()
    corpus = Corpus.open(Path(settings.data_dir), folder=settings.corpus)
    atexit.register(corpus.close)
    return build_graph(graph_config(settings, corpus), checkpointer=None)


graph = make_graph()
"""The compiled research graph LangGraph Server serves as ``research``."""
