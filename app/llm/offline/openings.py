"""What a section's opening paragraph speaks of: its heading's words.

A section headed by a topic, or by the question a FAQ item asks, answers it in its first
sentences without repeating the heading's words: click's "Multi Command Chaining" opens
"Sometimes it is useful to be allowed to invoke more than one subcommand in one go ...", curl's
FAQ item "3.8 How do I tell curl to follow HTTP redirects?" says "The Location: header ... is
only interpreted if you are using the -L/--location option." (trial 128, F2 and F5). The
relevance judge (:func:`app.llm.offline.relevance.score`) lets such a paragraph's sentences
take the heading's words when the heading names all the question's. Standard library and the
offline model's own modules.
"""

from __future__ import annotations

import re

from app.llm.offline.headings import section_title
from app.llm.offline.words import stems
from workers.sources.sentence_ends import sentence_ends

__all__ = ["opened_headings", "opening_at"]

_PARAGRAPH = re.compile(r"\S(?:.*?)(?=\n[ \t]*\n|\Z)", re.DOTALL)
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<title>[^\n]+?)[ \t#]*$")
_SETEXT = re.compile(r"^(?P<title>[^\n]*\w[^\n]*)\n {0,3}(?:=+|-+|~+|\^+)[ \t]*$")
_PROSE = re.compile(r"[A-Za-z][\w'-]*(?:[ \t\n]+\S+){4,}?[^\n]*?[.!?:](?:\s|$)")
"""A sentence of five words or more ended as one: a paragraph holding one is prose, not a
version note ("New in version 3.0."), a one-word label ("Changelog") or code."""


def _heading(block: str, passage_heading: str) -> str | None:
    """The title ``block`` is as a heading (markdown's ``#`` or underlined, or the passage's own
    heading written as its line), None for any other block."""
    match = _ATX.match(block) or _SETEXT.match(block)
    if match:
        return match["title"].strip()
    line = " ".join(block.split())
    heading = " ".join(passage_heading.split())
    return line if heading and line == heading else None


def opened_headings(text: str, passage_heading: str) -> list[tuple[int, int, frozenset[str]]]:
    """``(start, end, stems)`` of each paragraph of a passage's ``text`` that opens a section:
    the first prose paragraph after a heading (nothing but code, labels or notes of fewer than
    five words between them), with the stems of that heading's title, its number aside
    (:func:`~app.llm.offline.headings.section_title`). A heading is a markdown one or the
    passage's own heading (``passage_heading``) as a line of its own; a passage that starts
    mid-section opens none.

    Example:
        >>> text = ("3.8 How do I relay?\\n\\n  Hops go over the moon. Use -R.\\n\\n"
        ...         "  More text, five words.")
        >>> found = opened_headings(text, "3.8 How do I relay?")
        >>> [(text[s:e], sorted(w)) for s, e, w in found]
        [('Hops go over the moon. Use -R.', ['relay'])]
        >>> opened_headings("Relays hop over the moon stations.", "Relays")
        []
    """
    found: list[tuple[int, int, frozenset[str]]] = []
    pending: frozenset[str] = frozenset()
    for match in _PARAGRAPH.finditer(text):
        block = match[0]
        title = _heading(block, passage_heading)
        if title is not None:
            pending = stems(section_title(title, ""))
        elif pending and not block.lstrip().startswith(("```", "~~~")) and _PROSE.search(block):
            found.append((match.start(), match.end(), pending))
            pending = frozenset()
    return found


def opening_at(openings: list[tuple[int, int, frozenset[str]]], text: str,
               offset: int) -> tuple[frozenset[str], int]:
    """The stems of the heading whose opening paragraph (:func:`opened_headings`) of ``text``
    holds ``offset``, and how many of its sentences come before it there; ``(frozenset(), 0)``
    when none does.

    Example:
        >>> text = "# Relay\\n\\nHops go far. They go over moons."
        >>> opening_at(opened_headings(text, ""), text, text.find("They"))
        (frozenset({'relay'}), 1)
    """
    for start, end, words in openings:
        if start <= offset < end:
            return words, len(list(sentence_ends(text[start:offset] + "Next")))
    return frozenset(), 0
