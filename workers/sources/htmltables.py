"""HTML tables as text: a data table's rows become sentences under their headings
(:mod:`workers.sources.tables`), a row headed by its first cell one line, read off lxml's tree
before :mod:`workers.sources.htmlpage` writes the page's text.

This module imports lxml and :mod:`workers.sources.tables`.
"""

from __future__ import annotations

from lxml import etree

from workers.sources.tables import row_sentence, table_lines

__all__ = ["BLOCK", "tables_as_sentences"]

BLOCK = frozenset(
    "address article aside blockquote br dd details div dl figcaption figure footer form h1 "
    "h2 h3 h4 h5 h6 header hr li main ol p pre section summary table tbody td th thead tr "
    "ul".split()
)
"""The block elements: each starts a paragraph of the page's text (a cell's too)."""


def _cells(row: etree._Element) -> list[etree._Element]:
    """The ``<td>`` and ``<th>`` cells of a table row, in order."""
    return [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]


def _text(cell: etree._Element) -> str:
    """A table cell's text, with a space where a ``<br>`` or a block element (``<p>``,
    ``<li>``...) breaks it: ``text_content()`` glued ``Honda<br>20 hp`` into "Honda20 hp".
    Marks the cell's elements (their text and tails): called on a cell once, as its table
    is replaced by its text."""
    for sub in cell.iter():
        if sub is not cell and isinstance(sub.tag, str) and sub.tag in BLOCK:
            sub.text, sub.tail = f" {sub.text or ''}", f" {sub.tail or ''}"
    return cell.text_content()


def _heading_row(row: etree._Element, cells: list[etree._Element]) -> bool:
    """Whether a table's first row holds its column headings: all ``<th>``, inside a
    ``<thead>``, or the text of every cell that has some bold (``<b>``/``<strong>``: what word
    processors and many CMSs write for a header row), an empty spacer cell between
    them or not (SQLite's docs)."""
    if all(c.tag == "th" for c in cells) or row.getparent().tag == "thead":
        return True
    said = [c for c in cells if c.text_content().strip()]
    return len(said) >= min(2, len(cells)) and all(_bold(c) for c in said)


def _bold(cell: etree._Element) -> bool:
    """Whether all of a cell's text is inside ``<b>`` or ``<strong>`` (and there is some)."""
    text = " ".join("".join(cell.itertext()).split())
    strong = " ".join("".join(t for b in cell.iter("b", "strong") for t in b.itertext()).split())
    return bool(text) and strong == text


def tables_as_sentences(root: etree._Element) -> None:
    """Replace each data table (one whose first row holds headings, :func:`_heading_row`, with
    no table inside it) by a ``<div>`` of its body rows as sentences under their headings
    (:mod:`workers.sources.tables`). In a table with no heading row, each row that starts with
    a heading cell is one line (:func:`_row_headed_lines`); its other rows (a layout table's)
    are left as they are. Nothing of a data table's text is dropped: its ``<caption>``, a title
    row (one cell across the table, above its heading row) and headings that fit no row (a
    second heading row, or no body row) are lines of their own."""
    for table in list(root.iter("table")):
        rows = table.findall(".//tr")
        if not rows or table.find(".//table") is not None:
            continue
        titles = [_text(c) for c in table.iter("caption")]
        while len(rows) > 2 and len(_cells(rows[0])) == 1 and len(_cells(rows[1])) > 1:
            titles.append(_text(rows[0]))
            rows = rows[1:]
        first = _cells(rows[0])
        if not first or not _heading_row(rows[0], first):
            _row_headed_lines(rows)
            continue
        stacked = _stacked(first[0]) if len(first) == 1 else ""
        if " — " in stacked:  # one column stacking its fields: its heading labels no row
            lines = [*titles, stacked, *(_stacked(c) for row in rows[1:] for c in _cells(row))]
        else:
            header = [_text(c) for c in first]
            body = [[_text(c) for c in _cells(row)] for row in rows[1:]]
            if not any(len(row) == len(header) for row in body):
                titles.append(row_sentence(header) or "")
            lines = [*titles, *table_lines(body, header)]
        div = etree.Element("div")
        for line in lines:
            if line.strip():
                etree.SubElement(div, "p").text = line
        div.tail = table.tail
        parent = table.getparent()
        if parent is not None:
            parent.replace(table, div)


def _stacked(cell: etree._Element) -> str:
    """A cell's text, its paragraphs joined by " — ": a one-column table stacks a row's
    fields in one cell (PostgreSQL's catalogs: ``rolpassword text`` over ``Not the password``),
    and its heading cell stacks their names the same way ("Column Type" over "Description"):
    read as a heading and its value, every row was "Column Type Description: rolpassword ..."."""
    parts = [p for p in cell if isinstance(p.tag, str) and p.tag == "p"]
    if len(parts) < 2:
        return _text(cell)
    return " — ".join(" ".join(_text(p).split()) for p in parts)


def _row_headed_lines(rows: list[etree._Element]) -> None:
    """Make each row whose first cell heads it (a ``<th>``, as ``<th scope="row">``, or a cell
    all in bold) and holds more cells into one line: ``"Cannon net: Inspected every
    spring."`` (:func:`workers.sources.tables.row_sentence`). Cell by
    cell, "Cannon net" and its fact were two paragraphs, and the report quoted the row above's
    fact for it."""
    for row in rows:
        cells = _cells(row)
        if len(cells) < 2 or not (cells[0].tag == "th" or _bold(cells[0])):
            continue
        line = row_sentence([_text(c) for c in cells])
        row.clear(keep_tail=True)
        if line:
            etree.SubElement(row, "td").text = line
