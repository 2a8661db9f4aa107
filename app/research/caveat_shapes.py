"""Shapes of a sentence whose words of caution caution nothing (:mod:`app.research.caveats`):
a pointer to another text, a default stated with how to change it, an indirect question
naming what a setting lists, a setting's own description. Each was listed under a report's
Caveats (trial 114, F6, on Postfix's and Click's manuals; trial 115, F10, on zsh's)."""

from __future__ import annotations

import re

__all__ = ["defaulted", "plain", "pointer"]

_POINTER = re.compile(
    r"^\W*(?:(?:for\s+(?:more|further|details|examples?|information)\b[^,.;:]{0,60},\s*)?"
    r"(?:see|refer\s+to|consult|read)\s|see\s+also\b)", re.IGNORECASE)
"""A sentence that sends the reader elsewhere ("See RFC 2606 for examples of domain names that
are guaranteed not to be owned by anyone.", "For details, see the TLS README."): what it says
of the other text is no limitation of this one."""

_DEFAULT_STATE = re.compile(
    r"\bby\s+default\b,?\s+[^,.;:]{0,60}?\b(?:is|are)\s+not\b|"
    r"\bhowever,?\s+(?=to\s+\w+|if\s+you\s+(?:want|wish|need)\b|you\s+can\b)", re.IGNORECASE)
"""A default told with how to change it ("By default, options are not required, however to
make an option required, simply pass in required=True ...": Click's answer to making an option
required, listed as its Caveat, trial 114, F6): its "not" is the default, its "however" the
turn to the task."""

_WHAT_IS_LISTED = re.compile(
    r"\b(?:specif(?:y|ies|ied)|lists?|controls?|determines?|selects?|says?|tells?|decides?)\s+"
    r"(?:what|which)\s+(?:\w+\s+){1,3}?(?:should|must|may|can|will|do|does|is|are)"
    r"(?:\s+not|n't)\b", re.IGNORECASE)
"""An indirect question naming what a setting lists ("The masquerade_exceptions configuration
parameter specifies what user names should not be subjected to address masquerading.", the
Caveat of Postfix's "What is address masquerading?", trial 114, F6): it tells what the
setting holds, no warning."""

_WITHIN = re.compile(r"\b(?:within|inside|between)\s+(?:the|its|their|these|those|set)\s+"
                     r"(?:\w+\s+)?limits?\b", re.IGNORECASE)
"""A range a value keeps to ("adjusting up or down to lie within the limits", how Postfix
sets its next retry time, the Caveat of "How long does Postfix keep retrying a message?" once
bounce_queue_lifetime's description no longer was, trial 114, F6): no limitation."""

_ENTRY_HEAD = re.compile(r"^\W*`?[\w.\-]+`?\s*\([^()]{1,40}\)\s*[–—:-]?\s*")
"""A reference entry's head: a setting's name and its default or type in parentheses
(postconf(5)'s "bounce_queue_lifetime (5d) Consider a bounce message as undeliverable, when
delivery fails ...")."""
_SUBJECT_WORDS = re.compile(r"\b(?:fail|fails|failed|failure|failures|error|errors|limit|"
                            r"limits|raise|raises|lost|lose|loses)\b", re.IGNORECASE)
"""Words that, in an entry's description, name what its setting governs (a failure it
handles, the limit it is): the Caveat of "How long does Postfix keep retrying a message?" was
bounce_queue_lifetime's own description, the closest thing to its answer (trial 114, F6)."""

_ABSENT = re.compile(
    r"^\W*(?:if|when)\s+(?:no\s+[^,.;:]{0,40}?\b(?:is|are)|(?:this|that|the|it)\b[^,.;:]{0,60}?"
    r"\b(?:is|are)\s+not)\s+(?:specified|given|set|provided|supplied|present|passed)\b"
    r"[^,.;:]{0,40},", re.IGNORECASE)
"""A sentence opening with what happens when nothing is given ("If no arguments are
specified, the history list is left empty ...", zsh's ``fc -p``, a Caveat of "What is
SAVEHIST?", trial 115, F10): what it then says is the default, left empty by the user's own
choice, no failure unnoticed."""
_LEFT_EMPTY = re.compile(r"\b(?:is|are)\s+(?:(?:then|simply)\s+)?left\s+empty\b", re.IGNORECASE)


def pointer(text: str) -> bool:
    """Whether ``text`` points the reader to another text (:data:`_POINTER`).

    Example:
        >>> pointer("See RFC 2606 for examples of domain names that are guaranteed not to be "
        ...         "owned by anyone.")
        True
        >>> pointer("For details, see the TLS README."), pointer("Seeding is not supported.")
        (True, False)
    """
    return bool(_POINTER.match(text))


def plain(text: str) -> str:
    """``text`` less the words of caution that, in its shape, caution nothing: a default and
    the turn to changing it (:data:`_DEFAULT_STATE`), an indirect question's negation
    (:data:`_WHAT_IS_LISTED`), a range kept to (:data:`_WITHIN`), the failure or limit an
    entry's description names (:data:`_SUBJECT_WORDS` after :data:`_ENTRY_HEAD`).

    Example:
        >>> plain("By default, options are not required, however to make it so, pass x.")
        '  required,  to make it so, pass x.'
        >>> plain("It specifies what user names should not be masqueraded.")
        'It   be masqueraded.'
        >>> plain("bounce_queue_lifetime (5d) Consider it undeliverable when delivery fails.")
        'bounce_queue_lifetime (5d) Consider it undeliverable when delivery  .'
    """
    said = _WITHIN.sub(" ", _WHAT_IS_LISTED.sub(" ", _DEFAULT_STATE.sub(" ", text)))
    return _SUBJECT_WORDS.sub(" ", said) if _ENTRY_HEAD.match(text) else said


def defaulted(text: str) -> str:
    """``text`` less what it says is left empty when it opens with what happens when nothing
    is given (:data:`_ABSENT`): then an empty result is the default, no warning.

    Example:
        >>> defaulted("If no arguments are specified, the history list is left empty.")
        'If no arguments are specified, the history list  .'
        >>> defaulted("The last files it wrote are left empty.")
        'The last files it wrote are left empty.'
    """
    return _LEFT_EMPTY.sub(" ", text) if _ABSENT.match(text) else text
