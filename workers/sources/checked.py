"""A whole-file check of a derived SQLite file, run once per version of the file.

``PRAGMA quick_check`` reads every page of an index (about 5 ms for the package docs' 6 MB),
and a warm run opened the same unchanged index every time. A version is the file's
``(device, inode, size, mtime, ctime)``: a rebuild replaces the file (a new inode), a write
inside it changes its ctime, which ``touch -r`` or ``cp -p`` cannot set back (trial 50, F1:
garbage written with the mtime restored was used). Damage no write made (a disk's bit rot) is
found by the first search that reads it (:mod:`workers.sources.damage`: one line, the file
removed). The last version that passed is kept beside the file, in ``<name>.checked``, read
and written as a regular file only (a named pipe, a device or a link there is ignored, never
followed: trial 50, F2-F4); a folder that cannot take it only means the check runs every time.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

__all__ = ["checked_once", "forget", "passed"]

_MOST = 128
"""The most bytes of a record read (a version is about 60)."""


def _version(path: Path) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def _record(path: Path) -> Path:
    return path.with_name(path.name + ".checked")


def _recorded(path: Path) -> str | None:
    """The version the record holds, or None: missing, or no regular file (never followed)."""
    try:
        fd = os.open(_record(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, _MOST).decode("ascii")
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)


def checked_once(path: Path, check: Callable[[], bool]) -> bool:
    """Whether ``path`` is whole: True without calling ``check()`` when this version of the
    file passed it before, else ``check()``'s verdict (a pass is recorded).

    Args:
        path: a file that only this program rewrites, by replacing it whole.
        check: reads the file and says whether it is whole; its errors propagate.

    Example:
        >>> import tempfile
        >>> f = Path(tempfile.mkdtemp()) / "index.sqlite"; _ = f.write_bytes(b"x")
        >>> calls = []
        >>> [checked_once(f, lambda: calls.append(1) or True) for _ in range(2)], len(calls)
        ([True, True], 1)
    """
    before = _version(path)
    if before is not None and _recorded(path) == before:
        return True
    if not check():
        return False
    if before is not None and before == _version(path):  # not rewritten while it was read
        passed(path)
    return True


def passed(path: Path) -> None:
    """Record this version of ``path`` as whole without reading it: the program has just
    written it whole (an index build); best effort."""
    if (version := _version(path)) is None:
        return
    record = _record(path)
    temp = record.with_name(f"{record.name}.{os.getpid()}.tmp")
    with suppress(OSError):  # a new file put in place: a link at the record's name is replaced
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            os.write(fd, version.encode("ascii"))
        finally:
            os.close(fd)
        os.replace(temp, record)
    with suppress(OSError):
        temp.unlink()  # left only when the replace failed


def forget(path: Path) -> None:
    """Remove the record of ``path``'s checks (``path`` is being deleted); best effort."""
    with suppress(OSError):
        _record(path).unlink()
