"""Thread identity: which ``thread_id`` a run uses, and whether it may continue that thread. (The
lock that keeps two processes off one thread is the storage's: ``Storage.thread_lock``.)

Part of the CLI's run (``app/run.py``); kept apart so the rules about *which* thread a command
lands on read in one place.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app.config import Settings
from app.ids import default_thread_id
from app.storage import Storage, ThreadBusy, storage_of

__all__ = [
    "ThreadBusy", "ThreadMismatch", "check_thread", "corpus_key", "recorded_run",
    "run_thread_id",
]


class ThreadMismatch(ValueError):
    """The thread exists and belongs to another topic, ``as_of`` or corpus."""


def run_thread_id(topic: str | None, as_of: str, thread_id: str | None, fresh: bool) -> str:
    """The thread a run lands on: ``thread_id`` when given, else derived from topic and
    ``as_of`` (so the same command resumes or updates the same run); ``fresh`` adds a time
    stamp for a new thread."""
    if thread_id is not None:
        return thread_id
    assert topic is not None
    derived = default_thread_id(topic, as_of)
    return f"{derived}-{time.strftime('%Y%m%dT%H%M%S')}" if fresh else derived


def recorded_run(storage: Storage, thread_id: str) -> dict[str, Any] | None:
    """The ``runs`` row of a thread, read without creating a database that is not there."""
    with storage.results(read_only=True) as store:
        return store.run(thread_id) if store is not None else None


def corpus_key(settings: Settings) -> str:
    """How the ``runs`` table records a run's corpus: its resolved folder, or "" (package docs)."""
    return str(Path(settings.corpus).resolve()) if settings.corpus else ""


def check_thread(topic: str | None, settings: Settings, thread_id: str,
                 recorded: dict[str, Any] | None) -> Settings:
    """Refuse what would lose or mix data before anything is opened; return the settings to use.

    A resume by id (``topic`` None) with no ``--corpus`` uses the corpus the thread started on;
    an unfinished thread is never continued on another corpus (its report would cite two).

    Raises:
        KeyError: ``resume`` of a thread nobody knows.
        ThreadMismatch: an unfinished thread would be continued on another corpus.
    """
    if topic is None and recorded is None:
        storage = storage_of(settings)
        with storage.checkpointer(read_only=True) as saver:
            if not storage.has_thread(saver, thread_id):
                raise KeyError(f"no thread {thread_id!r} in {storage.label}")
    if topic is None:
        if settings.corpus is None and recorded and recorded.get("corpus"):
            settings = settings.with_overrides(corpus=recorded["corpus"])
    unfinished = recorded is not None and recorded["status"] in ("running", "error",
                                                                 "awaiting_review")
    if unfinished and (recorded.get("corpus") or "") != corpus_key(settings):
        was = recorded.get("corpus") or "the package docs"
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started on {was}; continue it with "
            f"the same corpus{' (--corpus ' + was + ')' if recorded.get('corpus') else ''}, "
            "or start a new thread with --fresh"
        )
    return settings
