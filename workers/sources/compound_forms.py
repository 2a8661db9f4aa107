"""A closed compound's hyphenated and spaced spellings, as the corpus writes them: a question's
"timeout" finds a document's "time-out" or "time out", "filename" a "file name", "email" an
"e-mail".

curl's FAQ item "I want a different time-out" was never found for "How can I set a timeout for
a slow transfer in libcurl?" (trial 128, F8): FTS5's ``unicode61`` tokenizer splits "time-out"
at its hyphen into the tokens "time" and "out", the same two a spaced "time out" gives, so one
FTS5 phrase ``"time out"`` matches both spellings and the search, which looked for the token
"timeout" alone, matched neither. :func:`compound_clauses` asks the index which two-word
phrases a question's closed word splits into (no list of words: the corpus's own text says
which forms occur) and ORs the ones it has with the word. The other direction, a question's
"file name" or "time-out" against a document's "filename", is :mod:`workers.sources.joined`'s.

A split's parts are words a search keeps (no stopword, so "within" is no "with in", "aside" no
"a side"), but a particle may end it ("time out", "set up", "log in"); a first part may be a
single letter ("e-mail", "x-ray"). A passage with the split spelling covers the word in the
search's re-ranking (:func:`workers.sources.query.term_matches` reads a hyphenated or spaced
pair as the joined word), so it is weighed as one with the word, not as one missing it.

This module imports only the standard library and the sources' word lists.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Set
from functools import lru_cache

from workers.sources.inflections import word_forms
from workers.sources.joined import PARTICLES
from workers.sources.stopwords import STOPWORDS

__all__ = ["MAX_FORMS", "MAX_WORD", "MIN_WORD", "SAMPLED", "compound_clauses", "compound_forms",
           "joined_terms", "splits"]

MIN_WORD = 5
"""The least length of a closed word that is split ("email"; "into", "onto" are not)."""

MAX_WORD = 30
"""The greatest length of a word that is split: a longer one is no compound of two words, and
each of its cuts is a phrase searched (a hostile query's one word of 10,000 letters took three
minutes: test_package_docs' hostile queries)."""

MAX_FORMS = 2
"""At most this many split spellings of one word are searched, most frequent first."""

SAMPLED = 50
"""At most this many passages of a phrase are read to tell how it is written."""

_LETTERS = re.compile(r"[a-z]+")


@lru_cache(maxsize=4096)
def splits(word: str) -> tuple[str, ...]:
    """The two-word phrases ``word`` (lower-case letters, :data:`MIN_WORD` to :data:`MAX_WORD`)
    may be a closed spelling of: every cut into a first part (one letter at least) and a second
    (two at least), neither a stopword unless the second is a particle of
    :data:`~workers.sources.joined.PARTICLES`.

    Example:
        >>> "time out" in splits("timeout"), "file name" in splits("filename")
        (True, True)
        >>> "e mail" in splits("email"), splits("into"), "with in" in splits("within")
        (True, (), False)
        >>> splits("x" * 10_000)  # no compound of two words
        ()
    """
    if not MIN_WORD <= len(word) <= MAX_WORD or not _LETTERS.fullmatch(word):
        return ()
    out = []
    for cut in range(1, len(word) - 1):
        first, second = word[:cut], word[cut:]
        if first in STOPWORDS or (second in STOPWORDS and second not in PARTICLES):
            continue
        out.append(f"{first} {second}")
    return tuple(out)


def _written(con: sqlite3.Connection, phrase: str) -> int:
    """How many of (at most :data:`SAMPLED`) passages matching ``phrase`` write it with a hyphen
    or a space: FTS5 splits "lib/curl" and "time_out" into the same tokens, no spelling of a
    word ("libcurl" is no "lib curl")."""
    first, second = phrase.split()
    written = re.compile(rf"(?<![^\W_]){first}[ \t-]{second}", re.IGNORECASE)
    rows = con.execute("SELECT p.text, p.heading FROM passages_fts JOIN passages p ON p.id = "
                       "passages_fts.rowid WHERE passages_fts MATCH ? LIMIT ?",
                       (f'"{phrase}"', SAMPLED))
    return sum(1 for text, heading in rows if written.search(f"{heading or ''}\n{text}"))


def compound_forms(con: sqlite3.Connection, word: str) -> tuple[str, ...]:
    """The split spellings of ``word`` (:func:`splits`) an open index has as phrases written
    with a hyphen or a space, most frequent first (at most :data:`MAX_FORMS`). ``()`` for a
    word with none.

    Raises:
        sqlite3.Error: the index cannot be read.
    """
    found = {p: n for p in splits(word) if (n := _written(con, p))}
    kept = sorted(found, key=lambda p: (-found[p], p))
    return tuple(kept[:MAX_FORMS])


def compound_clauses(con: sqlite3.Connection, terms: Iterable[str]) -> str:
    """`` OR "time out"`` for each split spelling the index has of each of ``terms``
    (:func:`compound_forms`): what a search, and a count of a word's passages, adds to its
    FTS5 query so the word's hyphenated and spaced spellings are the word.

    Raises:
        sqlite3.Error: the index cannot be read.
    """
    return "".join(f' OR "{p}"' for t in dict.fromkeys(terms) for p in compound_forms(con, t))


@lru_cache(maxsize=4096)
def _written_split(word: str) -> tuple[frozenset[str], re.Pattern[str] | None]:
    """``word``'s split spellings (:func:`splits` of each of its forms,
    :func:`~workers.sources.inflections.word_forms`) as written apart by a hyphen or a blank
    ("time-out", "time out", "time-outs"): their first parts, and the pattern of the whole
    spelling, an inflection's ending allowed; ``(frozenset(), None)`` for a word with none."""
    forms = sorted(word_forms(word))
    cuts = [c.split() for c in dict.fromkeys(c for form in forms for c in splits(form))]
    if not cuts:
        return frozenset(), None
    spelled = "|".join(rf"{re.escape(a)}[ \t-]{re.escape(b)}" for a, b in cuts)
    return (frozenset(a for a, _ in cuts),
            re.compile(rf"(?<![^\W_])(?:{spelled})(?:s|es|d|ed|ing)?(?![^\W_])"))


def joined_terms(terms: Iterable[str], lowered: str, words: Set[str]) -> set[str]:
    """The ``terms`` (closed words) ``lowered`` (lower-case text) writes split by a hyphen or a
    blank: a passage writing "time-out" or "time out" mentions "timeout"
    (:func:`workers.sources.query.mentions`, ``term_matches``). ``words`` are the text's words
    (``\\w+``, lower-case): a split is looked for only where its first part is one of them, so
    a text's every pair of words is not (that tripled the cost of both).

    Example:
        >>> words = {"a", "time", "out", "the", "file", "names"}
        >>> sorted(joined_terms(["timeout", "filename", "set"], "a time-out, file names", words))
        ['filename', 'timeout']
    """
    found = set()
    for term in dict.fromkeys(terms):
        firsts, pattern = _written_split(term)
        if pattern is not None and not firsts.isdisjoint(words) and pattern.search(lowered):
            found.add(term)
    return found
