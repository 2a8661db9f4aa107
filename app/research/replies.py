"""A FAQ's bare reply to the yes/no question the topic asks: "Yes." or "No." alone under a
heading asking that question (trial 128, F3).

curl's FAQ answers "5.1 Is libcurl thread-safe?" with a paragraph "Yes." before it explains; a
one-word sentence is no finding, so the report of "Is libcurl thread-safe?" quoted the
explanation and never said yes. The reply is the answer to its heading's question, so it is
the topic's answer only when the heading asks what the topic asks: every word the topic is
judged by (:func:`~app.research.relevance.topic_terms`) is in the heading, and the heading asks
nothing more (an aside in brackets apart: "Does curl support SOCKS (RFC 1928) ?").

Pure: regular expressions over the retrieved passages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from app.research.relevance import topic_terms
from workers.sources.chunks import PARA_SPLIT
from workers.sources.query import mentions

__all__ = ["asks_yes_no", "bare_reply", "reply_passage"]

_YES_NO = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?(?:can|could|may|must|should|shall|will|"
                     r"would|is|are|does|do|did|was|were|has|have)\s+(?!you\s+(?:explain|tell|"
                     r"describe|show)\b)\w[^?]*\?\W*$", re.IGNORECASE | re.DOTALL)
"""A yes/no question ("Is libcurl thread-safe?", "5.1 Is libcurl thread-safe?" as a FAQ numbers
its headings); "Can you explain how ...?" asks how."""
_REPLY = re.compile(r"(?:yes|no)[.!]", re.IGNORECASE)
"""A paragraph that is a bare reply and nothing else."""
_ASIDE = re.compile(r"\([^()]*\)|^\W*\d+(?:\.\d+)*\.?\s+")
"""An aside in brackets, and a FAQ's number before its question: no words asked."""


def asks_yes_no(text: str) -> bool:
    """Whether ``text`` is a yes/no question (a FAQ's number before it aside).

    Example:
        >>> asks_yes_no("5.1 Is libcurl thread-safe?"), asks_yes_no("How do I resume?")
        (True, False)
    """
    return _YES_NO.match(text.strip()) is not None


def bare_reply(text: str, heading: str) -> str:
    """The bare reply ("Yes." or "No.") that opens the body of the passage ``text`` under its
    ``heading`` (its last part, when the heading is a path "Page / Section"); "" when the body
    opens otherwise.

    Example:
        >>> bare_reply("5.1 Is it safe?\\n\\n  Yes.\\n\\n  It is.", "5.1 Is it safe?")
        'Yes.'
        >>> bare_reply("5.1 Is it safe?\\n\\n  Yes, mostly.", "5.1 Is it safe?")
        ''
    """
    own = heading.rsplit(" / ", 1)[-1].strip()
    paragraphs = [p.strip() for p in PARA_SPLIT.split(text) if p.strip()]
    if paragraphs and " ".join(paragraphs[0].lstrip("#").split()) == " ".join(own.split()):
        paragraphs = paragraphs[1:]  # the passage repeats its heading as its first line
    return paragraphs[0] if paragraphs and _REPLY.fullmatch(paragraphs[0]) else ""


def reply_passage(question: str, passages: Iterable[Mapping[str, Any]]
                  ) -> tuple[str, Mapping[str, Any]] | None:
    """The first of ``passages`` (dicts with ``text`` and ``heading``, best first) whose heading
    asks the yes/no ``question`` and whose body opens with a bare reply, as ``(reply,
    passage)``; None when ``question`` asks no yes or no, or no passage is such.

    Example:
        >>> faq = {"text": "5.1 Is relay safe?\\n\\nNo.\\n\\nIt drops.",
        ...        "heading": "5.1 Is relay safe?"}
        >>> reply_passage("Is the relay safe?", [faq])[0]
        'No.'
        >>> reply_passage("Is the relay safe on Mars?", [faq]) is None
        True
    """
    if not asks_yes_no(question):
        return None
    asked = topic_terms(question)
    for passage in passages:
        heading = str(passage.get("heading") or "").rsplit(" / ", 1)[-1]
        if not (asked and asks_yes_no(heading)):
            continue
        said = _ASIDE.sub(" ", heading)
        if (len(mentions(asked, said)) == len(asked)
                and len(mentions(topic_terms(said), question)) == len(topic_terms(said))
                and (reply := bare_reply(str(passage.get("text") or ""), heading))):
            return reply, passage
    return None
