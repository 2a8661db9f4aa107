"""The rows an index build writes of its documents: a ``docs`` row per document, a ``passages``
row per passage (:mod:`workers.sources.index` holds the tables; issue 19, section 4: the rows go
to a writer thread as they are cut, :mod:`workers.sources.batch_writer`).

This module imports only the standard library and the sources' own helpers.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from workers.sources.base import NoText, Passage, RawDoc
from workers.sources.chunks import chunk_text
from workers.sources.names import symbol_key
from workers.sources.query import symbol_terms, title_terms
from workers.sources.text import short_title

__all__ = ["DocRow", "PassageRow", "rows_of", "write_passages"]

DocRow = tuple[str, str, str, int]
PassageRow = tuple[int, str, str, int, str, str, str, str, str, str, float, str, str]


def rows_of(docs: Iterable[RawDoc],
            add: Callable[[PassageRow], None]) -> tuple[list[DocRow], int]:
    """The ``docs`` table rows of ``docs``, consumed once, and how many ``passages`` rows were
    given to ``add``: a repeated doc_id and a document with no text are left out; passages are
    the documents' sections cut by :func:`chunk_text`, numbered from 1 in order.

    Raises:
        NoText: no document had any text.
    """
    doc_rows: list[DocRow] = []
    passages = 0
    seen_ids: set[str] = set()
    for doc in docs:
        if doc.doc_id in seen_ids:
            continue
        sections = [(h, c) for h, t in doc.sections or (("", doc.text),) for c in chunk_text(t)]
        if not sections:
            continue
        seen_ids.add(doc.doc_id)
        title = short_title(doc.title)  # a label: a <title> of 1 MB was one
        doc_rows.append((doc.doc_id, title, doc.source, len(sections)))
        terms, name, key = title_terms(title), symbol_terms(doc.symbol), symbol_key(doc.symbol)
        for seq, (heading, chunk) in enumerate(sections):
            if doc.section_symbols:  # a Python file's section: its own symbol ("" the module's)
                name, key = symbol_terms(heading), symbol_key(heading)
            passages += 1
            add((passages, Passage.make_ref(doc.doc_id, seq), doc.doc_id, seq, title, doc.source,
                 chunk, terms, name, _heading(heading), float(doc.link_share), key, doc.kind))
    if not passages:
        raise NoText("no indexable text found")
    return doc_rows, passages


def _heading(heading: str) -> str:
    """A passage's heading as indexed: as written, or cut (:func:`short_title`) past 64 KB, as
    each passage of its section repeats it (a 1 MB heading took 91 s to index; SQLite's keyword
    index heads its page with 61 KB, which the ranking was measured with)."""
    return heading if len(heading) <= 65536 else short_title(heading)


def write_passages(con: sqlite3.Connection, rows: list[PassageRow]) -> None:
    """Insert passage rows (ids in order) and index them in FTS5: a
    :class:`~workers.sources.batch_writer.BatchWriter`'s batch, in the build's transaction."""
    con.executemany(f"INSERT INTO passages VALUES ({', '.join('?' * 13)})", rows)
    con.execute("INSERT INTO passages_fts (rowid, name, terms, heading, text, namekey) "
                "SELECT id, name, terms, heading, text, namekey FROM passages "
                "WHERE id BETWEEN ? AND ? ORDER BY id", (rows[0][0], rows[-1][0]))
