"""Two claims that say one thing: the same sentence in two wordings (two copies of one manual,
one sentence written on two pages), one of them labelled ("Note: ...") or cut short. A report
says each once (:func:`app.research.citations.said`, :func:`near_copies_out`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from app.llm.offline.words import stems
from app.research.text import unlabelled_claim, wording

__all__ = ["HELD_COPY", "NEAR_COPY", "near_copies_out", "near_copy"]

NEAR_COPY = 0.75
"""Two sentences whose content stems overlap this much (Jaccard), each of at least
:data:`_NEAR_COPY_STEMS`, say one thing in two wordings."""
_NEAR_COPY_STEMS = 6
HELD_COPY = 0.6
"""... or this much when the later one holds every stem of the earlier one: Postfix's
"smtpd_junk_command_limit (normal: 100, overload: 1) The number of junk commands ..." (its
man page) after postconf.5's "The number of junk commands ..." (trial 88, R1)."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@lru_cache(maxsize=4096)
def _stems_of(text: str) -> frozenset[str]:
    return frozenset(stems(text))


@lru_cache(maxsize=4096)
def _words_of(text: str) -> tuple[str, ...]:
    """The words of ``text`` as :func:`~app.research.text.wording` writes each, its label
    ("Note:") left out."""
    return tuple(w for w in map(wording, unlabelled_claim(text).split()) if w)


def near_copy(text: str, other: str) -> bool:
    """Whether two claims say one thing in two wordings: their content stems, at least
    :data:`_NEAR_COPY_STEMS` each, overlap by :data:`NEAR_COPY` (Jaccard), or one holds the
    other's by :data:`HELD_COPY`, or the words of one, a label ("Note:") aside, open the other
    (:func:`_opens`). Bash's manual and its man page word ``-n`` a little apart ("check a
    script" / "check a shell script"): the Answer quoted one and a section the other (trial
    97, R1). Claims with numbers the other lacks both ways are other claims ("The relay
    keeps ledger number 1 at station 1." and "... 2 at station 2.").

    Example:
        >>> near_copy("-n Read commands but do not execute them. This may be used to check a "
        ...           "script for syntax errors.", "-n: Read commands but do not execute them. "
        ...           "This may be used to check a shell script for syntax errors.")
        True
    """
    numbers, others = set(_NUMBER.findall(text)), set(_NUMBER.findall(other))
    if not (numbers <= others or others <= numbers):
        return False  # "ledger number 1 at station 1" is not "... 2 at station 2"
    own, theirs = _stems_of(text), _stems_of(other)
    if len(own) < _NEAR_COPY_STEMS or len(theirs) < _NEAR_COPY_STEMS:
        return False
    return len(own & theirs) >= (HELD_COPY if own >= theirs else NEAR_COPY) * len(
        own | theirs) or _opens(text, other)


def _opens(text: str, other: str) -> bool:
    """Whether the words of one of two claims open the other, a label ("Note:") and the
    punctuation aside. SQLAlchemy writes one sentence on two events, once going on: "... It is
    not called when an object is loaded from the database." and "...; see the
    InstanceEvents.load() event ..." were two Answer bullets (trial 123, F7, X4).

    Example:
        >>> said = "This method is only called during a userland construction of an object."
        >>> _opens(said, f"Note: {said[:-1]}; see the load() event.")
        True
        >>> _opens("The cache is big and slow to fill.", "The cache is bigger and slow.")
        False
    """
    own, theirs = _words_of(text), _words_of(other)
    short, long = sorted((own, theirs), key=len)
    return long[:len(short)] == short


def near_copies_out(found: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``found`` without an item that says what one before it says in other words (a manual
    writing one sentence twice, on two pages: Zsh's "The types of alias expanded can be
    controlled with the styles regular, global and disabled." and "The types of aliases which
    are to be expanded can be controlled ..." were two Answer bullets, trial 72, F9).

    Example:
        >>> a = {"text": "The types of alias expanded can be controlled with the styles "
        ...              "regular, global and disabled."}
        >>> b = {"text": "The types of aliases which are to be expanded can be controlled "
        ...              "with the styles regular, global and disabled."}
        >>> c = {"text": "The default is 5."}
        >>> [i["text"][:9] for i in near_copies_out([a, b, c])]
        ['The types', 'The defau']
        >>> d = {"text": "The number of junk commands a client can send before the error "
        ...              "counter goes up."}
        >>> e = {"text": "junk_limit (normal: 100, overload: 1) " + d["text"]}
        >>> len(near_copies_out([d, e]))
        1
    """
    kept: list[dict[str, Any]] = []
    for item in found:
        text = str(item.get("text", ""))
        if not any(near_copy(text, str(other.get("text", ""))) for other in kept):
            kept.append(item)
    return kept
