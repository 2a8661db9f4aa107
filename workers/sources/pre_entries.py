"""A reference entry laid out by hand in a ``<pre>``: its term at the left (perhaps with its
description starting on the same line, at a column), lines of its attributes indented deeper,
then its description indented under the term, as Vim's help writes every option, command and
function, and as man pages and text manuals write their entries
(``tests/workers/sources/test_pre_entries.py``).

Read whole, such a block was code when its term line was punctuation (Vim's
``q{0-9a-zA-Z"}  Record typed characters into register ...`` and the 'smartcase' option's
description were fenced code blocks, never a finding, trial 126, F1), and an attribute line
was glued to the description's first sentence ("global or local to window global-local
Minimal number of screen lines to keep above and below the cursor.").

This module imports the standard library only; :mod:`workers.sources.preformatted` reads
blocks with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import count
from string import ascii_lowercase

__all__ = ["attribute_lines", "hanging_entry"]

_SENTENCE_END = re.compile(r"[a-z)\"'][.!?](?:\s|$)")
_BODY_COLUMN = 8
"""The least indent of an entry's description: a tab (Vim, man pages' 7 or 8 blanks and more)."""
_DEEPER = 8
"""How much deeper than the description an attribute line is indented (Vim's ``global``
under the option's name, three tabs in, its description one tab in)."""
_TERM_WORDS = 12
_QUOTED = re.compile(r"([\"'`])[^\"'`\s]{1,40}\1")
"""A name in quotes, judged as a word of its own when a description is: prose quotes the names
it speaks of (the 'smartcase' option's ``Used for the commands "/", "?", "n", "N", ":g" and
":s".`` took its letters under the 85% of prose, and a line opening with ``"#"`` read as a
prompt)."""
_ATTRIBUTE_WORDS = 8


def hanging_entry(block: str, reads_as_prose: Callable[[str], bool]) -> list[str] | None:
    """``[term, description]`` of a block that is a reference entry (its markup already read as
    words), or None: at least two lines, the first less indented than all the others, which
    are indented a tab or more; the term is the first line up to the description's column
    when a word of it starts there (``q{0-9a-zA-Z"}		Record typed ...``), else the whole
    line, with the :func:`attribute_lines` under it; the description (its lines' text, one
    line each) must read as prose by ``reads_as_prose`` (the caller's test; a name in quotes
    judged as a word), so a listing, a table or code with indented lines is no entry.

    Example:
        >>> from workers.sources.preformatted import reads_as_prose
        >>> hanging_entry("q{0-9a-z}\\t\\tRecord typed characters into register {0-9a-z}\\n"
        ...               "\\t\\t\\t(uppercase to append).  The 'q' command is disabled\\n"
        ...               "\\t\\t\\twhile executing a register.", reads_as_prose)
        ['q{0-9a-z}', "Record typed characters into register {0-9a-z}\\n(uppercase to append).  \
The 'q' command is disabled\\nwhile executing a register."]
        >>> hanging_entry("int main()\\n\\treturn 0;", reads_as_prose) is None
        True
    """
    lines = [line for line in block.split("\n") if line.strip()]
    if len(lines) < 2:
        return None
    column = min(_indent(line) for line in lines[1:])
    first = lines[0].expandtabs(8)
    if column < _BODY_COLUMN or _indent(first) >= column:
        return None
    term, body = first.strip(), []
    if column in _word_columns(first):  # the description starts on the term's line
        term, body = first[:column].strip(), [first[column:].strip()]
    attributes = attribute_lines(lines[1:], column) if not body else []
    body += [line.strip() for line in lines[1 + len(attributes):]]
    description = "\n".join(body)
    if (not term or len(term.split()) > _TERM_WORDS
            or not reads_as_prose(_named_words(description))):
        return None
    return [" ".join([term, *(line.strip() for line in attributes)]), description]


def attribute_lines(lines: list[str], column: int) -> list[str]:
    """The leading ``lines`` that state an entry's attributes rather than describe it: each
    indented at least :data:`_DEEPER` columns deeper than the description's ``column``, of a
    few words and no sentence (Vim's ``global or local to window |global-local|`` and
    ``{only when compiled with the |+persistent_undo| feature}`` under an option's name); the
    description's own lines are not among them.

    Example:
        >>> attribute_lines(["\\t\\t\\tglobal or local to window", "\\tMinimal turns."], 8)
        ['\\t\\t\\tglobal or local to window']
        >>> attribute_lines(["\\tMinimal turns."], 8)
        []
    """
    out: list[str] = []
    for line in lines:
        if (_indent(line) < column + _DEEPER or len(line.split()) > _ATTRIBUTE_WORDS
                or _SENTENCE_END.search(line)):
            break
        out.append(line)
    return out if len(out) < len(lines) else []


def _named_words(text: str) -> str:
    """``text`` with each name it quotes (:data:`_QUOTED`) a word of letters, a different one
    each (the same word opening three lines would read as a transcript's prompt).

    Example:
        >>> _named_words('Used for "/", "?" and \\'ignorecase\\'.')
        'Used for quoteda, quotedb and quotedc.'
    """
    numbers = count()
    return _QUOTED.sub(lambda _m: "quoted" + _letters(next(numbers)), text)


def _letters(number: int) -> str:
    """``number`` written in letters: 0 is ``a``, 25 ``z``, 26 ``ba``."""
    out = ascii_lowercase[number % 26]
    while number := number // 26:
        out = ascii_lowercase[number % 26] + out
    return out


def _word_columns(line: str) -> set[int]:
    """The columns (tabs at 8) at which a word of ``line`` after its first starts."""
    return {m.start() for m in re.finditer(r"(?<=\s)\S", line.expandtabs(8))}


def _indent(line: str) -> int:
    spread = line.expandtabs(8)
    return len(spread) - len(spread.lstrip())
