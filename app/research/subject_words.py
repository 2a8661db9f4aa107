"""What a question asks about: its words that name its subject (:func:`subject_terms`), not
those of its kind ("the *limitations* of ToolNode", "the *default value* of dotfactor") nor the
kind of thing a name is ("the TMOUT *variable*"), and its words as the relevance judge reads them
(:func:`question_terms`). Pure functions of the question's text (and the rows' names); which
sentences name that subject is :mod:`app.research.own`'s to judge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.research.default_asks import asked_thing
from app.research.relevance import spelled_out, topic_terms
from app.research.topics import subject as topic_subject
from app.research.topics import topic_kind
from workers.sources.query import mentions
from workers.sources.stopwords import FILLER_WORDS, STOPWORDS

__all__ = ["question_terms", "subject_terms"]

_OF = re.compile(r"\s+of\s+", re.IGNORECASE)
_QUANTIFIER = re.compile(r"\b(?:one|some|any|each|all|most|many|few|both|none|either|neither|"
                         r"several|part|rest)$", re.IGNORECASE)
"""A word before "of" that counts what follows ("one of my objects", "some of the rows"): the
thing asked is after "of", not before it."""
_KIND_WORDS: dict[str, frozenset[str]] = {
    "limitation": frozenset(
        """limitation limitations caveat caveats drawback drawbacks downside downsides pitfall
        pitfalls gotcha gotchas disadvantage disadvantages restriction restrictions
        shortcoming shortcomings""".split()),
    "default": frozenset("default defaults value values setting settings".split()),
    "compare": frozenset("difference differences differ differs compare compared".split()),
}
"""Words that say what kind of question is asked, not what it is about: "the limitations of
*ToolNode*", "the default value of *dotfactor*". A sentence that names only them is about
another subject (a neighbour's default, another thing's limitation)."""


def subject_terms(topic: str, rows: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """The topic's words that name what it asks about: :func:`question_terms` less the words
    of the question's kind (:data:`_KIND_WORDS` of :func:`app.research.topics.topic_kind`); all
    of them when that leaves none. Of a default asked "Which X does Y use?", the words of X
    (:func:`~app.research.default_asks.asked_thing`: "cache", not "Django" or "use", trial 124).
    Of a "what" question, its words in the subject :func:`app.research.topics.subject` reads
    ("What does the orient function return?": "orient", not the verb it ends with).

    For "X of Y" the words of X, when it has two or more but those (one, as in "list of Y" or
    "state of Y", may be a word any Y has): "retry policy of a graph node" asks about a retry
    policy, and a sentence on graphs and nodes alone is about something else ("Useful for
    edgeless graphs with nodes that return `Command` objects." answered it). An X of words of
    how people ask only (:data:`~workers.sources.stopwords.FILLER_WORDS`) is none: "get rid of
    the blank lines" asks about blank lines.

    Example:
        >>> subject_terms("What are the limitations of ToolNode?")
        ['toolnode']
        >>> subject_terms("retry policy of a graph node")
        ['retry', 'policy']
        >>> subject_terms("How can I turn one of my objects into a plain dictionary?")
        ['turn', 'one', 'objects', 'plain', 'dictionary']
        >>> subject_terms("How can I get rid of the blank lines my tags leave?")
        ['blank', 'lines', 'tags', 'leave']
    """
    terms, kind = question_terms(topic, rows), topic_kind(topic)
    subject = [t for t in terms if t not in _KIND_WORDS.get(kind, ())] or terms
    thing = asked_thing(topic) if kind == "default" else ""  # "Which cache does Django use?"
    if thing and (own := [t for t in subject if mentions([t], thing)]):
        return own
    subject = [t for t in subject if t not in _named_kinds(topic, subject)] or subject
    bare = topic_subject(topic)
    if kind == "what":  # "What does the orient function return?": not "return"
        subject = [t for t in subject if mentions([t], bare)] or subject
    head = _OF.split(bare, maxsplit=1)
    if len(head) == 2 and _QUANTIFIER.search(head[0]):  # "turn one of my objects into ...":
        return subject  # of what "one" is, not "turn one" (trial 84, F6)
    if len(head) == 2:  # "retry policy of a graph node" asks about a retry policy
        own = [t for t in subject if mentions([t], head[0])]
        if own and all(t in FILLER_WORDS for t in own):  # "get rid of X": X
            return [t for t in subject if t not in own] or subject
        return own if len(own) >= 2 else subject  # "list of X", "state of X": X
    return subject


_KIND_OF_NAME = re.compile(
    r"(?P<name>[^\W_][\w.-]*)`?\s+(?P<kind>variables?|options?|settings?|directives?|"
    r"parameters?|builtins?|commands?|functions?|methods?|properties|property|flags?|"
    r"keywords?|attributes?|fields?|events?|macros?|pragmas?|extensions?|modules?|plugins?|"
    r"hooks?|filters?)\b", re.IGNORECASE)
"""A thing named, then the kind of thing it is: "the TMOUT *variable*", "the pipefail
*option*", "the `exec` *builtin*", "the toc *extension*" (whose "extension" made
"markdown.extensions.headerid.slugify_unicode" a sentence on the default baselevel of the toc
extension, trial 111, F2)."""


_NO_NAMES = frozenset("one two three single first second last next new old default custom own "
                      "whole given same other different extra".split())
"""Words before a kind of thing that count or pick, not name ("one field", "a new option")."""


def _named_kinds(topic: str, subject: Sequence[str]) -> set[str]:
    """The words of ``subject`` that only say what kind of thing a name of it is ("variable"
    in "What does the TMOUT variable do?"): a sentence saying "this variable" is about some
    variable, not TMOUT (trial 45, W10: TIMEFORMAT's "If this variable is not set" answered).

    Example:
        >>> sorted(_named_kinds("What does the TMOUT variable do?", ["tmout", "variable"]))
        ['variable']
    """
    pairs = ((m.group("name").lower(), m.group("kind").lower())
             for m in _KIND_OF_NAME.finditer(topic))
    return {kind for name, kind in pairs if name in subject and kind in subject
            and name not in STOPWORDS and name not in _NO_NAMES}


def question_terms(topic: str, rows: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """:func:`~app.research.relevance.topic_terms`, an identifier no item of ``rows`` names
    spelled out as its words (:func:`app.research.relevance.spelled_out`), as the relevance
    judge reads the topic."""
    return spelled_out(topic_terms(topic), None, rows) if rows else topic_terms(topic)
