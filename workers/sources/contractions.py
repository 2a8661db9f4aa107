"""English contractions and possessives undone to their first word, before a question's words
are searched: "How do I delete every variable I've created?" was warned that no passage
mentions "ve" (trial 49, F1), and "don't" searched the word "don".
"""

from __future__ import annotations

import re

__all__ = ["without_contractions"]

_FIRST_WORD = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
_APOSTROPHE = "['\u2019\u02bc\u2018\u00b4\u2032]"
"""An apostrophe as typed or set: straight, typographic (U+2019), the letter apostrophe
(U+02BC, as some keyboards type it), and the marks typed for one (U+2018, ´, ′): trial 52, F15."""
_CONTRACTIONS = (  # (pattern, replacement), applied in order to lower-cased text
    (re.compile(rf"\b(ca|wo|sha|ai)n{_APOSTROPHE}t\b"),
     lambda m: _FIRST_WORD[m.group(1)]),
    (re.compile(rf"(?<=[^\W\d_])n{_APOSTROPHE}t(?![^\W_])"), ""),  # don't: do
    (re.compile(rf"(?<=[^\W\d_]){_APOSTROPHE}(?:ve|ll|re|d|m|s|t)(?![^\W_])"), ""),  # I've: I
)
"""English contractions and possessives undone to their first word: "I've" is no "ve"."""


def without_contractions(text: str) -> str:
    """``text`` (lower-cased) with each English contraction and possessive undone to its first
    word: "i've" is "i", "don't" "do", "can't" "can", "user's" "user"; "re.sub" stays.

    Example:
        >>> without_contractions("i've seen the user's re module, but don't and can't")
        'i seen the user re module, but do and can'
    """
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text
