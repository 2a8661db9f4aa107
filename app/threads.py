"""Thread identity: which ``thread_id`` a run uses, and whether it may continue that thread. (The
lock that keeps two processes off one thread is the storage's: ``Storage.thread_lock``.)

Part of the CLI's run (``app/run.py``); kept apart so the rules about *which* thread a command
lands on read in one place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.config import Settings
from app.errors import ThreadMismatch, UnknownThread
from app.ids import default_thread_id, fresh_thread_id
from app.storage import Storage, ThreadBusy, storage_of

__all__ = [
    "WEB_MARK", "ThreadBroken", "ThreadBusy", "ThreadMismatch", "check_thread", "corpus_key",
    "recorded_run", "run_thread_id",
]


class ThreadBroken(RuntimeError):
    """The thread's checkpoint cannot be read back (LangGraph refuses its saved writes): it can
    never be resumed; a new thread (``--fresh``) can."""


def run_thread_id(topic: str | None, as_of: str, thread_id: str | None, fresh: bool,
                  storage: Storage | None = None) -> str:
    """The thread a run lands on: ``thread_id`` when given, else derived from topic and
    ``as_of`` (so the same command resumes or updates the same run); ``fresh`` makes a new one
    (:func:`app.ids.fresh_thread_id`: time stamp and random digits), drawn again while it names
    a thread that ``storage`` already knows."""
    if thread_id is not None:
        return thread_id
    assert topic is not None
    if not fresh:
        return default_thread_id(topic, as_of)
    while True:
        new = fresh_thread_id(topic, as_of)
        if storage is None or not _known(storage, new):
            return new


def _known(storage: Storage, thread_id: str) -> bool:
    if recorded_run(storage, thread_id) is not None:
        return True
    with storage.checkpointer(read_only=True) as saver:
        return storage.has_thread(saver, thread_id)


def recorded_run(storage: Storage, thread_id: str) -> dict[str, Any] | None:
    """The ``runs`` row of a thread, read without creating a database that is not there."""
    with storage.results(read_only=True) as store:
        return store.run(thread_id) if store is not None else None


WEB_MARK = " +web"
"""Appended to a run's recorded corpus when it also searches the web (``--web``)."""


def corpus_key(settings: Settings) -> str:
    """How the ``runs`` table records a run's sources: its resolved corpus folder, or ""
    (package docs), followed by :data:`WEB_MARK` when it searches the web."""
    base = str(Path(settings.corpus).resolve()) if settings.corpus else ""
    return base + (WEB_MARK if settings.web else "")


def _split_key(key: str) -> tuple[str, bool]:
    """``(corpus folder or "", web)`` of a recorded :func:`corpus_key`."""
    return (key[: -len(WEB_MARK)], True) if key.endswith(WEB_MARK) else (key, False)


def check_thread(topic: str | None, settings: Settings, thread_id: str,
                 recorded: dict[str, Any] | None) -> Settings:
    """Refuse what would lose or mix data before anything is opened; return the settings to use.

    A resume by id (``topic`` None) with no ``--corpus`` uses the corpus the thread started on,
    and searches the web if the thread did; an unfinished thread is never continued on other
    sources (its report would cite two sets, and its pending tasks may need the web worker).

    Raises:
        UnknownThread: ``resume`` of a thread nobody knows.
        ThreadMismatch: an unfinished thread would be continued on other sources.
    """
    if topic is None and recorded is None:
        storage = storage_of(settings)
        with storage.checkpointer(read_only=True) as saver:
            if not storage.has_thread(saver, thread_id):
                raise UnknownThread(f"no thread {thread_id!r} in {storage.label}")
    was_corpus, was_web = _split_key((recorded or {}).get("corpus") or "")
    if topic is None:
        if settings.corpus is None and was_corpus:
            settings = settings.with_overrides(corpus=was_corpus)
        if was_web and not settings.web:
            settings = settings.with_overrides(web=True)
    unfinished = recorded is not None and recorded["status"] in ("running", "error",
                                                                  "interrupted", "awaiting_review")
    if unfinished and was_corpus != _split_key(corpus_key(settings))[0]:
        was = was_corpus or "the package docs"
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started on {was}; continue it with "
            f"the same corpus{' (--corpus ' + was + ')' if was_corpus else ''}, "
            "or start a new thread with --fresh"
        )
    if unfinished and was_web != settings.web:
        how = "with --web" if was_web else "without --web"
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started {how}; continue it the same "
            "way, or start a new thread with --fresh"
        )
    return settings
