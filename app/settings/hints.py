"""The follow-up commands the app prints ("continue with ...", "resume it first: ..."), in one
form: as the README runs the app (``uv run python -m app``), with the flags that find the
thread again, so that a pasted hint works from the project folder."""

from __future__ import annotations

import shlex

from app.settings.config import Settings, default_of

APP = "uv run python -m app"
"""How the README runs the app; every printed command starts with it."""


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
        out += f" --data-dir {shlex.quote(str(settings.data_dir))}"
    if settings.database_url:
        out += " --database-url URL"
    return out


def command(args: str, settings: Settings | None = None, tail: str = "") -> str:
    """The printed command ``APP args [place flags] tail``.

    Example:
        >>> command("resume T", Settings(data_dir="/tmp/d"))
        'uv run python -m app resume T --data-dir /tmp/d'
    """
    return f"{APP} {args}{place_args(settings)}{tail}"
