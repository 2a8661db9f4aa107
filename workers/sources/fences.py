"""Fenced code blocks (```` ``` ```` or ``~~~``, CommonMark 4.5) as the chunker's units: a
passage never starts or ends inside one (78 of FastAPI's 2,167 passages did, and a
```` ```mermaid ```` diagram line became a passage's label; 280 of the package docs' 4,073
docstring passages did too: ``tests/workers/sources/test_fenced_passages.py``).

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

__all__ = ["fence_parts", "paragraphs", "split_fences"]

_OPEN = re.compile(r"^[ \t]*(?P<mark>`{3,}|~{3,})(?P<info>[^\n]*)$")


def _closes(line: str, mark: str) -> bool:
    """Whether ``line`` closes a fence opened by ``mark``: the same character, at least as
    many, nothing after them but blanks."""
    stripped = line.strip()
    return len(stripped) >= len(mark) and set(stripped) == {mark[0]}


def _underlines(above: str, mark: str, info: str) -> bool:
    """Whether a bare fence line is the underline of the line ``above`` (a reStructuredText
    heading: ``Value Patterns`` over ``~~~~~~~~~~~~~~``, as in Python's pydoc topics): no info
    string, right under text, and at least as long."""
    return not info.strip() and bool(above.strip()) and len(mark) >= len(above.strip())


def split_fences(text: str) -> Iterator[tuple[bool, str]]:
    """``(is_fence, segment)`` of ``text`` in order: each closed fenced block (its opening line
    through its closing line) is one segment, the text between them others. A fence opened with
    backticks whose info string holds a backtick opens none (CommonMark); one never closed is
    text as the rest (a docstring's stray fence would otherwise swallow the text after it), and
    so is a heading's underline of tildes (:func:`_underlines`).

    Example:
        >>> list(split_fences("Run:\\n```sh\\nmake\\n\\nmake test\\n```\\nDone."))
        [(False, 'Run:'), (True, '```sh\\nmake\\n\\nmake test\\n```'), (False, 'Done.')]
    """
    if "```" not in text and "~~~" not in text:  # no fence (most text): no line to look at
        yield False, text
        return
    lines = text.split("\n")
    start = i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if opened is None or (opened["mark"][0] == "`" and "`" in opened["info"]) or (
                i and _underlines(lines[i - 1], opened["mark"], opened["info"])):
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if _closes(lines[j], opened["mark"])),
                   None)
        if end is None:
            break
        if i > start:
            yield False, "\n".join(lines[start:i])
        yield True, "\n".join(lines[i:end + 1])
        start = i = end + 1
    if start < len(lines):
        yield False, "\n".join(lines[start:])


def paragraphs(text: str) -> list[str]:
    """``text``'s paragraphs (parted by blank lines), stripped, a fenced code block one of
    them whatever blank lines it holds: a line of code is no paragraph of its own (Werkzeug's
    ``run_simple("localhost", 5000, app)``, a line of an example after a blank one, read as
    the signature opening run_simple's entry, outranked the entry's parameter rows, trial 126,
    F3).

    Example:
        >>> paragraphs("Run:\\n\\n```\\nimport x\\n\\nx.run(1)\\n```\\n\\nDone.")
        ['Run:', '```\\nimport x\\n\\nx.run(1)\\n```', 'Done.']
    """
    out: list[str] = []
    for fenced, segment in split_fences(text):
        out += [segment] if fenced else re.split(r"\n[ \t]*\n+", segment)
    return [part.strip() for part in out if part.strip()]


def fence_parts(block: str, limit: int,
                hard_split: Callable[[str, int], Iterator[str]]) -> list[str]:
    """A fenced block (a :func:`split_fences` segment) as passages' pieces of at most ``limit``
    characters: whole when it fits; else its code cut at line ends, each part fenced again with
    the block's own opening and closing lines, so every piece reads as code (a line too long
    for one part is cut by ``hard_split``, as :func:`workers.sources.chunks.chunk_text` cuts a
    sentence).

    Example:
        >>> fence_parts("```py\\na = 1\\nb = 2\\n```", 14, lambda s, n: iter([s]))
        ['```py\\na = 1\\n```', '```py\\nb = 2\\n```']
    """
    if len(block) <= limit:
        return [block]
    first, *code, last = block.split("\n")
    room = limit - len(first) - len(last) - 2
    if room < 1:  # an opening line of the whole limit: no fence fits around any code
        return list(hard_split(block, limit))
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for line in code:
        for piece in (hard_split(line, room) if len(line) > room else (line,)):
            if current and size + 1 + len(piece) > room:
                parts.append("\n".join([first, *current, last]))
                current, size = [], 0
            if not current and not piece.strip():
                continue  # a part does not start with blank lines
            size += len(piece) + (1 if current else 0)
            current.append(piece)
    if current:
        parts.append("\n".join([first, *current, last]))
    return parts
