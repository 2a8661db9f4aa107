"""``threads`` and ``inspect``: what the checkpointer and the results database know about runs.

``inspect`` walks LangGraph's checkpoint history of a thread (``get_state_history``) and shows,
per checkpoint, the step, the nodes that ran to produce it, the envelopes in state, how many are
persisted, and the checkpoint's size; then the thread's rows in the results database with how
many times persist wrote each one. It is the quickest way to *see* the durability story.

The graph used here is compiled only to read history: workers build lazily, so no corpus or model
is opened.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

from app.checkpoint import CHECKPOINTS_DB, checkpoint_thread_ids, open_checkpointer
from app.graph import build_graph
from app.store import RESULTS_DB, ResultsStore
from workers.registry import WORKERS

__all__ = ["inspect_thread", "list_threads", "print_inspection", "print_threads"]

_STATUS = {"finished": "finished", "failed": "failed", "error": "failed", "running": "unfinished"}


def _reader_graph(data_dir: Path, saver: Any) -> Any:
    return build_graph(WORKERS, checkpointer=saver)  # nodes open nothing until they run


def list_threads(data_dir: Path | str) -> list[dict[str, Any]]:
    """One dict per thread: ``thread_id, topic, as_of, status, last_step, started_at``.

    ``status`` is ``finished``, ``failed`` (completed with errors, or stopped by an exception),
    or ``unfinished`` (killed, or still running in another process: resume it).
    """
    data_dir = Path(data_dir)
    runs: dict[str, dict[str, Any]] = {}
    if (data_dir / RESULTS_DB).exists():
        with ResultsStore.in_dir(data_dir) as store:
            runs = {r["thread_id"]: r for r in store.runs()}
    thread_ids = list(dict.fromkeys([*runs, *checkpoint_thread_ids(data_dir)]))
    if not thread_ids:
        return []
    out = []
    with open_checkpointer(data_dir) as saver:
        graph = _reader_graph(data_dir, saver)
        for thread_id in thread_ids:
            snap = graph.get_state({"configurable": {"thread_id": thread_id}})
            run = runs.get(thread_id, {})
            values = snap.values or {}
            status = _STATUS.get(run.get("status", ""), "unknown")
            if snap.next and status == "finished":
                status = "unfinished"
            out.append(
                {
                    "thread_id": thread_id,
                    "topic": values.get("topic") or run.get("topic"),
                    "as_of": values.get("as_of") or run.get("as_of"),
                    "status": status,
                    "last_step": (snap.metadata or {}).get("step") if snap.values else None,
                    "next": list(snap.next),
                    "started_at": run.get("started_at"),
                }
            )
    return out


def _checkpoint_sizes(data_dir: Path, thread_id: str) -> dict[str, int]:
    with sqlite3.connect(data_dir / CHECKPOINTS_DB, timeout=30.0) as conn:
        rows = conn.execute(
            "SELECT checkpoint_id, length(checkpoint) + length(metadata) FROM checkpoints "
            "WHERE thread_id = ? AND checkpoint_ns = ''",
            (thread_id,),
        ).fetchall()
    return {cid: size for cid, size in rows}


def inspect_thread(data_dir: Path | str, thread_id: str) -> dict[str, Any] | None:
    """The checkpoint history (oldest first) and DB rows of one thread, or None if unknown.

    Returns:
        ``{"thread_id", "topic", "as_of", "checkpoints": [{step, source, ran, envelopes,
        persisted, with_payload, bytes, checkpoint_id}], "rows": [{envelope_id, worker, status,
        write_count, first_written_at, last_written_at, attempts, round}]}``
    """
    data_dir = Path(data_dir)
    if not (data_dir / CHECKPOINTS_DB).exists() and not (data_dir / RESULTS_DB).exists():
        return None
    history: list[Any] = []
    sizes: dict[str, int] = {}
    if (data_dir / CHECKPOINTS_DB).exists():
        with open_checkpointer(data_dir) as saver:
            graph = _reader_graph(data_dir, saver)
            history = list(graph.get_state_history({"configurable": {"thread_id": thread_id}}))
        sizes = _checkpoint_sizes(data_dir, thread_id)
    rows: list[dict[str, Any]] = []
    run: dict[str, Any] | None = None
    if (data_dir / RESULTS_DB).exists():
        with ResultsStore.in_dir(data_dir) as store:
            rows = store.rows(thread_id=thread_id)
            run = store.run(thread_id)
    if not history and not rows and run is None:
        return None
    history.reverse()  # oldest first
    checkpoints = []
    for i, snap in enumerate(history):
        envelopes = (snap.values or {}).get("envelopes") or []
        ran = Counter(t.name for t in history[i - 1].tasks) if i else Counter()
        cid = snap.config["configurable"]["checkpoint_id"]
        checkpoints.append(
            {
                "step": (snap.metadata or {}).get("step"),
                "source": (snap.metadata or {}).get("source"),
                "ran": dict(ran),
                "envelopes": len(envelopes),
                "unique_ids": len({e.get("envelope_id") for e in envelopes}),
                "persisted": sum(1 for e in envelopes if e.get("persisted")),
                "with_payload": sum(1 for e in envelopes if e.get("structured") is not None),
                "bytes": sizes.get(cid),
                "checkpoint_id": cid,
            }
        )
    last = (history[-1].values if history else {}) or {}
    return {
        "thread_id": thread_id,
        "topic": last.get("topic") or (run or {}).get("topic"),
        "as_of": last.get("as_of") or (run or {}).get("as_of"),
        "run_status": _STATUS.get((run or {}).get("status", ""), "unknown"),
        "next": list(history[-1].next) if history else [],
        "checkpoints": checkpoints,
        "rows": [
            {k: r[k] for k in ("envelope_id", "worker", "status", "write_count", "attempts",
                               "round", "first_written_at", "last_written_at")}
            for r in rows
        ],
    }


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def print_threads(rows: list[dict[str, Any]]) -> None:
    """Print the ``threads`` table. Thread ids are never cut: they are what you copy into
    ``inspect`` and ``resume``."""
    from rich.table import Table

    console = _console()
    if not rows:
        console.print("no threads yet")
        return
    table = Table(box=None, pad_edge=False)
    table.add_column("thread_id", no_wrap=True, min_width=max(len(r["thread_id"]) for r in rows))
    table.add_column("status", no_wrap=True)
    table.add_column("step", justify="right", no_wrap=True)
    table.add_column("as_of", no_wrap=True)
    table.add_column("topic", overflow="fold")
    for r in rows:
        step = "" if r["last_step"] is None else str(r["last_step"])
        table.add_row(r["thread_id"], r["status"], step, str(r["as_of"] or ""),
                      str(r["topic"] or ""))
    console.print(table)


def print_inspection(data: dict[str, Any]) -> None:
    """Print ``inspect`` output: the checkpoint history, then the thread's database rows."""
    from rich.markup import escape
    from rich.table import Table

    console = _console()
    console.print(escape(f"thread {data['thread_id']}: {data['topic']!r} as of {data['as_of']}"))
    if data["next"]:
        console.print(f"unfinished: next {', '.join(data['next'])}")
    if data["checkpoints"]:
        history = Table("step", "source", "nodes that ran", "envelopes", "persisted",
                        "payloads", "bytes", title="checkpoints (oldest first)", box=None)
        for c in data["checkpoints"]:
            ran = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in c["ran"].items())
            history.add_row(str(c["step"]), str(c["source"]), ran or "-", str(c["envelopes"]),
                            str(c["persisted"]), str(c["with_payload"]), str(c["bytes"] or "-"))
        console.print(history)
    else:
        console.print(f"no checkpoints (status: {data['run_status']}); a hard kill under "
                      "durability=exit leaves none: `resume` runs the topic again")
    if data["rows"]:
        rows = Table(title="results database rows of this thread (times: --json)",
                     box=None)
        for name in ("status", "round", "attempts", "writes"):
            rows.add_column(name, no_wrap=True)
        width = max(len(r["envelope_id"]) for r in data["rows"])
        rows.add_column("envelope_id", no_wrap=True, min_width=width)
        for r in data["rows"]:
            rows.add_row(r["status"], str(r["round"]), str(r["attempts"]), str(r["write_count"]),
                         r["envelope_id"])
        console.print(rows)
    else:
        console.print("no results database rows for this thread")
