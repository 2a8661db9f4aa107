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
class tests of :mod:`workers.sources.htmlfurniture` find other generators' bars: neither sees a
header repeated within one page. These tests do, by semantic signals:

* a block whose links (two or more) are all navigation by their ``rel`` (next, prev, up,
  contents, index...: what Texinfo writes in its ``<div class="header">`` and Texinfo 7's
  ``<div class="nav-panel">``, and what HTML gives any generator to say so);
* Texinfo's menus (``<table class="menu">``, ``<ul class="mini-toc">`` and
  ``<ul class="section-toc">``) and its table of contents (the ``contents-heading`` and the
  ``<div class="contents">`` after it);
* Texinfo's indexes (6.x's ``<table class="index-cp">``, 7's ``<div class="printindex">``)
  and letter bars (``<a class="summary-letter">``); and any bar of five or more one-character
  links with little else (an alphabet to jump by: Javadoc's and Doxygen's indexes have one);
* a trail of links with only separators between them (a breadcrumb, "A > B > C").

This module imports only the standard library (:mod:`workers.sources.htmlfurniture` compiles the
test with lxml).
"""

from __future__ import annotations

import string

__all__ = ["BARS", "BAR_LINK_SHARE", "FOOTNOTE_HOLDER", "FOOTNOTE_LINK", "FURNITURE_CLASS",
           "FURNITURE_ROLE", "IN_PAGE_LINK", "NAV_RELS", "TEXINFO_FURNITURE", "TEXINFO_PAGE",
           "class_token", "link_share"]

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


def class_token(*names: str, of: str = "@class", as_written: bool = False) -> str:
    """An XPath 1.0 test for a ``class`` (``of``: the path to it, ``"."`` in a test of the
    attribute itself) holding one of ``names`` as a token, its blanks made one unless
    ``as_written``. A plain ``contains`` comes first: most elements fail it, and it builds no
    string (the token test concatenates one).

    Example:
        >>> class_token("toc", of=".", as_written=True)
        "(contains(., 'toc') and contains(concat(' ', ., ' '), ' toc '))"
    """
    value = of if as_written else f"normalize-space({of})"
    return " or ".join(f"(contains({of}, '{n}') and contains(concat(' ', {value}, ' '), ' {n} '))"
                       for n in names)


_REL_BAR = (f"a[@rel] and {_NOT_PAGE} and count(a) >= 2 and not(a[not({_NAV_REL})]) and "
            f"string-length(normalize-space(.)) <= {MAX_BAR_CHARS} and {_NO_HEADING}")
"""A block whose own links, two or more, all move through the document by their ``rel``."""

_CONTENTS_HEADING = class_token("contents-heading", "shortcontents-heading")
_MENUS = (f"(self::table and ({class_token('menu')})) or "
          f"(self::ul and ({class_token('mini-toc', 'section-toc')})) or ({_CONTENTS_HEADING}) or "
          f"(self::div and ({class_token('contents', 'shortcontents')}) and "
          f"preceding-sibling::*[1][{_CONTENTS_HEADING}])")
"""Texinfo's menus and its table of contents (5.x to 7.x)."""

_INDEXES = (f"(self::div and ({class_token('printindex')})) or "
            "(self::table and starts-with(@class, 'index-') and not(contains(@class, ' ')) and "
            ".//td/a)")
"""Texinfo's indexes: 7's ``<div class="printindex">`` (its letter bars and entries) and 6's
``<table class="index-cp">`` (``index-fn``, ``index-vr``...)."""

_LETTER_TABLE = f".//a[@class and ({class_token('summary-letter', 'summary-letter-printindex')})]"
"""Texinfo's letter bar ("Jump to: . \\ A B C"), of a ``<table>``: ``summary-letter`` links."""

_LETTERS = (f"count(a) >= 5 and {_NOT_PAGE} and not(a[string-length(normalize-space(.)) > 1]) "
            "and string-length(normalize-space(.)) <= 4 * count(a) + 40")
"""A bar of one-character links (an index's letters) with little text besides."""

_TRAIL_MARKS = ">\u203a\u00bb|/\u00b7\u2022"
_TRAIL_BLOCKS = "self::div or self::p or self::nav or self::header or self::footer"
_TRAIL = (f"({_TRAIL_BLOCKS}) and count(a) >= 3 and {_NOT_PAGE} and {_NO_HEADING} and "
          f"string-length(normalize-space(.)) <= {MAX_BAR_CHARS} and "
          f"not(text()[normalize-space(translate(., '{_TRAIL_MARKS}', '')) != '']) and "
          f"text()[translate(., '{_TRAIL_MARKS}', '') != .]")
"""A trail of three links or more with nothing between them but separators, one at least
("Apache > HTTP Server > Documentation > Version 2.4 > Rewrite", Apache's ``<div
id="path">``; "Index | Modules | Glossary"): a breadcrumb or a links bar, whatever its class
or id says (trial 57, F3: each page's trail differs in its last link, so the folder's
repeated-text filter kept it, and it was a Top passage). Links apart by spaces alone are a
row of words ("ox ax is it at"). Only a block of its own (a ``div``, ``p``, ``nav``,
``header`` or ``footer``) is a trail: links with bars between them inside ``code``, a table
cell or a list item are a value's syntax ("on|off|auto", a macro's "LINE | NUMBER |
SUPERSCRIPT"), and were dropped with them (trial 59, F3)."""

_MARK_ONLY = "translate(normalize-space(.), '0123456789[]()*', '') = ''"
_SHORT_MARK = (f"({_MARK_ONLY} or string-length(translate(normalize-space(.), '[]() ', '')) "
               "<= 2 or starts-with(normalize-space(.), '[note'))")
IN_PAGE_LINK = "/descendant::a[starts-with(@href, '#')]"
"""The page's links to its own anchors: the tests below that start from them walk the page's
links, not each of its elements."""

FOOTNOTE_LINK = (f"(sup or @role = 'doc-noteref' or "
                 f"{class_token('footnote-reference', 'footnote-ref')}) and {_SHORT_MARK}")
"""Of an in-page link (:data:`IN_PAGE_LINK`), that it is a footnote's mark in the text: a
linked superscript number (Texinfo's ``<a href="#FOOT54"><sup>54</sup></a>``) read
"systems54" in R's manuals; a superscript that links nowhere (``x<sup>2</sup>``) stays. So is a
link its generator calls a note's reference, superscript or not: docutils 0.18's ``<a
class="footnote-reference brackets" role="doc-noteref">[4]</a>`` left "BIND includes a copy 4
of the root key" in BIND's ARM (trial 118, F8); Pandoc's ``class="footnote-ref"``."""

FOOTNOTE_HOLDER = (f"../self::sup[{_SHORT_MARK}] or ../self::*[self::h1 or self::h2 or "
                   f"self::h3 or self::h4 or self::h5 or self::h6][{_MARK_ONLY}]")
"""Of an in-page link, that its parent element is a footnote's mark: in the text, a wiki's
``<sup><a href="#cite_note-1">[1]</a></sup>``; where the note is written, Texinfo's ``<h5><a
href="#DOCF3">(3)</a></h5>`` (each note was a passage titled "(3)": trial 51). The note's text
stays: a question answered by a footnote alone was told the sources say nothing (trial 52,
F4)."""

FURNITURE_ROLE = (". = 'doc-backlink' and not(../../self::h1 or ../../self::h2 or "
                  "../../self::h3 or ../../self::h4 or ../../self::h5 or ../../self::h6)")
"""Of a ``role`` attribute, that its element is a footnote's link back (Pandoc's), not a
heading's text linked back to the table of contents (Docutils' ``toc-backref``: every heading
of Tornado's FAQ was dropped, and a question asked in its own words never found it, trial
110, F2)."""

_NOTES = class_token("footnote", "citation")
_NOTE_LABEL = (f"(. = 'label' and (../parent::dl[{_NOTES}] or "
               f"../self::td/ancestor::table[1][{_NOTES}]))")
"""Of a ``class`` attribute, that its element is the label of a docutils note before 0.18,
``<dl class="footnote brackets"><dt class="label" id="id2">`` with its number (``1``) linked
back to the mark, or the ``<td class="label">`` of its HTML 4 writer's ``<table
class="docutils footnote">``: a ``<dt>`` with an ``id`` is an entry's heading, and SQLAlchemy's
note on ``handle_error`` was a passage labelled ``1`` (trial 123, F8). 0.18's ``<aside>``
links its label back by ``role="doc-backlink"`` (:data:`FURNITURE_ROLE`); the mark in the text
goes too (:data:`FOOTNOTE_LINK`), so a number left would stand for nothing."""

FURNITURE_CLASS = (f"{class_token('fn-bracket', 'mw-cite-backlink', 'footnoteref', of='.')} or "
                   f"(({class_token('references', of='.')}) and ../self::ol) or {_NOTE_LABEL}")
"""Of a ``class`` attribute, that its element is a footnote's link back (Sphinx's
``fn-bracket``: "[1]", "↩"; a wiki's "^" ``mw-cite-backlink``), a footnote's mark in the text
(DocBook's ``footnoteref``, linked by the page's file name: aptitude's "automatically
upgraded[a] to the version" was quoted, trial 81, F8), a wiki's list of cited works
(``<ol class="references">``: titles of sources, no text of the page; trial 52, F5: a
citation's title answered a question) or a docutils note's label (:data:`_NOTE_LABEL`)."""

TEXINFO_PAGE = ("boolean(/*/head/meta[translate(@name, 'GENERATOR', 'generator') = 'generator' "
                "and (contains(@content, 'makeinfo') or contains(@content, 'texi2any'))])")
"""Whether GNU Texinfo wrote the page (its ``<meta name="Generator" content="makeinfo">``): its
class names are Texinfo's only there (a restaurant's ``table.menu``, a fund list's
``index-table`` and a ``div.footnote`` of small print were dropped as Texinfo's: trial 52, F3).
Asked once a page, of its ``<head>`` alone, and the page then gets :data:`TEXINFO_FURNITURE`
too: written inside those tests, this absolute path was searched again for each element,
O(n²): SQLite's 1.85 MB requirements.html took 12.6 s, most of the 24 s that sqlite3-doc's
21.6 MB took to index."""

_TEXINFO_FOOTNOTES = f"self::div and ({class_token('footnote')})"
"""Texinfo's footnotes, gathered at the end of its one-file manual: notes often written as the
rest of the citing sentence ("(3) currently, top-level files .Rbuildignore and ..."), so
quoted out of it as answers (trial 51); other generators' footnotes stay text (trial 52, F4)."""

_TEXINFO_HEADER = (f"self::div and ({class_token('header')}) and count(.//a[@href]) >= 2 and "
                   f"string-length(normalize-space(.)) <= {MAX_BAR_CHARS}")
"""Texinfo 5 and 6's node header, ``<div class="header">`` ("Next: Making temporary files,
Previous: ..., Up: ... [Contents][Index]"), by its class and its links: Texinfo 6.8 writes
``rel`` on the links of the one at a page's top only, and the one at its foot, its links bare,
was a passage on 58 of GNU m4's 105 pages (trial 101, F8). A paragraph in such a div with
fewer than two links is text (trial 103, F2). Texinfo 7 calls it ``nav-panel``."""

TEXINFO_FURNITURE = (f"/descendant::*[@class and ({_MENUS} or {_INDEXES} or "
                     f"{_TEXINFO_FOOTNOTES} or ({_TEXINFO_HEADER}))] | "
                     f"/descendant::table[{_LETTER_TABLE}]")
"""Texinfo's menus, indexes, letter bars, footnotes and node headers, on a page
:data:`TEXINFO_PAGE` finds."""

BARS = f"//a[2][../self::*[({_REL_BAR}) or ({_LETTERS}) or ({_TRAIL})]]"
"""The second link of each block that may be a navigation bar by its links (the block is the
link's parent): furniture only when its links are most of its text (:data:`BAR_LINK_SHARE`,
counted by :mod:`workers.sources.htmlfurniture`); else a paragraph of prose linking its neighbours
by ``rel``, or naming five one-letter things, was dropped whole (trial 52, F1 and F2).
Found from the links (``//a[2]``: one per block), not by asking each element whether it
holds links; and the link, not the block, is returned: libxml2 merges a step's or a union's
results with a duplicate check that is O(n·m) (two sets of 20,000 elements: 0.9 s, 40,000:
3.6 s), and a link's parent is taken in Python.

Each of these paths is asked of a page on its own, for the same reason, and their elements
are put together in Python (:mod:`workers.sources.htmlfurniture`): as one ``//*[...]`` asking every
element ``self::h1 or self::h2 ...`` and the rest, the page furniture tests took 1.4 of the 2.7
s that parsed sqlite3-doc's 21.6 MB."""
BAR_LINK_SHARE = 0.5
"""The least share of a bar's visible characters (spaces aside) that are link text."""


def link_share(parts: list[str], text: str) -> float:
    """The share of ``text``'s non-blank characters that the link texts ``parts`` hold (the
    link density of boilerplate detection: Kohlschütter et al., "Boilerplate Detection using
    Shallow Text Features", WSDM 2010)."""
    total = len("".join(text.split()))
    if not total:
        return 0.0
    return min(1.0, len("".join("".join(parts).split())) / total)
