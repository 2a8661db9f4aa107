"""Small helpers the nodes share."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig

from app.errors import AwaitsReview, CliThread, CorpusMismatch, ForeignRows
from app.graph.internals import CHECKPOINTER_KEY, trigger_channel
from app.research.plan_check import check_plan
from app.research.review import REVIEW_NODE_BY_STAGE
from app.settings.config import ROUNDS_BOUND

__all__ = ["SERVED_ANEW", "check_no_review_skipped", "check_rows_are_the_threads",
           "check_run_plan", "check_same_corpus", "thread_id_of"]

SERVED_ANEW = "start a new thread for the topic"
"""How a served run's client starts anew (the CLI's ``research --fresh`` is no server call)."""


def check_run_plan(state: Mapping[str, Any], res: Any, workers: Sequence[str]) -> None:
    """Check the state's plan and routing before a node dispatches, routes, persists or
    reports (:func:`app.research.plan_check.check_plan`): a served run's routing within the
    operator's rounds bound and corpus names, its plan within the sub-questions bound and its
    envelopes of the graph's workers, the
    way on in words its client can follow. It does not check the corpus: a node that needs
    that calls :func:`check_same_corpus` too, as ``dispatch``, ``persist`` and ``report`` do.

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
               questions_bound=settings.sub_questions_limit if served else None,
               anew=SERVED_ANEW if served else "start a new thread with research --fresh",
               envelope_workers=workers if served else None)


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


def check_rows_are_the_threads(storage: Any, config: RunnableConfig, state: Mapping[str, Any],
                               served: bool) -> None:
    """Refuse a served run that would replace result rows this server's thread did not write.

    A thread id's rows were written by this thread when it has run here before: its state
    holds a plan or envelopes (a next input on the thread), or a checkpoint of the thread does
    (a replay or fork from before its first ``plan``). Otherwise they are another thread's of
    the same id: the command line's (it has a ``runs`` row), a stateless run's, another
    client's, or one the server lost (``langgraph dev`` killed before its flush): a client that
    creates a thread with that id must not replace them
    (``tests/app/test_served_foreign_rows.py``). The same for a thread whose first run was
    cancelled with ``rollback`` (a multitask strategy or ``runs.cancel``) after its ``persist``:
    LangGraph deletes the run's checkpoints, the rows stay, and nothing the node can read tells
    them from a lost thread's.

    Args:
        storage: the run's :class:`app.storage.Storage`.
        config: the node's config (its ``thread_id`` and the server's checkpointer).
        state: the thread's state as ``plan`` sees it.
        served: the graph serves remote clients (the CLI checks its own threads).

    Raises:
        app.errors.CliThread: the id is a CLI thread's.
        app.errors.ForeignRows: the id has rows and no earlier checkpoint of this thread.
    """
    thread_id = thread_id_of(config)
    if not served or thread_id == "-":
        return
    with storage.results(read_only=True) as store:
        run = store.run(thread_id) if store is not None else None
        rows = store.count(thread_id=thread_id) if store is not None and run is None else 0
    if run is not None:
        raise CliThread(
            f"thread {thread_id!r} is a thread of the command line in this data dir (topic "
            f"{run['topic']!r}); a served run does not write into it: use another thread")
    if not rows or state.get("sub_questions") or state.get("envelopes"):
        return
    if not _planned_before(config, thread_id):
        raise ForeignRows(
            f"thread {thread_id!r} has {rows} result row(s) in this server's results database "
            "that no checkpoint of this thread accounts for (a stateless run's, another "
            "client's, a thread the server no longer has, or this thread's first run cancelled "
            "with rollback after it wrote them: a rollback deletes a run's checkpoints, not its "
            "rows); a served run does not replace them: start a new thread")


def _planned_before(config: RunnableConfig, thread_id: str) -> bool:
    """A checkpoint of ``thread_id`` in the run's checkpointer holds a plan."""
    saver = (config.get("configurable") or {}).get(CHECKPOINTER_KEY)
    if saver is None:
        return False
    return any((t.checkpoint.get("channel_values") or {}).get("sub_questions")
               for t in saver.list({"configurable": {"thread_id": thread_id}}))


def check_no_review_skipped(config: RunnableConfig, checkpoint_id: str | None, review: bool,
                            served: bool) -> None:
    """Refuse a served run without review on a thread paused at a review: a new input (with
    ``review`` off) would plan again and persist rows nobody approved.
    The CLI refuses the same (``research``/``resume`` show the pause; another ``--review`` is
    refused: :func:`app.runs.resume.check_planned_choices`). A new input *with* review pauses
    again, so it is let through.

    Args:
        config: the node's config (its ``thread_id`` and the server's checkpointer).
        checkpoint_id: the checkpoint ``plan`` runs from (``runtime.execution_info``).
        review: the run's context ``review``.
        served: the graph serves remote clients (the CLI checks its own threads).

    Raises:
        app.errors.AwaitsReview: the checkpoint the run's input was given to awaits a review.
    """
    if not served or review:
        return
    stage = _paused_at(config, checkpoint_id)
    if stage is None:
        return
    raise AwaitsReview(
        f"thread {thread_id_of(config)!r} awaits its {stage} review (it was planned with "
        "review); a run without review would go past it unapproved: resume it with a Command "
        "(command={\"resume\": {\"approve\": true}}, or the review's other values) and review "
        "true in the context, or start a new thread")


def _paused_at(config: RunnableConfig, checkpoint_id: str | None) -> str | None:
    """The review stage (``plan``, ``results``) the checkpoint before this run's input awaits
    (its next node is that review's), or None. Walks up from ``checkpoint_id`` past the first
    steps of runs (an input's checkpoint and the one after it: this run's, and those of runs
    refused at ``plan``); a run whose checkpoints were not saved (durability ``exit``) reads
    the thread's latest."""
    saver = (config.get("configurable") or {}).get(CHECKPOINTER_KEY)
    thread = {"thread_id": thread_id_of(config), "checkpoint_ns": ""}
    if saver is None:
        return None
    here = saver.get_tuple({"configurable": {**thread, "checkpoint_id": checkpoint_id}}) \
        if checkpoint_id else None
    if here is None:
        before = saver.get_tuple({"configurable": thread})
    else:
        before, parent = here, _parent(saver, here)
        for _ in range(_WALK):  # bounded: a thread's refused runs, two checkpoints each
            if before is None or not (_source(before) == "input" or _source(parent) == "input"):
                break
            before, parent = parent, _parent(saver, parent)
    waiting = (before.checkpoint.get("channel_values") or {}) if before is not None else {}
    # a checkpoint whose next node is a review node holds its trigger channel (branch:to:NODE)
    # until the node has run: at the pause, and after an edit made at it
    return next((stage for stage, node in REVIEW_NODE_BY_STAGE.items()
                 if trigger_channel(node) in waiting), None)


_WALK = 200
"""How many checkpoints :func:`_paused_at` walks up at most."""


def _source(tuple_: Any) -> str | None:
    return (tuple_.metadata or {}).get("source") if tuple_ is not None else None


def _parent(saver: Any, tuple_: Any) -> Any:
    if tuple_ is None or not tuple_.parent_config:
        return None
    return saver.get_tuple(tuple_.parent_config)
