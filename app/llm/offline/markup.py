"""What code and markup look like in a passage: fences, doctest prompts, mkdocs admonitions and
reStructuredText directives, and the lines a passage of code shows. Pure text rules for
:mod:`app.llm.offline.sentences` and the report's excerpts; no I/O.
"""

from __future__ import annotations

import re

__all__ = ["ADMONITION", "DIRECTIVE", "DOCTEST", "FENCE", "code_lines",
           "starts_in_fence", "value_code"]

FENCE = re.compile(r"^\s*(?:```|~~~)")
ADMONITION = re.compile(r"^\s*(?:!!!|\?\?\?\+?)\s*[\w-]+(?:\s+\"[^\"\n]*\")?\s*$")
"""An mkdocs admonition's marker line (``!!! warning "Title"``, ``??? note``): a label, not
prose; its indented body is."""
DIRECTIVE = re.compile(r"^\s*\.\.\s+[\w-]+::\s*")
"""An reStructuredText directive's marker (``.. warning::``); text after it on its line is the
directive's body."""
DOCTEST = re.compile(r"^\s*>>>")
"""A doctest prompt: it, its ``...`` continuations and its output up to a blank line are code."""


def starts_in_fence(text: str) -> bool:
    """Whether ``text`` (a passage cut out of a longer document) begins inside a fenced code
    block opened in an earlier passage: its first fence line is a bare closing one (no info
    string) and either the next fence line opens one with an info string (```` ```con ````) or
    the fences do not pair up. Read the other way round, the passage's code is its prose and
    its prose code (e.g. "``` ```con {'value': 'aaaa'} ```").

    Example:
        >>> starts_in_fence("app.invoke(x)\\n```\\n\\n```con\\n{'value': 1}\\n```")
        True
        >>> starts_in_fence("Run it:\\n\\n```python\\nx = 1\\n```")
        False
    """
    fences = [line.strip() for line in text.split("\n") if FENCE.match(line)]
    if not fences or fences[0] not in ("```", "~~~"):
        return False
    return len(fences) % 2 == 1 or fences[1] not in ("```", "~~~")


def code_lines(text: str) -> list[str]:
    """The lines of ``text`` without fence lines, admonition or directive markers and doctest
    prompts (``>>> ``, ``... ``), stripped, blank ones left out: what a passage of code shows
    on one line.

    Example:
        >>> code_lines("```pycon\\n>>> x = 1\\n... y\\n```")
        ['x = 1', 'y']
    """
    out = []
    for line in text.split("\n"):
        if FENCE.match(line) or ADMONITION.match(line):
            continue
        line = DIRECTIVE.sub("", line, count=1)
        line = re.sub(r"^\s*(?:>>>|\.\.\.)(?:\s|$)", "", line).strip()
        if line:
            out.append(line)
    return out


_SHORT_BLOCK = re.compile(r"(?:```|~~~)[\w+-]*\n(?P<code>(?:[^\n]*\n){1,8}?)(?:```|~~~)")
"""A fenced code block of at most eight lines."""


def value_code(paragraph: str, most: int) -> str:
    """``paragraph`` on one line in backquotes, when it is a short fenced code block
    (:data:`_SHORT_BLOCK`) of at most ``most`` characters so: a field's value set below its
    label (Django's ``CACHES`` entry gives ``Default:`` above a dictionary of five lines
    naming ``LocMemCache``; "Which cache does Django use if I don't configure one?" was
    answered by a sentence on sessions, trial 124, M3-F1); else "".

    Example:
        >>> value_code("```\\n{\\n    'default': {'BACKEND': 'locmem'},\\n}\\n```", 300)
        "`{ 'default': {'BACKEND': 'locmem'}, }`"
        >>> value_code("Some prose.", 300)
        ''
    """
    found = _SHORT_BLOCK.fullmatch(paragraph.strip())
    code = " ".join(found.group("code").split()) if found else ""
    return f"`{code}`" if code and "`" not in code and len(code) <= most else ""
