"""Text helpers of the sources: byte decoding, printable names, sizes and counts.

This module imports only the standard library (passages are cut in
:mod:`workers.sources.chunks`, HTML is read in :mod:`workers.sources.htmlpage`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import NamedTuple

__all__ = [
    "MAX_GARBAGE_SHARE",
    "SNIFF_BYTES",
    "Decoded",
    "declared_encoding",
    "decode_file",
    "encoding_note",
    "html_charset",
    "python_coding",
    "plural",
    "raw",
    "safe_name",
    "size_label",
    "unsafe_name",
]

SNIFF_BYTES = 8192
"""How much of a file's start tells whether it is text (``fileread.not_text``); a file holding a
NUL byte anywhere is binary."""

MAX_GARBAGE_SHARE = 0.25
"""A file of which any ``SNIFF_BYTES`` decoded characters in a row (its first, and each whole
stretch after) are more than this share of replacement characters (undecodable bytes) and
control characters is binary: a shell-archive installer, a 300-line ``#!/bin/sh``
head over 2 MB of random bytes, was indexed whole as mojibake when only its start was read."""


_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def safe_name(name: str) -> str:
    r"""``name`` made fit for UTF-8 text (SQLite, JSON, a terminal): bytes that were not UTF-8
    (which ``os`` hands over as lone surrogates) and control characters become ``\xNN``; other
    names are returned unchanged. ``b"n\xe9e.md"`` -> ``"n\\xe9e.md"``."""
    if not _UNSAFE_NAME.search(name):
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # surrogateescape'd byte
            out.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(ch)
    return "".join(out)


def raw(text: str) -> bytes:
    """Bytes of any str, lone surrogates included (deterministic, never raises)."""
    return text.encode("utf-8", "surrogatepass")


def unsafe_name(name: str) -> bool:
    """Whether :func:`safe_name` would change ``name``."""
    return _UNSAFE_NAME.search(name) is not None


_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CONTROL_BYTES = bytes((*range(0x00, 0x09), 0x0b, *range(0x0e, 0x20), 0x7f))
"""The bytes of :data:`_CONTROL_CHARS` (a file with none is not binary by them: 0.03 s for
sqlite3-doc's 21.6 MB, where the pattern took 0.09 s)."""


class Decoded(NamedTuple):
    """What :func:`decode_file` read: ``text`` (None: binary), the ``encoding`` it was read
    with, and how many invalid byte sequences were ``replaced`` (U+FFFD) in UTF-8 text."""

    text: str | None
    encoding: str
    replaced: int = 0


_NON_ASCII = re.compile(r"[^\x00-\x7f\ufffd]")
_META_CHARSET = re.compile(
    rb"<meta\b[^>]*?\bcharset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def html_charset(raw: bytes) -> str | None:
    """The encoding an HTML file's bytes declare in their first 1024 bytes (``<meta
    charset="shift_jis">``, or ``charset=`` in a content-type ``<meta http-equiv>``), as a
    Python codec name; None when none is declared, the codec is unknown, or it names UTF-16
    or UTF-32 (which the HTML standard's prescan reads as UTF-8: ASCII bytes cannot spell them).

    Example:
        >>> html_charset(b'<meta http-equiv="Content-Type" content="text/html; charset=SJIS">')
        'shift_jis'
        >>> html_charset(b"<p>charset=big5</p>"), html_charset(b'<meta charset="nope">')
        (None, None)
    """
    match = _META_CHARSET.search(raw[:1024])
    if match is None:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None
    return None if name.startswith(("utf-16", "utf-32")) else name


_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


def python_coding(raw: bytes) -> str | None:
    """The encoding a Python file's bytes declare in a coding comment on one of their first two
    lines (PEP 263, ``# -*- coding: latin-1 -*-``), as a Python codec name; None without one.

    Example:
        >>> python_coding(b"#!/usr/bin/env python\\n# -*- coding: latin-1 -*-\\n")
        'iso8859-1'
        >>> python_coding(b"x = 1\\n") is None
        True
    """
    match = _CODING.search(b"\n".join(raw.split(b"\n", 2)[:2]))
    try:
        return codecs.lookup(match.group(1).decode("ascii")).name if match else None
    except LookupError:
        return None


def declared_encoding(raw: bytes, suffix: str) -> str | None:
    """The encoding a file declares for itself: an ``.html`` file's :func:`html_charset`, a
    ``.py`` file's :func:`python_coding`; None for other files or without a declaration."""
    if suffix in (".html", ".htm"):
        return html_charset(raw)
    return python_coding(raw) if suffix == ".py" else None


_ASCII_SAMPLE = b"# -*- coding: name -*- <meta charset=name>"


def reads_ascii(codec: str) -> bool:
    """Whether ``codec`` reads ASCII bytes as the same text: a declaration written in ASCII
    (a coding comment, a ``<meta charset>``) can only name such a codec. ``utf-16`` read a
    coding comment's own file as CJK mojibake, and it was never found.

    Example:
        >>> [reads_ascii(c) for c in ("latin-1", "utf-16", "cp037", "rot13")]
        [True, False, False, False]
    """
    try:
        return _ASCII_SAMPLE.decode(codec) == _ASCII_SAMPLE.decode("ascii")
    except (LookupError, UnicodeError, TypeError):
        return False


def decode_file(raw: bytes, declared: str | None = None) -> Decoded:
    """The text of a file's bytes: UTF-16 with a BOM; else the ``declared`` encoding (an HTML file's
    :func:`html_charset`, a Python file's :func:`python_coding`), bad bytes replaced; else UTF-8,
    read as such when it is mostly UTF-8 (more valid non-ASCII characters than invalid byte
    sequences: the invalid ones are replaced with U+FFFD and counted, so one stray byte no longer
    turns "Café" into "CafÃ©"); else Windows-1252 when the bytes read as clean Windows-1252 text (no
    undefined byte, control characters under 1%: a Latin-1 note read as UTF-8 was indexed as "Le
    h\ufffdron"); else UTF-8 with replacement. A declared codec that does not decode bytes to
    text (``rot13``, ``zlib_codec``, ``base64``; ``idna``, which takes no bad byte), or that
    does not read ASCII as ASCII (``utf-16``, ``utf-32``, ``punycode``, EBCDIC: an ASCII
    declaration cannot have meant it, :func:`reads_ascii`) is passed over: the ``encoding``
    returned then differs from it. ``text`` is None when the bytes look
    binary: a NUL byte anywhere, or more than ``MAX_GARBAGE_SHARE`` of replacement and control
    characters at the start of the text or in a whole stretch of ``SNIFF_BYTES`` after it.

    Example:
        >>> decode_file("Le h\u00e9ron".encode("latin-1"))
        Decoded(text='Le h\u00e9ron', encoding='cp1252', replaced=0)
        >>> decode_file("Caf\u00e9 na\u00efve, one stray".encode() + b" \\xff.")
        Decoded(text='Caf\u00e9 na\u00efve, one stray \ufffd.', encoding='utf-8', replaced=1)
        >>> decode_file(b"Heron census", "rot-13")
        Decoded(text='Heron census', encoding='utf-8', replaced=0)
    """
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return _sniffed(raw.decode("utf-16"), "utf-16")
        except UnicodeDecodeError:
            return Decoded(None, "utf-16")
    if b"\0" in raw:  # anywhere: text over a binary payload is no text file
        return Decoded(None, "utf-8")
    if (declared and codecs.lookup(declared).name not in ("utf-8", "utf-8-sig")
            and reads_ascii(declared)):
        try:
            return _sniffed(raw.decode(declared, errors="replace"), codecs.lookup(declared).name)
        except (LookupError, UnicodeError):  # no text codec (rot13, zlib_codec, base64, idna):
            pass  # the bytes are read as if nothing were declared (the caller notes it)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    else:  # valid UTF-8 holds a control character only as its one byte: counted in C
        if "\ufffd" not in text and len(raw.translate(None, _CONTROL_BYTES)) == len(raw):
            return Decoded(text, "utf-8", 0)
        return _sniffed(text, "utf-8")
    text = raw.decode("utf-8-sig", errors="replace")
    replaced = text.count("\ufffd") - raw.count("\ufffd".encode())
    if len(_NON_ASCII.findall(text)) <= replaced:  # not mostly UTF-8: perhaps Windows-1252
        legacy = raw.decode("cp1252", errors="replace")
        if "\ufffd" not in legacy[:SNIFF_BYTES] and all(
                len(_CONTROL_CHARS.findall(part)) <= 0.01 * len(part)
                for part in _stretches(legacy)):  # bytes of a binary body: no Windows-1252
            return _sniffed(legacy, "cp1252")
    return _sniffed(text, "utf-8", replaced)


def _stretches(text: str) -> Iterator[str]:
    """``text``'s first ``SNIFF_BYTES`` characters, then each whole stretch of as many."""
    for at in range(0, max(1, len(text) - SNIFF_BYTES + 1), SNIFF_BYTES):
        yield text[at:at + SNIFF_BYTES]


def _sniffed(text: str, encoding: str, replaced: int = 0) -> Decoded:
    """``text`` as decoded, or None as binary when its start, or any whole stretch of
    ``SNIFF_BYTES`` characters after it, is mostly garbage (:data:`MAX_GARBAGE_SHARE`)."""
    binary = any(_garbage(part) for part in _stretches(text))
    return Decoded(None if binary else text, encoding, 0 if binary else replaced)


def _garbage(sample: str) -> bool:
    bad = sample.count("\ufffd") + len(_CONTROL_CHARS.findall(sample))
    return bad > MAX_GARBAGE_SHARE * len(sample)


def plural(n: int, word: str) -> str:
    """``"1 file"``, ``"2 files"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def size_label(n: int, exact: bool = True) -> str:
    """A byte count as a person reads it: ``"2 MB"``, ``"512 KB"``, ``"1,000 bytes"``; with
    ``exact=False`` a size that is no whole number of units gets one decimal (``"2.4 MB"``).

    Example:
        >>> size_label(2 * 1024 * 1024), size_label(2_500_000, exact=False), size_label(1000)
        ('2 MB', '2.4 MB', '1,000 bytes')
    """
    for unit, size in (("MB", 1024 * 1024), ("KB", 1024)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
        if n >= size and not exact:
            return f"{n / size:.1f} {unit}"
    return f"{n:,} bytes"


def encoding_note(rel: str, declared: str | None, encoding: str, replaced: int) -> str | None:
    """The corpus note on how file ``rel`` was decoded (:func:`decode_file`), or None when it
    was read as it says (or as UTF-8 with nothing replaced).

    Args:
        rel: the file's path in the folder, as notes name it.
        declared: the encoding the file declares (:func:`declared_encoding`), or None.
        encoding: the codec it was read with.
        replaced: how many invalid byte sequences became U+FFFD.
    """
    if declared not in (None, encoding, "utf-8", "utf-8-sig") and encoding != "utf-16":
        return (f"{rel}: declares the encoding {declared}, which does not read text; read as "
                f"{'Windows-1252 (Latin-1)' if encoding == 'cp1252' else 'UTF-8'}")
    if encoding == "cp1252":
        return f"{rel}: not UTF-8; read as Windows-1252 (Latin-1)"
    if replaced:
        return (f"{rel}: read as UTF-8; {plural(replaced, 'invalid byte sequence')} replaced "
                "with U+FFFD")
    return None


MAX_TITLE_CHARS = 200
"""The most characters of a document's title as the index keeps it (:func:`short_title`)."""


def short_title(title: str) -> str:
    """``title`` as it is, or when longer than :data:`MAX_TITLE_CHARS` characters its start, cut
    at a word, with an ellipsis: a page's ``<title>`` of 1 MB was every report's label and
    source line, twice 909 KB, and 1.4 million tokens counted (trial 61, F4).

    Example:
        >>> short_title("A  title"), len(short_title("word " * 100))
        ('A  title', 195)
    """
    if len(title) <= MAX_TITLE_CHARS:
        return title
    cut = " ".join(title[:MAX_TITLE_CHARS * 2].split())[:MAX_TITLE_CHARS - 1]
    return cut.rsplit(" ", 1)[0].rstrip(" ,;:-") + "…"
