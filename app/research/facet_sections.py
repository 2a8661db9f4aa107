"""A later section asking what one thing is ("What is Send?", a facet of the plan): what it
shows of its findings (:func:`facet_findings`), and whether the report shows an answer to it
(:func:`facet_answered`), so it is folded into the Notes as repeating the report only then.
Pure: reads the rows and claims it is given.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from app.research.citations import claim_key, once, said
from app.research.contrasts import defines
from app.research.definitions import definitions
from app.research.relevance import topic_terms
from app.research.topics import topic_kind
from workers.sources.query import mentions

__all__ = ["facet_answered", "facet_findings"]

_WHAT_IS = re.compile(r"^what\s+(?:is|are)\s+(?:meant\s+by\s+)?(?P<thing>[^?]+)\??$",
                      re.IGNORECASE)
"""A question asking what one thing is: "What is Send?", "What are reducers?"."""
_THING_WORDS = 3
"""The most words of the thing a "What is X?" facet asks about: a longer one asks more."""


def _thing(question: str) -> str:
    """The thing ``question`` asks what it is, when it asks only that ("git rebase" of "What is
    git rebase?", :data:`_THING_WORDS` words at most), else ""."""
    asked = _WHAT_IS.match(" ".join(question.split()))
    terms = topic_terms(asked.group("thing")) if asked else []
    if not asked or topic_kind(question) != "what" or not 0 < len(terms) <= _THING_WORDS:
        return ""
    return asked.group("thing").strip()


def facet_findings(question: str, rows: Sequence[dict[str, Any]], found: list[dict[str, Any]],
                   listed: set[tuple[str, str]]) -> tuple[list[dict[str, Any]], bool]:
    """What a later section asking what one thing is ("What is Send?") shows of ``found``, its
    findings: the thing's definition (:func:`~app.research.definitions.definitions`) when no
    bullet above (``listed``, claim keys) shows it, then the findings that name it (every word
    of it) or define it; and whether one of those is shown above already. Any other question
    (one that asks more than what a thing of at most :data:`_THING_WORDS` words is):
    ``found`` as it is, and False.

    When the definition went to the Answer ("Send vs reducers"), "What is Send?" showed what
    was left, sentences on its timeout parameter: such a section is folded into the Notes
    (when the report answers it: :func:`facet_answered`).
    """
    terms = topic_terms(thing) if (thing := _thing(question)) else []
    if not terms:
        return found, False
    defined = {claim_key(d): d for d in definitions([(question, rows)], question)[:1]}
    on = [defined.get(claim_key(f), f) for f in found
          if claim_key(f) in defined or len(mentions(terms, str(f["text"]))) == len(terms)]
    above = any(said(item, listed) for item in [*defined.values(), *on])
    fresh = [d for d in defined.values() if not said(d, listed)]
    return once([*fresh, *on]), above


def facet_answered(question: str, rows: Sequence[dict[str, Any]],
                   listed: Collection[tuple[str, str]]) -> bool:
    """Whether the report answers ``question``, a later section's "What is X?", among the
    claims it shows (``listed``, claim keys): the thing's definition
    (:func:`~app.research.definitions.definitions`) or a sentence defining it
    (:func:`~app.research.contrasts.defines`). Any other question is not judged: True.

    A sentence that only names the thing is no answer: "What is git rebase?" of "git merge vs
    git rebase" was folded as repeating the report beside "... it preserves linear history
    with git rebase instead of git merge ...", and "What are gunicorn workers?" beside
    "Gunicorn is a pure Python WSGI server with ... multiple worker implementations ..."
    (trial 121, F8).

    Example:
        >>> facet_answered("What is a frontend?", [], {(
        ...     'a "frontend" section describes a set of listening sockets.', "c.html#1")})
        True
        >>> facet_answered("What are gunicorn workers?", [], {(
        ...     "gunicorn is a pure python wsgi server with multiple worker implementations.",
        ...     "gunicorn.html#0")})
        False
    """
    thing = _thing(question)
    if not thing:
        return True
    if any(said(d, listed) for d in definitions([(question, rows)], question)[:1]):
        return True
    return any(defines(thing, text) for text, _ref in listed)
