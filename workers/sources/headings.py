"""A PDF page's heading lines set apart as paragraphs of their own, so that a heading stays a
heading and is not read as the first words of the sentence under it.

A PDF's text has no paragraphs: pypdf gives a page as its lines, and a heading the file's
outline does not list (a subsection's run-in title, a man page's section name, a variable's
entry) was read into the next sentence: "Invoked as an interactive login shell, or with
--login When Bash is invoked as an interactive login shell, ..." was the first bullet of an
Answer. A line is a heading line (:func:`heading_lines`) when it

* starts a sentence: it is the page's first line, or the line before it ends one (``.``,
  ``!``, ``?`` or ``:``, a closing quote or bracket aside);
* does not end as prose does (``.``, ``!``, ``?``, ``,``, ``;``, ``:``): it is no sentence,
  and no sentence goes on from it;
* is short: at most :data:`MAX_HEADING_WORDS` words and :data:`HEADING_SHARE` of the page's
  full line (a line a sentence wraps from fills the line);
* starts with a capital or a section's number ("6.2 Bash Startup Files"), and the next line
  with a capital or a digit: the next line starts a sentence too (a lower-case line after it
  is its continuation, or code).

An outline entry's title line is set apart by :func:`workers.sources.documents.outline_sections`
too; this rule needs no outline. Source of the idea: how a reader sees a heading on the page
(a short line between two sentences), as PyMuPDF's block extraction separates it by layout.

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["HEADING_SHARE", "MAX_HEADING_WORDS", "heading_lines", "set_apart_headings"]

MAX_HEADING_WORDS = 10
"""A longer line is prose, never a heading."""

HEADING_SHARE = 0.7
"""A heading line is at most this share of the page's full line (the length that a tenth of its
lines reach)."""

_ENDS_SENTENCE = re.compile(r"[.!?:][\"'\u2019\u201d)\]]*$")
_ENDS_PROSE = re.compile(r"[.!?,;:][\"'\u2019\u201d)\]]*$")


def _full_line(lines: list[str]) -> int:
    """The length (characters) that a tenth of the page's non-blank ``lines`` reach."""
    lengths = sorted((len(line.strip()) for line in lines if line.strip()), reverse=True)
    return lengths[len(lengths) // 10] if lengths else 0


_NUMBERED = re.compile(r"\d+(?:\.\d+)*\.?\s+[^\W\d_]")
"""A section's number and title ("6.2 Bash Startup Files"), not a listing's numbered line of
code ("169 \\def\\ASYlatexdir{}%") or a figure's numbers."""


_NUMBERED = re.compile(r"\d+(?:\.\d+)*\.?\s+[^\W\d_]")
"""A section's number and title ("6.2 Bash Startup Files"), not a listing's numbered line of
code ("169 \\def\\ASYlatexdir{}%") or a figure's numbers."""


def _starts_sentence(line: str) -> bool:
    first = line.lstrip()[:1]
    return bool(first) and (first.isupper() or first.isdigit())


def _starts_heading(line: str) -> bool:
    return line[:1].isupper() or _NUMBERED.match(line) is not None


def _starts_heading(line: str) -> bool:
    return line[:1].isupper() or _NUMBERED.match(line) is not None


def heading_lines(lines: list[str]) -> set[int]:
    """The indexes of the heading lines (see the module's docstring) of a page's ``lines``.

    Example:
        >>> page = ["Startup files are read in order.", "Invoked as a login shell",
        ...         "When Bash is invoked as a login shell, it reads /etc/profile.",
        ...         "and then ~/.profile; the", "Variables are set."]
        >>> sorted(heading_lines(page))
        [1]
    """
    full = _full_line(lines)
    found: set[int] = set()
    previous = ""  # the last non-blank line before the current one
    for i, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        after = next((x for x in lines[i + 1:] if x.strip()), "")
        if (
            (not previous or _ENDS_SENTENCE.search(previous))
            and not _ENDS_PROSE.search(text)
            and len(text.split()) <= MAX_HEADING_WORDS
            and len(text) <= HEADING_SHARE * full
            and _starts_heading(text) and _starts_sentence(after)
        ):
            found.add(i)
        previous = text
    return found


def set_apart_headings(text: str) -> str:
    """``text`` (a PDF page) with each heading line a paragraph of its own (a blank line before
    and after it); its other lines as they were.

    Example:
        >>> set_apart_headings("It ends.\\nPattern Matching\\nAny character matches itself.")
        'It ends.\\n\\nPattern Matching\\n\\nAny character matches itself.'
    """
    lines = text.split("\n")
    headings = heading_lines(lines)
    if not headings:
        return text
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in headings and out and out[-1].strip():
            out.append("")
        out.append(line)
        if i in headings and i + 1 < len(lines) and lines[i + 1].strip():
            out.append("")
    return "\n".join(out)
