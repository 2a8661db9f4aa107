"""Whether a file a run relies on is still the one it opened, and who holds a thread lock:
file identities (``st_dev``, ``st_ino``), a lock file's holder line, Linux's ``/proc/locks``.
Standard library only; :mod:`app.storage.sqlite` keeps the files' records."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["file_id", "held_flocks", "replaced", "say_holder"]


def file_id(path: Path) -> tuple[int, int]:
    """``(st_dev, st_ino)`` of ``path``: the file, whatever its name (raises ``OSError``)."""
    st = os.stat(path)
    return st.st_dev, st.st_ino


def replaced(path: Path, opened: tuple[int, int] | None) -> bool:
    """Whether the file at ``path`` is gone, or is another file than ``opened`` (its
    ``(st_dev, st_ino)``; None: any file will do). Unreadable is not gone: other errors say
    what is wrong."""
    try:
        now = file_id(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return opened not in (None, now)


def say_holder(handle: Any, holder: str) -> None:
    """Write ``holder`` as the whole of a lock file this process holds (best effort: a full disk
    leaves it as it was, and a refused process then gives the general line)."""
    try:
        handle.truncate(0)
        handle.write(holder)
        handle.flush()
    except OSError:
        pass


def held_flocks(proc_locks: str = "/proc/locks") -> set[tuple[int, int, int]] | None:
    """``(major, minor, inode)`` of each file a process holds a ``flock`` on: the ``FLOCK``
    lines of Linux's ``/proc/locks`` (``1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF``; a
    waiter's line has ``->`` before ``FLOCK``). None when it cannot be read."""
    try:
        text = Path(proc_locks).read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    out = set()
    for fields in (line.split() for line in text.splitlines()):
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5].count(":") == 2:
            major, minor, inode = fields[5].split(":")
            try:
                out.add((int(major, 16), int(minor, 16), int(inode)))
            except ValueError:
                continue
    return out
