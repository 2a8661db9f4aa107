"""``prune``: drop the checkpoint history a finished thread no longer needs, and say how much.

Every run of a thread appends its checkpoints (about seven per run: input, plan, the map steps,
route, persist, report) and their pending writes; the writes of the map step still carry the
``structured`` payloads that ``persist`` moved to the results database. Nothing ever removes them,
so a thread that is rerun daily grows without bound. ``prune`` keeps, for each *finished* thread,
its latest root checkpoint (what the next rerun starts from, and what ``threads`` and ``inspect``
show) and deletes the older checkpoints, the subgraph namespaces of their calls, and all their
writes, on either backend of :mod:`app.storage`:

* SQLite: ``SqliteSaver`` (langgraph-checkpoint-sqlite 3.1) does not implement LangGraph's
  ``BaseCheckpointSaver.prune(thread_ids, strategy="keep_latest")``, so
  :func:`app.runs.keep_latest.keep_latest` does the same in one transaction; then the file is
  compacted (``VACUUM``) and the bytes it gave back are reported.
* PostgreSQL: ``PostgresSaver.prune(..., strategy="keep_latest")`` does the deleting (its
  ``checkpoint_blobs`` rows included); :func:`app.runs.keep_latest.keep_latest` runs it inside a
  transaction of its own that also counts the thread's rows before and after (so the counts are the
  rows really removed), and rolls it back for a dry run. No ``VACUUM`` is run: PostgreSQL keeps the
  space of deleted rows in the same tables for new checkpoints (autovacuum marks it free), and only
  ``VACUUM FULL``, which locks the tables against every run while it rewrites them, gives it back to
  the OS; that is a decision for the database's owner, not for this command. The sizes reported are
  ``pg_total_relation_size`` of the saver's tables, before and after.

What an unfinished thread needs to resume is never touched: a thread is pruned only when its
latest state, read under the thread's lock (a ``flock`` file, or a PostgreSQL advisory lock), has
nothing left to run (:func:`app.runs.threads.is_unfinished`: no next task, no task whose pending
writes wait), and only while this process holds the thread's lock (a run of it in another process is
skipped as busy). Reading (which threads, which checkpoints) goes through the checkpointer's API
(``list``, ``get_tuple``) and the reader graph of ``threads``
(:func:`app.runs.threads.research_graph`).

Sources: ``langgraph.checkpoint.base.BaseCheckpointSaver.prune`` and its ``DeltaChannel`` warning
(this graph has no ``DeltaChannel``: the latest checkpoint is whole); PostgreSQL's "Routine
Vacuuming" (https://www.postgresql.org/docs/current/routine-vacuuming.html) for what happens to
deleted rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.research.review import awaiting
from app.runs.keep_latest import compact_sqlite, keep_latest
from app.runs.threads import (
    AGAIN,
    is_unfinished,
    recorded_run,
    require_thread,
    research_graph,
    rows_only,
    run_again,
    sources_changed,
)
from app.settings.config import Settings
from app.settings.hints import next_step
from app.storage import Storage, ThreadBusy, open_storage, root_config
from app.storage.sqlite import CHECKPOINTS_DB, SqliteStorage

__all__ = ["prune_checkpoints", "print_prune"]


def _targets(storage: Storage, thread_id: str | None) -> tuple[list[str], bool]:
    """The threads :func:`prune_checkpoints` prunes (``thread_id``, or all), and whether
    ``thread_id`` has result rows only here (a server's: then none). Raises UnknownThread."""
    elsewhere = thread_id is not None and rows_only(storage, thread_id)
    if thread_id is None:
        with storage.checkpointer(read_only=True) as reader:
            return storage.thread_ids(reader), False
    if not elsewhere:
        require_thread(storage, thread_id)
    return ([] if elsewhere else [thread_id]), elsewhere


def prune_checkpoints(storage: Storage | Path | str, *, thread_id: str | None = None,
                      dry_run: bool = False, settings: Settings | None = None
                      ) -> dict[str, Any]:
    """Keep only the latest checkpoint of each finished thread (or of ``thread_id``).

    Args:
        storage: the storage (:func:`app.storage.open_storage`: the SQLite files of a data dir,
            or PostgreSQL; a path means the SQLite files of that data dir).
        thread_id: prune this thread only (None: every thread).
        settings: the command's; given, each unfinished thread's corpus is read to tell one
            that can no longer be resumed (:func:`app.runs.threads.sources_changed`).
        dry_run: count what would be removed, change nothing: the databases are opened
            read-only and no lock file is made, so it works on a read-only data dir.

    Returns:
        ``{"dry_run", "checkpoints_at", "compacts", "bytes_before", "bytes_after", "bytes_freed",
        "checkpoints_removed", "writes_removed", "threads": [{"thread_id", "action",
        "checkpoints_removed", "writes_removed", "payload_bytes"}]}`` where ``checkpoints_at`` names
        the checkpoints in messages (``checkpoints.sqlite``, or PostgreSQL's tables with the URL's
        password hidden; None when the data dir has no ``checkpoints.sqlite``, a server's: its sizes
        are then 0 and never said), ``compacts`` says whether the freed space goes back to the OS
        (SQLite's ``VACUUM``; False on PostgreSQL, whose tables keep it for new rows), ``action`` is
        ``pruned`` (or ``would prune``), ``kept: unfinished``, ``kept: corpus changed`` (``status``
        unfinished or awaiting review, and ``resume`` and ``review`` refuse it: its corpus changed
        since it started; its ``run_again`` is the topic's ``research`` command that runs it again
        from its start on the new content), ``kept: awaiting review`` (paused for a human review:
        ``review`` continues it, not ``resume``), ``kept: busy``, ``kept: nothing to remove`` (only
        its latest checkpoint is left) or ``kept: rows only`` (the ``thread_id`` named has result
        rows here and no checkpoint: a LangGraph Server's thread, whose checkpoints are the
        server's); sizes in bytes of the checkpoints on disk
        (:meth:`app.storage.Storage.checkpoint_bytes`; ``bytes_after`` equals ``bytes_before`` in a
        dry run; ``payload_bytes`` counts the serialized values of the rows removed).

    Raises:
        BaseException: what stopped it (a full disk) holds the result so far as ``partial``.
        app.errors.UnknownThread: no thread ``thread_id`` (:func:`app.runs.threads.require_thread`;
            a thread with a recorded run and no checkpoint is ``kept: unfinished``, one with
            result rows only ``kept: rows only``).
        app.storage.StorageError: the database cannot be reached.
        app.storage.ThreadBusy: never; a busy thread is reported as ``kept: busy``.
    """
    if not isinstance(storage, Storage):
        storage = open_storage(storage)
    targets, elsewhere = _targets(storage, thread_id)
    result = _result_head(storage, dry_run)
    if targets:
        _prune_targets(storage, targets, result, dry_run=dry_run)
    else:
        result["bytes_after"] = result["bytes_before"]
    if elsewhere:
        result["threads"].append({"thread_id": thread_id, "action": "kept: rows only",
                                  "checkpoints_removed": 0, "writes_removed": 0,
                                  "payload_bytes": 0})
    if settings is not None:
        _mark_stale(storage, result["threads"], settings)
    return _with_totals(result)


def _result_head(storage: Storage, dry_run: bool) -> dict[str, Any]:
    """A prune's result before any thread: where the checkpoints are (None for a data dir with
    no ``checkpoints.sqlite``, a server's: N14), whether freed space is compacted, their size."""
    sqlite = isinstance(storage, SqliteStorage)
    at = CHECKPOINTS_DB if sqlite else f"the checkpoint tables at {storage.label}"
    if sqlite and not storage.checkpoints_path.is_file():
        at = None
    return {"dry_run": dry_run, "compacts": sqlite, "checkpoints_at": at,
            "bytes_before": storage.checkpoint_bytes(), "threads": []}


def _keep_partial(exc: BaseException, storage: Storage, result: dict[str, Any]) -> None:
    """Attach to ``exc`` (as ``exc.partial``) the result of the threads pruned before it was
    raised, when there are any: each thread's prune is its own transaction, so they stay pruned,
    and an error that said only "the disk is full" left the output claiming nothing changed."""
    if not any(t["action"] == "pruned" for t in result["threads"]):
        return
    try:
        result["bytes_after"] = storage.checkpoint_bytes()
    except Exception:  # noqa: BLE001 - the error being raised says what went wrong
        result["bytes_after"] = result["bytes_before"]
    exc.partial = _with_totals(result)  # type: ignore[attr-defined]


def _with_totals(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the bytes freed and the checkpoints and writes its threads removed."""
    result["bytes_freed"] = max(0, result["bytes_before"] - result["bytes_after"])
    result["checkpoints_removed"] = sum(t["checkpoints_removed"] for t in result["threads"])
    result["writes_removed"] = sum(t["writes_removed"] for t in result["threads"])
    return result


def _mark_stale(storage: Storage, threads: list[dict[str, Any]], settings: Settings) -> None:
    """Mark each unfinished (or review-paused) thread of ``threads`` whose corpus changed since
    it started ``kept: corpus changed``, with its topic's command that runs it again on the new
    content: advising ``resume``, ``--fresh`` or ``review --approve`` for it was wrong: the first
    and last refuse it and the second leaves it unfinished for good
    (``tests/app/test_changed_corpus_advice.py``)."""
    seen: dict[tuple[str, int], str | None] = {}  # each corpus folder read once
    for t in threads:
        if t["action"] not in ("kept: unfinished", "kept: awaiting review"):
            continue
        recorded = recorded_run(storage, t["thread_id"])
        if recorded is not None and (why := sources_changed(recorded, settings, seen)):
            status = _KEPT_BECAUSE[t["action"]]
            t.update(action="kept: corpus changed", why=why, status=status,
                     run_again=run_again(recorded, t["thread_id"], settings))


def _prune_targets(storage: Storage, targets: list[str], result: dict[str, Any], *,
                   dry_run: bool) -> None:
    """Prune each of ``targets`` on one checkpointer, filling ``result``'s ``threads``,
    ``bytes_before`` and ``bytes_after``. A dry run's checkpointer is read-only: it writes
    nothing (like ``threads`` and ``inspect``), so a read-only data dir will do."""
    try:
        _prune_each(storage, targets, result, dry_run=dry_run)
    except BaseException as exc:  # a full disk, Ctrl-C: what it pruned so far is said too
        _keep_partial(exc, storage, result)  # tests/app/test_prune_partial.py
        raise


def _prune_each(storage: Storage, targets: list[str], result: dict[str, Any], *,
                dry_run: bool) -> None:
    with storage.checkpointer(read_only=dry_run) as saver:
        if not dry_run:  # the log moved into the file first (a read-only saver cannot)
            result["bytes_before"] = storage.checkpoint_bytes(saver)
        reader = research_graph(saver) if saver is not None else None
        for tid in targets:
            result["threads"].append(_prune_one(saver, reader, storage, tid, dry_run))
        removed = any(t["checkpoints_removed"] or t["writes_removed"] for t in result["threads"])
        if removed and not dry_run and result["compacts"]:
            compact_sqlite(saver)
        result["bytes_after"] = (result["bytes_before"] if dry_run
                                 else storage.checkpoint_bytes(saver))


def _prune_one(saver: Any, reader: Any, storage: Storage, thread_id: str, dry_run: bool
               ) -> dict[str, Any]:
    """Prune one thread under its lock, if its latest state (read through ``reader``, the
    research graph on ``saver``, once the lock is held) has nothing left to run. The checkpoint
    kept is its latest, with its pending writes: what a resume reads. ``saver`` None (a dry
    run, no checkpoint database): the thread has only a recorded run, and is kept."""
    out = {"thread_id": thread_id, "action": "kept: unfinished", "checkpoints_removed": 0,
           "writes_removed": 0, "payload_bytes": 0}
    if saver is None:
        return out
    try:
        with storage.thread_lock(thread_id, read_only=dry_run, holder="prune"):
            latest = saver.get_tuple(root_config(thread_id))
            # Resuming needs the latest checkpoint and its pending writes; a thread with work
            # left is unfinished, whatever its recorded status says.
            snapshot = _latest_state(reader, thread_id) if latest is not None else None
            if snapshot is None or is_unfinished(snapshot):
                if snapshot is not None and awaiting(snapshot) is not None:
                    out["action"] = "kept: awaiting review"
                return out
            keep_id = latest.config["configurable"]["checkpoint_id"]
            counts = keep_latest(saver, thread_id, keep_id, dry_run=dry_run)
    except ThreadBusy:
        out["action"] = "kept: busy"
        return out
    nothing = not (counts["checkpoints"] or counts["writes"])
    out.update(action="kept: nothing to remove" if nothing else
               "would prune" if dry_run else "pruned",
               checkpoints_removed=counts["checkpoints"], writes_removed=counts["writes"],
               payload_bytes=counts["payload_bytes"])
    return out


def _latest_state(reader: Any, thread_id: str) -> Any:
    """The thread's latest ``StateSnapshot``; None when LangGraph cannot read it back
    (``threads`` lists it as broken: its saved writes are refused), so it is never pruned."""
    try:
        return reader.get_state({"configurable": {"thread_id": thread_id}})
    except Exception:  # broken, never pruned: what it holds is the only record of its run
        return None


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)  # pragma: no cover


_KEPT_BECAUSE = {
    "kept: busy": "running",
    "kept: awaiting review": "awaiting review",
    "kept: unfinished": "unfinished",
}
"""Why a thread was kept, as ``threads`` calls it (:func:`app.settings.hints.next_step` says what
moves it on)."""


def _kept_because(t: dict[str, Any], where: str) -> str:
    """Why ``prune`` kept a thread (``t``: its entry), and what moves it on (``where``: the
    flags that find it)."""
    thread_id, action = t["thread_id"], t["action"]
    if action == "kept: nothing to remove":
        return "nothing to remove: only its latest checkpoint"
    if action == "kept: rows only":  # it once said the thread "cannot continue"
        return ("nothing to prune here: its result rows are here but not its checkpoints, which "
                "a LangGraph Server keeps for its threads (or its checkpoint database was "
                "removed)")
    if action == "kept: corpus changed":  # resume and review refuse it: its topic's command
        return (f"{t['status']}, and {t['why']}, so resume and review refuse it; {AGAIN} "
                f"{t['run_again']}")
    status = _KEPT_BECAUSE.get(action, "unfinished")
    step = next_step(thread_id, status, place=where)
    return step if status == "running" else f"{status}; {step}"


def print_prune(result: dict[str, Any], where: str = "") -> None:
    """Print what ``prune`` did (or would do): one line per thread, then the totals; ``where``
    (:func:`app.settings.hints.place_args`) follows the thread id in a printed command."""
    for t in result["threads"]:
        if t["action"].startswith("kept"):
            why = _kept_because(t, where)
            print(f"kept    {t['thread_id']}  ({why})")
        else:
            print(f"{'would prune' if result['dry_run'] else 'pruned':<7} {t['thread_id']}  "
                  f"({t['checkpoints_removed']} checkpoints, {t['writes_removed']} writes)")
    if not result["threads"]:
        print("no checkpoints to prune")
    total = (f"{result['checkpoints_removed']} checkpoints and {result['writes_removed']} "
             "writes")
    payload = _size(sum(t["payload_bytes"] for t in result["threads"]))
    where = result["checkpoints_at"]
    if where is None:  # no checkpoint file: "checkpoints.sqlite 0 B -> 0 B" said it was there
        print(f"{'dry run: would remove' if result['dry_run'] else 'removed'} {total}")
    elif result["dry_run"]:
        print(f"dry run: would remove {total} ({payload} of serialized data); size of "
              f"{where}: {_size(result['bytes_before'])}")
    elif result["compacts"]:
        print(f"removed {total}; {where} {_size(result['bytes_before'])} -> "
              f"{_size(result['bytes_after'])} ({_size(result['bytes_freed'])} freed)")
    else:  # PostgreSQL: the tables keep the space (see the module docstring)
        print(f"removed {total} ({payload} of serialized data); {where}: "
              f"{_size(result['bytes_before'])} -> {_size(result['bytes_after'])} (PostgreSQL "
              "reuses the space of deleted rows for new checkpoints; only VACUUM FULL, which "
              "locks the tables, gives it back to the OS)")
