"""Where a run's report is written, under which name, and how (atomically): the file side of
the report (:mod:`app.research.report` renders the markdown)."""

from __future__ import annotations

import contextlib
import os
import re
import threading
from pathlib import Path

from app.runs.ids import default_thread_id, sha8

__all__ = ["report_filename", "report_path", "write_report"]


def report_filename(topic: str, as_of: str, thread_id: str | None = None) -> str:
    """The report's file name: ``<thread_id>.md``, so the file says which thread it is
    (``threads``, ``inspect`` and the run's first line print the same id), whatever the topic's
    length (the default id cuts the topic's slug at 40 characters; the name used to cut it at 60).

    ``thread_id`` None means the topic's default thread (:func:`app.runs.ids.default_thread_id`). A
    thread id that is not a plain name of ASCII letters, digits, ``-`` and ``_`` (``--thread-id``
    takes any printable text without spaces: ``../x``, ``.hidden``, ``a/b``) gets the slug of its
    ``[a-z0-9]`` runs and ``-t<hash8 of the id>``, so the name has no path separators or leading
    dot and two ids never share a file (on a case-insensitive file system, two hand-made ids
    differing only in case would: the app's own ids are lowercase but for ``--fresh``'s ``T``).

    Example:
        >>> report_filename("Send", "2026-11-30") == default_thread_id("Send", "2026-11-30") + ".md"
        True
        >>> report_filename("Send", "2026-11-30", "mine")
        'mine.md'
        >>> report_filename("Send", "2026-11-30", "../mine") == f"mine-t{sha8('../mine')}.md"
        True
    """
    name = thread_id or default_thread_id(topic, as_of)
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,199}", name):
        return f"{name}.md"
    slug = "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:60].strip("-") or "thread"
    return f"{slug}-t{sha8(name)}.md"


def report_path(out: str | None, data_dir: str | Path, name: str) -> Path:
    """Where a run's report lands: the one owner of that decision (the ``report`` node writes
    there; the CLI checks beforehand that it can).

    Args:
        out: the ``report_out`` setting (``--out``): None for ``<data_dir>/reports/<name>``; an
            existing folder, or any path ending in ``/`` (created if missing), for
            ``<out>/<name>``; else the report file itself.
        data_dir: the run's data dir.
        name: the report's file name (:func:`report_filename`).
    """
    if not out:
        return Path(data_dir) / "reports" / name
    if out.endswith(("/", "\\")) or Path(out).is_dir():
        return Path(out) / name
    return Path(out)


def write_report(markdown: str, path: Path) -> Path:
    """Write ``markdown`` to ``path`` atomically (temp file, then rename); return the path.

    Raises:
        OSError: the report cannot be written; its ``filename`` is ``path`` (not the temp
            file's), and its ``errno`` the cause's (a full disk is still told as one).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(markdown, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, f"cannot write the report: {exc.strerror}", str(path)) from exc
    return path
