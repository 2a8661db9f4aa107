"""Where a sentence of prose ends: a ``.``, ``!`` or ``?`` (and its closing quotes or brackets)
before a capital letter or a digit, unless the dot belongs to an abbreviation.

Pure text rules for :func:`app.llm.offline.sentences.split_sentences`; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["sentence_ends"]

_SENTENCE_END = re.compile(
    # not after an abbreviation that never ends a sentence: "(e.g. [2] or [1])" was cut in two
    r"(?<!\b[eE]\.g)(?<!\b[iI]\.e)(?<!\b[cC]f)(?<!\bvs)(?<!\bapprox)(?<!\b[fF]ig)"
    r"[.!?][\"')\]]*(?=\s+[\"'(\[`*_]?[A-Z0-9])"
)
_NUMBERED = frozenset({"p", "pp", "no", "nos", "sec", "secs", "ch", "chap", "eq", "eqs", "vol",
                       "art", "ref", "refs", "tab", "fig", "figs", "ex", "para", "pt"})
"""Abbreviations that stand before a number ("see (p. 113)", "Sec. 4.2", "No. 5"): their dot
ends no sentence when a digit follows."""
_LAST_WORD = re.compile(r"(\w+)$")


def _abbreviated(block: str, dot: int, end: int) -> bool:
    """Whether the sentence end :data:`_SENTENCE_END` found at ``block[dot:end]`` is the dot of
    an abbreviation: one capital letter (an initial: "an algorithm from P. L'Ecuyer"), or a
    word of :data:`_NUMBERED` before a number. Trial 18, finding 1: a PDF manual's "(see set
    samples (p. 113))" and "from P. L'Ecuyer" ended the Answer's sentences mid-way.

    """
    if block[dot] != ".":
        return False
    word = _LAST_WORD.search(block, 0, dot)
    if word is None:
        return False
    token = word.group(1)
    if len(token) == 1 and token.isupper() and token.isalpha():
        return True
    rest = block[end:].lstrip()
    return token.lower() in _NUMBERED and rest[:1].isdigit()



def sentence_ends(block: str) -> Iterator[int]:
    """The offsets in ``block`` just past each sentence's end (its last mark and closing
    quotes or brackets), in order; the block's own end is not one.

    Example:
        >>> text = "See smooth (p. 113) and kdensity. From P. L'Ecuyer. Done"
        >>> [text[:end][-9:] for end in sentence_ends(text)]
        ['kdensity.', "L'Ecuyer."]
    """
    for match in _SENTENCE_END.finditer(block):
        if not _abbreviated(block, match.start(), match.end()):
            yield match.end()
