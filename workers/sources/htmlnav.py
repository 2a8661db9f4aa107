"""A manual's navigation written inside its pages: XPath 1.0 tests for the blocks of an HTML
page that are furniture, not text, by what their markup says they are (issue 19, trial 49).

A manual made into one HTML file by GNU Texinfo (R's manuals, and GNU's bash, make, gawk, grep
and coreutils manuals are the same shape) repeats a node header before each of its sections:
"Next: Function and variable index, Previous: Reading Excel spreadsheets, Up: R Data
Import/Export [Contents][Index]" was in 776 of 3,216 passages of R's seven manuals, some of them
nothing else, shown as top passages. Its menus, its table of contents and its indexes (each
entry a link to a section, under a "Jump to: . \\ A B C" letter bar) were passages too, and the
Concept index outranked the section that answered. The folder's boilerplate filter
(:mod:`workers.sources.boilerplate`) finds text repeated across pages, and the ``<nav>`` and
class tests of :mod:`workers.sources.htmlpage` find other generators' bars: neither sees a
header repeated within one page. These tests do, by semantic signals:

* a block whose links (two or more) are all navigation by their ``rel`` (next, prev, up,
  contents, index...: what Texinfo writes in its ``<div class="header">`` and Texinfo 7's
  ``<div class="nav-panel">``, and what HTML gives any generator to say so);
* Texinfo's menus (``<table class="menu">``, ``<ul class="mini-toc">`` and
  ``<ul class="section-toc">``) and its table of contents (the ``contents-heading`` and the
  ``<div class="contents">`` after it);
* Texinfo's indexes (6.x's ``<table class="index-cp">``, 7's ``<div class="printindex">``)
  and letter bars (``<a class="summary-letter">``); and any bar of five or more one-character
  links with little else (an alphabet to jump by: Javadoc's and Doxygen's indexes have one).

This module imports only the standard library (:mod:`workers.sources.htmlpage` compiles the
test with lxml).
"""

from __future__ import annotations

import string

__all__ = ["FURNITURE", "NAV_RELS"]

NAV_RELS = ("next", "prev", "previous", "up", "contents", "index", "start", "first", "last")
"""The ``rel`` values of a link that moves through a document (HTML's link types, and the
``rel`` Texinfo writes on its node header's links)."""

_LOWER = f"translate(normalize-space(@rel), '{string.ascii_uppercase}', " \
         f"'{string.ascii_lowercase}')"
_NAV_REL = f"contains(' {' '.join(NAV_RELS)} ', concat(' ', {_LOWER}, ' '))"
_NOT_PAGE = "not(self::html or self::body or self::main or self::article)"
_NO_HEADING = "not(.//h1 or .//h2 or .//h3 or .//h4 or .//h5 or .//h6)"
MAX_BAR_CHARS = 600
"""A block of navigation links holds at most this much text (Texinfo's header names three
nodes and two links); a longer one is prose that links its neighbours."""


def _token(*names: str) -> str:
    """A test for a ``class`` holding one of ``names`` as a token."""
    return " or ".join(f"contains(concat(' ', normalize-space(@class), ' '), ' {n} ')"
                       for n in names)


_REL_BAR = (f"a[@rel] and {_NOT_PAGE} and count(a) >= 2 and not(a[not({_NAV_REL})]) and "
            f"string-length(normalize-space(.)) <= {MAX_BAR_CHARS} and {_NO_HEADING}")
"""A block whose own links, two or more, all move through the document by their ``rel``."""

_CONTENTS_HEADING = _token("contents-heading", "shortcontents-heading")
_MENUS = (f"(self::table and ({_token('menu')})) or "
          f"(self::ul and ({_token('mini-toc', 'section-toc')})) or ({_CONTENTS_HEADING}) or "
          f"(self::div and ({_token('contents', 'shortcontents')}) and "
          f"preceding-sibling::*[1][{_CONTENTS_HEADING}])")
"""Texinfo's menus and its table of contents (5.x to 7.x)."""

_INDEXES = (f"(self::div and ({_token('printindex')})) or "
            "(self::table and starts-with(@class, 'index-') and not(contains(@class, ' ')) and "
            ".//td/a)")
"""Texinfo's indexes: 7's ``<div class="printindex">`` (its letter bars and entries) and 6's
``<table class="index-cp">`` (``index-fn``, ``index-vr``...)."""

_LETTER_TABLE = ("self::table and .//a[@class and "
                 f"({_token('summary-letter', 'summary-letter-printindex')})]")
"""Texinfo's letter bar ("Jump to: . \\ A B C"): a table of ``summary-letter`` links."""

_LETTERS = (f"count(a) >= 5 and {_NOT_PAGE} and not(a[string-length(normalize-space(.)) > 1]) "
            "and string-length(normalize-space(.)) <= 4 * count(a) + 40")
"""A bar of one-character links (an index's letters) with little text besides."""

_MARK_ONLY = "translate(normalize-space(.), '0123456789[]()*', '') = ''"
_FOOTNOTE_REF = (f"(self::a and starts-with(@href, '#') and sup and {_MARK_ONLY}) or "
                 f"(self::sup and a[starts-with(@href, '#')] and {_MARK_ONLY})")
"""A footnote's mark in the text: a linked superscript number (Texinfo's
``<a href="#FOOT54"><sup>54</sup></a>``, a wiki's ``<sup><a href="#cite_note-1">[1]</a></sup>``)
read "systems54" in R's manuals; a superscript that links nowhere (``x<sup>2</sup>``) stays."""

_FOOTNOTES = (f"((self::div or self::section or self::aside or self::ol) and @class and "
              f"({_token('footnote', 'footnotes')})) or @role='doc-endnotes' or "
              "@role='doc-footnote'")
"""A page's footnotes, gathered at its end (Texinfo's ``<div class="footnote">``, Pandoc's
``<section class="footnotes" role="doc-endnotes">``): cut from the sentences that cite them,
each was a passage titled "(3)" and quoted as an answer (trial 51: 333 of R's manuals'
passages; "(3): currently, top-level files .Rbuildignore and .Rinstignore ...")."""

FURNITURE = (f"//*[({_REL_BAR}) or (@class and ({_MENUS} or {_INDEXES})) or ({_LETTER_TABLE}) "
             f"or ({_LETTERS}) or {_FOOTNOTE_REF} or {_FOOTNOTES}]")
"""The furniture of a page: every element the tests above find (one pass over the page)."""
