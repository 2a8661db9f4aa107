"""The FTS5 clauses a search's query is built of (:func:`workers.sources.query.search_query`):
each word quoted (no input is FTS5 syntax) with its other spellings, the names of several words
matched by their key, and phrases led by a function word matched among the headings.

This module imports only the standard library (and :mod:`workers.sources.spelling` and
:mod:`workers.sources.inflections`, which do too).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from workers.sources.inflections import irregular_base
from workers.sources.spelling import spellings

__all__ = ["MAX_ASKED_WORDS", "PHRASE_LEADS", "fts_asked_headings", "fts_heading_phrases",
           "fts_names", "fts_or", "quoted", "spelled_terms"]

_WORDS = re.compile(r"[^\W_]+")


def quoted(term: str) -> str:
    """``term`` as an FTS5 string: in double quotes, a quote inside doubled.

    Example:
        >>> quoted('a"b')
        '"a""b"'
    """
    return '"' + term.replace('"', '""') + '"'


def fts_or(terms: Sequence[str], bases: bool = False) -> str:
    """``terms`` and their other spellings (:func:`spelled_terms`), each :func:`quoted`, OR-ed.

    Example:
        >>> fts_or(["optimise", "plan"])
        '"optimise" OR "optimize" OR "plan"'
    """
    return " OR ".join(quoted(t) for t in spelled_terms(terms, bases))


def spelled_terms(terms: Iterable[str], bases: bool = False) -> list[str]:
    """``terms`` with each one's other spellings after it (:func:`spellings`), no duplicates:
    what a search matches, so that "colour" finds a manual that says "color" (issue 19). With
    ``bases``, an irregular past form's base too ("ran": "run"): what counts a word as one the
    corpus holds (:func:`workers.sources.index.passage_frequencies`); a search does without
    (Asymptote's "a module file I wrote myself" searched for ``write()`` as well).

    Example:
        >>> spelled_terms(["optimise", "query", "ran"]), spelled_terms(["ran"], bases=True)
        (['optimise', 'optimize', 'query', 'ran'], ['ran', 'run'])
    """
    return list(dict.fromkeys(form for term in terms for form in (
        term, *spellings(term), *(_base_of(term) if bases else ()))))


def _base_of(term: str) -> tuple[str, ...]:
    """An irregular past form's base (:func:`~workers.sources.inflections.irregular_base`:
    "ran" finds "run"), as a one-form tuple, or ()."""
    base = irregular_base(term)
    return (base,) if base else ()


def fts_names(names: Sequence) -> str:
    """The FTS5 clauses of the ``names`` of several words: `` OR namekey : "key"`` each (a name
    of one word is matched whole in the ``name`` column already)."""
    return "".join(f' OR namekey : {quoted(n.key)}' for n in names if " " in n.phrase)


PHRASE_LEADS = frozenset(
    "here there in on at by off out up down over under after before all no not only own once"
    .split())
"""Function words that lead a term of two words ("here string", "in memory", "at command"):
dropped from the question's words, kept in a phrase searched among the headings."""


def fts_heading_phrases(query: str, core: Sequence[str]) -> str:
    """`` OR heading : "here string"`` for each pair of the question's adjacent words that is
    a function word of :data:`PHRASE_LEADS` and a core word (at most three): without it,
    "What is a here string?" searched "string" alone, and every entry on strings outranked the
    manual's "Here Strings" section.

    Example:
        >>> fts_heading_phrases("What is a here string?", ["string"])
        ' OR heading : "here string"'
    """
    words = _WORDS.findall(query.lower())
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)
             if a in PHRASE_LEADS and b in core]
    return "".join(f" OR heading : {quoted(p)}" for p in dict.fromkeys(pairs[:3]))


MAX_ASKED_WORDS = 3
"""At most this many of the words of how a question asks are looked up among the headings."""


def fts_asked_headings(said: Sequence[str], core: Sequence[str]) -> str:
    """`` OR {heading terms} : "word"`` for each word of how the question asks (``said``, the
    question's words, less its ``core`` words; at most :data:`MAX_ASKED_WORDS`): looked up
    among the headings and titles only, where such a word is rare enough to tell a page ("1.3:
    What is it *good* at?" for "What is zsh good at?", which searched "zsh" alone, trial 115,
    F2c; :mod:`workers.sources.asked_headings`).

    Example:
        >>> fts_asked_headings(["known", "limitations", "gnuplot"], ["limitations", "gnuplot"])
        ' OR {heading terms} : "known"'
    """
    asked = [w for w in said if w not in core][:MAX_ASKED_WORDS]
    return "".join(f" OR {{heading terms}} : {quoted(w)}" for w in asked)
