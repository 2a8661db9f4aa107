"""How the ``runs`` table records a run's sources, in one column: its corpus folder (or "" for
the package docs), the content fingerprint of what it indexed, a non-default
``--max-file-bytes``, a ``--corpus-language`` given, and whether it searched the web. Pure text
functions; databases written before a mark was added need no migration (a key without it reads
as before).
"""

from __future__ import annotations

from pathlib import Path

from app.settings.config import Settings, default_of

__all__ = ["CONTENT_MARK", "LANGUAGE_MARK", "MAX_FILE_BYTES", "MAX_MARK", "SOURCES_METADATA",
           "WEB_MARK", "corpus_key", "recorded_language", "recorded_max_bytes", "split_key"]

SOURCES_METADATA = "research_sources"
"""The key of a CLI run's :func:`corpus_key` in its config's ``metadata``, which LangGraph copies
into every checkpoint's metadata: the thread's sources survive its ``runs`` row (a results
database deleted)."""

WEB_MARK = " +web"
"""Appended to a run's recorded corpus when it also searches the web (``--web``)."""

CONTENT_MARK = " @"
"""Between a run's recorded corpus folder and its content fingerprint (hex digits)."""

MAX_MARK = ":"
"""After the content fingerprint: the ``--max-file-bytes`` the folder was indexed with, when
not the default (which files it skipped, so what the fingerprint covers)."""

LANGUAGE_MARK = "/"
"""Last after the content fingerprint: the ``--corpus-language`` the folder was indexed with,
when one was given (which translations it skipped, so what the fingerprint covers)."""

MAX_FILE_BYTES: int = default_of("max_file_bytes")
"""The default ``--max-file-bytes`` (a key without :data:`MAX_MARK` was indexed with it)."""


def corpus_key(settings: Settings, fingerprint: str | None = None) -> str:
    """How the ``runs`` table records a run's sources: its resolved corpus folder, or ""
    (package docs), then :data:`CONTENT_MARK` and the corpus index's content ``fingerprint``
    when given (``Corpus.content_fingerprint``: the files' names and bytes, or the packages'
    versions) and, for a folder indexed with another ``--max-file-bytes`` than the default,
    :data:`MAX_MARK` and that limit, then :data:`WEB_MARK` when it searches the web. (One
    column, so that databases written before the marks need no migration: a key without them
    reads as before.)"""
    folder = settings.corpus_folder(settings.corpus_name)
    base = str(Path(folder).resolve()) if folder else ""
    if fingerprint:
        base += CONTENT_MARK + fingerprint
        if folder and settings.max_file_bytes != MAX_FILE_BYTES:  # the files it indexed
            base += f"{MAX_MARK}{settings.max_file_bytes}"
        if folder and settings.corpus_language:  # the translations it skipped
            base += LANGUAGE_MARK + settings.corpus_language.strip().lower()
    return base + (WEB_MARK if settings.web else "")


def split_key(key: str) -> tuple[str, bool, str]:
    """``(corpus folder or "", web, content fingerprint or "")`` of a recorded
    :func:`corpus_key`.

    Example:
        >>> split_key("/docs @0a1b +web"), split_key("/d @0a:5000/fr")
        (('/docs', True, '0a1b'), ('/d', False, '0a'))
    """
    web = key.endswith(WEB_MARK)
    key = key[: -len(WEB_MARK)] if web else key
    base, mark, fingerprint = key.rpartition(CONTENT_MARK)
    fingerprint = fingerprint.partition(LANGUAGE_MARK)[0].partition(MAX_MARK)[0]
    if mark and fingerprint and all(c in "0123456789abcdef" for c in fingerprint):
        return base, web, fingerprint
    return key, web, ""


def recorded_max_bytes(key: str) -> int:
    """The ``--max-file-bytes`` a recorded :func:`corpus_key`'s folder was indexed with (the
    default when the key does not say).

    Example:
        >>> recorded_max_bytes("/docs @0a1b:5000 +web"), recorded_max_bytes("/d @0a") > 0
        (5000, True)
    """
    key = key.removesuffix(WEB_MARK)
    _, mark, tail = key.rpartition(CONTENT_MARK)
    digits = tail.partition(LANGUAGE_MARK)[0].partition(MAX_MARK)[2]
    return int(digits) if mark and digits.isdigit() else MAX_FILE_BYTES


def recorded_language(key: str) -> str | None:
    """The ``--corpus-language`` a recorded :func:`corpus_key`'s folder was indexed with (None
    when none was given).

    Example:
        >>> recorded_language("/docs @0a1b:5000/fr +web"), recorded_language("/d @0a")
        ('fr', None)
    """
    _, mark, tail = key.removesuffix(WEB_MARK).rpartition(CONTENT_MARK)
    return (tail.partition(LANGUAGE_MARK)[2] or None) if mark else None
