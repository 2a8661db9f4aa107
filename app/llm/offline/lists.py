"""A sentence that introduces a list, quoted with the list: "the following are disallowed:"
says nothing alone, and its items are the answer (trial 45: "What is disallowed in the
restricted shell?" was answered by what a restricted shell is, the list never shown).

Pure: the quote is still a verbatim slice of its passage, from the lead-in's first character
to the end of the last item taken (the report joins its lines).
"""

from __future__ import annotations

import re

from workers.sources.sentence_ends import ITEM_MARK

__all__ = ["lead_in", "with_list"]

_ITEM_CHARS = 200
"""The longest paragraph read as a list item: a longer one is prose of its own."""
_ITEMS = 8
"""The most items quoted."""
_BREAK = re.compile(r"\n\s*\n")
_BULLET = rf"(?:{ITEM_MARK}|[a-z][.)])"
"""A list item's bullet or number (``-``, ``•``, ``*``, ``1.``, ``a)``)."""
_MARKER = re.compile(rf"[ \t]*{_BULLET}[ \t]+")
"""A bulleted or numbered item's marker at a line's start (Markdown's ``- ``, Info's ``* ``)."""
_LEAD_END = re.compile(rf":[ \t]*\n(?:[ \t]*\n|(?=[ \t]*{_BULLET}\s))")
"""A colon ending a paragraph (:func:`with_list`'s quote: its items are paragraphs), or a line
before a bulleted or numbered item (a PDF's list: one item a line)."""
_CODE = re.compile(r"[{}<>=;]|^\s|\(\)\s*$|^\W")
"""An item that is code or a signature (``{``, ``=``, ``;``, indented), not a list item."""
_ITEM_END = re.compile(r"[;,](?:\s+(?:and|or))?\s*$")
"""The punctuation a list's items end with in prose ("login;", "encrypted password; and"):
no code's semicolon (trial 55: "/etc/shadow contains the following fields:" was quoted without
its fields, each ending in ";")."""



def with_list(text: str, start: int, sentence: str, most_chars: int, most_words: int) -> str:
    """``sentence`` (found at ``text[start:]``) with the list its colon introduces: at least
    two items right after it, as many as fit ``most_chars`` and ``most_words``; ``sentence``
    itself when it ends no lead-in or no such list follows. The items are lines led by a
    bullet or a number (Markdown, Info, a PDF), each with the lines it wraps onto, or else
    short one-line paragraphs (an HTML list as the index keeps it).

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
        >>> shadow = "It holds:\\n\\nlogin;\\n\\nencrypted password;\\n\\nexpiry.\\n\\nMore."
        >>> with_list(shadow, 0, "It holds:", 400, 60)
        'It holds:\\n\\nlogin;\\n\\nencrypted password;\\n\\nexpiry.'
        >>> md = "Disallowed:\\n- Using cd.\\n- Setting PATH and\\n  ENV.\\n\\nAfter that."
        >>> with_list(md, 0, "Disallowed:", 400, 60)
        'Disallowed:\\n- Using cd.\\n- Setting PATH and\\n  ENV.'
    """
    if not sentence.rstrip().endswith(":") or text.find(sentence, start) != start:
        return sentence
    end = start + len(sentence)
    items = _bulleted(text, end) or _paragraphs(text, end)
    quote, punctuated = sentence, False
    for count, (stop, item) in enumerate(items[:_ITEMS], 1):
        body = _MARKER.sub("", item, count=1).strip()
        longer = text[start:stop]
        if (not body or len(body) > _ITEM_CHARS or _CODE.search(_ITEM_END.sub("", body))
                or len(longer) > most_chars or len(longer.split()) > most_words):
            break
        if count >= 2:
            quote = longer
        ends = _ITEM_END.search(body) is not None
        if punctuated and not ends:  # "login; ...; expiry.": the list's last item
            break
        punctuated = ends and (punctuated or count == 1)
    return quote


def _bulleted(text: str, position: int) -> list[tuple[int, str]]:
    """The items after ``position`` whose lines start with a marker (:data:`_MARKER`): each
    ``(where it ends, its text)``, with the indented lines it wraps onto; a blank line may part
    two items. ``[]`` when the next line is no item."""
    out: list[tuple[int, str]] = []
    lines = text[position:].split("\n")
    offset = position + len(lines[0]) + 1  # the rest of the lead-in's line
    item: list[str] = []
    for line in lines[1:]:
        if not item and not out and not line.strip():  # a blank line before the first item
            offset += len(line) + 1
            continue
        if _MARKER.match(line):
            if item:
                out.append((offset - 1, " ".join(item)))
            item = [line]
        elif item and line.strip() and line[:1] in " \t":
            item.append(line.strip())  # wrapped onto an indented line
        elif item and not line.strip():
            out.append((offset - 1, " ".join(item)))
            item = []
        elif line.strip() or not out:
            break
        offset += len(line) + 1
    if item:
        out.append((min(offset - 1, len(text)), " ".join(item)))
    return out


def _paragraphs(text: str, position: int) -> list[tuple[int, str]]:
    """The one-line paragraphs after ``position`` (an HTML list as the index keeps it), each
    ``(where it ends, its text)``, up to the first longer one."""
    out: list[tuple[int, str]] = []
    while (gap := _BREAK.match(text, position)) is not None:
        following = text.find("\n\n", gap.end())
        stop = len(text) if following < 0 else following
        item = text[gap.end():stop]
        if "\n" in item.strip():
            break
        out.append((stop, item))
        position = stop
    return out


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
