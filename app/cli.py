"""Command line: ``python -m app research|resume|threads|inspect|prune``.

Exit codes: 0 success; 1 the run failed (an exception, or the graph's ``outcome`` is
``partial`` or ``failed``, or a row is missing or duplicated), or a ``--crash-at`` point was never
reached; 2 bad input (one line on stderr, nothing written: :class:`app.errors.DomainError`, a bad
flag or setting, an unusable corpus); 130 interrupted (Ctrl-C) and 143 terminated (SIGTERM): the
run stopped cleanly, is recorded as ``interrupted`` and resumes with the same command.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import shutil
import signal
import sqlite3
import sys
import threading
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from app.config import (
    SETTINGS,
    ConfigError,
    Settings,
    SettingSpec,
    as_of_or_today,
    load_settings,
    parse_setting,
)
from app.errors import DomainError, UnknownThread

__all__ = ["add_setting_flags", "build_parser", "flag_overrides", "main"]

MAX_TOPIC_CHARS = 500
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, 128 + SIGTERM: the shell's codes


class BadInput(DomainError):
    """Bad input found by the CLI itself (a flag, a path, the topic): one line, exit code 2."""


class Terminated(KeyboardInterrupt):
    """SIGTERM received during a run. A ``KeyboardInterrupt``, so the run stops the way Ctrl-C
    stops it: queued workers are cancelled, the run is recorded as ``interrupted``, and the same
    command resumes it."""


@contextmanager
def _sigterm_stops_like_ctrl_c() -> Iterator[None]:
    """While the block runs, SIGTERM (``kill``, ``docker stop``, systemd) raises
    :class:`Terminated` in the main thread instead of ending the process on the spot, which left
    the run marked ``running`` with no word said. A second SIGTERM during the cleanup is ignored.

    Source of the idea: Python's ``signal`` docs (handlers run in the main thread, between
    bytecodes) and how the interpreter turns SIGINT into ``KeyboardInterrupt``.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one is enough: let the cleanup finish
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see --help)", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)

    def format_help(self) -> str:
        if callable(self.epilog):  # built on demand: the worker registry imports LangChain
            self.epilog = self.epilog()
        return super().format_help()


def _workers_epilog() -> str:
    from workers.registry import registered

    workers = registered(web=True)  # the web workers say "with --web" in their description
    width = max(len(w.name) for w in workers)
    lines = [f"  {w.name:<{width}}  {w.description}" for w in workers]
    return "\n".join(["workers (workers/registry.py; one task per worker per sub-question):",
                      *lines])


# --- the settings' flags, derived from their declaration in app/config.py -----------------------

def _flag_type(spec: SettingSpec) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        try:
            return parse_setting(spec.flag or spec.name, spec, text)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def add_setting_flags(parser: argparse.ArgumentParser, names: set[str] | None = None) -> None:
    """Add the declared flags to ``parser`` (all of them, or those whose setting is in
    ``names``); the fault-injection flags go in their own help group."""
    faults = None
    for spec in SETTINGS:
        if spec.flag is None or (names is not None and spec.name not in names):
            continue
        target: Any = parser
        if spec.group == "faults":
            if faults is None:
                faults = parser.add_argument_group(
                    "fault injection (for tests and workshops; see docs/walkthrough.md)")
            target = faults
        help_text = spec.help
        if spec.default not in (None, ()) and "default" not in help_text:
            help_text += f" (default {spec.default}{', or ' + spec.env if spec.env else ''})"
        elif spec.env and "default" not in help_text:
            help_text += f" (default: {spec.env})"
        if spec.type is bool:  # a switch: present means on; absent leaves env/.env/default
            help_text = spec.help + (f" (default: off, or {spec.env}=1)" if spec.env else "")
            target.add_argument(spec.flag, dest=f"setting_{spec.name}", action="store_const",
                                const=True, default=None, help=help_text)
            continue
        kwargs: dict[str, Any] = {"dest": f"setting_{spec.name}", "help": help_text,
                                  "metavar": spec.metavar}
        if spec.choices:
            kwargs["choices"] = spec.choices
        else:
            kwargs["type"] = _flag_type(spec)
        if spec.repeated:
            kwargs["action"] = "append"
        target.add_argument(spec.flag, **kwargs)


def flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given as flags in ``args`` (absent flags are left out), by field name."""
    out = {}
    for spec in SETTINGS:
        value = getattr(args, f"setting_{spec.name}", None)
        if value is not None:
            out[spec.name] = tuple(value) if spec.repeated else value
    return out


def _add_run_options(p: argparse.ArgumentParser) -> None:
    add_setting_flags(p)  # every declared setting with a flag (app/config.py)
    p.add_argument("--json", action="store_true", help="print a machine-readable summary on "
                   "stdout (progress goes to stderr)")
    p.add_argument("--quiet", action="store_true", help="no progress, only the summary")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    parser = _Parser(prog="python -m app", description="Map-reduce research agent (LangGraph).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    research = sub.add_parser("research", help="research a topic (resumes an unfinished run)",
                              epilog=_workers_epilog,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    research.add_argument("topic", help="what to research (1 to 500 characters)")
    research.add_argument("--as-of", help="the research date YYYY-MM-DD (default: today, UTC)")
    research.add_argument("--thread-id", help="checkpoint thread (default: derived from topic "
                          "and as-of, so the same command resumes or updates the same run)")
    research.add_argument("--fresh", action="store_true", help="start a new thread")
    _add_run_options(research)

    resume = sub.add_parser("resume", help="continue an unfinished thread")
    resume.add_argument("thread_id")
    _add_run_options(resume)

    review = sub.add_parser(
        "review", help="show what a thread paused by --review awaits; approve, edit or redo it",
        description="Without a decision flag: show what the thread awaits (exit 0). With one: "
        "continue the run with it (LangGraph Command(resume=...)); it may pause again "
        "(after --redo). A thread that awaits nothing: exit 2.")
    review.add_argument("thread_id")
    review.add_argument("--approve", action="store_true", help="continue as planned / persist "
                        "every result")
    review.add_argument("--question", action="append", default=[], metavar="TEXT",
                        help="plan review: replace the sub-questions with these (repeatable), "
                        "then continue")
    review.add_argument("--drop", action="append", default=[], metavar="ENVELOPE_ID",
                        help="results review: neither persist nor report this result "
                        "(repeatable)")
    review.add_argument("--redo", action="append", default=[], metavar="ENVELOPE_ID",
                        help="results review: send this task again, then review again "
                        "(repeatable)")
    add_setting_flags(review, {s.name for s in SETTINGS} - {"review"})
    review.add_argument("--json", action="store_true", help="print a machine-readable summary on "
                        "stdout (progress goes to stderr)")
    review.add_argument("--quiet", action="store_true", help="no progress, only the summary")

    threads = sub.add_parser("threads", help="list threads: topic, as_of, status, last step")
    add_setting_flags(threads, {"data_dir", "database_url"})
    threads.add_argument("--json", action="store_true")

    inspect = sub.add_parser("inspect", help="checkpoint history and DB rows of a thread")
    inspect.add_argument("thread_id")
    add_setting_flags(inspect, {"data_dir", "database_url"})
    inspect.add_argument("--json", action="store_true")

    prune = sub.add_parser(
        "prune", help="keep only the latest checkpoint of each finished thread; report the "
        "bytes freed",
        description="Delete the checkpoint history that finished threads no longer need (each "
        "rerun adds about seven checkpoints and their writes), keeping each one's latest "
        "checkpoint, then compact the database. Unfinished threads (killed, interrupted, "
        "failed mid-run) and threads running in another process are never touched. Results "
        "and reports are not affected.")
    prune.add_argument("--thread-id", help="prune this thread only")
    add_setting_flags(prune, {"data_dir"})
    prune.add_argument("--dry-run", action="store_true", help="say what would be removed, "
                       "change nothing")
    prune.add_argument("--json", action="store_true")
    return parser


_SECRETS: list[str] = []
"""Keys of the settings in use, masked in any error line printed (a provider may echo a key)."""


_DATA_DIR: list[Path] = []
"""The data dir of the command, to tell a full disk behind SQLite's "disk I/O error"."""


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings()
    if settings.openai_api_key:
        _SECRETS.append(settings.openai_api_key)
    settings = settings.with_overrides(**flag_overrides(args))
    _DATA_DIR[:] = [Path(settings.data_dir)]
    return settings


def _validate_topic(raw: str) -> str:
    topic = " ".join(raw.split())
    if not topic:
        raise BadInput("the topic is empty; say what to research, e.g. "
                       "research \"checkpointer pending writes\"")
    if len(topic) > MAX_TOPIC_CHARS:
        raise BadInput(f"the topic has {len(topic)} characters; the limit is {MAX_TOPIC_CHARS}")
    if any(unicodedata.category(ch) == "Cc" or ch in _BIDI_CONTROLS for ch in topic):
        raise BadInput("the topic contains control characters")
    if not any(ch.isalnum() for ch in topic):
        raise BadInput("the topic has no letters or digits; say what to research")
    return topic


# Invisible characters that reorder how text is displayed (the "Trojan Source" family): a topic
# must look like what it is in the report, the thread id and the database.
_BIDI_CONTROLS = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _check_data_dir(settings: Settings) -> Path:
    """The data dir, refused (exit 2) when it, or the nearest part of its path that exists, is
    not a folder: ``--data-dir notes.txt/data`` can never be created."""
    data_dir = Path(settings.data_dir)
    existing = next((p for p in (data_dir, *data_dir.parents) if p.exists()), None)
    if existing is not None and not existing.is_dir():
        where = "" if existing == data_dir else f": {existing}"
        raise BadInput(f"data dir {data_dir}{where} is a file, not a folder")
    return data_dir


def _validate_paths(settings: Settings) -> None:
    """Refuse unusable paths before anything is written (exit 2)."""
    data_dir = _check_data_dir(settings)
    if settings.corpus is not None:
        corpus = Path(settings.corpus)
        if not corpus.exists():
            raise BadInput(f"corpus folder not found: {corpus}")
        if not corpus.is_dir():
            raise BadInput(f"--corpus {corpus} is a file; give the folder to index")
    out = settings.report_out
    if out is None:
        return
    if Path(out).exists() and not Path(out).is_dir() and not out.endswith(("/", "\\")):
        if not Path(out).is_file() or Path(out).suffix.lower() != ".md":
            raise BadInput(f"--out {out} exists and is not a .md report or a folder; "
                           "refusing to overwrite it")
    from app.report import report_path

    folder = report_path(out, data_dir, "report.md").parent
    if folder.exists() and not folder.is_dir():
        raise BadInput(f"--out {out}: {folder} is a file, not a folder")
    existing = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if existing is None or not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise BadInput(f"--out {out}: cannot write there")


def _check_fail_workers(settings: Settings) -> None:
    """``--fail-worker`` must name registered workers."""
    if not settings.fail_workers:
        return
    from workers.registry import registered  # imports the agent stack: only when needed

    known = {w.name for w in registered(web=settings.web)}
    for spec in settings.fail_workers:
        name = spec.partition(":")[0]
        if name not in known:
            raise BadInput(f"--fail-worker: no worker {name!r}; known: {', '.join(sorted(known))}")


def _run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    _validate_paths(settings)
    if settings.web and not settings.tavily_api_key:
        raise BadInput("--web needs a Tavily key: set TAVILY_API_KEY in the environment or "
                       "in .env")
    topic, as_of = None, as_of_or_today(None)
    if args.command == "research":
        topic = _validate_topic(args.topic)
        try:
            as_of = as_of_or_today(args.as_of)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
    _check_fail_workers(settings)

    # Imported once the input is known to be good: the graph stack takes seconds to import,
    # and bad input should fail fast.
    from app.progress import Progress, print_pause, print_summary
    from app.run import RunRequest, ThreadBusy, run_research
    from app.tracing import check_tracing
    from workers.sources import CorpusError

    if tracing_note := check_tracing():  # said once, instead of ~30 s of retries at exit
        print(tracing_note, file=sys.stderr)

    request = RunRequest(topic=topic, as_of=as_of, thread_id=args.thread_id,
                         fresh=getattr(args, "fresh", False))
    if args.command == "review":
        settings = settings.with_overrides(review=True)  # a redo pauses again
        request.review = _review_decision(args, settings)

    progress = Progress(sys.stderr if args.json else sys.stdout, quiet=args.quiet)
    try:
        with _sigterm_stops_like_ctrl_c():
            summary = run_research(request, settings, on_event=progress)
    except CorpusError as exc:  # the workers' own domain error (workers never import app/)
        raise BadInput(str(exc)) from None
    except ThreadBusy as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    out = summary.to_dict()
    # Alive at the end with a crash point set: it was never reached. A workshop that asked for
    # a kill must not carry on as if it had one (the summary's notes say it too).
    unreached = summary.crash_unreached
    try:
        if args.json:
            print(json.dumps(out, indent=2, ensure_ascii=False), flush=True)
        elif out.get("status") == "awaiting_review":
            print_pause(out)
        else:
            print_summary(out)
    except BrokenPipeError:
        _silence_stdout()  # the reader left; the run itself is done and recorded
    if unreached:
        print(f"error: {unreached}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK if summary.ok else EXIT_FAILED


def _review_decision(args: argparse.Namespace, settings: Settings) -> dict[str, Any] | None:
    """The ``review`` command's decision, checked against what the thread awaits before anything
    runs; or, with no decision flag, print what it awaits and stop (exit 0).

    Raises:
        BadInput: the thread is unknown or awaits no review, or a flag does not fit its stage.
        _Shown: the pause was printed (no decision given).
    """
    from app.inspect import pending_review
    from app.review import ReviewError, ReviewPause, review_value
    from app.storage import storage_of

    try:
        payload, unfinished = pending_review(storage_of(settings), args.thread_id)
    except KeyError as exc:
        raise BadInput(str(exc.args[0])) from None
    decided = args.approve or args.question or args.drop or args.redo
    if payload is None:
        if unfinished and args.approve and not (args.question or args.drop or args.redo):
            # The review was decided and the run then stopped (e.g. killed while persisting):
            # approving again continues it, as ``resume`` would.
            return {"approve": True}
        hint = (f"; its run is unfinished: continue it with python -m app resume "
                f"{args.thread_id}" if unfinished else "")
        raise BadInput(f"thread {args.thread_id!r} has nothing awaiting review{hint}")
    if not decided:
        pause = ReviewPause(args.thread_id, "", "", payload).to_dict()
        pause.pop("topic"), pause.pop("as_of")
        if args.json:
            print(json.dumps(pause, indent=2, ensure_ascii=False), flush=True)
        else:
            from app.progress import print_pause

            print_pause(pause)
        raise _Shown
    try:
        return review_value(payload, questions=args.question, drop=args.drop, redo=args.redo)
    except ReviewError as exc:
        raise BadInput(str(exc)) from None


class _Shown(Exception):
    """``review THREAD_ID`` without a decision: what it awaits was printed; exit 0."""


def _silence_stdout() -> None:
    """Point stdout at /dev/null after a broken pipe, so the interpreter's final flush does not
    print a second error (the recipe in Python's ``signal`` module docs, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _warn(warnings: list[str]) -> int:
    """Print what could not be read (a damaged database) on stderr; exit 1 if anything."""
    for line in warnings:
        print(f"error: {line}", file=sys.stderr)
    return EXIT_FAILED if warnings else EXIT_OK


def _threads(args: argparse.Namespace) -> int:
    from app.inspect import list_threads, print_threads
    from app.storage import storage_of

    settings = _settings(args)
    _check_data_dir(settings)
    warnings: list[str] = []
    rows = list_threads(storage_of(settings), warnings)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print_threads(rows)
    return _warn(warnings)


def _inspect(args: argparse.Namespace) -> int:
    from app.inspect import inspect_thread, print_inspection
    from app.storage import storage_of

    settings = _settings(args)
    _check_data_dir(settings)
    storage = storage_of(settings)
    warnings: list[str] = []
    data = inspect_thread(storage, args.thread_id, warnings)
    if data is None:
        if warnings:
            return _warn(warnings)
        raise UnknownThread(f"no thread {args.thread_id!r} in {storage.label}")
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False, default=str))
    else:
        print_inspection(data)
    return _warn(warnings)


def _prune(args: argparse.Namespace) -> int:
    from app.prune import print_prune, prune_checkpoints
    from app.storage import storage_of

    settings = _settings(args)
    _check_data_dir(settings)
    result = prune_checkpoints(storage_of(settings), thread_id=args.thread_id,
                               dry_run=args.dry_run)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_prune(result)
    return EXIT_OK


_NEARLY_FULL = 1 << 20
"""Free bytes under which an I/O error on the data dir's file system is put down to a full disk
(SQLite reports a failed write of its WAL index as "disk I/O error", not ``SQLITE_FULL``)."""


def _disk_full(exc: BaseException | None) -> str | None:
    """What says the disk is full in ``exc`` or the errors it was raised from or during
    (``__cause__``/``__context__``): an ``OSError`` ENOSPC/EDQUOT, SQLite's ``SQLITE_FULL``, or
    an I/O error (SQLite's ``SQLITE_IOERR`` family, ``EIO``) while the data dir's file system has
    less than 1 MiB free. None when nothing does. A full disk is a failure (exit 1), never bad
    input, even when it surfaces as a corpus error."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc.strerror)
        if isinstance(exc, sqlite3.Error) and (
                getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
                or "database or disk is full" in str(exc)):
            return str(exc)
        io_error = (isinstance(exc, OSError) and exc.errno == errno.EIO) or (
            isinstance(exc, sqlite3.Error)
            and (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF == sqlite3.SQLITE_IOERR)
        if io_error and (free := _free_bytes()) is not None and free < _NEARLY_FULL:
            return f"{exc}; {free} bytes free"
        exc = exc.__cause__ or exc.__context__
    return None


def _free_bytes() -> int | None:
    """Free bytes on the file system of the data dir (or its nearest existing parent)."""
    if not _DATA_DIR:
        return None
    existing = next((p for p in (_DATA_DIR[0], *_DATA_DIR[0].parents) if p.exists()), None)
    try:
        return shutil.disk_usage(existing).free if existing is not None else None
    except OSError:
        return None


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit code."""
    args = build_parser().parse_args(argv)
    handlers = {"research": _run, "resume": _run, "review": _run, "threads": _threads,
                "inspect": _inspect, "prune": _prune}
    try:
        return handlers[args.command](args)
    except _Shown:
        return EXIT_OK
    except (ConfigError, DomainError) as exc:  # bad input, and only that: exit 2
        if why := _disk_full(exc):  # e.g. a corpus index that could not be written
            return _print_disk_full(why)
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Terminated:
        print("terminated (SIGTERM): the run stopped cleanly and can be resumed with the same "
              "command", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print("interrupted: the run can be resumed with the same command", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except Exception as exc:  # one line, never a traceback (RESEARCH_DEBUG=1 shows it)
        if os.environ.get("RESEARCH_DEBUG"):
            raise
        from app.storage import StorageError

        if isinstance(exc, StorageError):  # a damaged file or an unreachable server: says which
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_FAILED
        from workers.errors import RunCancelled, describe_fatal, is_fatal, one_line, redact

        if isinstance(exc, RunCancelled) and exc.cause is not None:
            exc = exc.cause  # LangGraph may raise a cancelled sibling's error: report the cause
        if why := _disk_full(exc):
            return _print_disk_full(why)

        # A bad key or an unknown model: one line saying which, then exit 1.
        if is_fatal(exc):
            line = f"model error: {describe_fatal(exc)}"
        else:
            line = f"run failed: {one_line(exc)}"
        print(f"error: {redact(line, _SECRETS)}", file=sys.stderr)
        return EXIT_FAILED


def _print_disk_full(why: str) -> int:
    # Every write is a transaction (results, checkpoints) or an atomic rename (index, report):
    # a full disk stops the run between two saved states, and the next run resumes from there.
    print(f"error: the disk is full ({why}); nothing was lost: free some space, then run the "
          "same command again to continue", file=sys.stderr)
    return EXIT_FAILED
