"""A sentence that introduces a list, quoted with the list: "the following are disallowed:"
says nothing alone, and its items are the answer (trial 45: "What is disallowed in the
restricted shell?" was answered by what a restricted shell is, the list never shown).

Pure: the quote is still a verbatim slice of its passage, from the lead-in's first character
to the end of the last item taken (the report joins its lines).
"""

from __future__ import annotations

import re

__all__ = ["lead_in", "with_list"]

_ITEM_CHARS = 200
"""The longest paragraph read as a list item: a longer one is prose of its own."""
_ITEMS = 8
"""The most items quoted."""
_BREAK = re.compile(r"\n\s*\n")
_LEAD_END = re.compile(r":[ \t]*\n(?:[ \t]*\n|(?=[ \t]*(?:[•◦▪‣·*-]|\d{1,2}[.)]|[a-z][.)])\s))")
"""A colon ending a paragraph (:func:`with_list`'s quote: its items are paragraphs), or a line
before a bulleted or numbered item (a PDF's list: one item a line)."""
_CODE = re.compile(r"[{}<>=;]|^\s|\(\)\s*$|^\W")
"""An item that is code or a signature (``{``, ``=``, ``;``, indented), not a list item."""


def with_list(text: str, start: int, sentence: str, most_chars: int, most_words: int) -> str:
    """``sentence`` (found at ``text[start:]``) with the list its colon introduces: the short
    one-line paragraphs right after it, at least two, as many as fit ``most_chars`` and
    ``most_words``; ``sentence`` itself when it ends no lead-in or no such list follows.

    Args:
        text: the passage's text.
        start: where ``sentence`` starts in ``text`` (characters).
        sentence: a sentence of ``text`` (verbatim).
        most_chars, most_words: the longest quote a finding may be.

    Example:
        >>> text = "Rules\\n\\nThe following are disallowed:\\n\\nUsing cd.\\n\\nSetting PATH."
        >>> with_list(text, 7, "The following are disallowed:", 400, 60)
        'The following are disallowed:\\n\\nUsing cd.\\n\\nSetting PATH.'
        >>> with_list(text, 7, "The following are disallowed:", 45, 60)
        'The following are disallowed:'
    """
    if not sentence.rstrip().endswith(":") or text.find(sentence, start) != start:
        return sentence
    end = start + len(sentence)
    items = 0
    position = end
    while items < _ITEMS:
        gap = _BREAK.match(text, position)
        if gap is None:
            break
        following = text.find("\n\n", gap.end())
        stop = len(text) if following < 0 else following
        item = text[gap.end():stop]
        quote = text[start:stop]
        if (not item.strip() or "\n" in item.strip() or len(item) > _ITEM_CHARS
                or _CODE.search(item) or len(quote) > most_chars
                or len(quote.split()) > most_words):
            break
        items, position, end = items + 1, stop, stop
    return text[start:end] if items >= 2 else sentence


def lead_in(quote: str) -> str:
    """The lead-in of a quote that holds a list (its text up to the colon ending a paragraph,
    or the line before a bulleted or numbered item), else the quote: the words a list quote
    is judged relevant by, its items neither adding to nor diluting them (a long list scored
    below any short sentence naming fewer of the question's words).

    Example:
        >>> lead_in("The following are disallowed:\\n• Using cd.\\n• Setting PATH.")
        'The following are disallowed:'
        >>> lead_in("Use cd: it changes directories.")
        'Use cd: it changes directories.'
        >>> lead_in("Run this:\\nasy -o - venn\\nIf -nosafe is given, it runs unsafe.")[:10]
        'Run this:\\n'
    """
    end = _LEAD_END.search(quote)
    return quote[:end.start() + 1] if end else quote
