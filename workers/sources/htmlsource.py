"""What a page's markup may hold, told from its bytes before its parsed tree is walked: a test
of the tree that finds nothing unless the markup writes a word (an attribute, a class name, a
tag) is asked only of the pages whose bytes hold that word.

Each furniture test (:mod:`workers.sources.htmlfurniture`) walks the whole parsed page, and
most find nothing on most pages: the walks of ``page_furniture``, ``tab_labels`` and
``see_also_labelled`` were 1.8 of the 4.8 CPU seconds that read sqlite3-doc's 21.6 MB of pages,
the parse 0.5. A search of the page's bytes for a word costs a tenth of a walk or less (not
nothing: one for each of the class path's two dozen names cost what skipping it spared, so that
path is always asked). The bytes are searched as the parser reads the markup: lower case
(tag and attribute names are; a test of a value in any case finds its lower-case spelling),
and each numeric character reference written as its character (``side&#98;ar`` is read
"sidebar"; a named one is never an ASCII letter or digit in the HTML 4 table libxml2 reads).
A word found in the text, a comment or a script only asks the test, which finds what it finds:
the page's furniture is the same, read with or without its bytes.

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["in_page_links", "may_hold", "page_source"]

_CHAR_REF = re.compile(rb"&#(?:x([0-9a-f]+)|([0-9]+));?")
_IN_PAGE_HREF = re.compile(rb"href\s*=\s*[\"']?\s*[#&]")
"""An ``href`` whose value may start with ``#`` (an entity: may be one)."""


def page_source(data: bytes) -> bytes:
    """``data`` (a page's UTF-8 bytes) as :func:`may_hold` searches it: lower case, its numeric
    character references written out.

    Example:
        >>> page_source(b'<DIV class="Side&#98;ar">&#X41;&#99999999;</div>')
        b'<div class="sidebar">a&#99999999;</div>'
    """
    lowered = data.lower()
    return _CHAR_REF.sub(_character, lowered) if b"&#" in lowered else lowered


def _character(ref: re.Match[bytes]) -> bytes:
    """A numeric character reference's character, lower case, in UTF-8 (as written when there
    is no such character)."""
    try:
        return chr(int(ref[1], 16) if ref[1] else int(ref[2])).lower().encode()
    except (ValueError, OverflowError, UnicodeEncodeError):
        return ref[0]


def may_hold(source: bytes | None, *words: bytes) -> bool:
    """Whether a page (its :func:`page_source`; None: not known) may hold one of ``words`` (lower
    case) in its markup; True when no word is given.

    Example:
        >>> may_hold(b'<p role="note">', b"role"), may_hold(b"<p>", b"role"), may_hold(None, b"x")
        (True, False, True)
    """
    return source is None or not words or any(word in source for word in words)


def in_page_links(source: bytes | None) -> bool:
    """Whether a page (its :func:`page_source`) may link to its own anchors: an ``href`` whose
    value starts with ``#``, or with a character reference.

    Example:
        >>> [in_page_links(s) for s in (b'<a href="#top">', b"<a href = '#x'>", b'<a href=a#x>')]
        [True, True, False]
    """
    return source is None or _IN_PAGE_HREF.search(source) is not None
