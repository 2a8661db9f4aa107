"""The argument parser. The settings' flags are derived from their declaration in
``app/settings/config.py`` (:func:`add_setting_flags`), never written out here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from app.cli.exit_codes import EXIT_BAD_INPUT
from app.runs.ids import check_thread_id
from app.settings.checks import check_as_of, check_given
from app.settings.config import SETTINGS
from app.settings.spec import (
    UTF8_WAY_OUT,
    ConfigError,
    SettingSpec,
    parse_setting,
    path_not_utf8,
    utf8_problem,
)


class BadFlag(SystemExit):
    """A bad flag or argument: its one line was printed on stderr (``line``); exit code 2."""

    def __init__(self, line: str) -> None:
        super().__init__(EXIT_BAD_INPUT)
        self.line = line


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit code 2, and no abbreviated
    options: the one owner of that rule, for every parser of the CLI (the subcommands' too).
    argparse takes ``--fr`` for ``--fresh`` by default, but the app reads its arguments back
    as given (a stopped run's "resumed with ..." line drops ``--fresh`` and masks a
    ``--database-url``'s value), so an abbreviation is refused with the option it may mean."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)
        self._words: list[str] = []

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._words = list(sys.argv[1:] if args is None else args)  # for _meant's subcommand
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        line = f"error: {message}{self._meant(message)} (see --help)"
        print(line, file=sys.stderr)
        raise BadFlag(line)

    def _meant(self, message: str) -> str:
        """For an unknown option that abbreviates real ones: ``; options are written in full:
        --fresh`` (the options of the subcommand given)."""
        if not message.startswith("unrecognized arguments: "):
            return ""
        known = set(self._option_string_actions)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                command = next((w for w in self._words if w in action.choices), None)
                if command is not None:
                    known |= set(action.choices[command]._option_string_actions)
        words = message.removeprefix("unrecognized arguments: ").split()
        meant = sorted({option for word in words if word.startswith("--") and len(word) > 2
                        for option in known if option.startswith(word.split("=", 1)[0])
                        and option != word.split("=", 1)[0]})
        return f"; options are written in full: {', '.join(meant)}" if meant else ""

    def format_help(self) -> str:
        if callable(self.epilog):  # built on demand: the worker registry imports LangChain
            self.epilog = self.epilog()
        return super().format_help()


def _workers_epilog() -> str:
    from workers.registry import registered

    workers = registered(web=True)  # the web workers say "with --web" in their description
    width = max(len(w.name) for w in workers)
    kinds = {"function": "Plain function", "agent": "create_agent"}  # WorkerSpec.kind
    lines = [f"  {w.name:<{width}}  {kinds.get(w.kind, w.kind)}: {w.description}"
             for w in workers]
    return "\n".join(["workers (workers/registry.py; one task per worker per sub-question):",
                      *lines])


def _flag_type(spec: SettingSpec) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        try:  # ``--data-dir "$UNSET"`` must not fall back to the default
            check_given(spec.flag or spec.name, text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        try:
            return parse_setting(spec.flag or spec.name, spec, text)
        except ConfigError as exc:  # argparse names the flag: "argument --flag: ..."
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{spec.flag}: ")) from None

    return convert


def _as_of(text: str) -> str:
    """``--as-of``: :func:`app.settings.checks.check_as_of`, the rule a served run's ``as_of``
    keeps too: refused when empty (``--as-of "$UNSET"`` silently meant today), no such date, a
    year outside 1970-2100: one line each."""
    try:
        return check_as_of(text, "--as-of") or ""
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _thread_id(text: str) -> str:
    try:
        return check_thread_id(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _checkpoint_id(text: str) -> str:
    try:
        check_given("--checkpoint", text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


def add_setting_flags(parser: argparse.ArgumentParser, names: set[str] | None = None) -> None:
    """Add the declared flags to ``parser`` (all of them, or those whose setting is in
    ``names``); the fault-injection flags go in their own help group. Each flag's value lands
    in ``args.setting_<name>`` (None when absent): read them with :func:`flag_overrides`."""
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
        # without a metavar, argparse shows the dest (--out SETTING_REPORT_OUT): the flag's name
        metavar = spec.metavar or spec.flag.removeprefix("--").upper().replace("-", "_")
        kwargs: dict[str, Any] = {"dest": f"setting_{spec.name}", "help": help_text,
                                  "metavar": metavar}
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


JSON_HELP = ("print {what} as one JSON object on one line of stdout, as every way the command "
             "ends does (an error too: status, exit_code, error, thread_id)")
"""The ``--json`` flag's help: one line per JSON value is what a script reads (README,
"Command line")."""


def _add_output_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=JSON_HELP.format(
        what="the run's summary (or review pause)") + "; progress goes to stderr")
    p.add_argument("--quiet", action="store_true", help="no progress, only the summary")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m app`` (exposed for tests and docs)."""
    parser = _Parser(prog="python -m app", description="Map-reduce research agent (LangGraph).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in (_add_research, _add_resume, _add_review, _add_threads, _add_inspect, _add_prune):
        add(sub)
    return parser


def _add_research(sub: Any) -> None:
    """``research TOPIC``: a run of a topic (resumes an unfinished one)."""
    research = sub.add_parser("research", help="research a topic (resumes an unfinished run)",
                              epilog=_workers_epilog,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    research.add_argument("topic", help="what to research (1 to 500 characters)")
    research.add_argument("--as-of", type=_as_of,
                          help="the research date YYYY-MM-DD (default: today, UTC)")
    research.add_argument("--thread-id", type=_thread_id,
                          help="checkpoint thread (default: derived from topic and as-of, so "
                          "the same command resumes or updates the same run)")
    research.add_argument("--fresh", action="store_true", help="start a new thread")
    add_setting_flags(research)
    _add_output_flags(research)


def _add_resume(sub: Any) -> None:
    """``resume THREAD_ID``: continue an unfinished thread."""
    resume = sub.add_parser("resume", help="continue an unfinished thread")
    resume.add_argument("thread_id", type=_thread_id)
    add_setting_flags(resume)
    _add_output_flags(resume)


def _add_review(sub: Any) -> None:
    """``review THREAD_ID``: show or decide what a thread paused by ``--review`` awaits."""
    review = sub.add_parser(
        "review", help="show what a thread paused by --review awaits; approve, edit or redo it",
        description="Without a decision flag: show what the thread awaits (exit 0). With one: "
        "continue the run with it (LangGraph Command(resume=...)); it may pause again "
        "(after --redo). A thread that awaits nothing: exit 2.")
    review.add_argument("thread_id", type=_thread_id)
    review.add_argument("--approve", action="store_true", help="continue as planned / persist "
                        "every result")
    review.add_argument("--question", action="append", default=[], metavar="TEXT",
                        help="plan review: replace the sub-questions with these (repeatable), "
                        "then continue")
    review.add_argument("--drop", action="append", default=[], metavar="ENVELOPE_ID",
                        help="results review: neither persist nor report this result "
                        "(repeatable); the others are approved, unless --redo sends some again")
    review.add_argument("--redo", action="append", default=[], metavar="ENVELOPE_ID",
                        help="results review: send this task again, then review again "
                        "(repeatable)")
    review.add_argument("--checkpoint", metavar="CHECKPOINT_ID", type=_checkpoint_id,
                        help="time travel: decide again at this earlier review pause (its id "
                        "from inspect THREAD_ID); the thread forks from it, so the rows and "
                        "report show the new decision")
    add_setting_flags(review, {s.name for s in SETTINGS} - {"review"})
    _add_output_flags(review)


def _add_threads(sub: Any) -> None:
    """``threads``: the list of threads."""
    threads = sub.add_parser("threads", help="list threads: topic, as_of, status, last step")
    add_setting_flags(threads, {"data_dir", "database_url"})
    threads.add_argument("--json", action="store_true", help="print the threads as one JSON "
                         "list on one line of stdout (an error: one JSON object on the next)")


def _add_inspect(sub: Any) -> None:
    """``inspect THREAD_ID``: a thread's checkpoint history and rows, or its report."""
    inspect = sub.add_parser("inspect", help="checkpoint history and DB rows of a thread")
    inspect.add_argument("thread_id", type=_thread_id)
    add_setting_flags(inspect, {"data_dir", "database_url"})
    shown = inspect.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true",
                       help=JSON_HELP.format(what="the thread"))
    shown.add_argument("--report", action="store_true",
                       help="print the thread's markdown report, read from the results "
                       "database (works on any machine that reaches it); exit 2 if it has none")


def _add_prune(sub: Any) -> None:
    """``prune``: drop the checkpoint history finished threads no longer need."""
    prune = sub.add_parser(
        "prune", help="keep only the latest checkpoint of each finished thread; report the "
        "bytes freed",
        description="Delete the checkpoint history that finished threads no longer need (each "
        "rerun adds about seven checkpoints and their writes), keeping each one's latest "
        "checkpoint, then compact the database (SQLite; PostgreSQL keeps the space of the "
        "deleted rows for new checkpoints). Unfinished threads (killed, interrupted, failed "
        "mid-run) and threads running in another process are never touched. Results and "
        "reports are not affected.")
    prune.add_argument("--thread-id", type=_thread_id, help="prune this thread only")
    add_setting_flags(prune, {"data_dir", "database_url"})
    prune.add_argument("--dry-run", action="store_true", help="say what would be removed, "
                       "change nothing")
    prune.add_argument("--json", action="store_true",
                       help=JSON_HELP.format(what="what was removed"))


class _Lenient(argparse.ArgumentParser):
    """A parser whose errors raise (nothing printed): :func:`given_thread`'s. No abbreviated
    options, as the CLI's own (:class:`_Parser`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


def given_thread(argv: list[str]) -> str | None:
    """The thread id ``argv`` names (``resume``/``review``/``inspect``'s argument, or
    ``--thread-id``), read when the real parse refused another of its flags, so that the
    ``--json`` object of that bad input still names the thread the user gave. Every option of
    the command is known with its arity, but none of its values is checked. None: no command,
    no thread named, an id that is no valid thread id, or an unknown option that makes it
    unclear which word is the thread.
    """
    parsed = _lenient_parse(argv)
    if parsed is None:
        return None
    try:
        return check_thread_id(getattr(parsed[0], "thread_id", None) or "")
    except ValueError:
        return None


_PATHS = {f"setting_{spec.name}": spec.path for spec in SETTINGS}
"""Whether a setting flag's value (its ``dest``) is a path."""


def not_utf8(argv: list[str]) -> str | None:
    """The line refusing the first argument that is not valid UTF-8 (a Latin-1 terminal's
    ``café``: Python hands its byte over as a lone surrogate, ``'caf\\udce9'``), naming it as
    the user knows it (``the topic``, ``--thread-id``), or None when every argument is UTF-8.
    Such an argument failed later as "run failed: UnicodeEncodeError ... surrogates not allowed"
    (exit 1), or as a thread id with "control characters". A path's line names the
    path (:func:`app.settings.spec.path_not_utf8`: an existing folder so named needs a UTF-8
    name, a locale does not help it).

    Example:
        >>> not_utf8(["research", "caf\\udce9 checkpointer"]).split(": ")[0]
        'the topic is not valid UTF-8 (byte 0xe9 at position 3)'
    """
    bad = next((i for i, word in enumerate(argv) if utf8_problem(word)), None)
    if bad is None:
        return None
    parsed = _lenient_parse(argv)
    label, where = f"argument {bad + 1} ({argv[bad]!r})", utf8_problem(argv[bad])
    for action in parsed[1]._actions if parsed is not None else ():
        value = getattr(parsed[0], action.dest, None)
        bad_value = next((v for v in (value if isinstance(value, list) else [value])
                          if isinstance(v, str) and utf8_problem(v)), None)
        if bad_value is not None:  # named as --help names it; where: in the value
            label = (action.option_strings[-1] if action.option_strings
                     else f"the {action.dest.replace('_', ' ')}")
            where = utf8_problem(bad_value)
            if _PATHS.get(action.dest):  # named with its bytes, and the way out for a path
                return path_not_utf8(label, bad_value, str(where))
            break
    return f"{label} is not valid UTF-8 ({where}): {UTF8_WAY_OUT}"


def _lenient_parse(argv: list[str]) -> tuple[argparse.Namespace, argparse.ArgumentParser] | None:
    """``argv`` parsed by its command's options and their arity, no value checked, and that
    command's real parser; None: no command, or an unknown option took a word."""
    sub = next((a for a in build_parser()._actions
                if isinstance(a, argparse._SubParsersAction)), None)
    command = next((a for a in argv if not a.startswith("-")), None)
    real = sub.choices.get(command) if sub is not None and command else None
    if real is None:
        return None
    lenient = _Lenient(add_help=False)
    for action in real._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        kwargs: dict[str, Any] = {"dest": action.dest} if action.option_strings else {}
        if action.nargs == 0:  # a switch
            kwargs["action"] = "store_true"
        else:
            kwargs["nargs"] = action.nargs
        lenient.add_argument(*(action.option_strings or [action.dest]), **kwargs)
    rest = argv[argv.index(command) + 1:]
    try:
        args, extra = lenient.parse_known_args(rest)
    except ValueError:
        return None
    if any(not word.startswith("-") for word in extra):  # an unknown option took a word
        return None
    return args, real
