"""The sources the workers search and cite, behind one small protocol.

* :mod:`~workers.sources.base`: the :class:`Source` protocol (``search``, ``read``, ``passage``)
  and :class:`Passage`, which owns the citation reference format (``"<doc_id>#<n>"``) and the
  JSON shape the tools speak.
* :mod:`~workers.sources.corpus`: :class:`Corpus`, the source over a local SQLite FTS5 index,
  ranked by bm25; :meth:`Corpus.open` builds the index on first use and caches it in the data dir.
* what a local index is made of: :mod:`~workers.sources.packages` (the docstrings of installed
  packages plus Python's pydoc topics: the default corpus) or :mod:`~workers.sources.folder` (a
  folder of the user's documents, ``--corpus DIR``).
* helpers: :mod:`~workers.sources.chunks` (passages), :mod:`~workers.sources.sentence_ends`
  (where a sentence ends), :mod:`~workers.sources.text` (decoding), :mod:`~workers.sources.fences`
  (fenced code kept whole), :mod:`~workers.sources.htmlpage` (HTML with lxml),
  :mod:`~workers.sources.markdownpage` (Markdown with markdown-it-py),
  :mod:`~workers.sources.boilerplate` (repeated navigation stripped),
  :mod:`~workers.sources.filekinds` and :mod:`~workers.sources.fileread` (what a folder's file is
  read as: its type, a ``.gz``'s inner name, or text by content),
  :mod:`~workers.sources.textsections` (a plain text's version lines and titles),
  :mod:`~workers.sources.query` (one stopword list and the query parser, shared with the offline
  model), :mod:`~workers.sources.ranking` (how candidates are ordered),
  :mod:`~workers.sources.index` (the atomic, locked index build).

To add a source, see docs/extending.md ("Add a source").
"""

from __future__ import annotations

from typing import Any

from workers.sources.base import CorpusError, Document, IndexVanished, Passage, Source
from workers.sources.chunks import MAX_PASSAGE_CHARS, chunk_text
from workers.sources.corpus import MAX_K, Corpus
from workers.sources.folder import FOLDER_EXTENSIONS, MAX_FILE_BYTES
from workers.sources.packages import DEFAULT_PACKAGES, EXCLUDED_MODULES
from workers.sources.query import query_terms, query_to_fts, title_terms
from workers.sources.stopwords import STOPWORDS

__all__ = [
    "DEFAULT_PACKAGES",
    "EXCLUDED_MODULES",
    "FOLDER_EXTENSIONS",
    "MAX_FILE_BYTES",
    "MAX_K",
    "MAX_PASSAGE_CHARS",
    "STOPWORDS",
    "Corpus",
    "CorpusError",
    "Document",
    "IndexVanished",
    "Passage",
    "Source",
    "chunk_text",
    "html_to_text",
    "query_terms",
    "query_to_fts",
    "title_terms",
]


def __getattr__(name: str) -> Any:
    """``html_to_text`` is imported on first use (PEP 562): it loads lxml, which a run over
    Markdown files or a cached index never needs (issue 21, item 12)."""
    if name == "html_to_text":
        from workers.sources.htmlpage import html_to_text

        return html_to_text
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
