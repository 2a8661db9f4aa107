"""The subcommands: ``research``/``resume``/``review`` (one run), ``threads``, ``inspect``,
``prune``. Each takes the parsed arguments and returns the exit code; bad input is raised as a
:class:`app.errors.DomainError` for :func:`app.cli.main` to print."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.cli.checks import (
    check_data_dir,
    check_fail_workers,
    check_flag_conflicts,
    check_writable_data_dir,
    validate_paths,
    validate_topic,
)
from app.cli.continuing import continuing, continuing_topic
from app.cli.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_TRY_LATER, BadInput
from app.cli.outcome import json_line, print_exit_object
from app.cli.parser import flag_overrides
from app.cli.review import decides, review_decision
from app.cli.signals import silence_stdout
from app.research.text import visible
from app.runs.collector import imports_done
from app.runs.stop import stop_on_signals
from app.settings.checks import as_of_or_today
from app.settings.config import Settings
from app.settings.credentials import web_key
from app.settings.env import load_settings
from app.settings.hints import again, continue_args, place_args, thread_command
from app.settings.path_labels import set_by_variables
from app.storage.base import ThreadBusy

SETTINGS_IN_USE: list[Settings] = []
"""The command's settings: their secrets are masked in any error line printed (a provider may
echo a key; :func:`app.settings.credentials.redact`)."""

DATA_DIR: list[Path] = []
"""The data dir of the command, to tell a full disk behind SQLite's "disk I/O error"."""

RUN_THREAD: list[str] = []
"""The thread the command's run is on, once its first event names it: the ``--json`` outcome
of a run that stops (Ctrl-C, a failure) names it."""

RUN_STARTED: list[bool] = []
"""``[True]`` once the run's graph runs (its ``start`` event): a run stopped before (while its
corpus was indexed) has nothing to resume."""


ARGV: list[str] = []
"""The command's arguments, as given (:func:`again` prints them back)."""

RUN_AS_OF: list[str] = []
"""The ``as_of`` a ``research`` run took by default (today, UTC)."""


def run_thread() -> str | None:
    """The thread of :data:`RUN_THREAD`, or None (no run, or none named yet)."""
    return RUN_THREAD[0] if RUN_THREAD else None


def again_line() -> str:
    """How to continue a run that was stopped (Ctrl-C, SIGTERM): its own command made exact
    (:func:`app.settings.hints.again`: the same command after midnight UTC would start a new
    thread), pasteable."""
    thread = run_thread()
    exact = again(ARGV, as_of=RUN_AS_OF[-1] if RUN_AS_OF else None, thread_id=thread)
    if exact is None:
        return "the run stopped before its thread was named; nothing to resume"
    if ARGV and ARGV[0] not in ("research", "review", "resume"):  # prune, threads, inspect
        return f"{ARGV[0]} stopped; to do it again: {exact}"  # no run, no thread
    if thread is None and ARGV and ARGV[0] in ("review", "resume"):  # its thread exists
        return f"the run stopped before it continued its thread; to continue it: {exact}"
    if thread is None or not RUN_STARTED:  # stopped while the corpus was indexed
        return f"the run stopped before it started its thread; to start it again: {exact}"
    return f"the run can be resumed with: {exact}"


STORAGE_SETTINGS = frozenset({"data_dir", "database_url", "database_direct_url"})
"""What a command that only reads threads uses (``threads``, ``inspect``, ``prune``, ``review``
without a decision): an unusable value of any other setting does not stop it."""


def settings_of(args: argparse.Namespace) -> Settings:
    """The command's settings: flags over environment over ``.env`` over defaults. A flag's
    variable is not read at all, and a command that only reads threads reads only the
    storage's settings strictly (the others' bad values are warned about).

    Raises:
        ConfigError: an unusable value (of a variable this command uses), naming where it
            was set.
    """
    flags = flag_overrides(args)
    check_flag_conflicts(flags)
    reads = args.command in ("threads", "inspect", "prune") or (
        args.command == "review" and not decides(args))
    settings = load_settings(flags=flags, needed=STORAGE_SETTINGS if reads else None
                             ).with_overrides(**flags)
    SETTINGS_IN_USE[:] = [settings]  # what app.settings.credentials.redact masks in an error line
    set_by_variables(settings, flags)  # a refused path names its variable, not an ungiven flag
    DATA_DIR[:] = [Path(settings.data_dir)]
    return settings


def run(args: argparse.Namespace) -> int:
    """``research``, ``resume`` and ``review``: one run of the graph (``app.runs.run``), its
    summary printed. Exit 0 when the outcome is ``ok``, else 1."""
    settings = settings_of(args)
    if args.command == "review" and not decides(args):
        check_data_dir(settings)  # it only shows what the thread awaits: it reads, like inspect
    else:
        validate_paths(settings)
    if settings.web:
        web_key(settings)  # refused now, before anything is written
    topic, as_of = None, as_of_or_today(None)
    if args.command == "research":
        topic = validate_topic(args.topic)
        try:
            as_of = as_of_or_today(args.as_of)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        RUN_AS_OF[:] = [] if args.as_of else [as_of]  # a resume after midnight UTC needs it
    check_fail_workers(settings)
    if args.command in ("review", "resume"):
        settings = continuing(settings, args.thread_id,
                              runs=args.command == "resume" or decides(args))
    elif topic is not None:  # research of an unfinished thread continues it the same way
        settings = continuing_topic(settings, topic, as_of, args.thread_id, args.fresh)

    # Imported once the input is known to be good: the graph stack takes seconds to import,
    # and bad input should fail fast.
    from app.cli.bytecode import uncompiled_note
    from app.cli.progress import Progress
    from app.llm.tracing import check_tracing
    from app.runs.run import RunRequest, run_research

    imports_done()  # the collector, paused while python -m app imported (app.runs.collector)
    if tracing_note := check_tracing():  # said once, instead of ~30 s of retries at exit
        print(tracing_note, file=sys.stderr)
    if sys.stderr.isatty() and (bytecode_note := uncompiled_note()):  # advice for a person:
        print(bytecode_note, file=sys.stderr)  # each run compiles its libraries, say how not to

    request = RunRequest(topic=topic, as_of=as_of, thread_id=args.thread_id,
                         fresh=getattr(args, "fresh", False), asked=flag_overrides(args))
    if args.command == "review":
        settings = settings.with_overrides(review=True)  # a redo pauses again
        request.review = review_decision(args, settings)
        request.checkpoint_id = args.checkpoint

    progress = Progress(sys.stderr if args.json else sys.stdout, quiet=args.quiet)

    def on_event(kind: str, data: dict[str, Any]) -> None:
        if data.get("thread_id"):
            RUN_THREAD[:] = [data["thread_id"]]
        if kind == "start":
            RUN_STARTED[:] = [True]
        progress(kind, data)

    with stop_on_signals(), _busy_advice(args):  # app.runs.run sets its stop signal too
        try:
            summary = run_research(request, settings, on_event=on_event)
        finally:  # the re-dispatch rounds counted and not yet said, before the end's lines
            progress.close_rounds()
    return _print_end(summary, args, settings)


@contextmanager
def _busy_advice(args: argparse.Namespace) -> Iterator[None]:
    """Add to a busy thread's line (exit 75) the way out only ``research`` has: a new thread
    with ``--fresh`` (``resume`` and ``review`` have no such flag, nor a run given
    ``--thread-id``); not when a short command holds it (``prune``: try again in a moment)."""
    try:
        yield
    except ThreadBusy as exc:
        if args.command == "research" and args.thread_id is None and not exc.brief:
            exc.args = (f"{exc}, or use --fresh for a new thread",)
        raise


def _print_end(summary: Any, args: argparse.Namespace, settings: Settings) -> int:
    """Print how the run ended (``summary``: its ``RunSummary`` or ``ReviewPause``), as JSON
    with its ``exit_code`` or for a reader; return the exit code: 0 when the outcome is ``ok``
    or the run paused for review, else 1."""
    from app.cli.summary import print_pause, print_summary

    out = summary.to_dict()
    # Alive at the end with a crash point set: it was never reached. A workshop that asked for
    # a kill must not carry on as if it had one (the summary's notes say it too).
    unreached = summary.crash_unreached
    paused = out.get("status") == "awaiting_review"
    code = EXIT_OK if summary.ok and not unreached else EXIT_FAILED
    out["exit_code"] = code
    try:
        if paused:  # pasted, it must find the thread
            from app.research.review import continue_tail

            out["continue_with"] = thread_command("review", out["thread_id"],
                                                 tail=continue_tail(out["review"]),
                                                 place=continue_args(settings))
        if args.json:
            print_exit_object(code, thread_id=out["thread_id"], body=out,
                              status="awaiting_review" if paused else None,
                              error=unreached)
        elif paused:
            print_pause(out, where=continue_args(settings))
        else:
            print_summary(out)
    except BrokenPipeError:
        silence_stdout()  # the reader left; the run itself is done and recorded
    if unreached:
        print(visible(f"error: {unreached}"), file=sys.stderr)
    return code


def _warn(warnings: list[str]) -> int:
    """Print what could not be read (a damaged database) on stderr; exit 1 if anything."""
    for line in warnings:
        print(visible(f"error: {line}"), file=sys.stderr)  # it may name a path
    return EXIT_FAILED if warnings else EXIT_OK


def threads(args: argparse.Namespace) -> int:
    """``threads``: every thread with its topic, ``as_of``, status and last step. No data dir
    (a typo, a first run) is said before LangGraph is imported (5 s otherwise)."""
    settings = settings_of(args)
    check_data_dir(settings)
    if not settings.database_url and not Path(settings.data_dir).is_dir():
        print(json_line([]) if args.json else
              f"no threads yet: no data dir {settings.data_dir}")  # a typo shows
        return EXIT_OK
    from app.runs.inspect import list_threads, print_threads
    from app.storage import storage_of

    warnings: list[str] = []
    rows = list_threads(storage_of(settings), warnings)
    if args.json:
        print(json_line(rows))
    else:
        print_threads(rows)
    return _warn(warnings)


def inspect(args: argparse.Namespace) -> int:
    """``inspect THREAD_ID``: a thread's checkpoint history and its rows; with ``--report``,
    its markdown report.

    Raises:
        UnknownThread: no such thread.
        BadInput: ``--report`` for a thread without a report.
    """
    from app.runs.inspect import inspect_thread, print_inspection
    from app.runs.threads import require_thread
    from app.storage import storage_of

    settings = settings_of(args)
    check_data_dir(settings)
    storage = storage_of(settings)
    if args.report:
        return _print_report(storage, args.thread_id, settings)
    warnings: list[str] = []
    data = inspect_thread(storage, args.thread_id, warnings)
    if data is None:
        if not warnings:  # both databases read, and neither knows it
            require_thread(storage, args.thread_id)
        if args.json:  # what could not be read: the error object, as any failure prints
            print_exit_object(EXIT_FAILED, thread_id=args.thread_id, error=warnings[0])
        return _warn(warnings)
    if args.json:
        print_exit_object(EXIT_FAILED if warnings else EXIT_OK, thread_id=args.thread_id,
                          body=data, error=warnings[0] if warnings else None)
    else:
        print_inspection(data)
    return _warn(warnings)


def _print_report(storage: Any, thread_id: str, settings: Settings) -> int:
    """``inspect THREAD_ID --report``: the report's markdown on stdout, as written (``>
    report.md`` gives the file back), but a control character other than newline and tab is
    escaped (:func:`app.research.text.visible_text`: a report written before they were escaped
    sent a passage's ANSI/OSC sequences to the terminal). Exit 0.

    Raises:
        UnknownThread: no such thread.
        BadInput: the results database holds no report for the thread (:func:`_no_report`).
    """
    from app.runs.inspect import thread_report
    from app.runs.threads import require_thread

    text = thread_report(storage, thread_id)
    if text is None:
        require_thread(storage, thread_id)
        raise BadInput(_no_report(storage, thread_id, settings))
    from app.research.text import visible_text

    sys.stdout.write(visible_text(text))
    return EXIT_OK


def _no_report(storage: Any, thread_id: str, settings: Settings) -> str:
    """Why the results database holds no report for a known thread, from what its latest
    checkpoint says: the run is unfinished (resume it), or it finished and the database lost
    its rows (the file may still be there; a rerun writes both again), or neither database
    knows more (a run from before reports were kept)."""
    from app.runs.inspect import inspect_thread
    from app.runs.threads import way_on

    data = inspect_thread(storage, thread_id, warnings=[]) or {}
    head = f"the results database at {storage.label} holds no report for thread {thread_id!r}"
    if data.get("next"):  # paused, running or stopped: each has its own next step
        status = data.get("run_status")
        status = status if status in ("running", "awaiting review") else "unfinished"
        return (f"{head}: its run has not reached the report; "
                f"{way_on(storage, thread_id, status, settings)}")
    if path := (data.get("values") or {}).get("report_path"):
        return (f"{head}, though its run finished (was the database deleted or replaced?); the "
                f"report file may still be at {path}, and the research command that ran it "
                "writes the rows and the report again")
    return (f"{head}: its run ended before the report, or ran before reports were kept (run "
            "it again)")


def prune(args: argparse.Namespace) -> int:
    """``prune``: keep only the latest checkpoint of each finished thread. Exit 75 (try later)
    when the one thread named with ``--thread-id`` is being run by another process."""
    from app.runs.prune import print_prune, prune_checkpoints
    from app.storage import storage_of

    settings = settings_of(args)
    if settings.database_url or args.dry_run:  # a dry run only reads, like threads and inspect
        data_dir = check_data_dir(settings)
    else:  # it takes each thread's lock file and rewrites the checkpoints file
        data_dir = check_writable_data_dir(settings)
    if not (settings.database_url or args.thread_id or data_dir.is_dir()):  # a typo: it said
        # "0 B -> 0 B" and exit 0 (with --thread-id: "no thread", as inspect says)
        raise BadInput(f"no data dir {data_dir} (--data-dir): nothing to prune")
    try:
        result = prune_checkpoints(storage_of(settings), thread_id=args.thread_id,
                                   dry_run=args.dry_run, settings=settings)
    except BaseException as exc:  # noqa: BLE001 - what it pruned before it stopped is said
        if (partial := getattr(exc, "partial", None)) is not None and not args.json:
            print_prune(partial, where=place_args(settings))  # then main's error line
        raise
    code, error = EXIT_OK, None
    if args.thread_id and [t["action"] for t in result["threads"]] == ["kept: busy"]:
        # nothing was done, and it can be once the other run is over: try later
        code, error = EXIT_TRY_LATER, str(ThreadBusy.of(args.thread_id))
    if args.json:
        print_exit_object(code, thread_id=args.thread_id, body=result, error=error)
    else:
        print_prune(result, where=place_args(settings))
    return code
