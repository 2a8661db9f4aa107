"""Tables as sentences: each row of a table restated as one line with its column headings.

A row such as ``| TG-3 | Lighthouse rock | 2019 | 12 months |`` states its facts only through
the header above it, which a search for "calibration interval of the lighthouse rock gauge"
never sees next to the row, and which a sentence extractor cannot quote (a
fact in a ``.docx`` or markdown table was indexed but never quoted; the report cited a
neighbouring sentence instead). At index time each row becomes::

    TG-3 — Location: Lighthouse rock; Installed: 2019; Calibration interval: 12 months.

(the first cell names the row; every other cell follows its heading), so the row is found by the
heading's words and quoted as a sentence, verbatim from the indexed text. A row of a table with
no header row is its cells joined (``Drone battery: Charge for 90 minutes.``).

This module imports only the standard library (and :mod:`workers.sources.htmlpage`, lxml, when
a markdown text holds a raw HTML table).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["field_rows", "html_tables", "looks_like_header", "markdown_tables", "row_sentence",
           "table_lines"]

_END = re.compile(r"[.!?…:;]['\")\]]*$")


_SEPARATOR = re.compile(r"[-–—→←↔⇒⇐|=:<>\s]+")
"""A cell that only separates a row's name from what it means (``→``), stated by no sentence."""


def _cell(text: str) -> str:
    return " ".join(str(text).split()).strip()


_VALUE = re.compile(r"(?i)yes|no|true|false|✓|✔|✗|✘|n/?a|-?\d[\d.,%]*")
"""A cell that is a value, not a name: a yes/no mark or a number. HAProxy's "May be used in
sections" table (defaults | frontend | listen | backend; yes | no | yes | yes) read as "yes —
frontend: no; listen: yes.": the first value taken for the row's name, and a repeated one for
a merged cell."""


def row_sentence(cells: Sequence[str], header: Sequence[str] | None = None) -> str | None:
    """One row as a sentence: ``"<first cell> — <heading>: <cell>; ...."``, or
    ``"<heading>: <cell>; ..."`` for a row of values (:data:`_VALUE`: its first cell is no
    name), or, with no ``header`` (or one whose width differs), ``"<first cell>: <cell>;
    <cell>."``. Empty cells and a cell repeating its left neighbour (a merged cell, as
    python-docx reports it; a value under another heading is kept) are left out, and so, in a
    row with no header, is a cell of only an arrow or a dash between a name and what it means;
    None when no cell has text.

    Example:
        >>> row_sentence(["TG-3", "Lighthouse rock", "12 months"],
        ...              ["Gauge", "Location", "Calibration interval"])
        'TG-3 — Location: Lighthouse rock; Calibration interval: 12 months.'
        >>> row_sentence(["Drone battery", "Charge for 90 minutes before each flight"])
        'Drone battery: Charge for 90 minutes before each flight.'
        >>> row_sentence(["yes", "no", "yes", "yes"], ["defaults", "frontend", "listen",
        ...                                            "backend"])
        'defaults: yes; frontend: no; listen: yes; backend: yes.'
    """
    cells = [_cell(c) for c in cells]
    named = header is not None and len(header) == len(cells) and any(_cell(h) for h in header)
    heads = [_cell(h) for h in header] if named and header is not None else [""] * len(cells)
    parts: list[tuple[str, str]] = []
    previous = None
    for head, cell in zip(heads, cells, strict=True):
        # a merged cell repeats its text; a value ("yes", "2") under another heading is data
        if cell and (cell != previous or (named and _VALUE.fullmatch(cell))):
            parts.append((head, cell))
        previous = cell
    if not parts:
        return None
    (first_head, first), rest = parts[0], parts[1:]
    if not rest:  # one cell: its heading, where there is one, is what it states
        line = f"{first_head}: {first}" if first_head and first_head != first else first
    elif named and first_head and _VALUE.fullmatch(first):  # a row of values: each headed
        line = "; ".join(f"{h}: {c}" if h and h != c else c for h, c in parts)
    elif named:
        line = f"{first} — " + "; ".join(f"{h}: {c}" if h and h != c else c for h, c in rest)
    else:  # no second colon after "Note:" or "1.", and no cell of only "→" or "-" stated
        said = [c for _h, c in rest if not _SEPARATOR.fullmatch(c)] or [c for _h, c in rest]
        line = first + (" " if first.endswith((":", ".")) else ": ") + "; ".join(said)
    return line if _END.search(line) else f"{line}."


def _label(text: str) -> bool:
    """Whether a cell's text is a field's label: it ends with a colon ("Author:")."""
    return len(text) > 1 and text.endswith(":")


def field_rows(rows: Sequence[Sequence[str]], header: Sequence[str] | None) -> bool:
    """Whether a table taken to have a heading row ``header`` is a list of fields instead: the
    first cell of ``header`` and of every body row that has one is a label (:func:`_label`).
    rsyslog's module pages open with such a table, its first row in bold ("Module Name:" |
    "immark", then "Author:" | "Rainer Gerhards"): read as headings, it was indexed as
    "Author: — immark: Rainer Gerhards", and a report quoted that as what the module does.

    Example:
        >>> field_rows([["Author:", "Rainer"]], ["Module Name:", "immark"])
        True
        >>> field_rows([["timeout", "30 s"]], ["Option:", "Default:"])
        False
    """
    if header is None or not header or not _label(_cell(header[0])):
        return False
    return all(_label(first) for row in rows if row and (first := _cell(row[0])))


def table_lines(rows: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> list[str]:
    """The sentences of a table's body ``rows`` under ``header`` (see :func:`row_sentence`);
    rows with no text give none. A ``header`` that is the first of a list of fields
    (:func:`field_rows`) is a row like the others, each ``"<label> <value>."``.

    Example:
        >>> table_lines([["Author:", "Rainer Gerhards"]], ["Module Name:", "immark"])
        ['Module Name: immark.', 'Author: Rainer Gerhards.']
    """
    if field_rows(rows, header):
        rows, header = [header or [], *rows], None
    return [line for row in rows if (line := row_sentence(row, header))]


def looks_like_header(cells: Sequence[str]) -> bool:
    """Whether a table's first row reads as column headings where the format does not say so
    (a ``.docx`` table): two or more cells with text, each of at most four words, none ending
    a sentence and none a number.

    Example:
        >>> looks_like_header(["Item", "Rule"]), looks_like_header(["GPS unit", "Update it."])
        (True, False)
    """
    texts = [_cell(c) for c in cells if _cell(c)]
    return len(texts) >= 2 and all(
        len(t.split()) <= 4 and not t.endswith(".") and not re.fullmatch(r"[\d.,%\s-]+", t)
        for t in texts)


_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _pipe_cells(line: str) -> list[str]:
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [c.replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


_HTML_TABLE_START = re.compile(r"^ {0,3}<table\b", re.IGNORECASE | re.MULTILINE)
_HTML_TABLE = re.compile(r"^ {0,3}<table\b.*?</table\s*>", re.IGNORECASE | re.MULTILINE
                         | re.DOTALL)
_FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[^\n]*$|\Z)",
                     re.MULTILINE | re.DOTALL)


def _html_table_text(match: re.Match[str]) -> str:
    table = match.group(0)
    if table.lower().count("<table") > 1:
        return table  # a table inside a table: the non-greedy match ends at the inner one
    from workers.sources.htmlpage import html_to_text  # lxml: only for a file with a table

    return html_to_text(table)


def html_tables(text: str) -> str:
    """``text`` (markdown) with each raw HTML table (a block starting ``<table`` on its own
    line, outside code fences) replaced by its text as an HTML page's
    (:func:`workers.sources.htmlpage.html_page`: a data table's rows as sentences under their
    headings, a row headed by a ``<th>`` as one line). GitHub-flavoured markdown keeps raw
    HTML, and a table too wide or too merged for pipes is written so; its tags were indexed,
    each cell apart from its heading.

    Example:
        >>> print(html_tables("Vans:\\n<table><tr><th>Van</th><th>MOT due</th></tr>"
        ...                   "<tr><td>White van</td><td>October</td></tr></table>"))
        Vans:
        White van — MOT due: October.
    """
    if not _HTML_TABLE_START.search(text):
        return text
    out, at = [], 0
    for fence in _FENCED.finditer(text):
        out += [_HTML_TABLE.sub(_html_table_text, text[at:fence.start()]), fence.group(0)]
        at = fence.end()
    out.append(_HTML_TABLE.sub(_html_table_text, text[at:]))
    return "".join(out)


def markdown_tables(text: str) -> str:
    """``text`` with each GitHub-style pipe table (a header line, a ``|---|---|`` rule, then
    its rows) replaced by its rows as sentences (:func:`row_sentence`), one per line, and each
    raw HTML table by its text (:func:`html_tables`); other text, and pipe lines with no rule
    under their first line, unchanged.

    Example:
        >>> print(markdown_tables("| Gauge | Installed |\\n|---|---|\\n| TG-1 | 2011 |\\nAfter."))
        TG-1 — Installed: 2011.
        After.
    """
    text = html_tables(text)
    if "|" not in text or "-" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "|" in line and i + 1 < len(lines) and "|" in lines[i + 1] and _RULE.match(
                lines[i + 1]):  # a rule with no pipe ("---") underlines a heading
            header = _pipe_cells(line)
            j = i + 2
            rows = []
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_pipe_cells(lines[j]))
                j += 1
            out.extend(table_lines(rows, header))
            i = j
            continue
        out.append(line)
        i += 1
    return "\n".join(out)
