"""A PDF's running headers and footers: the lines at the top or bottom of most of its pages
("gnuplot 5.4 167" on one page, "168 gnuplot 5.4" on the next), found per file and left out
of each page's text before it is indexed (else the first sentence of every
page of a PDF manual began with its page header, and the report quoted it so).

A line is running when, its numbers read as one sign (page numbers change from page to page)
and its words in any order, it is among the first or last :data:`EDGE_LINES` lines of at
least :data:`RUNNING_SHARE` of the file's pages and of :data:`MIN_PAGES` of them, short
(:data:`MAX_RUNNING_CHARS`), holds a word and does not end as a sentence does; a page of
fewer than :data:`MIN_LINES` lines has none (its lines are its text).
The folder-wide rule for repeated paragraphs (:mod:`workers.sources.boilerplate`) does not
find these: they change with the page and sit inside the page's first paragraph.

This module imports only the standard library.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

__all__ = ["EDGE_LINES", "MAX_HEADER_WORDS", "MAX_RUNNING_CHARS", "MIN_LINES", "MIN_PAGES",
           "RUNNING_SHARE",
           "printed_offset", "running_lines", "without_page_header", "without_running_lines"]

EDGE_LINES = 1
"""How many lines at each end of a page may be its header or footer."""
MIN_LINES = 3
"""A page of fewer lines has no header or footer: its lines are its text."""
RUNNING_SHARE = 0.5
"""... on at least this share of the file's pages (even and odd pages' headers are one line in
another order). A chapter's own running title, on its pages only, is not found so: in a file
without an outline its words stay, saying what the page is about (left out, Asymptote's manual
was searched worse, before its outline headed its passages); with one, it goes as a header
bearing the page's printed number (:func:`without_page_header`)."""
MIN_PAGES = 3
"""... and on at least this many of them."""
MAX_RUNNING_CHARS = 100
"""Longer lines are text, never a header or a footer."""

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _sign(line: str) -> str:
    """``line``'s words in sorted order, its numbers as ``#``: ``"gnuplot 5.4 167"`` and
    ``"168 gnuplot 5.4"`` (an odd and an even page) are both ``"# # gnuplot"``."""
    return " ".join(sorted(_NUMBER.sub("#", line).lower().split()))


def _edges(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < MIN_LINES:
        return []
    return [*lines[:EDGE_LINES], *lines[EDGE_LINES:][-EDGE_LINES:]]


_WORD = re.compile(r"[^\W\d_]{2,}")
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*$")


def _may_run(line: str) -> bool:
    """Whether ``line`` may be a header or footer: short, with a word (a row of numbers is a
    table's, however alike its sign), not ending as a sentence does (a
    warning printed on every page is text)."""
    line = line.strip()
    return (len(line) <= MAX_RUNNING_CHARS and _WORD.search(line) is not None
            and _SENTENCE_END.search(line) is None)


def running_lines(pages: Sequence[str]) -> frozenset[str]:
    """The signs (numbers as ``#``) of the running lines of a file's ``pages`` (their texts, in
    order); empty for a file of fewer than :data:`MIN_PAGES` pages.

    Example:
        >>> words = ["Alpha", "Beta", "Gamma", "Delta"]
        >>> pages = [f"Manual 5.4 {n}\\nOn {w}.\\n{w} ends." for n, w in enumerate(words)]
        >>> sorted(running_lines(pages))
        ['# # manual']
    """
    if len(pages) < MIN_PAGES:
        return frozenset()
    counts: Counter[str] = Counter()
    for text in pages:
        counts.update({_sign(line) for line in _edges(text) if _may_run(line)})
    need = max(MIN_PAGES, math.ceil(RUNNING_SHARE * len(pages)))
    return frozenset(sign for sign, n in counts.items() if n >= need and sign)


def without_running_lines(text: str, running: frozenset[str]) -> str:
    """``text`` (a page) without the ``running`` lines among its first and last
    :data:`EDGE_LINES` lines; the rest as it was.

    Example:
        >>> without_running_lines("Manual 5.4 7\\nText of page 7.\\nMore.",
        ...                       frozenset({"# # manual"}))
        'Text of page 7.\\nMore.'
    """
    if not running:
        return text
    lines = text.splitlines()
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if len(filled) < MIN_LINES:
        return text
    edges = {*filled[:EDGE_LINES], *filled[EDGE_LINES:][-EDGE_LINES:]}
    return "\n".join(line for i, line in enumerate(lines)
                     if i not in edges or not _may_run(line) or _sign(line) not in running)


def printed_offset(pages: Sequence[str | None]) -> int | None:
    """How a file's printed page numbers run from its page indexes (``printed = index +
    offset``, ``pages`` in order, ``None`` for a page that could not be read), read off the
    numbers that open or close its pages' first and last lines; ``None`` unless one offset
    holds on at least :data:`RUNNING_SHARE` of the pages and :data:`MIN_PAGES` of them.

    Example:
        >>> pages = [f"Chapter {c}: Title {n + 4}\\nText.\\nMore text." for n, c in
        ...          enumerate([1, 1, 2, 2, 3])]
        >>> printed_offset(pages)
        4
    """
    counts: Counter[int] = Counter()
    for index, text in enumerate(pages):
        ends = {word for line in _edges(text or "") for word in line.split()[::-1][:1]
                + line.split()[:1] if word.isdigit() and len(word) <= 5}
        counts.update({int(word) - index for word in ends})
    if not counts:
        return None
    offset, n = counts.most_common(1)[0]
    return offset if n >= max(MIN_PAGES, math.ceil(RUNNING_SHARE * len(pages))) else None


MAX_HEADER_WORDS = 8
"""A line of more words is text, whatever number it opens with ("42 is the answer to the
question the quokka lantern asked" on page 42, trial 100, F2)."""


def without_page_header(text: str, printed: int, titles: Sequence[str] = ()) -> str:
    """``text`` (a page) without its first or last line when that line opens or closes with
    the page's ``printed`` number, is no sentence and is short (:data:`MAX_HEADER_WORDS`): a
    header, "Chapter 5: Shell Variables 90", or the number alone, a running title that changes
    with the chapter, which :func:`running_lines` does not find on half of the pages. A line
    that is, number aside, one of ``titles`` (the outline entries that start on the page) is
    the entry's heading, kept ("2 Installation" on the page numbered 2, trial 100, F1).

    Example:
        >>> without_page_header("Chapter 5: Shell Variables 90\\nTMOUT sets a wait.\\nMore.", 90)
        'TMOUT sets a wait.\\nMore.'
    """
    lines = text.splitlines()
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if len(filled) < MIN_LINES:
        return text
    number = str(printed)

    named = [" ".join(title.split()).casefold() for title in titles if title.strip()]

    def header(line: str) -> bool:
        words = line.split()
        rest = " ".join(words[1:] if words[0] == number else words[:-1]).casefold()
        return (number in (words[0], words[-1]) and len(words) <= MAX_HEADER_WORDS
                and (len(words) == 1 or _may_run(line)) and rest not in named)

    edges = {i for i in (*filled[:EDGE_LINES], *filled[EDGE_LINES:][-EDGE_LINES:])
             if header(lines[i])}
    return "\n".join(line for i, line in enumerate(lines) if i not in edges)
