"""Where a run's report is written, under which name, and how (atomically): the file side of
the report (:mod:`app.research.report` renders the markdown)."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import threading
from pathlib import Path

from app.runs.ids import ascii_letters, default_thread_id, sha8

__all__ = ["ReportNotWritten", "not_replaceable", "report_filename", "report_path", "write_report"]


def report_filename(topic: str, as_of: str, thread_id: str | None = None) -> str:
    """The report's file name: ``<thread_id>.md``, so the file says which thread it is
    (``threads``, ``inspect`` and the run's first line print the same id), whatever the topic's
    length (the default id cuts the topic's slug at 40 characters; the name used to cut it at 60).

    ``thread_id`` None means the topic's default thread (:func:`app.runs.ids.default_thread_id`). A
    thread id that is not a plain name of ASCII letters, digits, ``-`` and ``_`` (``--thread-id``
    takes any printable text without spaces: ``../x``, ``.hidden``, ``a/b``) gets the slug of its
    ``[a-z0-9]`` runs (accented letters spelled by their base letter:
    :func:`app.runs.ids.ascii_letters`) and ``-t<hash8 of the id>``, so the name has no path
    separators or leading dot and two ids never share a file (on a case-insensitive file
    system, two hand-made ids differing only in case would: the app's own ids are lowercase but
    for ``--fresh``'s ``T``).

    Example:
        >>> report_filename("Send", "2026-11-30") == default_thread_id("Send", "2026-11-30") + ".md"
        True
        >>> report_filename("Send", "2026-11-30", "mine")
        'mine.md'
        >>> report_filename("Send", "2026-11-30", "../mine") == f"mine-t{sha8('../mine')}.md"
        True
        >>> report_filename("Send", "2026-11-30", "café/x")[:7]
        'cafe-x-'
    """
    name = thread_id or default_thread_id(topic, as_of)
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,199}", name):
        return f"{name}.md"
    slug = "-".join(re.findall(r"[a-z0-9]+", ascii_letters(name).lower()))[:60].strip("-")
    slug = slug or "thread"
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


def not_replaceable(path: Path) -> str | None:
    """Why the report may not be written over what is at ``path``, or None: nothing is there, an
    empty file, or a report this app wrote (it begins as one does:
    :func:`workers.sources.walk.is_own_report`), which a rerun writes again. Anything else is
    the user's (notes, a README, a document of the corpus folder) and is never replaced
    (``--out notes.md`` replaced the user's notes; ``--out`` inside the corpus folder replaced
    the document the report cited).

    Example:
        >>> not_replaceable(Path("/no/such/file.md")) is None
        True
    """
    from workers.sources.walk import is_own_report

    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not stat.S_ISREG(st.st_mode):
        return "exists and is not a file"
    if st.st_size == 0 or is_own_report(path):
        return None
    return "exists and is not a report of this app (it does not begin with its header)"


_THREAD_LINE = re.compile(r"^- Thread: `([^`\n]+)`$", re.MULTILINE)


def report_thread(path: Path) -> str | None:
    """The thread id a report file of this app names in its header (``- Thread: `ID```), or
    None: no such file, not a report of this app, or unreadable.

    Example:
        >>> report_thread(Path("/no/such/report.md")) is None
        True
    """
    from workers.sources.walk import is_own_report

    try:
        if not is_own_report(path):
            return None
        with path.open(encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    match = _THREAD_LINE.search(head)
    return match.group(1) if match else None


class ReportNotWritten(OSError):
    """The report file could not be written where the run writes it (``errno`` the cause's,
    ``filename`` the report's path): the CLI says so in one line, and that the results are
    saved (the report node writes the file after ``persist``), never as a bare
    ``run failed: FileExistsError``."""


def write_report(markdown: str, path: Path) -> Path:
    """Write ``markdown`` to ``path`` atomically (temp file, then rename); return the path.

    Raises:
        FileExistsError: ``path`` holds something not to replace (:func:`not_replaceable`);
            checked before the run by the CLI, and again here, since the file may have
            appeared meanwhile.
        ReportNotWritten: the report cannot be written (an ``OSError``): a folder on its way
            is a file (the ``--out`` folder or ``reports/`` replaced mid-run: it was "refusing
            to overwrite the report's path: it cannot be read (Not a directory)"), or the
            write failed; its ``filename`` is ``path`` (not the temp file's), and its
            ``errno`` the cause's (a full disk is still told as one).
    """
    if (blocked := _file_on_the_way(path.parent)) is not None:
        raise ReportNotWritten(errno.ENOTDIR, f"{blocked} is a file, not a folder", str(path))
    if why := not_replaceable(path):
        raise FileExistsError(errno.EEXIST, f"refusing to overwrite the report's path: it {why}",
                              str(path))
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(markdown, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise ReportNotWritten(exc.errno, f"cannot write the report: {exc.strerror}",
                               str(path)) from exc
    return path


def _file_on_the_way(folder: Path) -> Path | None:
    """The nearest existing path of ``folder`` and its parents when it is no folder (a file
    where the report's folder should be), else None."""
    for place in (folder, *folder.parents):
        try:
            st = place.stat()
        except OSError:
            continue
        return None if stat.S_ISDIR(st.st_mode) else place
    return None
