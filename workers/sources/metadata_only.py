"""A folder that holds only its package's change logs and licence: the documents are elsewhere.

Debian installs a ``-doc`` package's own folder (``/usr/share/doc/asymptote-doc``) with only
``changelog.Debian.gz``, ``changelog.gz`` and ``copyright`` when its documents go to another
path (Asymptote's PDFs: ``/usr/share/texmf/doc/support/asymptote``). Pointed at that folder, a
run answered "How do I draw a circle?" from the changelog ("Added convenient 3d circle and arc
functions."), and nothing said that the manual was not there.

This module imports only the standard library and this package.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from workers.sources.change_logs import is_change_log

__all__ = ["metadata_only"]

_LICENCE = re.compile(r"(?:^|/)(?:copyright|copying|licen[cs]e|notice|authors|credits)"
                      r"(?:[._-][\w.-]*)?$", re.IGNORECASE)
"""A licence or credits file (``copyright``, ``COPYING``, ``LICENSE.txt``, ``AUTHORS``)."""


def metadata_only(folder: Path, files: Sequence[tuple[str, Path, object]]) -> list[str]:
    """One note when every file of ``files`` (``(ref path, path, stat)``, the folder's files to
    index) is a change log (:func:`~workers.sources.change_logs.is_change_log`) or a licence
    file at the folder's top level, else none: the folder holds its package's metadata, not its
    documents (a folder of several packages' change logs, each in its subfolder, is read for
    them).

    Example:
        >>> metadata_only(Path("/usr/share/doc/x-doc"), [("changelog.gz", Path(), None),
        ...                                              ("copyright", Path(), None)])[0][:40]
        'x-doc holds only change logs and licence'
        >>> metadata_only(Path("d"), [("copyright", Path(), None), ("guide.html", Path(), None)])
        []
        >>> metadata_only(Path("d"), [("libpq5/changelog.Debian.gz", Path(), None)])
        []
    """
    names = [rel for rel, _path, _stat in files]
    if not names or not all("/" not in rel and (is_change_log(rel) or _LICENCE.search(rel))
                            for rel in names):
        return []  # files in subfolders: a folder of several packages', not one's own
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return [f"{folder.name} holds only change logs and licence files ({shown}): the documents "
            f"of its package may be installed in another folder (on Debian, `dpkg -L "
            f"{folder.name}` lists where)"]
