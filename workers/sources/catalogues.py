"""A catalogue: a page of many one-line items, each led by a link to another site (another
project's), its name and a line on what it is: pytest's ``reference/plugin_list.html``, 1,118
PyPI plugins as table rows ("pytest-rerun — summary: Re-run only changed files in specified
branch; last release: ..."), 229 passages of the docs' 2,705. It is about other software than
the manual's: its summaries share the words of any how-to question, and answered "How do I
rerun only the tests that failed last time?" with "pytest-rerun" and "Which files does pytest
treat as tests?" with "pytest-picked" (trial 123, F4). The index stores such a page's kind
(:data:`CATALOGUE`); search ranks it down (:func:`catalogue_factor`) unless the question asks
about plugins, extensions or add-ons, or names one of its items.

A page is one when it has at least :data:`MIN_ITEMS` such items and they are at least
:data:`ITEM_SHARE` of its text's lines (a manual's page with a list of 30 links to other
projects at its end is no catalogue): in HTML a table row whose first cell, a list item or a
term whose first content is a link to another site (``href="https://..."``); in Markdown and
reStructuredText a list item or a table row opening with such a link.

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["CATALOGUE", "CATALOGUE_FACTOR", "ITEM_SHARE", "MIN_ITEMS", "catalogue_factor",
           "catalogue_kind"]

CATALOGUE = "catalogue"
"""The kind the index stores for a catalogue's passages (``""`` for any other page)."""
CATALOGUE_FACTOR = 0.4
"""What a catalogue's passage keeps of its score for a question not about its items."""
MIN_ITEMS = 20
ITEM_SHARE = 0.5

_OPENING = r"\s*(?:<(?:p|b|strong|em|i|code|tt|span|div)\b[^>]*>\s*)*"
_ELSEWHERE = r"""<a\b[^>]*?\bhref\s*=\s*["']?(?:https?:)?//"""
_HTML_ITEM = re.compile(
    rf"(?:<tr\b[^>]*>\s*<t[dh]\b[^>]*>|<li\b[^>]*>|<dt\b[^>]*>){_OPENING}{_ELSEWHERE}",
    re.IGNORECASE)
"""An HTML row, list item or term whose first content is a link to another site."""
_TEXT_ITEM = re.compile(
    r"(?m)^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+|\|[ \t]*)"
    r"(?:\[[^\]\n]+\]\((?:https?:)?//|`[^`<\n]+<(?:https?:)?//)")
"""A Markdown or reST list item or table row opening with a link to another site
(``- [name](https://...)``, ``| [name](https://...) |``, ``- `name <https://...>`_``)."""
_LINE = re.compile(r"(?m)^[ \t]*\S")


def catalogue_kind(source: str, text: str, html: bool) -> str:
    """:data:`CATALOGUE` when the page ``source`` (its HTML, Markdown or reST), whose text is
    ``text`` (a table row or list item a line), is a catalogue of other projects, else ``""``.

    Example:
        >>> row = '<tr><td><p><a href="https://pypi.org/p{0}/">p{0}</a></p></td><td>X</td></tr>'
        >>> page = "<table>" + "".join(row.format(i) for i in range(25)) + "</table>"
        >>> text = "\\n".join(f"p{i} — summary: X." for i in range(25))
        >>> catalogue_kind(page, text, True), catalogue_kind(page, text + "\\nProse." * 40, True)
        ('catalogue', '')
        >>> catalogue_kind(page.replace("https://pypi.org", ""), text, True)  # its own pages
        ''
    """
    if source.count("//") < MIN_ITEMS:  # an item's link holds one: a page of few is none,
        return ""  # unsearched (731 of sqlite3-doc's 766 pages)
    found = len((_HTML_ITEM if html else _TEXT_ITEM).findall(source))
    if found < MIN_ITEMS:
        return ""
    lines = len(_LINE.findall(text))
    return CATALOGUE if found >= ITEM_SHARE * lines else ""


_ABOUT_ITEMS = re.compile(r"\b(?:plug-?ins?|extensions?|add-?ons?|third[- ]party)\b",
                          re.IGNORECASE)
_NAME = re.compile(r"\w+(?:[-_.]\w+)+")
"""An item's name as a catalogue writes it: words joined by ``-``, ``_`` or ``.``
(``pytest-xdist``, ``sphinx.ext.autodoc``)."""


def catalogue_factor(kind: str, question: str, text: str) -> float:
    """:data:`CATALOGUE_FACTOR` for a passage of a catalogue (``kind``, see
    :func:`catalogue_kind`) unless the ``question`` asks about plugins, extensions, add-ons or
    third-party packages, or writes a joined name (``pytest-xdist``) that opens a line of the
    passage ``text`` (an item's); else 1.

    Example:
        >>> rows = "pytest-rerun — summary: Re-run changed files.\\npytest-xdist — summary: X."
        >>> catalogue_factor("catalogue", "How do I rerun failed tests?", rows)
        0.4
        >>> catalogue_factor("catalogue", "Is there a plugin to rerun tests?", rows)
        1.0
        >>> catalogue_factor("catalogue", "What does pytest-xdist do?", rows)
        1.0
        >>> catalogue_factor("", "How do I rerun failed tests?", rows)
        1.0
    """
    if kind != CATALOGUE or _ABOUT_ITEMS.search(question):
        return 1.0
    names = {name.lower() for name in _NAME.findall(question)}
    if any(re.search(rf"(?im)^[ \t]*(?:[-*+][ \t]+)?{re.escape(name)}(?![\w-])", text)
           for name in names):
        return 1.0
    return CATALOGUE_FACTOR
