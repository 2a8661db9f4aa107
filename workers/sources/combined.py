"""``CombinedSource``: one source that searches the first and resolves citations in all.

With ``--web`` a run has two sources: the corpus (searched by ``docs_search`` and the
``search_corpus`` tool) and the web (searched by ``web_search`` and the ``search_web`` tool). An
agent's claim may cite either, and its ``read_document`` tool may be asked for either; the workers
check and read citations through one object, so it must resolve both. This module imports only
the standard library.
"""

from __future__ import annotations

from workers.sources.base import Document, Passage, Source

__all__ = ["CombinedSource"]


class CombinedSource:
    """Searches ``primary``; ``passage``/``read`` ask ``primary`` then each of ``others``.

    Example:
        ``CombinedSource(corpus, web).passage("https://example.org/a#0")`` finds the web page's
        passage the corpus does not have.
    """

    def __init__(self, primary: Source, *others: Source) -> None:
        self.primary = primary
        self.sources: tuple[Source, ...] = (primary, *others)

    @property
    def description(self) -> str:
        """The primary source's description (what ``search`` searches)."""
        return self.primary.description

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list[Passage]:
        """The primary source's search (``focus`` passed on only when given, so a source
        written before the protocol had it still serves unfocused searches)."""
        if focus is None:
            return self.primary.search(query, k=k)
        return self.primary.search(query, k=k, focus=focus)

    def passage(self, ref: str) -> Passage | None:
        """The first source's passage with this ref, or None."""
        for source in self.sources:
            if (found := source.passage(ref)) is not None:
                return found
        return None

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> Document | None:
        """The first source's document for this ref or doc_id, or None."""
        for source in self.sources:
            if (found := source.read(ref_or_doc_id, max_chars=max_chars)) is not None:
                return found
        return None
