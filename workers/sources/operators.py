"""The symbols a question writes: operators and punctuation tokens (``<=``, ``=>``, ``@@``,
``%msg:1:2%``) that no tokenizer keeps as words. Such a symbol is what the question asks about
("What do the log line flags <= and => mean?"), and a text answers it only by writing it: Exim's
"<=: message arrival." was left out while "->: additional address in same delivery." and "*>:
delivery suppressed by -N." were quoted (trial 117, F6).

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["asked_symbols", "writes_symbol"]

_OPERATOR = r"[<>=!~*@%&|^+\-/\\#$]"
_ALONE_BEFORE = r"(?:(?<=^)|(?<=[\s(\[\"'`]))"
_ALONE_AFTER = r"(?=[\s)\]\"'`,.;:?!]*(?:\s|$))"
_SYMBOL = re.compile(rf"{_ALONE_BEFORE}({_OPERATOR}{{2,4}}|%[A-Za-z][\w:.,-]*%){_ALONE_AFTER}")
"""A symbol written alone: two to four operator characters, or a template's ``%name%``, with
space, a bracket or a quote before it and space or punctuation after it."""


def asked_symbols(text: str) -> tuple[str, ...]:
    """The symbols ``text`` writes alone (:data:`_SYMBOL`), in order, once each: not a run of
    dashes or slashes alone (an em dash typed ``--``, a path's ``//``), not a word's markup
    (``**bold**``).

    Example:
        >>> asked_symbols("What do the log line flags <= and => mean?")
        ('<=', '=>')
        >>> asked_symbols('Prepend "@@" for TCP; %msg:1:2% -- or **bold** a/b')
        ('@@', '%msg:1:2%')
    """
    found = (m[1] for m in _SYMBOL.finditer(text))
    return tuple(dict.fromkeys(s for s in found if set(s) - set("-/")))


def writes_symbol(text: str, symbol: str) -> bool:
    """Whether ``text`` writes ``symbol`` as a whole: not as part of a longer run of operator
    characters (``<=`` is no part of ``<=>``, ``=>`` none of ``==>``).

    Example:
        >>> writes_symbol("<=: message arrival.", "<="), writes_symbol("(=: fakereject.", "<=")
        (True, False)
        >>> writes_symbol("a <=> b", "<="), writes_symbol('two at signs ("@@")', "@@")
        (False, True)
    """
    edge = "" if symbol.startswith("%") else _OPERATOR
    if not edge:
        return symbol in text
    return re.search(rf"(?<!{edge}){re.escape(symbol)}(?!{edge})", text) is not None
