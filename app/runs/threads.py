"""Thread identity: which ``thread_id`` a run uses, and whether it may continue that thread. (The
lock that keeps two processes off one thread is the storage's: ``Storage.thread_lock``.)

Also the one owner of what every command asks of a stored thread: does it exist
(:func:`thread_exists`, :func:`require_thread`), does it have work left (:func:`is_unfinished`
of its state, :data:`UNFINISHED_RUNS` of its ``runs`` row, :func:`thread_status` for display),
and which graph reads or runs it (:func:`research_graph`).

Part of the CLI's run (``app/runs/run.py``); kept apart so the rules about *which* thread a command
lands on read in one place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.errors import ThreadMismatch, UnknownThread
from app.runs.ids import default_thread_id, fresh_thread_id
from app.runs.sources_key import (  # re-exported: callers import them from here
    CONTENT_MARK,
    MAX_FILE_BYTES,
    WEB_MARK,
    corpus_key,
    recorded_max_bytes,
    split_key,
)
from app.settings.config import Settings
from app.settings.hints import anew_command, next_step
from app.storage import Storage, ThreadBusy, storage_of
from workers.registry import registered

__all__ = [
    "ANEW", "CONTENT_MARK", "UNFINISHED_RUNS", "WEB_MARK", "ThreadBroken", "ThreadBusy",
    "ThreadMismatch",
    "check_content", "check_thread", "corpus_key", "is_unfinished", "recorded_max_bytes",
    "recorded_run",
    "require_thread", "research_graph", "run_thread_id", "sources_changed", "start_anew",
    "thread_exists", "thread_status", "way_on",
]


class ThreadBroken(RuntimeError):
    """The thread's checkpoint cannot be read back (LangGraph refuses its saved writes): it can
    never be resumed; a new thread (``--fresh``) can."""


def run_thread_id(topic: str | None, as_of: str, thread_id: str | None, fresh: bool,
                  storage: Storage | None = None) -> str:
    """The thread a run lands on: ``thread_id`` when given, else derived from topic and
    ``as_of`` (so the same command resumes or updates the same run); ``fresh`` makes a new one
    (:func:`app.runs.ids.fresh_thread_id`: time stamp and random digits), drawn again while it names
    a thread that ``storage`` already knows.

    Raises:
        ThreadMismatch: both ``thread_id`` and ``fresh`` (exit 2, one line)."""
    if thread_id is not None:
        if fresh:  # "thread X belongs to topic Y; use ... --fresh" could not be followed
            raise ThreadMismatch("--fresh starts a thread of its own: give either --fresh or "
                                 f"--thread-id {thread_id}, not both")
        return thread_id
    assert topic is not None
    if not fresh:
        return default_thread_id(topic, as_of)
    while True:
        new = fresh_thread_id(topic, as_of)
        if storage is None or not thread_exists(storage, new):
            return new


def thread_exists(storage: Storage, thread_id: str) -> bool:
    """Whether ``storage`` knows ``thread_id``: a recorded run (a hard kill under
    ``durability="exit"`` leaves only that) or a root checkpoint. Opens both databases
    read-only: nothing is created.

    Raises:
        app.storage.StorageError: a database is damaged or cannot be reached.
    """
    if recorded_run(storage, thread_id) is not None:
        return True
    with storage.checkpointer(read_only=True) as saver:
        return storage.has_thread(saver, thread_id)


def require_thread(storage: Storage, thread_id: str) -> None:
    """Refuse a ``thread_id`` that ``storage`` does not know (:func:`thread_exists`).

    Raises:
        app.errors.UnknownThread: ``no thread 'ID' in WHERE`` (exit 2).
        app.storage.StorageError: a database is damaged or cannot be reached.
    """
    if not thread_exists(storage, thread_id):
        raise UnknownThread(f"no thread {thread_id!r} in {storage.label}")


def is_unfinished(snapshot: Any) -> bool:
    """Whether a thread's latest state (``graph.get_state``, a ``StateSnapshot``) has work
    left: tasks to run (``next``), or tasks that all finished with saved pending writes while
    the checkpoint closing their superstep was lost (a kill under ``durability="async"``:
    ``next`` is empty, ``tasks`` is not). Either way a resume continues from the checkpoint.

    Read through :func:`research_graph` with every worker: a graph without one drops its
    pending ``Send``s from ``next`` and ``tasks`` (langgraph ``pregel/_algo.py``: "Ignoring
    unknown node name").
    """
    return bool(snapshot.next or snapshot.tasks)


UNFINISHED_RUNS = frozenset({"running", "error", "interrupted", "awaiting_review"})
"""``runs`` statuses of a run that did not complete: killed or still running, stopped by an
exception (its checkpoint still has the failed tasks; ``threads`` shows it as ``failed``),
stopped by Ctrl-C, or paused for review. Such a thread resumes, so it never changes sources."""

_SHOWN = {"finished": "finished", "failed": "failed", "error": "failed", "running": "unfinished",
          "interrupted": "unfinished", "awaiting_review": "awaiting review"}


def thread_status(run_status: str | None, snapshot: Any = None,
                  running: bool = False) -> str:
    """What ``threads`` and ``inspect`` call a thread: ``finished``, ``failed`` (completed with
    errors, or stopped by an exception), ``running`` (a process runs it now), ``unfinished``
    (killed or interrupted: resume it; or running, where the storage cannot tell), ``awaiting
    review`` or ``unknown``.

    Args:
        run_status: the ``status`` of its ``runs`` row (None: no row).
        snapshot: its latest state, if read: a run recorded ``finished`` whose state still has
            work (:func:`is_unfinished`) is ``unfinished``.
        running: a process holds its lock now (:meth:`app.storage.Storage.running_threads`).
    """
    status = _SHOWN.get(run_status or "", "unknown")
    if status == "finished" and snapshot is not None and is_unfinished(snapshot):
        status = "unfinished"
    return "running" if status == "unfinished" and running else status


def research_graph(checkpointer: Any, *, web: bool = True, resources: Any = None) -> Any:
    """The research graph (:func:`app.graph.build_graph`) with the workers of
    :func:`workers.registry.registered`: the one place that chooses them.

    Args:
        checkpointer: the storage's saver (:meth:`app.storage.Storage.checkpointer`), or None
            (LangGraph Server brings its own).
        web: include the web workers. A *run* passes its ``--web`` setting (the plan fans out
            to every worker of the graph); a *reader* of stored threads keeps the default,
            True, since a thread's pending ``Send``s may name ``web_search`` and LangGraph
            drops the ones naming a node the graph lacks.
        resources: an :class:`app.graph.resources.Resources`, or None (a reader: nodes open
            nothing until they run).

    Raises:
        ValueError: two workers share a name.
    """
    from app.graph import build_graph

    return build_graph(registered(web=web), resources=resources, checkpointer=checkpointer)


def recorded_run(storage: Storage, thread_id: str) -> dict[str, Any] | None:
    """The ``runs`` row of a thread, read without creating a database that is not there."""
    with storage.results(read_only=True) as store:
        return store.run(thread_id) if store is not None else None


def _check_sources(thread_id: str, recorded: dict[str, Any] | None, settings: Settings, *,
                   rerun: bool) -> None:
    """Whether ``settings``' sources fit the thread's recorded ones (:func:`check_thread`):
    an unfinished thread continues on its own corpus and web setting; a finished one is not
    rerun (``rerun``: a ``research`` of its topic) on another corpus, whose rows and report
    would replace its own without a word (found by a new-user trial).

    Raises:
        ThreadMismatch: they do not fit.
    """
    if recorded is None:
        return
    was_corpus, was_web, _ = split_key(recorded.get("corpus") or "")
    now_corpus = split_key(corpus_key(settings))[0]
    was = was_corpus or "the package docs"
    unfinished = recorded["status"] in UNFINISHED_RUNS
    if unfinished and was_corpus and not Path(was_corpus).is_dir():
        # moved or deleted (found by a new-user trial: the advice to continue "with --corpus
        # WAS" led to "not found"). Another folder given: a moved one of the same content
        # continues the thread (check_content compares it); none: say where it was.
        if now_corpus and now_corpus != was_corpus and split_key(recorded.get("corpus") or "")[2]:
            return
        raise ThreadMismatch(_gone_line(thread_id, recorded, settings))
    if unfinished and was_corpus != now_corpus:
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started on {was}; continue it with "
            f"the same corpus{' (--corpus ' + was + ')' if was_corpus else ''}, "
            f"or {ANEW} {start_anew(recorded, settings)}"
        )
    if rerun and not unfinished and was_corpus != now_corpus:
        raise ThreadMismatch(
            f"thread {thread_id!r} was run on {was}; to run its topic on "
            f"{now_corpus or 'the package docs'} start a new thread with --fresh (or name one "
            "with --thread-id), so neither run's rows replace the other's"
        )
    if unfinished and was_web != settings.web:
        how = "with --web" if was_web else "without --web"
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started {how}; continue it the same "
            f"way, or {ANEW} {start_anew(recorded, settings)}"
        )


def _gone_line(thread_id: str, recorded: dict[str, Any], settings: Settings | None) -> str:
    """The refusal of an unfinished thread whose corpus folder is not where it started: put it
    back, give its new place (``--corpus``), or start anew on the folder this command names."""
    was_corpus, was_web, _ = split_key(recorded.get("corpus") or "")
    now = split_key(corpus_key(settings))[0] if settings is not None else ""
    anew = {**recorded, "corpus": corpus_key(settings) if settings is not None and now
            and now != was_corpus else "FOLDER" + (WEB_MARK if was_web else "")}
    other = (f"; {now} holds other files than it did" if now and now != was_corpus
             else "; if it was moved, continue with --corpus NEW_PLACE (the same files)")
    return (f"thread {thread_id!r} is unfinished and was started on corpus folder {was_corpus}, "
            f"which is not there now (moved or deleted){other}; put it back to continue the "
            f"thread, or {ANEW} {start_anew(anew, settings)}")


def _moved_here(recorded: dict[str, Any], settings: Settings | None) -> bool:
    """Whether the corpus folder this command names holds, file for file, what the thread's
    recorded folder held, that folder being gone: moved (the content is the thread's corpus)."""
    was_corpus, _, was_print = split_key(recorded.get("corpus") or "")
    now = split_key(corpus_key(settings))[0] if settings is not None else ""
    if not (was_corpus and now and now != was_corpus) or Path(was_corpus).is_dir():
        return False
    from workers.sources import CorpusError
    from workers.sources.current import current_content_fingerprint

    try:
        moved = current_content_fingerprint(settings.data_dir, now, as_folder=was_corpus,
                                            max_file_bytes=settings.max_file_bytes)
    except CorpusError:
        return False
    return moved == was_print


def check_content(thread_id: str, recorded: dict[str, Any] | None, fingerprint: str,
                  *also: str, settings: Settings | None = None) -> None:
    """Refuse to continue an unfinished thread on corpus content that changed since it started
    (``fingerprint``: the opened corpus's, :func:`corpus_key`): its report would cite the
    results found in the old files beside those of the new ones, a deleted file included
    (found by a new-user trial). The same refusal as another corpus; a finished thread reruns on
    the new content, which is how it is brought up to date. A run recorded before runs kept
    their fingerprint is not checked. ``fingerprint`` is the content's
    (``Corpus.content_fingerprint``: a ``touch`` leaves it); ``also`` are other fingerprints of
    the same content a run may have recorded (the index's stat-based one, recorded before).
    ``settings``: the command's, for the flags that find the data dir in the printed command.

    Raises:
        ThreadMismatch: the thread is unfinished and its corpus content changed; the message
            ends with the command that runs its topic on a new thread (:func:`start_anew`).
    """
    if recorded is None or recorded["status"] not in UNFINISHED_RUNS:
        return
    was_corpus, _, was_print = split_key(recorded.get("corpus") or "")
    if was_print and was_print not in (fingerprint, *also):
        if _moved_here(recorded, settings):
            return
        was_max = recorded_max_bytes(recorded.get("corpus") or "")
        if was_corpus and settings is not None and settings.max_file_bytes != was_max:
            # the same files, another limit: other files skipped (found by a new-user trial:
            # "has changed since it started" sent them looking for a change that was not there)
            how = ("without --max-file-bytes (the default)" if was_max == MAX_FILE_BYTES
                   else f"with --max-file-bytes {was_max}")
            raise ThreadMismatch(
                f"thread {thread_id!r} is unfinished and its corpus folder {was_corpus} was "
                f"indexed with --max-file-bytes {was_max}, this command gives "
                f"{settings.max_file_bytes} (other files would be skipped); continue it {how}, "
                f"or {ANEW} {start_anew(recorded, settings)}")
        if was_corpus and not Path(was_corpus).is_dir():
            raise ThreadMismatch(_gone_line(thread_id, recorded, settings))
        raise ThreadMismatch(f"thread {thread_id!r} is unfinished and its "
                             f"{_changed(recorded)}; {ANEW} {start_anew(recorded, settings)}")


ANEW = "start its topic anew on a new thread with"
"""What precedes :func:`start_anew`'s command in a printed line."""


def _changed(recorded: dict[str, Any]) -> str:
    """What changed under a recorded run whose corpus fingerprint no longer matches."""
    was_corpus = split_key(recorded.get("corpus") or "")[0]
    if was_corpus:
        return (f"corpus folder {was_corpus} has changed since it started (files added, "
                "removed or modified)")
    return "package docs have changed since it started (other package versions)"


def start_anew(recorded: dict[str, Any], settings: Settings | None = None, *,
               place: str | None = None) -> str:
    """The way on for an unfinished thread that cannot be continued: the pasteable ``research
    --fresh`` command that runs its recorded topic, ``as_of`` and sources on a new thread
    (:func:`app.settings.hints.anew_command`; ``settings`` or ``place``: the flags that find
    the data dir)."""
    was_corpus, was_web, _ = split_key(recorded.get("corpus") or "")
    return anew_command(
        recorded["topic"], recorded["as_of"], corpus=was_corpus, web=was_web,
        settings=settings, place=place)


def sources_changed(recorded: dict[str, Any] | None, settings: Settings,
                    seen: dict[tuple[str, int], str | None] | None = None) -> str | None:
    """Why an unfinished thread cannot be continued, found without opening its corpus index
    (``prune`` reads threads, it runs none): its recorded corpus content changed since it
    started (:func:`check_content` refuses it then), or its corpus folder is gone. None: it can
    be continued, or its run recorded no fingerprint. Reads every file of the corpus folder;
    ``seen`` caches the fingerprint of each folder (and limit) across the threads of one
    command."""
    if recorded is None or recorded["status"] not in UNFINISHED_RUNS or not recorded.get("topic"):
        return None
    was_corpus, _, was_print = split_key(recorded.get("corpus") or "")
    if not was_print:
        return None
    from workers.sources import CorpusError
    from workers.sources.current import current_content_fingerprint

    seen = {} if seen is None else seen
    was_max = recorded_max_bytes(recorded.get("corpus") or "")
    if (was_corpus, was_max) not in seen:
        try:
            # the limit the thread was indexed with: another one skips other files, and the
            # thread would read as changed (a --max-file-bytes given to prune is no change)
            seen[was_corpus, was_max] = current_content_fingerprint(
                settings.data_dir, was_corpus or None, max_file_bytes=was_max)
        except CorpusError:  # gone: resume says so, and a new thread could not use it either
            seen[was_corpus, was_max] = None
    now = seen[was_corpus, was_max]
    return None if now in (None, was_print) else f"its {_changed(recorded)}"


def way_on(storage: Storage, thread_id: str, status: str, settings: Settings) -> str:
    """What to do next with a thread that has work left (:func:`app.settings.hints.next_step`),
    except for an unfinished one whose corpus changed since it started: ``resume`` refuses it,
    so the way on is the command that starts its topic anew (:func:`start_anew`)."""
    if status == "unfinished":
        recorded = recorded_run(storage, thread_id)
        if why := sources_changed(recorded, settings):
            return f"{why}, so resume refuses it; {ANEW} {start_anew(recorded or {}, settings)}"
    return next_step(thread_id, status, settings)


def _other_as_of(thread_id: str, was: str, as_of: str | None,
                 recorded: dict[str, Any] | None, settings: Settings) -> str:
    """The refusal of a run of the thread's own topic on another ``as_of``: it says that only
    ``as_of`` differs and names the ways that work (trial 10: it blamed the topic, and its "use
    another --thread-id, or --fresh" left an unfinished thread behind)."""
    line = (f"thread {thread_id!r} is of this topic as of {was}, not {as_of}: give --as-of "
            f"{was} to run it")
    run_status = (recorded or {}).get("status")
    if run_status in UNFINISHED_RUNS:  # stopped by an exception too ("failed"): it resumes
        status = "awaiting review" if run_status == "awaiting_review" else "unfinished"
        line += f"; or {way_on(storage_of(settings), thread_id, status, settings)}"
    return line + f"; for a thread as of {as_of}, leave out --thread-id"


def check_thread(topic: str | None, settings: Settings, thread_id: str,
                 recorded: dict[str, Any] | None, *, as_of: str | None = None,
                 state: dict[str, Any] | None = None) -> Settings:
    """Whether this run may continue ``thread_id``: the one owner of that decision. Called
    before anything is opened (``state`` None), and again with the thread's state once the
    checkpointer has read it. Returns the settings to use.

    A resume by id (``topic`` None) with no ``--corpus`` uses the corpus the thread started on
    (with no ``--max-file-bytes``, the limit its folder was indexed with), and searches the web
    if the thread did; an unfinished thread is never continued on other
    sources (its report would cite two sets, and its pending tasks may need the web worker); a
    topic never lands on a thread of another topic or ``as_of``.

    Args:
        topic, as_of: the run's (``topic`` None: a resume by id).
        recorded: the thread's ``runs`` row, or None.
        state: the thread's latest state values (``StateSnapshot.values``), once read.

    Raises:
        UnknownThread: ``resume`` of a thread nobody knows.
        ThreadMismatch: an unfinished thread would be continued on other sources, a finished
            one rerun on another corpus (its rows would be replaced), or the thread belongs to
            another topic or ``as_of``.
    """
    if state is not None:
        # A kill right after the input checkpoint leaves state without a topic: nothing to
        # compare, and the saved input is still there to resume from.
        state_topic = state.get("topic")
        if state_topic is not None and topic is not None and state_topic != topic:
            raise ThreadMismatch(
                f"thread {thread_id!r} belongs to topic {state_topic!r} as of "
                f"{state.get('as_of')}; use another --thread-id, or --fresh without one")
        if state_topic is not None and topic is not None and state.get("as_of") != as_of:
            raise ThreadMismatch(_other_as_of(thread_id, str(state.get("as_of")), as_of,
                                              recorded, settings))
        return settings
    if topic is None and recorded is None:
        require_thread(storage_of(settings), thread_id)
    was_corpus, was_web, _ = split_key((recorded or {}).get("corpus") or "")
    if topic is None:
        if settings.corpus is None and settings.corpus_name is None and was_corpus:
            settings = settings.with_overrides(corpus=was_corpus)
        was_max = recorded_max_bytes((recorded or {}).get("corpus") or "")
        if was_corpus and settings.max_file_bytes == MAX_FILE_BYTES != was_max:
            # and with the limit its folder was indexed with, unless this command names one
            # (found by a new-user trial: resume by id was refused until the flag was repeated)
            settings = settings.with_overrides(max_file_bytes=was_max)
        if was_web and not settings.web:
            settings = settings.with_overrides(web=True)
    _check_sources(thread_id, recorded, settings, rerun=topic is not None)
    return settings
