"""Each text once: a gzip-compressed copy of a file of the folder is not indexed beside it.

Debian's ``dh_installchangelogs`` installs an upstream HTML changelog as ``changelog.html.gz``
beside the page it is, byte for byte (SQLite's ``changes.html``): indexed twice, the same
sentences were cited twice, and a release-history question's third source was the copy, where
the gold page had been (measured with ``scripts/eval_research.py --corpus sqlite3-doc``). The
uncompressed file is kept (pages link to it by that name); the copy is counted ``copy`` and
named in the notes. A copy is found by the size its gzip trailer records (ISIZE, RFC 1952
2.3.1), then compared byte for byte as a stream: a walk reads no more than that. Standard
library and this package.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections import Counter
from pathlib import Path

from workers.sources.filekinds import GZIP_SUFFIX
from workers.sources.text import safe_name

__all__ = ["copies_once", "gzip_size", "same_bytes"]

_File = tuple[str, Path, os.stat_result]
_CHUNK = 64 * 1024


def gzip_size(path: Path) -> int | None:
    """The size, modulo 2**32, that the gzip file ``path`` says it decompresses to (the last
    member's ISIZE field), or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            fh.seek(-4, os.SEEK_END)
            return int.from_bytes(fh.read(4), "little")
    except OSError:
        return None


def same_bytes(packed: Path, plain: Path) -> bool:
    """Whether the gzip file ``packed`` decompresses to the bytes of ``plain``, read side by
    side in 64 KB pieces (False when either cannot be read)."""
    try:
        with gzip.open(packed, "rb") as left, open(plain, "rb") as right:
            while True:
                a, b = left.read(_CHUNK), right.read(_CHUNK)
                if a != b:
                    return False
                if not a:
                    return True
    except (OSError, EOFError, zlib.error):
        return False


def copies_once(found: list[_File], skipped: Counter[str], notes: list[str] | None
                ) -> list[_File]:
    """``found`` (``(ref, path, stat)``) without the ``.gz`` files that are compressed copies of
    another of its files (:func:`same_bytes`), each counted ``copy`` and named, e.g.
    ``"changelog.html.gz: skipped, a compressed copy of changes.html, indexed once"``."""
    by_size: dict[int, list[_File]] = {}
    for entry in found:
        if not entry[0].lower().endswith(GZIP_SUFFIX):
            by_size.setdefault(entry[2].st_size % 2**32, []).append(entry)
    kept = []
    for entry in found:
        size = gzip_size(entry[1]) if entry[0].lower().endswith(GZIP_SUFFIX) else None
        twin = next((other for other in by_size.get(size, []) if same_bytes(entry[1], other[1])),
                    None)
        if twin is None:
            kept.append(entry)
            continue
        skipped["copy"] += 1
        if notes is not None:
            notes.append(f"{safe_name(entry[0])}: skipped, a compressed copy of "
                         f"{safe_name(twin[0])}, indexed once")
    return kept
