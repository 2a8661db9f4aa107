"""A whole-file check of a derived SQLite file, run once per version of the file.

``PRAGMA quick_check`` reads every page of an index (about 5 ms for the package docs' 6 MB),
and a warm run opened the same unchanged index every time. A version is the file's
``(device, inode, size, mtime)``: a rebuild replaces the file (a new inode), a write inside it
changes its mtime and size. The last version that passed is kept beside the file, in
``<name>.checked``; a folder that cannot take it only means the check runs every time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

__all__ = ["checked_once", "forget", "passed"]


def _version(path: Path) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def _record(path: Path) -> Path:
    return path.with_name(path.name + ".checked")


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
    with suppress(OSError, UnicodeDecodeError):
        if before is not None and _record(path).read_text(encoding="ascii") == before:
            return True
    if not check():
        return False
    if before is not None and before == _version(path):  # not rewritten while it was read
        passed(path)
    return True


def passed(path: Path) -> None:
    """Record this version of ``path`` as whole without reading it: the program has just
    written it whole (an index build); best effort."""
    if (version := _version(path)) is not None:
        with suppress(OSError):
            _record(path).write_text(version, encoding="ascii")


def forget(path: Path) -> None:
    """Remove the record of ``path``'s checks (``path`` is being deleted); best effort."""
    with suppress(OSError):
        _record(path).unlink()
