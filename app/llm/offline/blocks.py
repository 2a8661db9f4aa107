"""A text's blocks as the offline model reads sentences from them: paragraphs and list items,
skipping code, doctests, admonition and directive markers, headings' underlines and attribute
lines (:func:`blocks`). Standard library and :mod:`app.llm.offline.markup`."""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.llm.offline.markup import ADMONITION, DIRECTIVE, DOCTEST, FENCE, starts_in_fence
from workers.sources.sentence_ends import ITEM_MARK, wrapped_number

__all__ = ["FIELD_ENTRY", "blocks"]

_BLOCK_START = re.compile(rf"^\s*(?:#{{1,6}}\s|{ITEM_MARK}\s|>\s?|\||```|~~~)")
_LIST_MARKER = re.compile(rf"^\s*(?:{ITEM_MARK}\s+|>\s*)")
_OPTION_LINE = re.compile(r"\s*--?[A-Za-z][\w-]*(?:,|=|\s)")
"""A line led by a command-line option: below another, an entry of a list of options, each on
its line ("-b, --benchmark perform a benchmark on decoding" / "-s, --strict use strict DER
decoding" in libtasn1's PDF: read as one sentence, an Answer quoted the whole table, trial
105, F8)."""
_CALL_LINE = re.compile(r"\s*[A-Za-z_][\w.]*\([^()\n]{0,40}\)\s+(?!(?:and|or|with|for|to|is|are|"
                        r"was|returns?|in|of|the|an?|which|that|as|on|at|by|from|then|but)\b)\S")
"""A line led by a call written with its arguments and followed by more words: a row of a
table of functions, each on its line ("besj0(x) int or real J0 Bessel function of x in
radians" under "Function Arguments Returns" in gnuplot's PDF: read as one sentence, the Answer
quoted the table's first rows and cut it off before the row asked, trial 115, F7). A call
followed by a function word ("abs(x) and ceil(x), with") is prose wrapped before a call."""
_DECLARATION = re.compile(r"\s*(?:[A-Za-z_][\w\[\]<>*&]*\s+){0,3}[*&]?[A-Za-z_][\w.:]*"
                          r"\([^()\n]{0,80}\)\s*;?\s*")
"""A line that is a function's declaration alone, its type words before it: an entry of a
list of functions, each declared on its line above its description ("real orient(pair a, pair
b, pair c);" over "returns a positive (negative) value if ..." in Asymptote's PDF: the list read
as one run-on sentence, and "What does the orient function return?" was answered by another
page's "... is returned by the member function pic.calculateTransform().")."""
_COLUMN_HEADS = re.compile(r"\s*[A-Z][\w-]*(?: [A-Z][\w-]*){1,4}\s*")
"""A table's column headings over its rows ("Function Arguments Returns"): a block of their
own, not the first row's opening."""
_PROSE_COMMENT = re.compile(r"^\s*#+\s+(?=[A-Za-z][\w'-]*(?:\s+\S+){3,}[.!?][\"')]*\s*$)")
"""A comment line of a configuration file that is a sentence (``# ip_hash ensures the same
backend is used for client reconnects.``): four words or more, ended as a sentence; in
nginx's example files the only prose that says what a directive does. A
heading (``# Examples``) or a commented-out setting (``#listen 80;``) is none."""
# Docstring sections: a header alone on its line ("Args:", "Returns:") and entries under it
# ("    retry_state: The retry state.", "**kwargs: ...", "name (int): ...").
_SECTION_HEADER = re.compile(r"^\s*[A-Z][A-Za-z ]{0,30}:\s*$")
# A table row as the index writes it, "name — heading: cell; ..." (workers.sources.tables): one
# line, one sentence (else a table's rows were read as one run-on sentence).
_ROW = re.compile(r"^[^\s\u2014|#][^\u2014\n]{0,79}? \u2014 \S")
FIELD_ENTRY = re.compile(r"^\s*\**([A-Za-z_][\w.\[\]]*)(?:\s*\([^)]*\))?:(?:\s|$)")
"""A line led by a field's name (``name (int): ...``, ``**kwargs: ...``): a block of its own,
and no prose sentence unless its label is an admonition's ("Note:")."""
# a heading's underline (reST, AsciiDoc, setext: "NAME" over "----" ran into the text below)
# and an AsciiDoc attribute line ("[verse]"): markup, not text
_UNDERLINE = re.compile(r"^\s*([=\-~^\"'`#*+])\1{2,}\s*$")
_ATTRIBUTES = re.compile(r"^\s*\[[a-z][\w ,=\"'.-]*\]\s*$")


_DESCRIPTION_GAP = re.compile(r"\S {2,}(?=\S)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _next_option(first: str, line: str) -> bool:
    """Whether ``line`` opens the next entry of a list of options (or of functions) whose
    current entry opens with ``first``: both are led by an option (a call), and ``line`` starts
    left of the column where ``first``'s description starts (when it has one: two spaces or
    more after its names), else indented no deeper. A wrapped description's line that starts
    with an option ("--dry-run first, since ...", aligned with the description under
    ``-d, --delete``) goes on with its entry (trial 113, F6); GNU's long-only option, indented
    deeper than the short ones ("      --author" under "  -A, --almost-all"), is an entry of its
    own (trial 116, F1).

    Example:
        >>> _next_option("  -d, --delete  remove files", "  -v, --verbose  name each file")
        True
        >>> _next_option("  -d, --delete   remove files", "                 --dry-run first")
        False
        >>> _next_option("  -A, --almost-all     do not list . and ..", "      --author  by")
        True
    """
    for led in (_OPTION_LINE, _CALL_LINE):
        if led.match(first) is None or led.match(line) is None:
            continue
        gap = _DESCRIPTION_GAP.search(first, _indent(first))
        return _indent(line) < gap.end() if gap else _indent(line) <= _indent(first)
    return False


def _opens_next_entry(block: list[str], line: str) -> bool:
    """Whether ``line`` opens the next entry of the list whose last entry ``block`` holds: an
    option's (a call's) line after the block's last option (call) line (:func:`_next_option`;
    the block may open with a line of prose above the list, trial 116, F1), a table's first
    row under its column headings (:data:`_COLUMN_HEADS`), or a declaration alone on its line
    after a line that ends a sentence or a clause (:data:`_DECLARATION`)."""
    opening = next((held for held in reversed(block)
                    if _OPTION_LINE.match(held) or _CALL_LINE.match(held)), None)
    under_heads = _COLUMN_HEADS.fullmatch(block[0]) is not None
    return ((opening is not None and _next_option(opening, line))
            or (under_heads and _CALL_LINE.match(line) is not None)
            or (_DECLARATION.fullmatch(line) is not None and block[-1].rstrip()[-1:] in ".;:"))


def _marker(line: str) -> str | None:
    """For a marker line (an admonition's or a directive's, a section header, an AsciiDoc
    attribute), the text it opens a block with ("" when none); None for any other line."""
    if ADMONITION.match(line):
        return ""
    if DIRECTIVE.match(line):
        return DIRECTIVE.sub("", line, count=1) if DIRECTIVE.sub("", line, count=1).strip() else ""
    return "" if _SECTION_HEADER.match(line) or _ATTRIBUTES.match(line) else None


def blocks(text: str) -> Iterable[str]:
    """Paragraphs and list items (an option's line below another's too) of a text, skipping
    fenced code (a passage that begins inside a fence included: :func:`starts_in_fence`),
    doctest examples, the marker lines of
    admonitions and directives (``!!! warning``, ``.. note::``), underlined headings and
    AsciiDoc attribute lines; each a slice of ``text``."""
    block: list[str] = []
    in_fence, in_doctest = starts_in_fence(text), False
    for line in text.split("\n"):  # not splitlines(): "\n".join must give back a slice of text
        stripped = line.strip()
        if FENCE.match(line):
            if block:
                yield "\n".join(block)
                block = []
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if DOCTEST.match(line) or (in_doctest and stripped):
            if block:
                yield "\n".join(block)
                block = []
            in_doctest = True
            continue
        in_doctest = False
        if (marker := _marker(line)) is not None:  # ends the block; a directive's text opens
            if block:                                # the next (".. note:: Text")
                yield "\n".join(block)
            block = [marker] if marker else []
            continue
        if block and _opens_next_entry(block, line):
            yield "\n".join(block)  # the next option of a list of them
            block = [line]
            continue
        if _UNDERLINE.match(line):  # "NAME\n----": the line above is a heading, not prose
            if block[:-1]:
                yield "\n".join(block[:-1])
            block = []
            continue
        if (not stripped or FIELD_ENTRY.match(line) or _ROW.match(line)
                or (_BLOCK_START.match(line) and not (block and wrapped_number(block[-1], line)))):
            if block:
                yield "\n".join(block)
                block = []
            if stripped and not stripped.startswith(("#", "|")):
                block.append(_LIST_MARKER.sub("", line, count=1))
            elif _PROSE_COMMENT.match(line):  # a config file's explanation: its sentence
                yield _PROSE_COMMENT.sub("", line, count=1).rstrip()
            continue
        block.append(line)
    if block and not in_fence:
        yield "\n".join(block)
