"""The note on a topic's words no retrieved passage mentions (``Relevance.missing``), worded by
what the run knows of each word.

* The corpus has it (``in_corpus``): the search ranked it low, the sources may well cover it.
* The corpus's statistics count it in no passage (``absent``): the corpus never uses it. One
  typing slip (:func:`app.research.term_stats.slips`) from a word a passage writes
  (``TermStats.typos``, :func:`written_slip`) it is asked as a typo of that word ("pendng":
  "pending"); else the documents may say it in other words, or not cover it. Such an ordinary
  word of a right answer was asked "(a typo, a word of another language, or something the
  sources do not cover?)": "the visitor's IP" over Werkzeug's manual, which says "client", and
  "huge request bodies" beside its ``max_content_length`` (trial 126, F6).
* Neither is known (no statistics: the web or an MCP tool searched too): it is asked whether a
  typo, a word of another language or something the sources do not cover.

Only the wording: which words are named, and the warning codes, are
:func:`app.research.relevance.judge`'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.research.term_stats import TermStats
from app.research.topic_words import describe_terms

__all__ = ["SLIPS_CHECKED", "missing_note", "where_missing", "written_slip"]


def where_missing(missing: Sequence[str], stats: TermStats | None
                  ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]:
    """What the corpus's ``stats`` say of the ``missing`` words: ``(in_corpus, absent, near)``,
    those some passage has, those none has, and of the latter each one typing slip from a word
    the corpus writes, with that word (``TermStats.typos``); all empty without statistics.

    Example:
        >>> near = {"pendng": "pending", "visitor": "visiter"}
        >>> where_missing(["ram", "pendng", "visitor"],
        ...               TermStats(9, {"ram": 2}, near, {"pendng": "pending"}))
        (('ram',), ('pendng', 'visitor'), (('pendng', 'pending'),))
    """
    if stats is None:
        return (), (), ()
    found = tuple(t for t in missing if stats.frequencies.get(t, 0) > 0)
    absent = tuple(t for t in missing if t not in found)
    return found, absent, tuple((t, stats.typos[t]) for t in absent if t in stats.typos)


SLIPS_CHECKED = 3
"""How many of a word's slips the corpus counts :func:`written_slip` checks, the most counted
first."""


def written_slip(corpus: Any, counted: Mapping[str, int], k: int = 10) -> str:
    """The first of the slips ``counted`` (word -> passages matching it; the most first, at
    most :data:`SLIPS_CHECKED`) that one of the ``k`` passages ``corpus.search`` finds for it
    writes as a whole word, or "". The counts match words by their stem: the slip "visiter" of
    "visitor" counts the passages of "visit", which write no "visiter", and "visitor" is no
    typo of it (trial 126, F6); "pending" is written where "pendng" slipped from it.

    Args:
        corpus: a :class:`workers.sources.Corpus` (its ``search``); without one, "".
        counted: the slips of one word and how many passages match each (all above 0).
        k: how many passages of each slip's search are read.

    Raises nothing: a search that fails (a closed index) makes no typo, and leaves the counts
    :func:`app.research.relevance.corpus_stats` read, which the verdict depends on, as they are.
    """
    search = getattr(corpus, "search", None)
    if not callable(search):
        return ""
    for word in sorted(counted, key=lambda w: (-counted[w], w))[:SLIPS_CHECKED]:
        whole = re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
        try:
            found = search(word, k=k)
        except Exception:  # noqa: BLE001 - only the note's wording: the counts stay the judge's
            return ""
        if any(whole.search(p.text) for p in found):
            return word
    return ""


def missing_note(words: Sequence[str], in_corpus: Sequence[str] = (), asked: str = "", *,
                 absent: Sequence[str] = (), near: Mapping[str, str] | None = None) -> str:
    """The run's note naming the topic's word(s) no retrieved passage mentions (``words``:
    ``Relevance.missing``), as :func:`where_missing` tells them apart: ``in_corpus``, said to
    be in passages the search ranked lower (trial 49: "RAM" was in the passage after the one
    cited, and the note suggested the manuals did not discuss it); ``absent``, the corpus's
    words never (a likely typo of a word ``near`` maps it to, else perhaps said in other
    words); any other, asked whether a typo, a foreign word or a thing the sources lack. Each
    word is shown as ``asked`` writes it (:func:`describe_terms`).

    Example:
        >>> missing_note(["pendng"]).split(" (")[0]
        'no passage retrieved mentions "pendng"'
        >>> missing_note(["pendng"], absent=["pendng"], near={"pendng": "pending"})
        'the corpus never uses "pendng" (a typo of "pending"?): the report answers the topic\\'s \
other words'
        >>> missing_note(["visitor"], absent=["visitor"]).split(":")[0]
        'the corpus never uses "visitor" (its documents may say it in other words, or not cover it)'
        >>> missing_note(["ram"], ["ram"]).split(", though")[1].split(":")[0]
        ' the corpus has it in passages the search ranked lower'
        >>> missing_note(["arg_max"], ["arg_max"], "How do I raise ARG_MAX?").split(",")[0]
        'no passage retrieved mentions "ARG_MAX"'
    """
    near = {w: right for w, right in (near or {}).items() if w in absent}
    plain = [w for w in words if w in absent and w not in near]
    unknown = [w for w in words if w not in in_corpus and w not in absent]
    has = [w for w in words if w in in_corpus and w not in absent]
    said = [f'{describe_terms([w], asked=asked)} (a typo of "{near[w]}"?)' for w in words
            if w in near]
    if plain:
        it = "it" if len(plain) == 1 else "them"
        said.append(f"{describe_terms(plain, asked=asked)} (its documents may say {it} in "
                    f"other words, or not cover {it})")
    parts = [f"the corpus never uses {' or '.join(said)}"] if said else []
    retrieved = []
    if unknown:
        retrieved.append(f"{describe_terms(unknown, asked=asked)} (a typo, a word of another "
                         "language, or something the sources do not cover?)")
    if has:
        it = "it" if len(has) == 1 else "them"
        retrieved.append(f"{'nor ' if unknown else ''}{describe_terms(has, asked=asked)}, though "
                         f"the corpus has {it} in passages the search ranked lower")
    if retrieved:
        parts.append(f"no passage retrieved mentions {', '.join(retrieved)}")
    return f"{'; '.join(parts)}: the report answers the topic's other words"
