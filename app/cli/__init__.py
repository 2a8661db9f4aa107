"""Command line: ``python -m app research|resume|review|threads|inspect|prune``.

One module per concern: :mod:`app.cli.parser` (the flags, derived from ``app/settings/config.py``),
:mod:`app.cli.checks` (input refused before anything is written), :mod:`app.cli.commands` (the
subcommands), :mod:`app.cli.signals` (broken pipes; Ctrl-C and SIGTERM stop a run through
:mod:`app.runs.stop`), :mod:`app.cli.disk` (telling a full disk), and :mod:`app.cli.exit_codes`.
:func:`main` is the one place that turns an exception
into an exit code:

* 0 success;
* 1 the run failed (an exception, or the graph's ``outcome`` is ``partial`` or ``failed``, or a
  row is missing or duplicated), or a ``--crash-at`` point was never reached;
* 2 bad input (one line on stderr, nothing written: :class:`app.errors.DomainError`, a bad flag
  or setting (:class:`app.settings.config.ConfigError`), an unusable corpus
  (:class:`workers.sources.CorpusError`));
* 75 try later (``EX_TEMPFAIL``): :class:`app.storage.TryLater` (the thread is being run by
  another process, the PostgreSQL server cannot be reached or went away mid-run) or a
  provider's rate limit that outlasted the run's patience (``RESEARCH_RATE_LIMIT_PATIENCE``,
  ``RESEARCH_RETRY_PATIENCE``); nothing was lost, and the same command works once that is over;
* 130 interrupted (Ctrl-C) and 143 terminated (SIGTERM): the run stopped cleanly, is recorded as
  ``interrupted`` and resumes with the command its line prints (its own, with ``--as-of``).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

from app.cli import commands
from app.cli.disk import disk_full, disk_full_line, not_writable, not_writable_line
from app.cli.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_TRY_LATER,
    Shown,
)
from app.cli.outcome import print_exit_object
from app.cli.parser import (
    BadFlag,
    add_setting_flags,
    build_parser,
    flag_overrides,
    given_thread,
    not_utf8,
)
from app.cli.signals import silence_stdout
from app.errors import DomainError
from app.research.text import clip, visible
from app.runs.collector import imports_done
from app.runs.stop import (
    Terminated,
    ignore_signals,
    release_signals,
    signal_seen,
    stop_on_signals,
)
from app.settings.config import ConfigError
from workers.sources import CorpusError  # the workers' bad input (workers never import app/)

__all__ = ["add_setting_flags", "build_parser", "flag_overrides", "main"]

_COMMANDS = {"research": commands.run, "resume": commands.run, "review": commands.run,
             "threads": commands.threads, "inspect": commands.inspect, "prune": commands.prune}


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``); return the exit code. Never raises,
    but ``SystemExit`` from ``--help`` or a bad flag, and any exception when ``RESEARCH_DEBUG``
    is set. With ``--json``, every way it ends prints one JSON object on stdout, the command's
    own or the error's, with the same keys (:mod:`app.cli.outcome`). SIGTERM stops it from its
    first line on as Ctrl-C does (exit 143, one line; its default would kill the process without
    a word), also one held since ``python -m app`` started (:func:`app.runs.stop.hold_signals`);
    the handlers found are restored on return."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = None
    signal_seen()  # an earlier in-process command's
    with stop_on_signals():  # raises KeyboardInterrupt or Terminated at once, until a run
        try:  # ... has a stop signal of its own (app.runs.stream)
            commands.ARGV[:] = argv  # a stopped run's line prints its command back (again_line)
            for held in (commands.RUN_THREAD, commands.RUN_STARTED, commands.RUN_AS_OF):
                held.clear()  # an earlier in-process run's
            release_signals()  # a signal held during the imports is raised here
            args = _parse(argv)
            if _COMMANDS[args.command] is not commands.run:  # run resumes it after its imports
                imports_done()  # the collector (app.runs.collector)
            return _COMMANDS[args.command](args)
        except Shown:
            return EXIT_OK
        except BrokenPipeError:
            silence_stdout()
            return EXIT_OK
        except (Exception, KeyboardInterrupt) as exc:
            if isinstance(exc, KeyboardInterrupt):
                ignore_signals()  # stopping: a second signal must not cut the line short
                signal_seen()
            code, line = _ended(exc)
            line = visible(line)  # an error may quote a page's or a server's text: no ESC
            print(line, file=sys.stderr)
            if getattr(args, "json", False) if args is not None else "--json" in argv:
                # the thread the run named, or the one the user gave
                thread = (getattr(args, "thread_id", None) or getattr(exc, "thread_id", None)
                          or commands.run_thread() or given_thread(argv))
                # what a command did before it stopped (prune's threads pruned), if it says
                print_exit_object(code, error=line, thread_id=thread,
                                  body=getattr(exc, "partial", None))
            return code


def _parse(argv: list[str]) -> Any:
    """The parsed ``argv``; a bad flag's line is printed, and a script that asked for JSON
    gets it too.

    Raises:
        BadFlag: a bad flag or argument (a ``SystemExit``, exit 2).
    """
    try:
        if why := not_utf8(argv):  # before any value is checked or used
            print(line := f"error: {why}", file=sys.stderr)
            raise BadFlag(line)
        return build_parser().parse_args(argv)
    except BadFlag as exc:
        if "--json" in argv:
            print_exit_object(EXIT_BAD_INPUT, error=exc.line, thread_id=given_thread(argv))
        raise


def _ended(exc: BaseException) -> tuple[int, str]:
    """The exit code and the one line for how a command ended (``exc``).

    Raises:
        Exception: ``exc`` itself, when ``RESEARCH_DEBUG`` is set and it is no bad input.
    """
    if isinstance(exc, ConfigError | DomainError | CorpusError):  # bad input, and only that
        if why := _disk_full(exc):  # e.g. a corpus index that could not be written
            return EXIT_FAILED, disk_full_line(why)
        if why := not_writable(exc, commands.DATA_DIR[0] if commands.DATA_DIR else None):
            return EXIT_FAILED, not_writable_line(why)  # the data dir made read-only: trial 91
        return EXIT_BAD_INPUT, f"error: {exc}"
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:  # a path given: bad input
        name = clip(str(exc.filename or ""), 120)
        return EXIT_BAD_INPUT, (f"error: a file or folder name is longer than the file system "
                                f"takes (at most 255 bytes a name): {name}")
    if isinstance(exc, Terminated):
        return EXIT_TERMINATED, f"terminated (SIGTERM): {commands.again_line()}"
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED, f"interrupted: {commands.again_line()}"
    if os.environ.get("RESEARCH_DEBUG"):  # one line, never a traceback, unless asked for
        raise exc
    return _failed(exc)


def _disk_full(exc: BaseException) -> str | None:
    return disk_full(exc, commands.DATA_DIR[0] if commands.DATA_DIR else None)


def _report_not_written(exc: BaseException) -> str | None:
    """The line of a run whose report file could not be written (its folder replaced by a
    file, or not writable, mid-run): which file and why, and that nothing was lost (the report
    node runs after ``persist``); None for another failure."""
    from app.research.report_files import ReportNotWritten
    from workers.errors import causes

    for err in causes(exc):
        if isinstance(err, ReportNotWritten):
            return (f"error: the report could not be written to {err.filename} ({err.strerror});"
                    " nothing was lost: the results are saved, and the same command writes "
                    "the report once its folder takes files")
    return None


def _failed(exc: BaseException) -> tuple[int, str]:
    """The exit code and line of a failure that is not bad input (1; 75 to try later: the
    storage busy or out of reach, a provider's rate limit outlasting the run's patience), every
    secret of the command's settings masked (a driver's message may quote a URL's part)."""
    from app.settings.credentials import redact
    from app.storage import StorageError, TryLater

    settings = commands.SETTINGS_IN_USE[0] if commands.SETTINGS_IN_USE else None
    if isinstance(exc, TryLater):  # the thread busy, the database out of reach: not a failure,
        return EXIT_TRY_LATER, f"error: {redact(str(exc), settings)}"  # a script may retry
    from app.storage.pg_errors import connection_failure  # imports no psycopg

    if line := connection_failure(exc):
        return EXIT_TRY_LATER, f"error: {redact(line, settings)}"
    from workers.sources import IndexVanished
    from workers.sources.damage import DamagedFile

    # damaged or refusing, or the data dir deleted under the run or its index build: says which
    if isinstance(exc, StorageError | IndexVanished):
        return EXIT_FAILED, f"error: {redact(str(exc), settings)}"
    from workers.errors import (
        RateLimitPatienceSpent,
        RetryAfterTooLong,
        RunCancelled,
        describe_fatal,
        is_fatal,
        one_line,
    )

    if isinstance(exc, RunCancelled) and exc.cause is not None:
        exc = exc.cause  # LangGraph may raise a cancelled sibling's error: report the cause
    if isinstance(exc, RateLimitPatienceSpent | RetryAfterTooLong):  # "try again later": the
        # provider's limit outlasted the run's patience; the same command resumes the thread
        return EXIT_TRY_LATER, f"error: {redact(f'run failed: {one_line(exc)}', settings)}"
    if isinstance(exc, DamagedFile):  # a worker's file (the corpus index): no model's error
        return EXIT_FAILED, f"error: {redact(str(exc), settings)}"
    if why := _disk_full(exc):
        return EXIT_FAILED, disk_full_line(why)
    if why := not_writable(exc, commands.DATA_DIR[0] if commands.DATA_DIR else None):
        return EXIT_FAILED, not_writable_line(why)
    if line := _report_not_written(exc):
        return EXIT_FAILED, line
    from workers.sources.web import WebSearchError

    # A bad key or an unknown model: one line saying which, then exit 1.
    if isinstance(exc, WebSearchError) and is_fatal(exc):
        line = " ".join(str(exc).split())  # the search's own line ("web search: ..."), no model's
    elif is_fatal(exc):
        line = f"model error: {describe_fatal(exc)}"
    else:
        line = f"run failed: {one_line(exc)}"
    return EXIT_FAILED, f"error: {redact(line, settings)}"
