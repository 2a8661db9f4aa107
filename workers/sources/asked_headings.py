"""A title or heading written in the question's own words, the words of how it asks included.

A search drops the words of how people ask (:data:`~workers.sources.stopwords.FILLER_WORDS`):
"What are the *known* limitations of gnuplot?" searches "limitations" and "gnuplot", "What is
zsh *good* at?" searches "zsh" alone. But a page titled "Known limitations", or an FAQ's "1.3:
What is it good at?", is that question's answer in the document's own words, and neither was
found (trial 115, F2b, F2c: "Undefined: If an integer arithmetic expression overflows ..." and
a list of zsh's modules answered). A search looks those words up among the headings
(:func:`fts_asked_headings`), and a heading that says the question ranks first
(:func:`heading_asks`).

The words of how people ask are generic ("known", "issues" or "limitations" head a section of
many pages), so a heading in them answers only a question about what its page is about: "What
are the known issues with IPv6?" ranked a "Known issues" section of the Windows page first, its
rare "known" in a heading raising its bm25, and answered "quill on Windows / Known issues:
Install it with `pip install quill` ..." in place of the IPv6 section's "Link-local IPv6
addresses ... are not supported yet" (trial 119, F6). A heading lacking the question's subject
ranks first only when its passage or page names the subject, or the page is that section alone
(gnuplot's page "Known limitations"); a section headed so on a page about another subject is
ranked down as much (:func:`asked_heading_factor`).

This module imports only the standard library and the sources' word modules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.sources.fts_clauses import fts_asked_headings
from workers.sources.query import query_terms, shares_form

__all__ = ["ASKED_HEADING_BOOST", "asked_heading_factor", "fts_asked_headings",
           "heading_asks"]

ASKED_HEADING_BOOST = 2.0
"""How much a heading in the question's own words raises a passage: x3. Such a page seldom
repeats the subject's name ("Known limitations" never says "gnuplot"), so it keeps little of
its score for the question's words it lacks (:func:`~workers.sources.ranking.rank_score`)."""

_NUMBERING = re.compile(r"^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?:?|[A-Z][.:])\s+")
"""A heading's number: "1.3:", "15.6", "A.2."."""
_PRONOUNS = frozenset("it its they them their this these that".split())
_WORDS = re.compile(r"\w+")


def heading_asks(heading: str, question: str, said: Sequence[str], terms: Sequence[str]) -> bool:
    """Whether ``heading`` (a title or a section's heading) says what the ``question`` asks, in
    its words, the words of how it asks included (``said``: the question's words but its
    stopwords; ``terms``: those a search ranks by): every word of the heading is one of the
    question's, one of them a word of how it asks, and the heading lacks one of the ``terms``
    at most (the subject, which a page of its manual need not name). A heading of one such
    word is not enough ("Meaning", for "What does X mean?"), unless it asks the question
    itself, a pronoun for the subject ("1.3: What is it good at?" for "What is zsh good at?").

    Example:
        >>> said, terms = ["known", "limitations", "gnuplot"], ["limitations", "gnuplot"]
        >>> q = "What are the known limitations of gnuplot?"
        >>> heading_asks("Known limitations", q, said, terms), heading_asks("Limitations", q,
        ...     said, terms), heading_asks("Known bugs", q, said, terms)
        (True, False, False)
        >>> heading_asks("1.3: What is it good at?", "What is zsh good at?", ["zsh", "good"],
        ...              ["zsh"]), heading_asks("Good", "What is zsh good at?", ["zsh", "good"],
        ...              ["zsh"])
        (True, False)
    """
    words = query_terms(_NUMBERING.sub("", heading))
    if not words or len(words) > len(said) or not all(shares_form(w, said) for w in words):
        return False
    if not any(not shares_form(w, terms) for w in words):  # no word of how it asks
        return False
    missing = [t for t in terms if not shares_form(t, words)]
    if len(missing) > 1:
        return False
    return len(words) > 1 or _same_question(heading, question, missing)


def _same_question(heading: str, question: str, missing: Sequence[str]) -> bool:
    """Whether a heading asking a question asks ``question``, a pronoun standing for its
    ``missing`` word ("What is it good at?", "What is zsh good at?")."""
    if not heading.rstrip().endswith("?"):
        return False
    asked = [w for w in _WORDS.findall(_NUMBERING.sub("", heading).lower()) if w not in _PRONOUNS]
    gone = {m.lower() for m in missing}
    own = [w for w in _WORDS.findall(question.lower()) if w not in gone and w not in _PRONOUNS]
    return asked == own


def asked_heading_factor(heading: str, title: str, text: str, question: str,
                         said: Sequence[str], terms: Sequence[str]) -> float:
    """How much a passage's ``heading`` (or its page's ``title``) raises it: x(1 +
    :data:`ASKED_HEADING_BOOST`) when it says what the ``question`` asks (:func:`heading_asks`)
    and the subject it lacks is the passage's (:func:`_holds_subject`); divided by as much when
    its section's own heading (the last of ``heading``'s " / " parts) says it but the subject
    is not the passage's: the rare word of how the question asks, which the search looks up
    among the headings, raised its bm25 and is no answer (another page's "Known issues" for
    "What are the known issues with IPv6?", trial 119, F6); else x1.

    Example:
        >>> q, said, terms = "What are the known issues with IPv6?", ["known", "issues",
        ...     "ipv6"], ["issues", "ipv6"]
        >>> asked_heading_factor("quill on Windows / Known issues", "quill on Windows",
        ...     "Paths are cut.", q, said, terms), asked_heading_factor("Known issues",
        ...     "Networking", "IPv6 zones fail.", q, said, terms), asked_heading_factor(
        ...     "Use of IPv6", "Networking", "It works.", q, said, terms)
        (0.3333333333333333, 3.0, 1.0)
    """
    if any(heading_asks(h, question, said, terms) and _holds_subject(h, title, text, said, terms)
           for h in {heading, title}):
        return 1 + ASKED_HEADING_BOOST
    section = heading.rsplit(" / ", 1)[-1]
    if heading_asks(section, question, said, terms):  # its subject is not the passage's
        return 1 / (1 + ASKED_HEADING_BOOST)
    return 1.0


def _holds_subject(heading: str, title: str, text: str, said: Sequence[str],
                   terms: Sequence[str]) -> bool:
    """Whether the term ``heading`` lacks (a heading that :func:`heading_asks` lacks one at
    most) is the passage's: its heading, its page's ``title`` or its ``text`` has it, or the
    page is the section alone, its title in the question's words (gnuplot's page "Known
    limitations", which never names gnuplot), or the heading asks the question itself ("1.3:
    What is it good at?")."""
    words = query_terms(_NUMBERING.sub("", heading))
    missing = [t for t in terms if not shares_form(t, words)]
    if not missing or len(words) == 1:  # one word asks only as the question itself
        return True
    held = query_terms(f"{title} {text}")
    return any(shares_form(m, held) for m in missing) or all(
        shares_form(w, said) for w in query_terms(_NUMBERING.sub("", title)))
