"""One line of text for a report bullet, a progress line, a review summary or a prompt.

The one owner of "flatten whitespace, cut to a length, mark the cut": the report, the synthesis
prompt, the review payload and the terminal progress all call :func:`clip`, so a claim is cut the
same way wherever it is shown. (``textwrap.shorten`` cuts at word boundaries and gives back only
its placeholder when the first word is longer than the width, e.g. a long URL: a claim would
vanish instead of being cut.) Pure text handling, no I/O.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ELLIPSIS", "clip"]

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
