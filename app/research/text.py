"""One line of text for a report bullet, a progress line, a review summary or a prompt.

The one owner of "flatten whitespace, cut to a length, mark the cut": the report, the synthesis
prompt, the review payload and the terminal progress all call :func:`clip`, so a claim is cut the
same way wherever it is shown. (``textwrap.shorten`` cuts at word boundaries and gives back only
its placeholder when the first word is longer than the width, e.g. a long URL: a claim would
vanish instead of being cut.) Pure text handling, no I/O.
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["BIDI_CONTROLS", "ELLIPSIS", "clip", "clip_middle", "utf8_problem", "visible",
           "visible_text"]

BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Invisible characters that reorder how text is displayed (the "Trojan Source" family)."""

ELLIPSIS = "…"
"""What ends a cut text (one character, counted in the limit)."""


def clip(text: Any, limit: int) -> str:
    """``text`` on one line (every run of whitespace, newlines included, becomes one space),
    at most ``limit`` characters: a longer one is cut, trailing spaces dropped, and ends in
    :data:`ELLIPSIS`.

    Args:
        text: anything; ``str()`` of it is used (None gives ``"None"``).
        limit: the most characters the result may have, the ellipsis included (>= 1).

    Raises:
        ValueError: ``limit`` is less than 1.

    Example:
        >>> clip("  a\\n b  c ", 10)
        'a b c'
        >>> clip("one two three", 9)
        'one two…'
        >>> clip("abcdef", 4)
        'abc…'
    """
    if limit < 1:
        raise ValueError(f"clip needs a limit of at least 1 character, got {limit}")
    flat = " ".join(str(text).split())
    if len(flat) <= limit:
        return flat
    return flat[: limit - 1].rstrip() + ELLIPSIS


def clip_middle(text: Any, limit: int) -> str:
    """:func:`clip`, but a longer ``text`` keeps its start and its end, cut in the middle: a
    note listing files says its count and why after the list ("... and 229 more: skipped, the
    source of a page indexed"), and the end is what a reader needs (clipped at its end, the
    report's copy of such a note stopped at the tenth file name).

    Example:
        >>> clip_middle("a1 a2 a3 a4 a5 a6: skipped", 16)
        'a1 a2 … skipped'
    """
    flat = clip(text, max(len(str(text)), 1))
    if len(flat) <= limit:
        return flat
    head = (limit - 3) // 2
    tail = limit - 3 - head
    return f"{flat[:head].rstrip()} {ELLIPSIS} {flat[len(flat) - tail:].lstrip()}"


def visible(text: str) -> str:
    r"""``text`` with its control characters (C0, DEL, C1) and bidi controls
    (:data:`BIDI_CONTROLS`) written as escapes: what a terminal is given of text a user or a
    state edit wrote (an ESC starts a terminal command; U+202E reverses what follows it).

    Example:
        >>> visible("a\x1bb \u202ec"), visible("déjà vu")
        ('a\\x1bb \\u202ec', 'déjà vu')
    """
    if not any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in text):
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS
                   else ch for ch in text)


def visible_text(text: str) -> str:
    r"""``text`` of several lines with what :func:`visible` escapes escaped, but its newlines and
    tabs kept: a report's markdown (a source's passage may carry an ANSI or OSC escape sequence,
    which a terminal showing the file, ``cat`` or a markdown viewer, would run).

    Example:
        >>> visible_text("a\tb\n\x1b]0;title\x07\r\n")
        'a\tb\n\\x1b]0;title\\x07\\r\n'
    """
    return "\n".join("\t".join(visible(part) for part in line.split("\t"))
                     for line in text.split("\n"))


def utf8_problem(raw: str) -> str | None:
    """Where ``raw`` (an argument or an environment value, which Python decodes with
    ``surrogateescape``) is not valid UTF-8, e.g. ``"byte 0xe9 at position 3"``; None when it is.

    Example:
        >>> utf8_problem("caf\\udce9"), utf8_problem("café")
        ('byte 0xe9 at position 3', None)
    """
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(raw[exc.start])
        what = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        return f"{what} at position {exc.start}"
    return None
