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

from typing import Any

from app.errors import ThreadMismatch, UnknownThread
from app.runs.ids import default_thread_id, fresh_thread_id, legacy_thread_id, topic_key
from app.runs.recorded_out import with_recorded_out
from app.runs.sources_key import (  # re-exported: callers import them from here
    CONTENT_MARK,
    MAX_FILE_BYTES,
    SOURCES_METADATA,
    WEB_MARK,
    corpus_key,
    recorded_language,
    recorded_max_bytes,
    split_key,
)
from app.runs.status import (  # re-exported: callers import them from here
    ROWS_ONLY_WHY,
    UNFINISHED_RUNS,
    is_unfinished,
    thread_status,
)
from app.runs.thread_sources import (  # re-exported: callers import them from here
    AGAIN,
    ANEW,
    check_content,
    check_sources,
    run_again,
    sources_changed,
    start_anew,
)
from app.settings.config import Settings
from app.settings.hints import next_step
from app.storage import Storage, ThreadBusy, storage_of
from workers.registry import registered

__all__ = [
    "AGAIN", "ANEW", "CONTENT_MARK", "UNFINISHED_RUNS", "WEB_MARK", "ThreadBroken", "ThreadBusy",
    "ThreadMismatch", "changed_way_on", "check_content", "check_thread", "checkpoint_record",
    "corpus_key", "is_unfinished", "recorded_max_bytes", "recorded_run", "require_thread",
    "research_graph",
    "rows_only", "run_again", "run_thread_id", "sources_changed", "start_anew", "thread_exists",
    "thread_status", "unfinished_alike", "way_on",
]


class ThreadBroken(RuntimeError):
    """The thread's checkpoint cannot be read back (LangGraph refuses its saved writes): it can
    never be resumed; a new thread (``--fresh``) can."""


def run_thread_id(topic: str | None, as_of: str, thread_id: str | None, fresh: bool,
                  storage: Storage | None = None) -> str:
    """The thread a run lands on: ``thread_id`` when given, else derived from topic and
    ``as_of`` (so the same command resumes or updates the same run); ``fresh`` makes a new one
    (:func:`app.runs.ids.fresh_thread_id`: time stamp and random digits), drawn again while it names
    a thread that ``storage`` already knows. A thread an earlier version started under the
    topic's old default id (:func:`app.runs.ids.legacy_thread_id`: accented letters dropped from
    the slug) keeps it while ``storage`` knows it and not the new one.

    Raises:
        ThreadMismatch: both ``thread_id`` and ``fresh`` (exit 2, one line)."""
    if thread_id is not None:
        if fresh:  # "thread X belongs to topic Y; use ... --fresh" could not be followed
            raise ThreadMismatch("--fresh starts a thread of its own: give either --fresh or "
                                 f"--thread-id {thread_id}, not both")
        return thread_id
    assert topic is not None
    if not fresh:
        new = default_thread_id(topic, as_of)
        old = legacy_thread_id(topic, as_of)
        if (old is not None and storage is not None and thread_exists(storage, old)
                and not thread_exists(storage, new)):
            return old
        return new
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


def checkpoint_record(storage: Storage, thread_id: str) -> dict[str, Any] | None:
    """The thread's run record as its latest checkpoint keeps it, for a thread whose ``runs``
    row is gone (its results database deleted): the sources of the run that wrote it
    (:data:`~app.runs.sources_key.SOURCES_METADATA`, in LangGraph's checkpoint metadata), its
    topic and ``as_of``, and a status that says whether it has work left. None when no
    checkpoint says (none, or written before the key existed). Else a resume of such a thread
    continued on the settings' corpus, the package docs, without a word."""
    config = {"configurable": {"thread_id": thread_id}}
    with storage.checkpointer(read_only=True) as saver:
        found = saver.get_tuple(config) if saver is not None else None
        sources = ((found.metadata if found else None) or {}).get(SOURCES_METADATA)
        if found is None or not isinstance(sources, str):
            return None
        try:
            unfinished = is_unfinished(research_graph(saver).get_state(config))
        except Exception:  # noqa: BLE001 - a state LangGraph cannot apply: a broken thread,
            unfinished = True  # which the checks after this one name with its way out
    values = found.checkpoint.get("channel_values") or {}
    return {"corpus": sources, "topic": values.get("topic"), "as_of": values.get("as_of"),
            "status": "interrupted" if unfinished else "finished"}


def require_thread(storage: Storage, thread_id: str) -> None:
    """Refuse a ``thread_id`` that ``storage`` does not know (:func:`thread_exists`).

    Raises:
        app.errors.UnknownThread: ``no thread 'ID' in WHERE`` (exit 2); for a thread with
            result rows and nothing else (:data:`app.runs.status.ROWS_ONLY`), why it cannot
            continue here.
        app.storage.StorageError: a database is damaged or cannot be reached.
    """
    if not thread_exists(storage, thread_id):
        if rows_only(storage, thread_id):
            raise UnknownThread(f"thread {thread_id!r} cannot continue from "
                                f"{storage.label}: {ROWS_ONLY_WHY}")
        raise UnknownThread(f"no thread {thread_id!r} in {storage.label}")


def rows_only(storage: Storage, thread_id: str) -> bool:
    """Whether ``storage`` holds result rows of ``thread_id`` and nothing else of it (no
    checkpoint, no ``runs`` row: :data:`app.runs.status.ROWS_ONLY`, a LangGraph Server run's
    thread).

    Raises:
        app.storage.StorageError: a database is damaged or cannot be reached.
    """
    if thread_exists(storage, thread_id):
        return False
    with storage.results(read_only=True) as store:
        return store is not None and bool(store.count(thread_id=thread_id))


def _refuse_rows_only(storage: Storage, thread_id: str) -> None:
    """Refuse a run on a thread that has result rows and no checkpoint or ``runs`` row here (a
    LangGraph Server run's thread: :data:`app.runs.status.ROWS_ONLY`), whatever its topic, as
    ``resume`` refuses it: the server keeps its checkpoints and names its rows in its state.
    Else a run of another topic replaced its rows and report without a word; a run of the same
    topic adopted the thread, and the server's next run and this one then replaced each other's
    rows and report. Reads one row, not all.

    Raises:
        ThreadMismatch: the thread has such rows (its topic named when it is another's).
    """
    with storage.results(read_only=True) as store:
        first = store.envelope_ids(thread_id=thread_id)[:1] if store is not None else []
        rows = store.rows(first, thread_id=thread_id) if first else []
    if rows:
        raise ThreadMismatch(
            f"thread {thread_id!r} (topic {rows[0]['topic']!r} as of {rows[0]['as_of']}) cannot "
            f"be run from {storage.label}: {ROWS_ONLY_WHY}; use another --thread-id, or --fresh "
            "without one")


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


def way_on(storage: Storage, thread_id: str, status: str, settings: Settings) -> str:
    """What to do next with a thread that has work left (:func:`app.settings.hints.next_step`),
    except for an unfinished one, or one paused for review, whose corpus changed since it
    started: :func:`changed_way_on`."""
    if status in ("unfinished", "awaiting review"):
        if changed := changed_way_on(storage, thread_id, settings):
            return changed
    return next_step(thread_id, status, settings)


def changed_way_on(storage: Storage, thread_id: str, settings: Settings) -> str | None:
    """For an unfinished thread, or one paused for review, whose corpus changed since it
    started (:func:`sources_changed`; None for any other): what changed, that ``resume`` and
    ``review`` refuse it, and its topic's own command, which runs it again from its start on
    the new content (:func:`run_again`; the advice was once ``--fresh``, which leaves it
    unfinished for good, or a ``review --approve`` that refused)."""
    recorded = recorded_run(storage, thread_id)
    if recorded is None or not (why := sources_changed(recorded, settings)):
        return None
    return (f"{why}, so resume and review refuse it; {AGAIN} "
            f"{run_again(recorded, thread_id, settings)}")


def unfinished_alike(storage: Storage, thread_id: str, topic: str, as_of: str,
                     settings: Settings) -> list[str]:
    """A line for each unfinished thread other than ``thread_id`` (a new thread) of ``topic``
    on another ``as_of``, or of a topic that differs from it only in case, accents, white
    space or zero-width characters (:func:`app.runs.ids.topic_key`; the thread id hashes the
    topic as written), with how to continue it: the same command without ``--as-of`` names a new
    thread once the UTC date changed, so the thread a run was interrupted on yesterday is not
    the one it starts."""
    with storage.results(read_only=True) as store:
        runs = store.runs() if store is not None else []
    key = topic_key(topic)
    others = [r for r in runs if r["status"] in UNFINISHED_RUNS and r["thread_id"] != thread_id
              and topic_key(r["topic"] or "") == key
              and (r["topic"] != topic or r["as_of"] != as_of)]
    running = (storage.running_threads([r["thread_id"] for r in others]) or set()
               if others else set())
    lines = []
    for r in others:
        status = thread_status(r["status"], running=r["thread_id"] in running)
        if r["topic"] == topic:
            which = f"this topic's thread {r['thread_id']} (as of {r['as_of']})"
        else:
            which = (f"thread {r['thread_id']} (as of {r['as_of']}) of {r['topic']!r}, a topic "
                     "that differs from this one only in case, accents, spacing or invisible "
                     "characters,")
        lines.append(f"{which} is unfinished, and this run (as of {as_of}) is a new thread; "
                     f"{way_on(storage, r['thread_id'], status, settings)}")
    return lines


def _other_as_of(thread_id: str, was: str, as_of: str | None,
                 recorded: dict[str, Any] | None, settings: Settings) -> str:
    """The refusal of a run of the thread's own topic on another ``as_of``: it says that only
    ``as_of`` differs and names the ways that work (it once blamed the topic, and its "use
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
    (with no ``--max-file-bytes``, the limit its folder was indexed with), searches the web if
    the thread did, and with no ``--out`` writes its report to the run's
    (:func:`app.runs.recorded_out.with_recorded_out`); an unfinished thread is never continued
    on other sources (its report would cite two sets, and its pending tasks may need the web
    worker); a topic never lands on a thread of another topic or ``as_of``.

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
    if recorded is None:  # its results database deleted: its checkpoints still say
        recorded = checkpoint_record(storage_of(settings), thread_id)
    if topic is None and recorded is None:
        require_thread(storage_of(settings), thread_id)
    elif recorded is None:
        _refuse_rows_only(storage_of(settings), thread_id)
    was_corpus, was_web, _ = split_key((recorded or {}).get("corpus") or "")
    if topic is None:
        if settings.corpus is None and settings.corpus_name is None and was_corpus:
            settings = settings.with_overrides(corpus=was_corpus)
        was_max = recorded_max_bytes((recorded or {}).get("corpus") or "")
        if was_corpus and settings.max_file_bytes == MAX_FILE_BYTES != was_max:
            # and with the limit its folder was indexed with, unless this command names one
            # (else resume by id was refused until the flag was repeated)
            settings = settings.with_overrides(max_file_bytes=was_max)
        was_language = recorded_language((recorded or {}).get("corpus") or "")
        if was_corpus and settings.corpus_language is None and was_language:
            settings = settings.with_overrides(corpus_language=was_language)  # as --max-file-bytes
        if was_web and not settings.web:
            settings = settings.with_overrides(web=True)
        settings = with_recorded_out(settings, recorded)  # its report where the run said
    check_sources(thread_id, recorded, settings, rerun=topic is not None)
    return settings
