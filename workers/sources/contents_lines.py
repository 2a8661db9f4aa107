"""A page's own table of contents written as lines of its headings, whatever the markup.

groff's HTML (``man -Thtml``: every man page of GNU gettext, and of most packages that ship
their man pages as HTML) opens with a run of in-page links separated by ``<br>``, one per
section: "NAME / SYNOPSIS / DESCRIPTION / RETURN VALUE / ERRORS / BUGS / SEE ALSO". No list
holds them, so the list rules of :mod:`workers.sources.htmlfurniture` do not see them; they
were the page's first passage, quoted as a Top passage ("NGETTEXT: NAME SYNOPSIS DESCRIPTION
..." , trial 98, F4). Read off the text instead: a paragraph whose every line is a link's text
and the heading of one of the page's sections is its contents.

This module imports only the standard library.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

__all__ = ["MIN_CONTENTS_LINES", "without_contents_lines"]

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
    linked = {" ".join(text.split()).casefold() for text in links}

    def contents(paragraph: str) -> bool:
        lines = [" ".join(line.split()).casefold() for line in paragraph.splitlines()]
        return len(lines) >= MIN_CONTENTS_LINES and all(
            line in headings and line in linked for line in lines)

    if len(headings) < MIN_CONTENTS_LINES:
        return list(sections)
    return [(h, "\n\n".join(p for p in t.split("\n\n") if not contents(p)))
            for h, t in sections]
