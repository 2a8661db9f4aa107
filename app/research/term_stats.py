"""How distinctive a topic's words are in the corpus a run searched: :class:`TermStats` (BM25's
inverse document frequency per word), :func:`weights`, and :func:`unknown_terms`, the words no
passage uses when they carry half the topic's weight (a near miss). Pure arithmetic on counts
:func:`app.research.relevance.corpus_stats` reads; no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from workers.sources.stopwords import FILLER_WORDS, MANNER_WORDS

__all__ = ["ASKING_WORDS", "COMMON_LEAST", "COMMON_SHARE", "RARE_SHARE", "TermStats",
           "absent_terms", "asked_only", "slips", "unknown_terms", "weights"]


ASKING_WORDS: frozenset[str] = frozenset(
    """
    basics beginner beginners cheatsheet explain explained explanation gotcha gotchas guide
    guides hood howto intro introduction overview pitfall pitfalls snippet snippets stuck tip
    tips trick tricks tutorial tutorials walkthrough
    """.split()
)
"""Words of the help a question asks for, not of its subject ("a *beginner tutorial* for
StateGraph", "*pitfalls* of reducers", "how does checkpointing work under the *hood*"): one
the corpus never uses says nothing of whether it covers the subject (such a
word was named as a typo, or blanked an on-topic report). Unlike
:data:`workers.sources.stopwords.FILLER_WORDS` they are searched: a manual's "Tutorial" page."""


RARE_SHARE = 0.001
"""A word in at most one passage in a thousand is one the topic is about ("nginx" in Apache's
manual), not one of how it is asked ("lots", "turn")."""

COMMON_SHARE = 0.1
"""A word in a tenth of the passages or more is one of what the whole corpus is about ("dns",
"bind" and "configure" in BIND's manual), not one of a topic within it."""
COMMON_LEAST = 20
"""...and in this many passages at least: in a folder of a few pages every word of a topic is in
a tenth of them ("rate limiting middleware settings" over one page on rate limiting was warned
as a near miss of "settings")."""


@dataclass(frozen=True)
class TermStats:
    """How common the topic's words are in the corpus the run searched: the index's passage
    count and, per term, how many passages it matches (``workers.sources.index``'s
    :func:`~workers.sources.index.passage_frequencies`, through ``Corpus.term_stats``).

    Attributes:
        passages: how many passages the index holds (``N``).
        frequencies: term -> passages that match it; a term left out counts as matching none.
    """

    passages: int
    frequencies: Mapping[str, int]
    near: Mapping[str, str] = field(default_factory=dict)
    """A word no passage has -> the corpus's word one typing slip away (:func:`slips`)."""
    typos: Mapping[str, str] = field(default_factory=dict)
    """Of :attr:`near`, those whose word a passage writes as such, not only a word of its stem
    ("visiter" matches the passages of "visit", and "visitor" was asked as its typo): what the
    report may call a likely typo (:func:`app.research.missing_words.missing_note`)."""

    def rare(self, term: str) -> bool:
        """Whether ``term`` is in at most :data:`RARE_SHARE` of the passages (in none
        included): a word that distinguishes the topic, not one of how it is asked.

        Example:
            >>> TermStats(18000, {"nginx": 1, "events": 400}).rare("nginx")
            True
        """
        return int(self.frequencies.get(term, 0)) <= RARE_SHARE * max(int(self.passages), 0)

    def common(self, term: str) -> bool:
        """Whether ``term`` is in at least :data:`COMMON_SHARE` of the passages, and in
        :data:`COMMON_LEAST` of them: a word that says which corpus, not which topic in it
        (False for an empty index or a folder of a few pages).

        Example:
            >>> stats = TermStats(4297, {"dns": 915, "tls": 160})
            >>> stats.common("dns"), stats.common("tls"), stats.common("quic")
            (True, False, False)
            >>> TermStats(12, {"rate": 9}).common("rate")
            False
        """
        total = max(int(self.passages), 0)
        count = int(self.frequencies.get(term, 0))
        return total > 0 and count >= COMMON_LEAST and count >= COMMON_SHARE * total

    def weight(self, term: str) -> float:
        """How distinctive ``term`` is: the BM25 inverse document frequency
        ``ln(1 + (N - n + 0.5) / (n + 0.5))`` (Robertson/Sp\u00e4rck Jones, as Lucene's BM25
        computes it: never negative). A word in a third of the passages weighs about 1.1, a
        word the corpus never uses about ``ln(2N)``; 1.0 for every word of an empty index.

        Example:
            >>> stats = TermStats(1000, {"database": 400, "pane": 0})
            >>> round(stats.weight("database"), 2), round(stats.weight("pane"), 2)
            (0.92, 7.6)
        """
        total = max(int(self.passages), 0)
        if total == 0:
            return 1.0
        n = min(max(int(self.frequencies.get(term, 0)), 0), total)
        return math.log(1 + (total - n + 0.5) / (n + 0.5))


def weights(terms: Sequence[str], stats: TermStats | None = None) -> list[float]:
    """Each term's weight as evidence that an item is on topic: its :meth:`TermStats.weight`,
    or 1.0 each without corpus statistics (then half the weight is half the words, as
    :func:`needed` counts)."""
    if stats is None:
        return [1.0] * len(terms)
    return [stats.weight(t) for t in terms]


def unknown_terms(terms: Sequence[str], stats: TermStats | None) -> list[str]:
    """The ``terms`` the corpus never uses (in no passage, by ``stats``; words of how people ask,
    ``FILLER_WORDS``, left out) when together they
    weigh at least half of ``terms`` (:meth:`TermStats.weight`), else ``[]``; ``[]`` without
    statistics.

    The near miss: "How do I replace a cracked window pane?" over SQLite's manual retrieves
    passages on ``REPLACE`` and window functions, which mention half of its words; but
    "cracked" and "pane" are in no passage, and a word no passage uses weighs more than one
    hundreds of them use, so the manual is not about the topic. A paraphrased question keeps
    most of its weight in the manual's words ("a *throwaway* database that never touches the
    disk": "throwaway" is about a third).

    Example:
        >>> stats = TermStats(11774, {"replace": 404, "cracked": 0, "window": 590, "pane": 0})
        >>> unknown_terms(["replace", "cracked", "window", "pane"], stats)
        ['cracked', 'pane']
    """
    if stats is None or not terms:
        return []
    ws = weights(terms, stats)
    unknown = absent_terms(terms, stats)
    share = sum(w for t, w in zip(terms, ws, strict=True) if t in unknown) / sum(ws)
    return unknown if share >= 0.5 else []


def absent_terms(terms: Sequence[str], stats: TermStats | None) -> list[str]:
    """The ``terms`` no passage of the corpus uses (by ``stats``; ``[]`` without them), words of
    how people ask (``FILLER_WORDS``, ``MANNER_WORDS``, :data:`ASKING_WORDS`) left out: a word
    of how a question is put ("How long do drone batteries *need* to charge?", "snapshots I
    *still* need", trial 116, F10) that the corpus never uses says nothing about whether it
    covers the topic.

    Example:
        >>> absent_terms(["tomcat", "jdbc", "need", "still"], TermStats(900, {"tomcat": 3}))
        ['jdbc']
    """
    if stats is None:
        return []
    return [t for t in terms if int(stats.frequencies.get(t, 0)) <= 0 and t not in FILLER_WORDS
            and t not in MANNER_WORDS and t not in ASKING_WORDS]


def asked_only(terms: Sequence[str], stats: TermStats | None) -> list[str]:
    """``terms`` less the :data:`ASKING_WORDS` no passage uses (by ``stats``): the topic's
    words a retrieved item is judged by.

    Example:
        >>> asked_only(["beginner", "tutorial", "stategraph"], TermStats(9, {"stategraph": 3}))
        ['stategraph']
    """
    if stats is None:
        return list(terms)
    kept = [t for t in terms if t not in ASKING_WORDS or stats.frequencies.get(t, 0) > 0]
    return kept or list(terms)


def slips(word: str) -> list[str]:
    """The words one typing slip from ``word`` (a letter swapped with the next, left out, added
    or mistyped: Norvig's edits of distance one), for a word of six letters or more: the
    corpus's word among them makes ``word`` a typo to name ("relayhsot": "relayhost",
    "confgure": "configure"), not the topic the corpus lacks (trial 120, F6; "quic" is too
    short to tell from "quick").

    Example:
        >>> "relayhost" in slips("relayhsot"), "configure" in slips("confgure"), slips("quic")
        (True, True, [])
    """
    if len(word) < 6 or not word.isalpha():
        return []
    letters = "abcdefghijklmnopqrstuvwxyz"
    cut = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1] + b[0] + b[2:] for a, b in cut if len(b) > 1}
    out |= {a + b[1:] for a, b in cut if b} | {a + c + b for a, b in cut for c in letters}
    out |= {a + c + b[1:] for a, b in cut if b for c in letters}
    return sorted(out - {word})
