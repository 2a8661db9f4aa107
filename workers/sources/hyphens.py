"""Words broken at a line's end by a hyphen, made whole again: one rule for a PDF's pages
(:mod:`workers.sources.documents`) and for prose laid out in a ``<pre>`` (a man page groff
rendered to HTML, :mod:`workers.sources.preformatted`).

Postfix's man pages are HTML made from groff, their text in a ``<pre>`` as groff filled and
hyphenated it: reports quoted "each queue subdirec- tory", "to con- tact a malfunctioning
message delivery transport", and the index held 566 such splits in 59 pages, "con" and "tact"
two words to a search (trial 114, F3).

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["compounds", "dehyphenated"]

_LINE_END_HYPHEN = re.compile(r"(?<![A-Za-z])([A-Za-z]?[a-z]+)-\n[ \t]*([a-z]+)(?![A-Za-z])")
"""A word broken at a line's end by a hyphen, its second part (on the next line, after the
line's indent) lower-case: a word going on, not a new one ("See-\\nAlso" is no break). The
first part may follow an underscore (groff's ``min_sub-`` / ``domains``)."""
_COMPOUND = re.compile(r"(?<![A-Za-z])([A-Za-z]?[a-z]+)-([a-z]+)(?![A-Za-z])")
_COMPOUND_HEADS = frozenset("all built full half long self well".split())
"""Whole words that open hyphenated compounds ("built-in", "self-contained", "long-running",
"well-known") and hardly a closed word: a break after one at a line's end is the compound's
own hyphen, not one a line filler put inside a word ("com-" / "puted"), unless the document
writes the joined word. A README's "It has a built-" / "in scheduler" was quoted as
"builtin", and "selfcontained", "longrunning" (trial 119, F9). Not "high", "low", "short",
"cross" ("highlights", "lowercase", "shortcut" are one word; Asymptote's manual breaks
"high-" / "lights"), nor a prefix that is no word: "re-" / "run" is "rerun"."""
_SUFFIXES = frozenset("ed er ers est ing ings ish less ly ness".split())
"""A word's ending, not a word: "high-" / "er" and "cross-" / "ing" are one word broken."""


def compounds(texts: Iterable[str]) -> frozenset[str]:
    """The hyphenated words ``texts`` write whole on one line ("read-only",
    "trivial-rewrite"), and those they break at a line's end after a word that opens
    compounds (:data:`_COMPOUND_HEADS`: "built-" / "in"), lower-cased, unless they also write
    the word without its hyphen ("post-queue" and "postqueue": the hyphen was a break's): a
    word broken at a line's end at one of these keeps its hyphen (:func:`dehyphenated`).

    Example:
        >>> sorted(compounds(["the trivial-rewrite daemon", "post-queue or postqueue"]))
        ['trivial-rewrite']
        >>> sorted(compounds(["a self-\\ncontained, long-\\nrunning, com-\\nputed, well-\\nness"]))
        ['long-running', 'self-contained']
    """
    texts = list(texts)
    found = {m.group(0).lower() for text in texts for m in _COMPOUND.finditer(text)}
    found |= {f"{m.group(1)}-{m.group(2)}".lower() for text in texts
              for m in _LINE_END_HYPHEN.finditer(text)
              if m.group(1).lower() in _COMPOUND_HEADS and m.group(2) not in _SUFFIXES}
    if not found:
        return frozenset()
    words = {word.lower() for text in texts for word in re.findall(r"[A-Za-z]+", text)}
    return frozenset(c for c in found if c.replace("-", "") not in words)


def dehyphenated(text: str, keep: frozenset[str] = frozenset()) -> str:
    """``text`` with a word broken at a line's end by a hyphen made whole again ("aes-" /
    "thetically": "aesthetically"), as PyMuPDF's ``TEXT_DEHYPHENATE`` does (else a search for
    "aesthetically" found none of a manual's 101 broken words, and the report quoted "aes-
    thetically"); a compound the document writes whole elsewhere (``keep``,
    :func:`compounds`) keeps its hyphen ("read-" / "only": "read-only";
    "trivial-" / "rewrite(8)": "trivial-rewrite(8)"). One the document never writes whole
    loses it, the price of the rule, unless a whole word opening compounds comes before the
    break ("built-" / "in", :func:`compounds`). The next line's indent goes with the break (a man
    page's text is indented).

    Example:
        >>> dehyphenated("looks aes-\\nthetically right; read-\\nonly", frozenset({"read-only"}))
        'looks aesthetically right; read-only'
        >>> dehyphenated("to con-\\n       tact the trivial-\\n       rewrite(8) server",
        ...              frozenset({"trivial-rewrite"}))
        'to contact the trivial-rewrite(8) server'
    """
    if "-\n" not in text:
        return text

    def joined(match: re.Match[str]) -> str:
        whole = f"{match.group(1)}-{match.group(2)}"
        return whole if whole.lower() in keep else match.group(1) + match.group(2)

    return _LINE_END_HYPHEN.sub(joined, text)
