"""Which of the Answer's candidates name none of the names that set them apart (trial 125, F2).

Asked "How do I build a PDF of my documentation?", Sphinx's Answer led with "For example, to
build your documentation in EPUB format, run ... make epub" (code, so it showed how) above
"latex: Build LaTeX sources that can be compiled to a PDF document": the Answer's rank weighed a
sentence's shape and never whether it names what the question names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.llm.offline.words import stem, stems
from workers.sources.query import mentions

__all__ = ["rare_terms", "unnamed"]


def unnamed(terms: list[str], ranked: list[tuple[Any, dict[str, Any]]],
            label: Callable[[dict[str, Any]], str]) -> set[int]:
    """The ``id`` of each of the Answer's candidate findings (``ranked``, each after its rank)
    that names none of the names the question writes (``terms``: an acronym, an identifier,
    lower-cased) setting four or more candidates apart: named, with its section's heading and
    its entry's label (``label``), by at least one, by at most half of them (:func:`rare_terms`;
    a SOLUTION: names its problem by its heading). Fewer set nothing apart: of two, one names
    the problem and the other may solve it; of three, a word one names may be there by chance
    (asymptote-doc asy-21's "two" in "two-dimensional"). A plain word of the question is no
    such name: "memory" set apart sqlite-07's candidates, and its answer, "The upper bound on
    the database cache size has traditionally defaulted to 2000 pages.", went after "The
    read_uncommitted pragma is off by default ..." (sqlite3-doc eval).
    """
    texts = [f"{finding.get('heading') or ''} {label(finding)} {finding['text']}"
             for _rank, finding in ranked]
    rare = rare_terms(terms, texts) if len(texts) >= 4 else []
    return {id(f) for (_rank, f), text in zip(ranked, texts, strict=True)
            if rare and not _names(rare, text)}


def _names(terms: list[str], text: str) -> set[str]:
    """The ``terms`` ``text`` names: as :func:`~workers.sources.query.mentions` reads them, or
    by their stem ("caching" names the "cache", sqlite3-doc's sqlite-07)."""
    own = stems(text)
    return mentions(terms, text) | {t for t in terms if stem(t) in own}


def rare_terms(terms: list[str], texts: list[str]) -> list[str]:
    """The ``terms`` named by at least one of ``texts``, by at most half of them.

    Example:
        >>> rare_terms(["build", "pdf"], ["To build EPUB, run make epub.",
        ...            "latex: Build a PDF document.", "man: Build manual pages."])
        ['pdf']
    """
    named = [_names(terms, text) for text in texts]
    return [t for t in terms if 0 < sum(t in found for found in named) <= len(texts) / 2]
