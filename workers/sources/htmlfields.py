"""HTML tables of fields: a two-column table with no heading cells, a label and its value a
row, read as one line a row (``"Version: 2.1."``, :func:`workers.sources.tables.row_sentence`)
before :mod:`workers.sources.htmltables` reads the data tables.

rsyslog's module pages open with "Module Name:" | "immark", "Author:" | "Rainer Gerhards"
(trial 78, F2); exim's option tables ("accept_8bitmime" | "advertise 8BITMIME"), doxygen's
parameters ("ctx" | "an AVTEA context") and mutt's format sequences ("%k" | "gpg keyid") hold
no colon. Cell by cell, each value was a paragraph of its own, apart from the name it is the
value of; rows headed by a ``<th>`` or a bold cell were already one line each
(:func:`workers.sources.htmltables.tables_as_sentences`).

This module imports the standard library, :mod:`workers.sources.htmltables` and
:mod:`workers.sources.tables`; it reads lxml's elements (:mod:`workers.sources.htmlpage`'s
tree) through their own methods.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from workers.sources.htmltables import BLOCK
from workers.sources.tables import row_sentence

__all__ = ["field_tables"]

_STRUCTURED = frozenset("blockquote dl form h1 h2 h3 h4 h5 h6 ol pre table ul".split())
"""Elements a cell of a layout table holds and a field's value does not: a table with a cell
holding one is no table of fields."""
_SENTENCE_END = (".", "!", "?", ";")


def field_tables(root: Any, hidden: Collection[str] = ()) -> None:
    """Replace each table of fields under ``root`` (an lxml HTML tree; :func:`_field_lines`)
    by a ``<div>`` of its rows as paragraphs, one line each, as
    :func:`~workers.sources.htmltables.tables_as_sentences` writes a data table. The text of
    elements whose tag is in ``hidden`` (scripts, form fields) is no cell's."""
    for table in list(root.iter("table")):
        lines = _field_lines(table, hidden)
        parent = table.getparent()
        if lines is None or parent is None:
            continue
        div = table.makeelement("div", {})
        for line in lines:
            paragraph = div.makeelement("p", {})
            paragraph.text = line
            div.append(paragraph)
        div.tail = table.tail
        parent.replace(table, div)


def _field_lines(table: Any, hidden: Collection[str]) -> list[str] | None:
    """The caption and rows of ``table`` as field lines, or None when it is no table of
    fields. It is one when it has no heading cells (``<th>``, ``<thead>``), each of its rows
    is two cells of text and inline markup (no list, ``<pre>``, heading or table: a layout
    table's) and the first cells are labels: each that has text ends with ":" ("Author:",
    libxslt's "Returns:"), or, in two rows or more with a value in each, each is of one to
    four words ending no sentence ("accept_8bitmime", "%k", "Version"), not all values are
    links only (an index's letters and their pages) and no cell is in bold (a heading row, or
    rows headed by their first cell, which
    :func:`~workers.sources.htmltables.tables_as_sentences` reads; one row of plain cells
    stays a layout table's)."""
    if table.find(".//th") is not None or table.find(".//thead") is not None:
        return None
    rows = [[c for c in tr if isinstance(c.tag, str) and c.tag == "td"]
            for tr in table.iter("tr")]
    rows = [cells for cells in rows if cells]
    if not rows or any(len(cells) != 2 for cells in rows) or any(
            isinstance(el.tag, str) and el.tag in _STRUCTURED
            for cells in rows for cell in cells for el in cell.iterdescendants()):
        return None
    texts = [(_text(label, hidden), _text(value, hidden)) for label, value in rows]
    labels = [label for label, _value in texts if label]
    if not labels:
        return None
    if not all(label.endswith(":") for label in labels) and (
            len(texts) < 2 or not all(label and value for label, value in texts)
            or not all(len(label.split()) <= 4 and not label.endswith(_SENTENCE_END)
                       for label in labels)
            or all(_all_in(value, ("a",), hidden) for _label, value in rows)
            or any(_all_in(cell, ("b", "strong"), hidden) for cells in rows for cell in cells)):
        return None
    captions = [text for c in table.iter("caption") if (text := _text(c, hidden))]
    return [*captions, *(line for pair in texts if (line := row_sentence(list(pair))))]


def _text(cell: Any, hidden: Collection[str]) -> str:
    """A cell's text, whitespace collapsed, with a space where a block element or a ``<br>``
    breaks it (``Honda<br>20 hp``), and none of the text of a ``hidden`` element. Read off a
    copy: the page's tree is unchanged."""
    cell = copy.deepcopy(cell)
    cell.tail = None
    for el in list(cell.iterdescendants()):
        if not isinstance(el.tag, str):
            continue  # a comment: no text of the cell's
        if el.tag in hidden:
            el.drop_tree()  # its tail is the cell's
        elif el.tag in BLOCK:
            el.text, el.tail = f" {el.text or ''}", f" {el.tail or ''}"
    return " ".join(cell.text_content().split())


def _all_in(cell: Any, tags: tuple[str, ...], hidden: Collection[str]) -> bool:
    """Whether all of a cell's text is inside elements of ``tags`` (and it has some)."""
    text = _text(cell, hidden)
    outer = [el for el in cell.iter(*tags) if el is not cell and not _inside(el, cell, tags)]
    return bool(text) and " ".join(" ".join(_text(el, hidden) for el in outer).split()) == text


def _inside(el: Any, cell: Any, tags: tuple[str, ...]) -> bool:
    """Whether ``el`` is inside an element of ``tags`` below ``cell``."""
    up = el.getparent()
    while up is not None and up is not cell:
        if up.tag in tags:
            return True
        up = up.getparent()
    return False
