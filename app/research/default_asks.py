"""Questions asking a default: which words ask one (:data:`ASKS_DEFAULT`, read by
:func:`app.research.topics.topic_kind`) and what thing's default is asked
(:func:`asked_thing`, read by :func:`app.research.subject_words.subject_terms`).

Pure text rules; no I/O.
"""

from __future__ import annotations

import re

from app.research.phrasing import QUESTION_START

__all__ = ["ASKS_DEFAULT", "DEFAULT_AFTER", "asked_thing", "default_after"]

ASKS_DEFAULT = re.compile(  # asks a default: not "where do I put my default settings"
    r"^(?:what|which)\b.*\bdefaults?\b|\bby\s+default\b|\bdefaults?\s+to\b|"
    r"\bdefault\s+(?:value|setting|size|mode)s?\s+(?:of|for)\b|"
    # what is used when it is not set: "Which cache does Django use if I don't configure one?"
    # (asked as a what-question, the CACHES setting's "Default:" row went unread, trial 124)
    r"^(?:what|which)\b.*\b(?:if|when)\s+(?:i|you|we|one)\s+(?:don['’]?t|do\s+not|"
    r"never)\s+(?:configure|set|specify|define|choose|select|pick|provide|give|pass)\b",
    re.IGNORECASE)
"""The words of a question asking a default: "What is the default X?", "... by default?",
"X defaults to?", "the default value of X", and what is used when the asker sets nothing
("Which cache does Django use if I don't configure one?")."""

DEFAULT_AFTER = re.compile(
    r"(?P<before>\w+)\s+defaults?(?:\s+(?:values?|settings?))?[?.!\s]*$", re.IGNORECASE)
_NOT_A_THING = frozenset("to by the a an its their my your our as from of for on at in into "
                         "back use using".split())


def default_after(text: str) -> bool:
    """Whether a phrase names a thing, then asks its default: "HostnameLookups default", "page
    size default value" (else answered as a bare topic, by a sentence on Apache
    1.3); not a question, nor a phrase where "default" is what is done ("reset to default").

    Example:
        >>> default_after("HostnameLookups default"), default_after("reset to default")
        (True, False)
    """
    match = DEFAULT_AFTER.search(text)
    return bool(match and not QUESTION_START.match(text)
                and match.group("before").lower() not in _NOT_A_THING)


_WHICH_THING = re.compile(
    r"^(?:which|what)\s+(?P<thing>(?!(?:is|are|was|were|does|do|did|will|would|should|can)\b)"
    r"[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:does|do|did|is|are|will|would|should|can)\s+\S",
    re.IGNORECASE)


def asked_thing(question: str) -> str:
    """The thing a "which X does Y use?" question asks for, "" when it is not so shaped: asked
    "Which cache does Django use by default?", the default asked is a cache's, and "Django"
    and "use" named no ``Default:`` row (Django's ``CACHES`` entry, trial 124, M3-F1).

    Example:
        >>> asked_thing("Which cache does Django use if I don't configure one?")
        'cache'
        >>> asked_thing("What page size does SQLite use by default?")
        'page size'
        >>> asked_thing("What is the default page size?"), asked_thing("What does -x do?")
        ('', '')
    """
    found = _WHICH_THING.match(" ".join(question.split()))
    return found.group("thing") if found else ""
