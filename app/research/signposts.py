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
from collections.abc import Iterable
from typing import Any

__all__ = ["SIGNPOST", "is_signpost", "stated"]

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
    """
    if not SIGNPOST.match(sentence) or _MAKE_SURE.search(sentence):
        return False
    said = sentence.partition(":")[2]
    return len(said.split()) < _SAID_WORDS


_MAKE_SURE = re.compile(r"\bsee\s+(?:to\s+it\s+)?that\b", re.IGNORECASE)
"""A "see that" (or "see to it that") asks to make sure, not to look elsewhere."""
_SAID_WORDS = 4
"""At least this many words after a signpost's colon say what it points at."""


def stated(findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``findings`` (items with a ``text``) that state something: not signposts. A
    section whose only finding was "For tricky behavior, see case and character ranges." said
    nothing (trial 104, R4)."""
    return [f for f in findings if not is_signpost(str(f["text"]))]
