"""A file or folder deleted after the walk listed its folder: not part of the folder, so not
noted by the walk. Files deleted while the index is built are counted and named once, where
they are read (:func:`workers.sources.fileread.file_docs`: "unreadable (No such file or
directory)"), and the corpus line counts them from the same list
(:func:`workers.sources.folder.counted_files`). The walk once noted the ones gone before its
``stat`` too: a folder emptied during indexing said "69 more read but not indexed" on its
corpus line and "… and 89 more: skipped, unreadable" (99 files) in its notes (hostile trial
H). Standard library only."""

from __future__ import annotations

import errno
import os

__all__ = ["gone_since_listed"]


def gone_since_listed(exc: OSError, path: str | os.PathLike[str]) -> bool:
    """Whether ``exc`` (raised reading ``path``'s status or listing it) says ``path`` no longer
    exists: ``ENOENT`` and not even a link is left by its name (a link to nothing, which a
    user left there, is still noted as unreadable).

    Example:
        >>> gone_since_listed(FileNotFoundError(errno.ENOENT, "gone"), "/no/such/file")
        True
        >>> gone_since_listed(PermissionError(errno.EACCES, "denied"), "/no/such/file")
        False
    """
    return exc.errno == errno.ENOENT and not os.path.lexists(path)
