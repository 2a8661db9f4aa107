"""A folder corpus's fingerprints: the stat one that decides when its index is rebuilt, and the
content one that tells a thread whether its corpus changed (a ``touch`` leaves that one).

This module imports only the standard library and :mod:`workers.sources` leaves.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from workers.sources.chunks import MAX_PASSAGE_CHARS
from workers.sources.filekinds import GZIP_SUFFIX, open_regular
from workers.sources.index import SCHEMA_VERSION, tree_signature
from workers.sources.text import raw

__all__ = ["content_fingerprint", "folder_fingerprint"]

FolderFiles = Sequence[tuple[str, Path, os.stat_result]]
"""``(ref, path, stat)`` of each indexable file, as :func:`workers.sources.folder.folder_files`
lists them."""


def _rules(label: Path, files: FolderFiles, max_file_bytes: int) -> bytes:
    """The extraction rules a fingerprint covers: the index schema, the passage size, the
    folder, and the size limit when a ``.gz`` file is listed. A ``.gz`` is measured only as it
    is decompressed, by the build, so the listing (paths, sizes, mtimes, bytes) is the same
    under any limit: with another ``--max-file-bytes`` a ``.gz`` skipped as too large stayed
    skipped (the old index was reused, its note quoting the old limit), and one indexed under a
    higher limit stayed indexed under a lower. Any other file over the limit is
    left out of the listing, which then differs; so are the translations another
    ``--corpus-language`` skips (:mod:`workers.sources.languages`): a language is another
    listing, so another index."""
    packed = any(path.name.lower().endswith(GZIP_SUFFIX) for _rel, path, _st in files)
    limit = f";gzip_limit={max_file_bytes}" if packed else ""
    return raw(f"schema={SCHEMA_VERSION};max={MAX_PASSAGE_CHARS};folder={label}{limit}\n")


def content_fingerprint(folder: Path, files: FolderFiles, max_file_bytes: int, *,
                        as_folder: Path | None = None) -> str:
    """Hash of the indexable files' names and bytes (and the extraction rules, :func:`_rules`:
    ``max_file_bytes`` is the text files' size limit): unlike :func:`folder_fingerprint` (stat
    only, for rebuilds), a ``touch`` leaves it. ``as_folder``: the folder path to hash in place
    of ``folder`` (the fingerprint the same files had at a folder's former place: a moved
    folder is the same content)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(_rules(folder if as_folder is None else as_folder, files, max_file_bytes))
    for _rel, path, _st in files:
        h.update(raw(f"{path.relative_to(folder).as_posix()}\0"))
        try:  # a regular file's bytes, as many as its open handle says it has (it may grow)
            with open_regular(path) as handle:
                left = os.fstat(handle.fileno()).st_size
                while left > 0 and (chunk := handle.read(min(1 << 20, left))):
                    h.update(chunk)
                    left -= len(chunk)
        except OSError as exc:  # gone, unreadable or swapped since the walk: the build notes it
            h.update(raw(f"\0unreadable {exc.errno}"))
        h.update(b"\n")
    return h.hexdigest()


def folder_fingerprint(folder: Path, files: FolderFiles, max_file_bytes: int) -> str:
    """Hash of the folder's indexable files (names, sizes, mtimes) and the extraction rules
    (:func:`_rules`; ``max_file_bytes``: the text files' size limit)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(_rules(folder, files, max_file_bytes))
    # The real names (not the escaped refs), so renaming a file always rebuilds.
    tree = ((p.relative_to(folder).as_posix(), st) for _rel, p, st in files)
    h.update(tree_signature(tree).encode())
    return h.hexdigest()
