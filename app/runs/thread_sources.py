"""Does a thread's recorded corpus still fit the run that continues it: the folder it started on
moved, changed or gone, another corpus or web setting asked for, and the ``research --fresh``
command that starts its topic anew. What :func:`app.runs.threads.check_thread` asks before a
run continues a thread, and what ``prune`` asks of the threads it keeps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.errors import ThreadMismatch
from app.runs.sources_key import (
    CONTENT_MARK,
    LANGUAGE_MARK,
    MAX_FILE_BYTES,
    WEB_MARK,
    corpus_key,
    recorded_language,
    recorded_max_bytes,
    split_key,
)
from app.runs.status import UNFINISHED_RUNS
from app.settings.config import Settings
from app.settings.hints import anew_command, quote, research_command

__all__ = ["AGAIN", "ANEW", "check_content", "check_sources", "run_again", "sources_changed",
           "start_anew"]


def check_sources(thread_id: str, recorded: dict[str, Any] | None, settings: Settings, *,
                   rerun: bool) -> None:
    """Whether ``settings``' sources fit the thread's recorded ones (:func:`check_thread`):
    an unfinished thread continues on its own corpus and web setting; a finished one is not
    rerun (``rerun``: a ``research`` of its topic) on another corpus, whose rows and report
    would replace its own without a word.

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
        # moved or deleted (advising "with --corpus WAS" led to "not found"). Another folder
        # given: a moved one of the same content continues the thread (check_content compares
        # it); none: say where it was.
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
                                            max_file_bytes=settings.max_file_bytes,
                                            language=settings.corpus_language)
    except CorpusError:
        return False
    return moved == was_print


def check_content(thread_id: str, recorded: dict[str, Any] | None, fingerprint: str,
                  *also: str, settings: Settings | None = None, restart: bool = False
                  ) -> str | None:
    """Refuse to continue an unfinished thread on corpus content that changed since it started
    (``fingerprint``: the opened corpus's, :func:`corpus_key`): its report would cite the
    results found in the old files beside those of the new ones, a deleted file included. The
    same refusal as another corpus; a finished thread reruns on the new content, which is how it
    is brought up to date. A run recorded before runs kept their fingerprint is not checked.
    ``fingerprint`` is the content's (``Corpus.content_fingerprint``: a ``touch`` leaves it);
    ``also`` are other fingerprints of the same content a run may have recorded (the index's
    stat-based one, recorded before). ``settings``: the command's, for the flags that find the
    data dir in the printed command.

    With ``restart`` (the topic's own command, ``research TOPIC``, not ``resume`` or
    ``review``), a thread whose content changed is not refused: the run starts it again from
    its input on the new content, as a finished thread's rerun does, and LangGraph drops the
    unfinished work (its pending tasks and writes). Else "it crashed, I fixed my notes, I ran it
    again" was refused for the rest of the day, and the thread stayed unfinished for good.

    Returns:
        None, or with ``restart`` the note saying the thread starts again, and why.

    Raises:
        ThreadMismatch: the thread is unfinished and its corpus content changed (without
            ``restart``); the message ends with the topic's own command, which runs it again
            from its start (:func:`run_again`); with other sources or gone, with the command
            that runs its topic on a new thread (:func:`start_anew`).
    """
    if recorded is None or recorded["status"] not in UNFINISHED_RUNS:
        return None
    was_corpus, _, was_print = split_key(recorded.get("corpus") or "")
    if was_print and was_print not in (fingerprint, *also):
        if _moved_here(recorded, settings):
            return None
        if was_corpus and settings is not None:
            _check_same_limit(thread_id, recorded, settings, was_corpus)
        if was_corpus and not Path(was_corpus).is_dir():
            raise ThreadMismatch(_gone_line(thread_id, recorded, settings))
        was_language = _language(recorded_language(recorded.get("corpus") or ""))
        if was_corpus and settings is not None and (
                now_language := _language(settings.corpus_language)) != was_language:
            # the same files, another language: other translations indexed (trial 59, F7: "has
            # changed since it started (files added, removed or modified)" named no change)
            return _language_changed(thread_id, recorded, settings, restart, was_language,
                                     now_language)
        if restart:
            return _restart_note(thread_id, recorded)
        waits = ("awaits its review" if recorded["status"] == "awaiting_review"
                 else "is unfinished")
        raise ThreadMismatch(f"thread {thread_id!r} {waits} and its {_changed(recorded)}; "
                             f"{AGAIN} {run_again(recorded, thread_id, settings)}")
    return None


def _check_same_limit(thread_id: str, recorded: dict[str, Any], settings: Settings,
                      was_corpus: str) -> None:
    """Refuse (:class:`ThreadMismatch`) to continue a thread whose folder was indexed with
    another ``--max-file-bytes``: the same files, another limit, other files skipped ("has
    changed since it started" sent a user looking for a change that was not there)."""
    was_max = recorded_max_bytes(recorded.get("corpus") or "")
    if settings.max_file_bytes == was_max:
        return
    how = ("without --max-file-bytes (the default)" if was_max == MAX_FILE_BYTES
           else f"with --max-file-bytes {was_max}")
    raise ThreadMismatch(
        f"thread {thread_id!r} is unfinished and its corpus folder {was_corpus} was "
        f"indexed with --max-file-bytes {was_max}, this command gives "
        f"{settings.max_file_bytes} (other files would be skipped); continue it {how}, "
        f"or {ANEW} {start_anew(recorded, settings)}")


def _language(tag: str | None) -> str | None:
    """A ``--corpus-language`` as a recorded key holds it, to compare (``fr_FR``: ``fr-fr``)."""
    return tag.strip().lower().replace("_", "-") if tag and tag.strip() else None


def _language_changed(thread_id: str, recorded: dict[str, Any], settings: Settings,
                      restart: bool, was: str | None, now: str | None) -> str:
    """What :func:`check_content` says of an unfinished thread whose folder this command indexes
    in another corpus language (``was``, ``now``; None: the default): with ``restart`` (the
    topic's own command) the note that it runs again from its start in ``now``; else refused,
    naming both languages, how to continue it, and the command that runs it again in ``now``."""
    def named(tag: str | None) -> str:
        return f"corpus language {tag}" if tag else "the default corpus language (English, " \
            "else the one with the most pages)"

    what = f"its corpus folder {split_key(recorded.get('corpus') or '')[0]}"
    if restart:
        return (f"thread {thread_id} was unfinished and {what} was indexed in {named(was)}, "
                f"this command asks {named(now)} ({was or 'default'} -> {now or 'default'}): "
                f"running it again from its start in {now or 'the default language'} (its "
                "unfinished work is dropped; rows are updated in place)")
    how = ("without --corpus-language or RESEARCH_CORPUS_LANGUAGE" if was is None
           else f"with --corpus-language {quote(was)}")
    head, mark, tail = (recorded.get("corpus") or "").removesuffix(WEB_MARK).rpartition(
        CONTENT_MARK)
    key = head + mark + tail.partition(LANGUAGE_MARK)[0] + (LANGUAGE_MARK + now if now else "")
    in_now = {**recorded, "corpus": key + (WEB_MARK if split_key(recorded["corpus"])[1] else "")}
    waits = "awaits its review" if recorded["status"] == "awaiting_review" else "is unfinished"
    raise ThreadMismatch(
        f"thread {thread_id!r} {waits} and {what} was indexed in {named(was)}, this command "
        f"asks {named(now)} ({was or 'default'} -> {now or 'default'}; other "
        f"translations would be indexed); continue it {how}, or run its topic again in "
        f"{now or 'the default language'} (the thread starts over, in place) with "
        f"{run_again(in_now, thread_id, settings)}")


def _restart_note(thread_id: str, recorded: dict[str, Any]) -> str:
    """The note of :func:`check_content` with ``restart``: the thread starts again, and why. A
    thread paused for review is planned again on the new content, so its reviewer sees the plan
    of what it now searches (else its old plan was shown, and the ``review --approve`` it
    advised was refused)."""
    if recorded["status"] == "awaiting_review":
        return (f"thread {thread_id} awaited its review and its {_changed(recorded)}: running "
                "it again from its start on the new content (planned again, with the review "
                "it was started with, unless this command says otherwise; rows are updated "
                "in place)")
    return (f"thread {thread_id} was unfinished and its {_changed(recorded)}: running it again "
            "from its start on the new content (its unfinished work is dropped; rows are "
            "updated in place)")


AGAIN = "run its topic again on the new content (the thread starts over, in place) with"
"""What precedes :func:`run_again`'s command in a printed line."""


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


def run_again(recorded: dict[str, Any], thread_id: str, settings: Settings | None = None, *,
              place: str | None = None) -> str:
    """The way on for an unfinished thread whose corpus content changed since it started
    (``resume`` and ``review`` refuse it): the pasteable ``research`` command of its recorded
    topic, ``as_of`` and sources, which lands on the thread and runs it again from its start on
    the new content (:func:`check_content` with ``restart``), so no second thread is left
    behind (the advice was once ``--fresh``). It names the thread with ``--thread-id`` when the
    topic's default id is another (a ``--fresh`` or ``--thread-id`` thread), and the
    ``--max-file-bytes`` its folder was indexed with when not the default (another limit is
    refused). ``settings`` or ``place``: the flags that find the data dir."""
    from app.runs.ids import default_thread_id

    key = recorded.get("corpus") or ""
    was_corpus, was_web, _ = split_key(key)
    tail = ""
    if was_corpus and (was_max := recorded_max_bytes(key)) != MAX_FILE_BYTES:
        tail += f" --max-file-bytes {was_max}"
    if was_corpus and (was_language := recorded_language(key)):
        tail += f" --corpus-language {quote(was_language)}"
    if thread_id != default_thread_id(recorded["topic"], recorded["as_of"]):
        tail += f" --thread-id={quote(thread_id)}"  # "=": an id may start with "-"
    return research_command(recorded["topic"], recorded["as_of"], corpus=was_corpus,
                            web=was_web, tail=tail, settings=settings, place=place)


def sources_changed(recorded: dict[str, Any] | None, settings: Settings,
                    seen: dict[tuple, str | None] | None = None) -> str | None:
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
    was_language = recorded_language(recorded.get("corpus") or "")
    if (was_corpus, was_max, was_language) not in seen:
        try:
            # the limit the thread was indexed with: another one skips other files, and the
            # thread would read as changed (a --max-file-bytes given to prune is no change)
            seen[was_corpus, was_max, was_language] = current_content_fingerprint(
                settings.data_dir, was_corpus or None, max_file_bytes=was_max,
                language=was_language)
        except CorpusError:  # gone: resume says so, and a new thread could not use it either
            seen[was_corpus, was_max, was_language] = None
    now = seen[was_corpus, was_max, was_language]
    return None if now in (None, was_print) else f"its {_changed(recorded)}"
