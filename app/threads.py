"""Thread identity and locking: which ``thread_id`` a run uses, whether it may continue that
thread, and the lock that keeps two processes off one thread.

Part of the CLI's run (``app/run.py``); kept apart so the rules about *which* thread a command
lands on read in one place.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.checkpoint import checkpoint_thread_ids
from app.config import Settings
from app.ids import default_thread_id, sha8
from app.store import RESULTS_DB, ResultsStore

__all__ = [
    "ThreadBusy", "ThreadMismatch", "check_thread", "corpus_key", "recorded_run",
    "run_thread_id", "thread_lock",
]


class ThreadMismatch(ValueError):
    """The thread exists and belongs to another topic, ``as_of`` or corpus."""


class ThreadBusy(RuntimeError):
    """Another process is running this thread right now."""


def run_thread_id(topic: str | None, as_of: str, thread_id: str | None, fresh: bool) -> str:
    """The thread a run lands on: ``thread_id`` when given, else derived from topic and
    ``as_of`` (so the same command resumes or updates the same run); ``fresh`` adds a time
    stamp for a new thread."""
    if thread_id is not None:
        return thread_id
    assert topic is not None
    derived = default_thread_id(topic, as_of)
    return f"{derived}-{time.strftime('%Y%m%dT%H%M%S')}" if fresh else derived


@contextmanager
def thread_lock(data_dir: Path | str, thread_id: str) -> Iterator[None]:
    """Hold an exclusive, non-blocking lock on ``thread_id`` for the life of a run.

    Two processes continuing the same checkpoint at once would both run its tasks and interleave
    its history; rows would stay unique (upserts) but the work is done twice. ``flock`` is
    released by the OS when the process dies, so a SIGKILL never leaves a stale lock.

    Raises:
        ThreadBusy: another process holds it.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: run unlocked
        yield
        return
    folder = Path(data_dir) / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{sha8(thread_id)}.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ThreadBusy(
                f"thread {thread_id!r} is being run by another process; wait for it, or use "
                "--fresh for a new thread"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def recorded_run(data_dir: Path | str, thread_id: str) -> dict[str, Any] | None:
    """The ``runs`` row of a thread, read without creating a database that is not there."""
    if not (Path(data_dir) / RESULTS_DB).exists():
        return None
    with ResultsStore.in_dir(data_dir) as store:
        return store.run(thread_id)


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
    data_dir = Path(settings.data_dir)
    if topic is None:
        if recorded is None and thread_id not in checkpoint_thread_ids(data_dir):
            raise KeyError(f"no thread {thread_id!r} in {data_dir}")
        if settings.corpus is None and recorded and recorded.get("corpus"):
            settings = settings.with_overrides(corpus=recorded["corpus"])
    unfinished = recorded is not None and recorded["status"] in ("running", "error")
    if unfinished and (recorded.get("corpus") or "") != corpus_key(settings):
        was = recorded.get("corpus") or "the package docs"
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started on {was}; continue it with "
            f"the same corpus{' (--corpus ' + was + ')' if recorded.get('corpus') else ''}, "
            "or start a new thread with --fresh"
        )
    return settings
