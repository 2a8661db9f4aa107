"""Small helpers the nodes share."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig

from app.errors import CliThread, CorpusMismatch
from app.research.plan_check import check_plan
from app.settings.config import ROUNDS_BOUND

__all__ = ["SERVED_ANEW", "check_run_plan", "check_same_corpus", "thread_id_of"]

SERVED_ANEW = "start a new thread for the topic"
"""How a served run's client starts anew (the CLI's ``research --fresh`` is no server call)."""


def check_run_plan(state: Mapping[str, Any], res: Any, workers: Sequence[str]) -> None:
    """Check the state's plan and routing before a node dispatches, routes, persists or
    reports (:func:`app.research.plan_check.check_plan`), then its corpus
    (:func:`check_same_corpus`): a served run's routing within the operator's rounds bound and
    corpus names, the way on in words its client can follow.

    Args:
        state: the graph's state.
        res: the run's :class:`app.graph.resources.Resources`.
        workers: the compiled graph's worker names.

    Raises:
        app.research.plan_check.BadPlan: the plan or its routing cannot run.
    """
    settings = res.settings
    served = res.served
    check_plan(state, workers, rounds_bound=settings.rounds_limit if served else ROUNDS_BOUND,
               corpora=set(settings.named_corpora()) if served else None,
               anew=SERVED_ANEW if served else "start a new thread with research --fresh")


def thread_id_of(config: RunnableConfig) -> str:
    """The run's ``thread_id``; ``"-"`` for a run without a checkpointer (no thread)."""
    return (config.get("configurable") or {}).get("thread_id") or "-"


def check_same_corpus(state: Mapping[str, Any], corpus_name: str | None, served: bool,
                      known: Collection[str] | None = None) -> None:
    """Refuse a served run of a thread on another corpus than its plan's.

    Args:
        state: the thread's state; its ``routing["corpus_name"]`` is the plan's corpus (a
            thread planned before it was recorded, or not yet planned, passes).
        corpus_name: the run's context ``corpus_name`` (None: the operator's corpus).
        served: the graph serves remote clients; the CLI checks the thread's recorded corpus
            itself, before the run (:func:`app.runs.threads.check_thread`).
        known: the server's corpus names (``RESEARCH_CORPORA``): a plan's corpus that is none
            of them (an edit of ``routing.corpus_name``) is not offered as the way on.

    Raises:
        app.errors.CorpusMismatch: the names differ.
    """
    routing = state.get("routing")
    if not served or not isinstance(routing, Mapping) or "corpus_name" not in routing:
        return
    was = routing["corpus_name"]
    if was == corpus_name:
        return
    if was is not None and known is not None and was not in known:
        raise CorpusMismatch(
            f"this thread's routing.corpus_name {str(was)[:80]!r} is not a corpus of this "
            "server (was the state edited?): set it back with update_state, or start a new "
            "thread")
    raise CorpusMismatch(
        f"this thread was planned on {_shown(was)}; it is not continued or rerun on "
        f"{_shown(corpus_name)} (its plan, rows and report would mix or be replaced): run "
        f"it with {'no corpus_name' if was is None else f'corpus_name {was!r}'}, or start a "
        "new thread for the other corpus")


def _shown(name: Any) -> str:
    return f"corpus_name {name!r}" if name is not None else "the server's corpus"


def check_not_a_cli_thread(storage: Any, thread_id: str, served: bool) -> None:
    """Refuse a served run on the id of a thread the command line runs in this data dir (it
    has a ``runs`` row, which only the CLI writes): its rows and report would be replaced by a
    run whose checkpoints are the server's (trial 13: a client creating a thread with a CLI
    thread's id replaced that thread's rows and report without a word).

    Args:
        storage: the run's :class:`app.storage.Storage`.
        thread_id: the run's (:func:`thread_id_of`).
        served: the graph serves remote clients (the CLI checks its own threads).

    Raises:
        app.errors.CliThread: the id is a CLI thread's.
    """
    if not served or thread_id == "-":
        return
    with storage.results(read_only=True) as store:
        run = store.run(thread_id) if store is not None else None
    if run is not None:
        raise CliThread(
            f"thread {thread_id!r} is a thread of the command line in this data dir (topic "
            f"{run['topic']!r}); a served run does not write into it: use another thread")
