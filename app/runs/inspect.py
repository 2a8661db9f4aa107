"""``threads`` and ``inspect``: what the checkpointer and the results database know about runs.

``inspect`` walks LangGraph's checkpoint history of a thread (``get_state_history``) and shows,
per checkpoint, the step, the nodes that ran to produce it, the envelopes in state, how many are
persisted, and the checkpoint's size; then the thread's rows in the results database with how
many times persist wrote each one. It is the quickest way to *see* the durability story.

The graph used here (:func:`app.runs.threads.research_graph`, with every worker, web ones included)
is compiled only to read history: workers build lazily, so no corpus or model is opened.

``inspect THREAD_ID --report`` prints the thread's markdown report from the results database
(:func:`thread_report`), so it works on any machine that reaches the database, whichever
machine ran the ``report`` node and wrote the file. :mod:`app.runs.show` prints what is read here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from app.research.rounds import current_envelopes, round_in_run, routing_of
from app.runs.show import print_inspection, print_threads  # re-exported: printed here before
from app.runs.status import ROWS_ONLY
from app.runs.threads import is_unfinished, require_thread, research_graph, thread_status
from app.settings.hints import thread_command
from app.storage import DamagedDatabase, Storage, open_storage, root_config

__all__ = ["inspect_thread", "list_threads", "pending_review", "print_inspection",
           "print_threads", "thread_report"]

@contextmanager
def _unless_damaged(notes: list[str]) -> Iterator[None]:
    """Turn a damaged database into a note, so what the other database knows is still shown."""
    try:
        yield
    except DamagedDatabase as exc:
        notes.append(str(exc))


def _raise_or_keep(notes: list[str], warnings: list[str] | None) -> None:
    notes[:] = dict.fromkeys(notes)  # both databases damaged: one line names both, said once
    if warnings is None and notes:
        raise DamagedDatabase(notes[0])
    if warnings is not None:
        warnings.extend(notes)


def _storage(where: Storage | Path | str) -> Storage:
    return where if isinstance(where, Storage) else open_storage(where)


def list_threads(storage: Storage | Path | str, warnings: list[str] | None = None
                 ) -> list[dict[str, Any]]:
    """One dict per thread: ``thread_id, topic, as_of, status, last_step, next, started_at``.

    ``status`` is ``finished``, ``partial`` (some tasks failed for good), ``failed`` (every task
    did, or it was stopped by an exception),
    ``running`` (a process runs it now), ``unfinished`` (killed or interrupted: resume it; or
    running, where the storage cannot tell: :func:`app.runs.threads.thread_status`), ``awaiting
    review``, ``broken`` (its checkpoint cannot be read back; the row's ``problem`` says so and
    names ``--fresh``), ``rows only`` (result rows but no checkpoint or run here: a LangGraph
    Server run's, :data:`app.runs.status.ROWS_ONLY`) or ``unknown``.
    Both databases are opened read-only.

    Args:
        storage: where the threads live (:func:`app.storage.open_storage`; a data dir path
            means its SQLite files).
        warnings: receives one line per damaged database, and the threads the other database
            knows are still listed. Without it, damage raises.

    Raises:
        app.storage.DamagedDatabase: a database is damaged and no ``warnings`` list was given.
        app.storage.StorageError: the server cannot be reached.
    """
    storage = _storage(storage)
    notes: list[str] = []
    runs: dict[str, dict[str, Any]] = {}
    row_threads: list[dict[str, Any]] = []
    with _unless_damaged(notes), storage.results(read_only=True) as store:
        if store is not None:
            runs = {r["thread_id"]: r for r in store.runs()}
            row_threads = store.row_threads()
    out: dict[str, dict[str, Any]] = {t: _thread_row(t, run, None) for t, run in runs.items()}
    with _unless_damaged(notes), storage.checkpointer(read_only=True) as saver:
        if saver is not None:
            graph = research_graph(saver)
            for thread_id in dict.fromkeys([*runs, *storage.thread_ids(saver)]):
                try:
                    snap = graph.get_state({"configurable": {"thread_id": thread_id}})
                except Exception as exc:  # one broken thread never hides the others
                    out[thread_id] = _broken_thread(thread_id, runs.get(thread_id, {}), exc)
                    continue
                out[thread_id] = _thread_row(thread_id, runs.get(thread_id, {}), snap)
    for row in row_threads:  # rows and nothing else: a LangGraph Server run's
        if row["thread_id"] not in out:
            out[row["thread_id"]] = {**_thread_row(row["thread_id"], row, None),
                                     "status": ROWS_ONLY}
    _raise_or_keep(notes, warnings)
    for thread_id in _running(storage, [t for t, row in out.items()
                                        if row["status"] == "unfinished"]):
        out[thread_id]["status"] = "running"
    return list(out.values())


def _running(storage: Storage, thread_ids: list[str]) -> set[str]:
    """Those of ``thread_ids`` a process runs now (:meth:`Storage.running_threads`, which takes
    no lock, so a run starting meanwhile is never refused); empty when it cannot tell."""
    return (storage.running_threads(thread_ids) or set()) if thread_ids else set()


def _run_status(storage: Storage, thread_id: str, recorded: str | None, snap: Any) -> str:
    """What ``inspect`` calls the thread's run: what ``threads`` calls it,
    :func:`app.runs.threads.thread_status` of its recorded status and latest state,
    ``running`` while a process runs it."""
    return thread_status(recorded, snap, running=bool(_running(storage, [thread_id])))


def _thread_row(thread_id: str, run: dict[str, Any], snap: Any) -> dict[str, Any]:
    values = (snap.values if snap is not None else None) or {}
    return {
        "thread_id": thread_id,
        "topic": values.get("topic") or run.get("topic"),
        "as_of": values.get("as_of") or run.get("as_of"),
        "status": thread_status(run.get("status"), snap),
        "last_step": (snap.metadata or {}).get("step") if values else None,
        "next": list(snap.next) if snap is not None else [],
        "started_at": run.get("started_at"),
    }


def _broken_thread(thread_id: str, run: dict[str, Any], exc: Exception) -> dict[str, Any]:
    """The ``threads`` row of a thread whose checkpoint cannot be read back (e.g. pending
    writes that LangGraph refuses to apply again): listed, with the way out."""
    from workers.errors import one_line

    return {
        "thread_id": thread_id,
        "topic": run.get("topic"),
        "as_of": run.get("as_of"),
        "status": "broken",
        "last_step": None,
        "next": [],
        "started_at": run.get("started_at"),
        "problem": f"its checkpoint cannot be resumed ({one_line(exc, 160)}); run the topic "
                   "again with --fresh for a new thread",
    }


class PendingReview(NamedTuple):
    """What :func:`pending_review` returns."""

    payload: dict[str, Any] | None
    """The review payload of the thread's pending ``interrupt()``; None: it awaits no review."""
    unfinished: bool
    """Whether its run has work left (:func:`app.runs.threads.is_unfinished`)."""
    topic: str | None = None
    """The checkpoint's topic, so a pause shown by ``review`` says what ``research`` said."""
    as_of: str | None = None
    """... and its ``as_of``."""
    reviewed: bool = False
    """Whether the thread was started with ``--review`` (its state's ``routing``)."""


def pending_review(storage: Storage | Path | str, thread_id: str, checkpoint_id: str | None = None,
                   where: str = "") -> PendingReview:
    """What a thread awaits, read from its latest checkpoint (or ``checkpoint_id``) without
    running anything.

    Args:
        storage: where the thread lives (a data dir path means its SQLite files).
        checkpoint_id: an earlier checkpoint of the thread (``review --checkpoint``).
        where: the flags that find the thread (:func:`app.settings.hints.place_args`), for
            the command an error line names.

    Returns:
        A :class:`PendingReview`: ``(None, False)`` without a checkpoint.

    Raises:
        app.errors.UnknownThread: no such thread (:func:`app.runs.threads.require_thread`).
        app.errors.UnknownCheckpoint: ``checkpoint_id`` is not one of its checkpoints.
        app.storage.StorageError: a database is damaged or cannot be reached.
    """
    from app.errors import UnknownCheckpoint
    from app.research.review import awaiting

    storage = _storage(storage)
    require_thread(storage, thread_id)
    with storage.checkpointer(read_only=True) as saver:
        if saver is None:  # only a recorded run: a hard kill under durability="exit"
            return PendingReview(None, False)
        config: dict[str, Any] = {"thread_id": thread_id}
        if checkpoint_id is not None:
            config["checkpoint_id"] = checkpoint_id
        snap = research_graph(saver).get_state({"configurable": config})
    if checkpoint_id is not None and snap.metadata is None:  # LangGraph found no such checkpoint
        raise UnknownCheckpoint(f"thread {thread_id!r} has no checkpoint {checkpoint_id!r} "
                                f"({thread_command('inspect', thread_id, place=where)} "
                                "lists its review pauses)")
    values = snap.values or {}
    routing = values.get("routing")
    return PendingReview(awaiting(snap), is_unfinished(snap), values.get("topic"),
                         values.get("as_of"),
                         isinstance(routing, dict) and routing.get("review") is True)


def thread_report(storage: Storage | Path | str, thread_id: str) -> str | None:
    """The markdown report of ``thread_id``'s latest run, as its ``report`` node wrote it, read
    from the results database opened read-only; None when there is none (no such thread, a run
    that has not reached ``report``, a database written before reports were kept).

    Args:
        storage: where the thread lives (a data dir path means its SQLite files).

    Raises:
        app.storage.StorageError: the database is damaged or cannot be reached.
    """
    with _storage(storage).results(read_only=True) as store:
        return store.report(thread_id) if store is not None else None


def _checkpoint_bytes(saver: Any, tup: Any) -> int:
    """The serialized size of one checkpoint and its metadata (what the saver stores for it)."""
    _, blob = saver.serde.dumps_typed(tup.checkpoint)
    return len(blob) + len(json.dumps(tup.metadata, default=str).encode())


def inspect_thread(storage: Storage | Path | str, thread_id: str,
                   warnings: list[str] | None = None) -> dict[str, Any] | None:
    """The checkpoint history (oldest first) and DB rows of one thread, or None if unknown.

    Both databases are opened read-only; history comes from LangGraph's
    ``get_state_history`` and sizes from the checkpointer's ``list``.

    Args:
        storage: where the thread lives (a data dir path means its SQLite files).
        thread_id: the thread.
        warnings: as for :func:`list_threads`: damage to one database becomes a line here and
            what the other one knows is still returned.

    Returns:
        ``{"thread_id", "topic", "as_of", "run_status", "next", "next_saved" (how many of the
        tasks ``next`` finished and had their writes saved: a resume runs only the others),
        "values" (the latest
        checkpoint's channels but ``envelopes``), "checkpoints": [{step, source,
        ran ({node: tasks}; None: its parent was pruned), envelopes, unique_ids, persisted,
        with_payload, bytes, checkpoint_id}], "unread"
        (``"checkpoints"``, ``"rows"``: what a damaged database hid), "rows":
        [{envelope_id, worker, status, error, write_count, attempts, round (the thread's),
        run_round (within its run; None: unknown), first_written_at, last_written_at}],
        "missing_rows": [envelope_id] (:func:`missing_rows`)}``

    Raises:
        app.storage.DamagedDatabase: a database is damaged and no ``warnings`` list was given.
        app.storage.StorageError: the server cannot be reached.
    """
    storage = _storage(storage)
    notes: list[str] = []
    history, sizes = _history(storage, thread_id, notes)
    unread = ["checkpoints"] if notes else []  # damaged: its line says so, not "none"
    rows, run = _rows_and_run(storage, thread_id, notes)
    unread += ["rows"] if len(notes) > len(unread) else []
    _raise_or_keep(notes, warnings)
    if not history and not rows and run is None:
        return None
    history.reverse()  # oldest first
    last = (history[-1].values if history else {}) or {}
    first_row = rows[0] if rows else {}  # a LangGraph Server run leaves rows and nothing else
    firsts = {routing_of(s.values, [])["first_round"] for s in history if s.values}
    return {
        "thread_id": thread_id,
        "topic": last.get("topic") or (run or first_row).get("topic"),
        "as_of": last.get("as_of") or (run or first_row).get("as_of"),
        "run_status": (ROWS_ONLY if not history and run is None else
                       _run_status(storage, thread_id, (run or {}).get("status"),
                                   history[-1] if history else None)),
        "next": list(history[-1].next) if history else [],
        # of the tasks next, those whose writes were saved: a resume runs only the others
        "next_saved": sum(1 for t in history[-1].tasks if t.result is not None) if history else 0,
        # every other channel of the latest checkpoint (the envelopes are the rows below): what
        # a key of your own (docs/extending.md, "Add a state key") holds
        "values": {k: v for k, v in last.items() if k != "envelopes"},
        "checkpoints": [_checkpoint_line(history, i, sizes) for i in range(len(history))],
        "unread": unread,  # what a damaged database kept from view
        "rows": [_row_line(r, firsts) for r in rows],
        "missing_rows": [] if unread else missing_rows(last, rows),
    }


def missing_rows(state: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """The envelope ids of the run's envelopes (:func:`app.research.rounds.current_envelopes`)
    that ``state`` marks persisted but that have no row in ``rows``: rows deleted, or a state
    edit or a thread's copy that marked them (trial 66, F3: ``inspect`` showed "8 rows, one per
    envelope" beside a checkpoint of 12 persisted envelopes, and named none missing).

    Example:
        >>> state = {"sub_questions": ["q"], "as_of": "d", "envelopes": [
        ...     {"envelope_id": "a", "task_key": "q", "as_of": "d", "persisted": True},
        ...     {"envelope_id": "b", "task_key": "q", "as_of": "d", "persisted": True}]}
        >>> missing_rows(state, [{"envelope_id": "a"}])
        ['b']
    """
    held = {r.get("envelope_id") for r in rows}
    return [e["envelope_id"] for e in current_envelopes(state)
            if e.get("persisted") and e.get("envelope_id") not in held]


def _rows_and_run(storage: Storage, thread_id: str, notes: list[str]
                  ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The thread's results rows and its ``runs`` row (None: none), read-only; nothing when
    the database is damaged (a line is added to ``notes``)."""
    rows: list[dict[str, Any]] = []
    run: dict[str, Any] | None = None
    with _unless_damaged(notes), storage.results(read_only=True) as store:
        if store is not None:
            rows = store.rows(thread_id=thread_id)
            run = store.run(thread_id)
    return rows, run


def _row_line(row: dict[str, Any], firsts: set[int]) -> dict[str, Any]:
    """What :func:`inspect_thread` says of one results row."""
    keys = ("envelope_id", "worker", "status", "error", "write_count", "attempts", "round",
            "first_written_at", "last_written_at")
    return {**{k: row.get(k) for k in keys}, "run_round": _run_round(row.get("round") or 1, firsts)}


def _run_round(round_: int, firsts: set[int]) -> int | None:
    """A row's round within its run (:func:`round_in_run`); None when no checkpoint says where
    the thread's runs began (damaged or gone) and it is past round 1: the thread-wide round
    under inspect's "round: within its run" read 3 for a rerun's first round."""
    return round_in_run(round_, firsts) if firsts or round_ == 1 else None


def _history(storage: Storage, thread_id: str, notes: list[str],
             ) -> tuple[list[Any], dict[str, int]]:
    """The thread's state history (newest first, LangGraph's ``get_state_history``) and each
    checkpoint's size in bytes by id; empty when there is no checkpoint database (or it is
    damaged: a line is added to ``notes``)."""
    history: list[Any] = []
    sizes: dict[str, int] = {}
    with _unless_damaged(notes), storage.checkpointer(read_only=True) as saver:
        if saver is not None:
            config = {"configurable": {"thread_id": thread_id}}
            history = list(research_graph(saver).get_state_history(config))
            sizes = {t.config["configurable"]["checkpoint_id"]: _checkpoint_bytes(saver, t)
                     for t in saver.list(root_config(thread_id))}
    return history, sizes


def _checkpoint_line(history: list[Any], i: int, sizes: dict[str, int]) -> dict[str, Any]:
    """What :func:`inspect_thread` says of checkpoint ``i`` of ``history`` (oldest first): its
    step and source, the nodes that ran into it, its envelopes and its size."""
    snap = history[i]
    envelopes = (snap.values or {}).get("envelopes") or []
    ran = Counter(t.name for t in history[i - 1].tasks) if i else Counter()
    cid = snap.config["configurable"]["checkpoint_id"]
    return {
        "step": (snap.metadata or {}).get("step"),
        "source": (snap.metadata or {}).get("source"),
        # None: the checkpoints before it, whose tasks these were, are gone (``prune`` keeps
        # a thread's latest only; not "-", which says nothing ran); a thread's first is its
        # input's (step -1)
        "ran": dict(ran) if i or (snap.metadata or {}).get("step", -1) < 0 else None,
        "envelopes": len(envelopes),
        "unique_ids": len({e.get("envelope_id") for e in envelopes}),
        "persisted": sum(1 for e in envelopes if e.get("persisted")),
        "with_payload": sum(1 for e in envelopes if e.get("structured") is not None),
        "bytes": sizes.get(cid),
        "checkpoint_id": cid,
        "next": list(snap.next),  # e.g. ["review_results"]: a pause to time-travel to
    }
