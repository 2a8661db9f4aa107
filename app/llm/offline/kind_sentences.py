"""Sentences that answer a question's kind, read alike by the offline model (which sentence of a
passage it quotes) and by the report (which one its Answer leads with): a default stated
(:func:`says_default`, :mod:`app.research.reference`), two things set against each other
(:data:`CONTRAST`, :mod:`app.research.contrasts`).

Pure text rules; no I/O.
"""

from __future__ import annotations

import re

from app.llm.offline.words import stem

__all__ = ["CONTRAST", "STATES_DEFAULT", "asks_default", "asks_difference", "contrasts",
           "says_default"]

STATES_DEFAULT = re.compile(
    r"\b(?:the\s+)?default(?:\s+(?:value|setting))?\s+is\b"
    r"|\bdefaults?\s+to\b|\(the default\)|(?-i:\bDefault:\s*\S)"
    r"|\bsets\s+the\s+default(?:\s+value)?\s+to\b"
    r"|\bby\s+default\b|\b(?:is|are)\s+the\s+default\b"
    r"|\bdefault(?:\s+[\w-]+){1,4}\s+(?:is|are)\s+(?=[\"'‘“`(+-]?\d|[\"'‘“`]|(?:on|off|true|"
    r"false|none|null|empty|enabled|disabled|unset|zero|yes|no)\b"
    # one plain word ending the sentence, a value, not a judgement of the default
    r"|(?!(?:[a-z]{2,}(?:ed|ble|ful|ous|ive|ent|ant|ly)|slow|fast|fine|good|bad|safe|unsafe|"
    r"secure|insecure|wrong|right|same|ok|okay|better|worse|larger|smaller|faster|slower|"
    r"greater|higher|lower|longer|shorter)\b)[a-z][\w-]*[.!;][\"')\]]*(?:\s|$))"
    # the value set off by commas: a number, a quote, a keyword or a word written as code
    r"|\bthe\s+default(?:\s+[\w-]+){0,4},\s+(?:[\"'‘“`(+-]?\d[^,]*|[\"'‘“`][^,]*|(?:on|off|"
    r"true|false|none|null|empty|enabled|disabled|unset|zero|yes|no)|(?-i:[\w.-]*[A-Z0-9_][\w.-]*)),",
    re.IGNORECASE)
"""A sentence stating a default: "The default is ...", "X defaults (or X and Y default) to ...",
"(the default)", "The shell sets the default value to 500" (Bash's manual), a ``Default:``
field inside the entry's text (Node.js's ``<number> Timeout in milliseconds. Default: 5000 (5
seconds).`` under ``server.keepAliveTimeout``), "By default, Django uses the PBKDF2 algorithm"
or "This is the default cache if another is not specified" (trial 124, M3-F1: both were
retrieved and passed over for "The default password hasher is rather slow by design.", which
only says something of a default), and "The default X of Y is" a value ("The default setting
for auto-vacuum is 0 or "none"", "The default suggested cache size is -2000"), or one plain
word ending the sentence ("The default line cap is round.", Asymptote's: a value said as a word
was no default stated, trial 124, FB4; not "The default behaviour is different.", a judgement
of the default, nor "... is rather slow by design."), or the value set off by commas ("The
default spool size, 4096 bytes, fits most relays.", "The default, None, means ...": no default
was read; not "The default, however, may change.")."""

_DEFAULT_STEM = stem("default")


def says_default(sentence: str) -> bool:
    """Whether ``sentence`` states a default (:data:`STATES_DEFAULT`), not only names one.

    Example:
        >>> says_default("By default, Django uses the PBKDF2 algorithm with a SHA256 hash.")
        True
        >>> says_default("This is the default cache if another is not specified.")
        True
        >>> says_default("The default password hasher is rather slow by design.")
        False
        >>> says_default("The default setting for auto-vacuum is 0 or none.")
        True
        >>> says_default("The default line cap is round."), says_default("The default pen is red.")
        (True, True)
        >>> says_default("The default size, 4096 bytes, fits."), says_default("The default, None, "
        ...                                                                   "means any.")
        (True, True)
        >>> says_default("The default behaviour is different."), says_default(
        ...     "The default hasher is slow.")
        (False, False)
    """
    return STATES_DEFAULT.search(sentence) is not None


def asks_default(question: frozenset[str]) -> bool:
    """Whether a question (its stems) asks a default: it has the word "default" ("How are user
    passwords hashed by default?").

    Example:
        >>> from app.llm.offline.words import stems
        >>> asks_default(stems("How are passwords hashed by default?")), asks_default(stems("Why?"))
        (True, False)
    """
    return _DEFAULT_STEM in question


CONTRAST = re.compile(
    r"\b(?:equivalent\s+to|(?:the\s+)?same\s+as|identical\s+to|unlike|whereas|instead\s+of|"
    r"rather\s+than|as\s+opposed\s+to|(?:in|by)\s+contrast|differs?\s+from|different\s+from|"
    r"similar\s+to|alias\s+(?:of|for)|opposite\s+of|on\s+the\s+other\s+hand|conversely)\b",
    re.IGNORECASE)
"""The words that set one thing against another: a sentence holding them and naming both
things compared is the comparison's answer ("this method is equivalent to add_callback"), as
is one setting the second thing against the first it names ("prefetch_related, on the other
hand, does a separate lookup for each relationship ...", Django's, after "select_related works
by creating an SQL join ...": "on the other hand", "by contrast" and "conversely" were no
contrast, trial 124, FB3)."""
_DIFFERENCE = frozenset(stem(word) for word in "difference compare vs versus".split())


def asks_difference(question: frozenset[str]) -> bool:
    """Whether a question (its stems) asks how things differ: "difference", "differ",
    "compare", "vs".

    Example:
        >>> from app.llm.offline.words import stems
        >>> asks_difference(stems("How do null and blank differ?")), asks_difference(stems("Why?"))
        (True, False)
    """
    return bool(question & _DIFFERENCE)


def contrasts(text: str, stems: frozenset[str], question: frozenset[str]) -> bool:
    """Whether a sentence (``text``, its ``stems``) sets two of the things a question asking a
    difference names against each other: a :data:`CONTRAST` word and two of its words besides
    those of the asking ("null is purely database-related, whereas blank is validation-related."
    lost to the two definitions for "What's the difference between null=True and blank=True on
    a model field?", trial 124, M3-F2).

    Example:
        >>> from app.llm.offline.words import stems
        >>> q = stems("How do null and blank differ?")
        >>> text = "null is for the database, whereas blank is for validation."
        >>> contrasts(text, stems(text), q), contrasts("null is one.", stems("null is one."), q)
        (True, False)
        >>> q = stems("What is the difference between select_related and prefetch_related?")
        >>> text = "prefetch_related, on the other hand, does a separate lookup in Python."
        >>> contrasts(text, stems(text), q)
        True
    """
    return (CONTRAST.search(text) is not None
            and len((stems & question) - _DIFFERENCE) >= 2)
