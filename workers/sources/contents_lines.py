"""A page's own table of contents written as lines of its headings, whatever the markup.

groff's HTML (``man -Thtml``: every man page of GNU gettext, and of most packages that ship
their man pages as HTML) opens with a run of in-page links separated by ``<br>``, one per
section: "NAME / SYNOPSIS / DESCRIPTION / RETURN VALUE / ERRORS / BUGS / SEE ALSO". No list
holds them, so the list rules of :mod:`workers.sources.htmlfurniture` do not see them; they
were the page's first passage, quoted as a Top passage ("NGETTEXT: NAME SYNOPSIS DESCRIPTION
..." , trial 98, F4). Read off the text instead: a paragraph whose every line is a link's text
and the heading of one of the page's sections is its contents.

A plain-text manual writes its contents as numbered titles, one a line and no link among them
(the Debian Reference's ``.txt``: "Preface / 1. Disclaimer / ... / 9.5.7. The terminal
configuration", a run of 460 lines): indexed as prose under the heading "Preface", its lines were
quoted as the Answer ("Preface: The terminal configuration 9.5.7.", trial 124, M2-F1).
:func:`without_numbered_contents` drops such a paragraph: its lines numbered titles, in order,
with no sentence among them (:func:`numbered_contents`).

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

__all__ = ["MIN_CONTENTS_LINES", "MIN_NUMBERED_ENTRIES", "numbered_contents",
           "without_contents_lines", "without_numbered_contents"]

MIN_CONTENTS_LINES = 3
"""A paragraph of fewer lines is no table of contents ("NAME" over its own section is not)."""


def without_contents_lines(sections: Sequence[tuple[str, str]],
                           links: Collection[str]) -> list[tuple[str, str]]:
    """``sections`` (a page's ``(heading, text)`` pairs, paragraphs separated by a blank
    line) less each paragraph of :data:`MIN_CONTENTS_LINES` lines or more that are all
    headings of the page (case aside): its own table of contents. A section left with nothing
    keeps its heading and an empty text. Each line must also be a link's text (``links``):
    a list in prose of the things the page's sections are about ("Red / Amber / Green" over
    sections Red, Amber and Green) is text (trial 100, F6).

    Example:
        >>> page = [("MSGMERGE", "MSGMERGE\\n\\nNAME\\nSYNOPSIS\\nSEE ALSO"),
        ...         ("NAME", "NAME\\n\\nmsgmerge - merge catalogs"), ("SYNOPSIS", "msgmerge"),
        ...         ("SEE ALSO", "info msgmerge")]
        >>> without_contents_lines(page, {"NAME", "SYNOPSIS", "SEE ALSO"})[0]
        ('MSGMERGE', 'MSGMERGE')
    """
    headings = {" ".join(h.split()).casefold() for h, _t in sections if h}
    if len(headings) < MIN_CONTENTS_LINES or not links:
        return list(sections)
    linked = {" ".join(text.split()).casefold() for text in links}

    def contents(paragraph: str) -> bool:  # a line read only when those before it passed
        lines = paragraph.splitlines()
        return len(lines) >= MIN_CONTENTS_LINES and all(
            (line := " ".join(raw.split()).casefold()) in headings and line in linked
            for raw in lines)

    return [(h, "\n\n".join(p for p in t.split("\n\n") if not contents(p)))
            for h, t in sections]


MIN_NUMBERED_ENTRIES = 4
"""A paragraph of fewer numbered titles is no table of contents (a heading and two steps)."""

_ENTRY = re.compile(
    r"[ \t]*(?P<number>\d{1,3}(?:\.\d{1,3})*\.?|[A-Z](?:\.\d{1,3})*\.)[ \t]+"
    r"(?P<title>[\"'(\u201c]?[^\W\d_].*?)"
    r"(?:[ \t]*(?:\.[ \t]*){2,}\d{1,4}|[ \t]{2,}\d{1,4})?[ \t]*")
"""A contents line: a section number (``9.5.7.``, ``2.1``, ``A.3.``, ``A.``), a title that starts
with a letter (or a quote), and perhaps its page number after dot leaders or spaces (an RFC's
``2.1.  Terminology . . . . . 4``)."""
_SENTENCE_END = re.compile(r"[.:;,!]$")
"""How a line of prose or a list item ends, and a title does not ("?" ends an FAQ's title)."""
_MAX_LINE = 100


def _parts(number: str) -> tuple[int, ...]:
    """A section number as integers: ``"9.5.7."`` -> ``(9, 5, 7)``, ``"A.3."`` -> ``(1, 3)``."""
    return tuple(int(p) if p.isdigit() else ord(p) - ord("A") + 1
                 for p in re.findall(r"\d+|[A-Z]", number))


def _follows(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Whether section ``after`` may come next after ``before`` in a table of contents: its
    first subsection (``9.5`` -> ``9.5.1``), its next sibling (``9.5.6`` -> ``9.5.7``) or the
    next of one of its parents (``9.5.9`` -> ``9.6``, ``1.27`` -> ``2.1``)."""
    if after[:len(before)] == before:
        return len(after) > len(before) and set(after[len(before):]) <= {0, 1}
    same = next((i for i, (b, a) in enumerate(zip(before, after, strict=False)) if b != a), None)
    return (same is not None and after[same] == before[same] + 1
            and set(after[same + 1:]) <= {0, 1})


def numbered_contents(paragraph: str) -> bool:
    """Whether ``paragraph`` (lines between blank lines) is a table of contents written as
    numbered titles: :data:`MIN_NUMBERED_ENTRIES` or more lines each a section number and a
    title (:data:`_ENTRY`), most of them numbers of two parts or more (``1. Linux / 2. macOS``
    is a list), three in four after the one above in order (:func:`_follows`: a change log's
    ``1.2.5 Fixed a crash`` lines count down); the other lines, a title's wrapped end or a
    part's unnumbered title ("Preface"), fewer than the numbered ones; and no sentence among
    them: no unnumbered line ends as a sentence or a clause does, nor more than one title in
    ten (a numbered list of steps, "2.1. Run make."; the Debian Reference's list of 300 tables
    has one caption with a full stop).

    Example:
        >>> numbered_contents("Preface\\n    1. Disclaimer\\n    2. What is Debian\\n"
        ...                   "        2.1. Guiding rules\\n        2.2. Conventions\\n"
        ...                   "        2.3. Bug reports on this\\n        document\\n3. Basics")
        True
        >>> numbered_contents("1.1. Unpack it.\\n1.2. Run make.\\n1.3. Install.\\n1.4. Done.")
        False
    """
    lines = [line for line in paragraph.splitlines() if line.strip()]
    found = [_ENTRY.fullmatch(line) for line in lines]
    if any(len(line.strip()) > _MAX_LINE or not m and _SENTENCE_END.search(line.rstrip())
           for line, m in zip(lines, found, strict=True)):
        return False
    entries = [m for m in found if m]
    if 10 * sum(bool(_SENTENCE_END.search(m.group("title"))) for m in entries) > len(entries):
        return False
    numbers = [_parts(m.group("number")) for m in entries]
    in_order = sum(map(_follows, numbers, numbers[1:]))
    return (len(entries) >= MIN_NUMBERED_ENTRIES and 2 * len(entries) > len(lines)
            and 2 * sum(len(n) > 1 for n in numbers) >= len(numbers)
            and 4 * in_order >= 3 * (len(numbers) - 1))


_BREAK = re.compile(r"(\n(?:[ \t]*\n)+)")


def without_numbered_contents(text: str) -> str:
    """``text`` (a plain-text file's) less each paragraph that is a table of contents of
    numbered titles (:func:`numbered_contents`), with the blank lines after it.

    Example:
        >>> manual = ("Guide\\n\\n1.1. Intro\\n1.2. Setup\\n1.3. Use\\n2. More\\n2.1. End\\n\\n"
        ...           "1.1. Intro\\n\\nIt starts here.")
        >>> without_numbered_contents(manual)
        'Guide\\n\\n1.1. Intro\\n\\nIt starts here.'
    """
    pieces = _BREAK.split(text)
    kept = [(pieces[i], pieces[i + 1] if i + 1 < len(pieces) else "")
            for i in range(0, len(pieces), 2) if not numbered_contents(pieces[i])]
    return "".join(paragraph + gap for paragraph, gap in kept)
