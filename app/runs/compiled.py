"""The research graph a CLI run uses: compiled with its storage's checkpointer, its models and
corpus opened first (:func:`open_graph`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from app.graph.resources import Resources
from app.runs.threads import research_graph
from app.settings.config import Settings

__all__ = ["OpenGraph", "open_graph"]


class OpenGraph(NamedTuple):
    """What :func:`open_graph` yields."""

    graph: Any
    """The compiled research graph, with the storage's checkpointer (``SqliteSaver`` or
    ``PostgresSaver``)."""
    labels: dict[str, str]
    """``model`` and ``corpus`` descriptions for display."""
    resources: Resources
    """Where the graph's nodes look up models, corpus and per-run objects; invoking the graph
    with no ``context`` runs it with the settings given to :func:`open_graph`."""


@contextmanager
def open_graph(settings: Settings, resources: Resources | None = None) -> Iterator[OpenGraph]:
    """Build the models and open the corpus of ``settings`` (each once: the graph's nodes find
    them cached), and compile the graph (:func:`app.runs.threads.research_graph`, the web workers
    with ``settings.web``) with the storage's checkpointer (:mod:`app.storage`); yield an
    :class:`OpenGraph`. The resources (given, or made here) are closed on exit.

    Raises:
        workers.sources.CorpusError: the corpus folder has nothing to index.
        app.settings.config.ConfigError: a model spec cannot be used.
        app.storage.StorageError: the database is damaged or cannot be reached.
    """
    context = settings.context()
    resources = resources or Resources(settings)
    try:
        models = resources.models(context)
        corpus = resources.corpus(context)
        labels = {"model": models.label, "corpus": corpus.description}
        if getattr(corpus, "built", False):  # this run built the index: say how long it took
            labels["index_seconds"] = corpus.meta.get("build_seconds", "")
        if (web := resources.web(context)) is not None:  # --web: fails early without a key
            labels["corpus"] += f" + {web.description}"
        if (mcp := resources.mcp()) is not None:  # the tools the agents are offered besides
            labels["corpus"] += f" + MCP tools of {', '.join(mcp[0].connections)}"
        with resources.storage().checkpointer() as saver:
            graph = research_graph(saver, web=context.web, resources=resources)
            yield OpenGraph(graph, labels, resources)
    finally:
        resources.close()
