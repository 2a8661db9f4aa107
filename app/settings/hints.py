"""The follow-up commands the app prints ("continue with ...", "resume it first: ..."), in one
form: as the README runs the app (``uv run python -m app``), with the flags that find the
thread again, so that a pasted hint works from the project folder."""

from __future__ import annotations

import shlex
from collections.abc import Iterable

from app.research.text import visible
from app.settings.config import Settings, default_of

APP = "uv run python -m app"
"""How the README runs the app; every printed command starts with it."""


def quote(arg: str) -> str:
    r"""``arg`` quoted for a printed command: :func:`shlex.quote`, or bash's ``$'...'`` when it
    holds a character :func:`app.research.text.visible` escapes (a newline, a tab, ESC, a bidi
    control). The terminal is shown those as ``\n`` and the like, which inside ``'...'`` the
    shell reads as a backslash and a letter: a pasted hint ran another topic on a new thread,
    or another data dir.

    Example:
        >>> quote("a b"), quote("a\nb"), quote("it's\t\\")
        ("'a b'", "$'a\\nb'", "$'it\\'s\\t\\\\'")
    """
    if visible(arg) == arg:
        return shlex.quote(arg)
    # visible() writes Python escapes (\n, \t, \x1b, \u202e): bash's $'...' reads the same
    return "$'" + visible(arg.replace("\\", "\\\\").replace("'", "\\'")) + "'"


def join(args: Iterable[str]) -> str:
    """The arguments ``args`` as a printed command line, each :func:`quote`-d."""
    return " ".join(quote(arg) for arg in args)


def place_args(settings: Settings | None) -> str:
    """The flags a printed follow-up command needs to find this run's threads: ``--data-dir``
    (quoted) when it is not the default, and a ``--database-url URL`` placeholder for a
    database URL (never printed: it may hold a password). Empty for None.

    Example:
        >>> place_args(Settings(data_dir="my data"))
        " --data-dir 'my data'"
    """
    if settings is None:
        return ""
    out = ""
    if str(settings.data_dir) != str(default_of("data_dir")):
        out += f" --data-dir {quote(str(settings.data_dir))}"
    if settings.database_url:
        out += " --database-url URL"
    return out


def continue_args(settings: Settings | None) -> str:
    """:func:`place_args` plus the run's ``--out FILE`` (quoted) when it was given: the flags a
    printed command that *continues* a run (``review ... --approve``) needs to find the thread
    and write the report where the run was asked to (else the continue lines of
    ``research --review --out FILE`` dropped it, and the report went to the data dir's
    ``reports/``).

    Example:
        >>> continue_args(Settings(data_dir="/d", report_out="my report.md"))
        " --data-dir /d --out 'my report.md'"
    """
    out = place_args(settings)
    if settings is not None and settings.report_out:
        out += f" --out {quote(str(settings.report_out))}"
    return out


def command(args: str, settings: Settings | None = None, tail: str = "") -> str:
    """The printed command ``APP args [place flags] tail``.

    Example:
        >>> command("resume T", Settings(data_dir="/tmp/d"))
        'uv run python -m app resume T --data-dir /tmp/d'
    """
    return f"{APP} {args}{place_args(settings)}{tail}"


def thread_command(verb: str, thread_id: str, settings: Settings | None = None, tail: str = "",
                   *, place: str | None = None) -> str:
    """The printed command ``APP verb THREAD [place flags] tail``, the thread id quoted: an id
    may hold any character (``--thread-id 'a>b'``), and a pasted ``a>b`` redirects; an id
    that starts with ``-`` goes last, after ``--``, or it would be read as an option. ``place``:
    the flags already made by :func:`place_args` (default: from ``settings``).

    Example:
        >>> thread_command("review", "a>b", tail=" --approve")
        "uv run python -m app review 'a>b' --approve"
        >>> thread_command("inspect", "-x", place="")
        'uv run python -m app inspect -- -x'
    """
    where = place_args(settings) if place is None else place
    if thread_id.startswith("-"):  # read as an option: the id goes last, after "--"
        return f"{APP} {verb}{where}{tail} -- {quote(thread_id)}"
    return f"{APP} {verb} {quote(thread_id)}{where}{tail}"


def next_step(thread_id: str, status: str, settings: Settings | None = None, *,
              place: str | None = None) -> str:
    """What to do next with a thread that has work left, by what ``threads`` calls it
    (:func:`app.runs.threads.thread_status`): the one owner of that advice, so that every
    command gives the same. ``running``: wait (another process runs it); ``awaiting review``:
    decide it with ``review`` (``resume`` only shows the pause again); else ``resume``.

    Example:
        >>> next_step("a b", "unfinished")
        "continue it with uv run python -m app resume 'a b'"
    """
    if status == "running":
        return "another process is running it: wait for that run to end"
    if status == "awaiting review":
        review = thread_command("review", thread_id, settings, " --approve", place=place)
        return f"decide its review: {review} (without --approve it shows what it awaits)"
    return f"continue it with {thread_command('resume', thread_id, settings, place=place)}"


def anew_command(topic: str, as_of: str, *, corpus: str = "", web: bool = False,
                 settings: Settings | None = None, place: str | None = None) -> str:
    """The printed command that runs ``topic`` as of ``as_of`` again on a new thread
    (``--fresh``), on the corpus folder ``corpus`` ("": the package docs) and the web if
    ``web``: the way on for an unfinished thread that cannot be continued (its corpus folder
    moved away, or this command asked for other sources). A topic that starts with ``-`` goes
    last, after ``--``.

    Example:
        >>> anew_command("a b", "2026-11-30", corpus="/my docs", place="")
        "uv run python -m app research 'a b' --as-of 2026-11-30 --corpus '/my docs' --fresh"
    """
    return research_command(topic, as_of, corpus=corpus, web=web, tail=" --fresh",
                            settings=settings, place=place)


def research_command(topic: str, as_of: str, *, corpus: str = "", web: bool = False,
                     tail: str = "", settings: Settings | None = None,
                     place: str | None = None) -> str:
    """The printed ``research`` command of ``topic`` as of ``as_of`` on the corpus folder
    ``corpus`` ("": the package docs) and the web if ``web``, then ``tail`` (flags, each with
    its leading space) and the place flags (:func:`place_args` of ``settings``, or ``place``).
    A topic that starts with ``-`` goes last, after ``--``.

    Example:
        >>> research_command("a b", "2026-11-30", tail=" --thread-id t", place=" --data-dir d")
        "uv run python -m app research 'a b' --as-of 2026-11-30 --thread-id t --data-dir d"
    """
    where = place_args(settings) if place is None else place
    flags = f" --as-of {as_of}" + (f" --corpus {quote(corpus)}" if corpus else "")
    flags += (" --web" if web else "") + tail + where
    if topic.startswith("-"):  # read as an option: the topic goes last, after "--"
        return f"{APP} research{flags} -- {quote(topic)}"
    return f"{APP} research {quote(topic)}{flags}"


def again(argv: list[str], *, as_of: str | None = None, thread_id: str | None = None
          ) -> str | None:
    """The command of ``argv`` (the CLI's arguments), made exact to continue the thread it ran:
    ``--as-of as_of`` added (the default, today in UTC, names another thread once the UTC
    date changes), ``--fresh`` replaced by ``--thread-id thread_id`` (it would start yet another
    thread), a database URL's value replaced by ``URL`` (it may hold a password). None: a
    ``--fresh`` run stopped before its thread was named.

    Example:
        >>> again(["research", "a b", "--fresh"], as_of="2026-12-02", thread_id="t")
        "uv run python -m app research 'a b' --thread-id=t --as-of 2026-12-02"
    """
    out = list(argv)
    for i, arg in enumerate(out):
        if arg.startswith("--database-url="):
            out[i] = "--database-url=URL"
        elif arg == "--database-url" and i + 1 < len(out):
            out[i + 1] = "URL"
    if "--fresh" in out:
        if thread_id is None:
            return None
        out = [arg for arg in out if arg != "--fresh"] + [f"--thread-id={thread_id}"]
    if as_of is not None:
        out += ["--as-of", as_of]
    return f"{APP} {join(out)}"
