"""Sentences that point at the documentation instead of saying something: "This document
describes when and how to use name-based virtual hosts.", "See also the note about this in the
AllowOverride directive documentation.", "Here's the basics of password protecting a
directory." On the Apache manual such sentences led the Answer to "What is
name-based virtual hosting?" and "What does the AllowOverride directive do?", whose definitions
sat in the passages below. The Answer puts them after the sentences that state something.

Pure: one regular expression.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ["SIGNPOST", "is_signpost", "pointers_out", "stated", "stating"]

_DOC = (r"(?:document|page|section|chapter|guide|tutorial|article|manual|manpage|howto|"
        r"reference|appendix|part|module|file)")
SIGNPOST = re.compile(
    r"^\W*(?:"
    r"see(?:\s+also)?\b|refer\s+to\b|for\s+(?:more|further|additional|full|a\s+(?:full|"
    r"complete|detailed))\b[^.]{0,40}\b(?:see|refer|read|consult|information|details)\b|"
    r"for\s+[^.,;:]{1,60},\s*(?:see|refer\s+to|consult)\b|"
    rf"(?:this|the\s+(?:present|following|next|previous))\s+{_DOC}s?\s+(?:describes?|"
    r"explains?|covers?|shows?|discusses|documents?|contains?|lists?|gives?|provides?|"
    r"introduces?|is\s+about|deals\s+with|will\s+(?:describe|explain|show|cover|discuss))\b|"
    r"here(?:'s|\u2019s|\s+is|\s+are)\s+(?:the\s+)?(?:basics|an?\s+(?:overview|summary|"
    r"introduction|example))\b|"
    r"(?:the\s+)?following\s+(?:\w+\s+){0,2}(?:describes?|shows?|lists?|explains?)\b"
    r")",
    re.IGNORECASE)
"""A sentence that opens by pointing elsewhere ("See ...", "For more information, see ...") or
at its document ("This document describes ...", "Here's the basics of ...")."""


def is_signpost(sentence: str) -> bool:
    """Whether ``sentence`` points at the documentation rather than stating a fact
    (:data:`SIGNPOST`).

    Example:
        >>> is_signpost("This document describes when and how to use name-based hosts.")
        True
        >>> is_signpost("See also the note about this in the AllowOverride documentation.")
        True
        >>> is_signpost("Name-based hosting relies on the client to report the host name.")
        False
        >>> is_signpost("Seeing the log is enough.")
        False
        >>> is_signpost("For tricky behavior, see case and character ranges.")  # trial 104, R4
        True

    One that goes on to say it, after a colon, states it ("This page lists the exit codes it
    returns: 0 when every file was sent, 24 when ..."), and "see that" asks to make sure
    ("For a slow link, see that --timeout is at least 120."): neither points away (trial 113,
    F7: each was the sentence that answered, and was left out).

        >>> is_signpost("This page lists the exit codes: 0 when all went well, 24 when it failed.")
        False
        >>> is_signpost("For a slow link, see that --timeout is at least 120.")
        False
        >>> is_signpost("The following table lists them:")
        True

    A "See also" item states nothing, labelled or written "<title> - <what it has>": the link's
    text is the title of the section it points at, which repeats a question's words (trial
    123, F2).

        >>> is_signpost("See also: How do I render SQL expressions as strings, possibly with "
        ...             "bound parameters inlined? - includes a usage example.")
        True
        >>> is_signpost("Remote-Schema Table Introspection and PostgreSQL search_path - "
        ...             "additional details of this behavior as regards the PostgreSQL database.")
        True
        >>> is_signpost("pool_size - the number of connections to keep open inside the pool.")
        False
        >>> is_signpost("-v, --verbose - more details on each test.")
        False
    """
    if _POINTER_ITEM.match(sentence) or _LISTED_POINTER.match(sentence):
        return True
    if not SIGNPOST.match(sentence) or _MAKE_SURE.search(sentence):
        return False
    said = sentence.partition(":")[2]
    return len(said.split()) < _SAID_WORDS


_POINTER_ITEM = re.compile(r"^\W*see(?:\s+also)?\s*:", re.IGNORECASE)
"""An item of a "See also" list, labelled ("See also: Cascades for detail on cascades.",
:mod:`workers.sources.htmlseealso`): what follows its colon is where to look, not what is
said, however long (trial 123, F2)."""
_LISTED_POINTER = re.compile(
    r"^\W*(?:\S+\s+){2,}?\S+\s+[-\u2013\u2014]\s+(?:(?:an?|the|some)\s+)?(?:"
    r"background\s+(?:on|of|about|for)|(?:additional|further|more|in-depth)\s+(?:details?|"
    r"information|background|discussion|examples?|notes?)|details?\s+(?:on|of|about)|"
    r"(?:discussion|overview|examples?|description|summary)\s+(?:of|on|about|for)|"
    r"introduction\s+to|includes?\s+(?:an?\s+|the\s+)?(?:\w+\s+)?examples?|"
    r"(?:describes|explains|covers|discusses)\b)",
    re.IGNORECASE)
"""A "See also" item as a list writes it, "<the linked section's title> - <what it has>":
"How do I render SQL expressions as strings, possibly with bound parameters inlined? -
includes a usage example for debugging use cases.", "Remote-Schema Table Introspection and
PostgreSQL search_path - additional details of this behavior as regards the PostgreSQL
database." (trial 123, F2). The title is three words or more and what follows the dash names
what the target has, so an entry's "pool_size - the number of connections to keep open" or an
option's "-q, --quiet - decrease verbosity" is no pointer."""


_MAKE_SURE = re.compile(r"\bsee\s+(?:to\s+it\s+)?that\b", re.IGNORECASE)
"""A "see that" (or "see to it that") asks to make sure, not to look elsewhere."""
_SAID_WORDS = 4
"""At least this many words after a signpost's colon say what it points at."""


def stated(findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``findings`` (items with a ``text``) that state something: not signposts. A
    section whose only finding was "For tricky behavior, see case and character ranges." said
    nothing (trial 104, R4)."""
    return [f for f in findings if not is_signpost(str(f["text"]))]


def stating(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``findings`` that state something (:func:`stated`), else all of them: a signpost
    only alone. The Answer to "What does the xfail strict parameter do?" quoted the
    ``xfail_strict`` entry, then "For more information, see strict parameter." (trial 123, F2):
    the entry led, and the signposts were left out only among the ranked findings.

    Example:
        >>> [f["text"][:3] for f in stating([{"text": "It fails."}, {"text": "See X."}])]
        ['It ']
        >>> [f["text"] for f in stating([{"text": "See X."}])]
        ['See X.']
    """
    return stated(findings) or findings


def pointers_out(passages: Sequence[dict[str, Any]], shown: Callable[[dict[str, Any]], str],
                 said: bool) -> list[dict[str, Any]]:
    """The ``passages`` whose sentence ``shown`` states something; those that only point
    elsewhere too when none does and nothing else is ``said`` (no finding of the section, no
    claim above it).
    "See Constructors and Object Initialization for a description of this behavior." was a
    Top passage under two findings (trial 123, F2, X4).

    Example:
        >>> found = [{"text": "See Constructors for a description of this behavior."}]
        >>> len(pointers_out(found, lambda p: p["text"], said=True)), len(pointers_out(
        ...     found, lambda p: p["text"], said=False))
        (0, 1)
    """
    kept = [p for p in passages if not is_signpost(shown(p))]
    return kept if kept or said else list(passages)
