"""Each text once: a file whose content is another file's of the folder (byte for byte, once
decompressed for a ``.gz``) is not indexed beside it.

* Debian's ``dh_installchangelogs`` installs an upstream HTML changelog as ``changelog.html.gz``
  beside the page it is, byte for byte (SQLite's ``changes.html``): indexed twice, the same
  sentences were cited twice, and a release-history question's third source was the copy, where
  the gold page had been (measured with ``scripts/eval_research.py --corpus sqlite3-doc``).
* The binary packages of one source package install the same ``changelog.Debian.gz``
  (``libpq-dev``, ``libpq5``, ``postgresql-15`` and ``postgresql-client-15``; 13 ``libxcb*``
  packages). Indexed four times, each entry was in four documents, and the boilerplate rule
  (:mod:`workers.sources.boilerplate`) stripped it from all four as a navigation bar: the
  changelog's CVE entries were in no passage.

The file kept is an uncompressed one (pages link to it by that name), then one with a type (read
with its structure: ``guide.md`` before ``guide``), then a site's ``index.html``, then an HTML page
whose ``<title>`` names its file (:func:`title_names`), then the first in sorted order; each other
is counted ``copy`` and named in the notes. The first in order alone indexed Postfix's
``sendmail.1.html`` ("Postfix manual - sendmail(1)") as ``mailq.1.html``, ``smtp.8.html`` as
``lmtp.8.html`` and gnuplot's ``htmldocs/index.html`` as ``figures.html``: a user looking for
the page by its name found another's (trial 114, F11).

Copies are found by the size of their content (a ``.gz``'s from its gzip trailer, ISIZE, RFC
1952 2.3.1), then by a hash of the content of the files that share a size, read as a stream: a
walk reads no file that shares its size with none, and never more than the size said. A
``.gz`` of several members (``cat a.gz b.gz``) records the last member's size only: it is not
found as a copy (indexed twice). Standard library and this package.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import zlib
from collections import Counter
from pathlib import Path

from workers.sources.documents import size_limit
from workers.sources.filekinds import (
    GZIP_SUFFIX,
    HTML_EXTENSIONS,
    file_kind,
    head_bytes,
    inner_name,
    open_regular,
)
from workers.sources.left_out import drop_noted
from workers.sources.text import raw, safe_name

__all__ = ["content_digest", "copies_once", "gzip_size", "title_names"]

_File = tuple[str, Path, os.stat_result]
_CHUNK = 64 * 1024


def gzip_size(path: Path) -> int | None:
    """The size, modulo 2**32, that the gzip file ``path`` says it decompresses to (the last
    member's ISIZE field), or None when it cannot be read."""
    try:
        with open_regular(path) as fh:
            fh.seek(-4, os.SEEK_END)
            return int.from_bytes(fh.read(4), "little")
    except OSError:
        return None


def content_digest(path: Path, size: int) -> bytes | None:
    """A hash of the content of ``path`` (decompressed when its name ends in ``.gz``), read as a
    stream in 64 KB pieces, or None when it cannot be read or holds more than ``size`` bytes
    (a ``.gz`` whose trailer said less than it holds is no copy of a file of that size)."""
    digest = hashlib.blake2b(digest_size=20)
    left = size + 1
    try:
        with open_regular(path) as handle, (
                gzip.GzipFile(fileobj=handle, mode="rb")
                if path.name.lower().endswith(GZIP_SUFFIX) else handle) as fh:
            while left > 0 and (chunk := fh.read(min(_CHUNK, left))):
                digest.update(chunk)
                left -= len(chunk)
    except (OSError, EOFError, zlib.error):
        return None
    return digest.digest() if left > 0 else None


def _content_size(entry: _File, max_file_bytes: int) -> int | None:
    """The size of ``entry``'s content (a ``.gz``'s as its trailer says), or None when it is not
    compared: empty (an empty file is no copy of another), or past its size limit (skipped as
    too large; a gzip bomb is not decompressed here)."""
    rel, path, st = entry
    packed = rel.lower().endswith(GZIP_SUFFIX)
    size = gzip_size(path) if packed else st.st_size
    if not size or size > size_limit(inner_name(path.name), max_file_bytes):
        return None
    return size


_TITLE = re.compile(rb"<title[^>]*>(.*?)</title", re.IGNORECASE | re.DOTALL)
_HEAD = 16 * 1024
"""How much of a page is read for its ``<title>`` (it is in the ``<head>``)."""
_INDEX_PAGES = frozenset(f"index{ext}" for ext in HTML_EXTENSIONS)


def title_names(name: str, title: str) -> bool:
    """Whether a page's ``title`` names its file ``name``: the file's stem (what comes before
    its first dot) is a word of the title, case aside.

    Example:
        >>> title_names("sendmail.1.html", "Postfix manual - sendmail(1)")
        True
        >>> title_names("mailq.1.html", "Postfix manual - sendmail(1)")
        False
        >>> title_names("lmtp.8.html.gz", "Postfix manual - smtp(8)")
        False
    """
    stem = name.split(".", 1)[0]
    return bool(stem) and re.search(rf"(?<!\w){re.escape(stem)}(?!\w)", title,
                                    re.IGNORECASE) is not None


def _page_title(path: Path) -> str:
    """The ``<title>`` of the HTML page ``path`` (a ``.gz`` decompressed), or ``""``."""
    if file_kind(path.name) not in HTML_EXTENSIONS:
        return ""
    found = _TITLE.search(head_bytes(path, _HEAD) or b"")
    return " ".join(found.group(1).decode("utf-8", "replace").split()) if found else ""


def _kept_first(entry: _File) -> tuple[bool, bool, bool, bool, bytes]:
    """The order in which a file is kept among copies: uncompressed, typed, a site's
    ``index.html``, a page its title names, sorted."""
    name = inner_name(entry[1].name).lower()
    return (entry[0].lower().endswith(GZIP_SUFFIX), file_kind(entry[1].name) == "",
            name not in _INDEX_PAGES, not title_names(name, _page_title(entry[1])),
            raw(entry[0]))


def copies_once(found: list[_File], skipped: Counter[str], notes: list[str] | None,
                max_file_bytes: int) -> list[_File]:
    """``found`` (``(ref, path, stat)``, sorted) with each content once: the other files of the
    same content (:func:`content_digest`) are counted ``copy`` and named, e.g.
    ``"changelog.html.gz: skipped, a compressed copy of changes.html, indexed once"`` or
    ``"libpq5/changelog.Debian.gz: skipped, a copy of libpq-dev/changelog.Debian.gz, indexed
    once"``. ``max_file_bytes``: the text files' size limit (a file past it is not compared)."""
    by_size: dict[int, list[_File]] = {}
    for entry in found:
        if (size := _content_size(entry, max_file_bytes)) is not None:
            by_size.setdefault(size, []).append(entry)
    twins: dict[str, _File] = {}
    for size, entries in by_size.items():
        if len(entries) < 2:
            continue
        same: dict[bytes, list[_File]] = {}
        for entry in entries:
            if (digest := content_digest(entry[1], size)) is not None:
                same.setdefault(digest, []).append(entry)
        for group in same.values():
            kept = min(group, key=_kept_first)
            twins.update((entry[0], kept) for entry in group if entry is not kept)
    gone = {rel: f"{_copy(rel, kept[0])} of {safe_name(kept[0])}, indexed once"
            for rel, _path, _st in found if (kept := twins.get(rel)) is not None}
    return drop_noted(found, gone, skipped, notes, "copy")


def _copy(rel: str, kept: str) -> str:
    """What the file ``rel`` is of the file ``kept``: "a compressed copy" when only it is
    gzip-compressed, else "a copy"."""
    return ("a compressed copy" if rel.lower().endswith(GZIP_SUFFIX)
            and not kept.lower().endswith(GZIP_SUFFIX) else "a copy")
