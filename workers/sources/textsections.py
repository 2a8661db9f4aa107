"""The headings of a plain-text file (``.txt``, or a file without a type): a changelog's version
lines, a NEWS file's release lines, an underlined title, each the heading of the passages under
it, so a report can say which version an entry is in (nginx's
``Changes with nginx 1.21.5    28 Dec 2021`` was in the passage and never shown).

The rule, one for every style, found by reading the changelogs, NEWS and README files Debian
installs (``/usr/share/doc``) and checked against its prose (:func:`heading_lines`):

* **an underlined line**: a short line after a blank line (or the file's start), the next line
  one character repeated (``=``, ``-``, ``~``, ``^``, ``*``, ``#``, ``+``), about as long
  (Python's NEWS, AsciiDoc, reST-style READMEs); the underline is left out of the text;
* **an entry line**: a short unindented line after a blank line (or the file's start), that
  does not end as a sentence or a clause does (``.``, ``:``, ``,``, ``;``, an open bracket),
  followed, perhaps after one blank line, by an indented or bulleted block: nginx's
  ``Changes with nginx 1.21.5``, Debian's ``pkg (1.2-3) unstable; urgency=medium``,
  ``Version 2.0 (2024-01-01)``, a man page's ``DESCRIPTION``. A paragraph's first line is
  none (the next line is not indented, or it goes on in lower case), nor is a line that is
  something else over an indented block (:func:`_no_title`: a letter's
  salutation and sign-off headed its passages, and the report's Answer began "Best regards:
  Ann Heron"): a letter's ``Dear heron counters`` or ``Best regards``, a table's header row
  (``Colony   Nests   Observers`` over its rows: three columns or more, set apart by runs
  of spaces, whose spacing a heading's text would have lost), a log record
  (``2024-01-01 12:00:01 ERROR ...``, a time of day to the second and a level, over its
  traceback);
* **a numbered title** alone between blank lines, indented or not (:func:`_numbered`: an FAQ's
  ``3.8 How do I tell curl to follow HTTP redirects?``, its answer indented as it is: the
  question was read as the end of the answer above it, trial 63, F6).

A file is cut at its headings only when it has two or more: one short line over an indented
block in a file of prose is more likely a caption than the file's structure. An Emacs mode line
(``-*- coding: utf-8 -*-``, above Apache's first ``Changes with Apache 2.4.71``) counts as
blank. The ``*)`` that marks each entry of an Apache-style changelog stays in the text: without
it, ``Change: now nginx is built with PCRE2.`` and ``mod_dav: Fix a crash.`` read as a field
listing (``name: value``) to the offline model, which then quotes no sentence of the entry
(``app.llm.offline.sentences``). Standard library and :mod:`workers.sources.query` (its stop
words).
"""

from __future__ import annotations

import re

from workers.sources.sentence_ends import ITEM_MARK
from workers.sources.stopwords import STOPWORDS

__all__ = ["MAX_HEADING_CHARS", "heading_lines", "letter_line", "opening_heading",
           "text_sections", "text_title"]

MAX_HEADING_CHARS = 80
"""A heading line is at most this long once its runs of spaces are one space."""

_MAX_HEADING_WORDS = 12
_RULE = re.compile(r"([=\-~^*#+])\1{2,}")
_BULLET = re.compile(rf"(?:{ITEM_MARK}|[o.]|\*\)|[a-z][.)])[ \t]")
_MARKUP = re.compile(r"\.\.[ \t]|#[^\s#]")
"""A reST directive or comment (``.. code-block::``), a shebang, an org-mode or C line
(``#+begin_quote``, ``#include``): no heading."""
_PARENTHESES = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_ENDS_CLAUSE = re.compile(r"[.:,;!?({\[\\=+|&<>/-]$")
_LETTER = re.compile(r"[^\W\d_]")
_MODE_LINE = re.compile(r"^\s*-\*-.*-\*-\s*$")
_LETTER_LINE = re.compile(
    r"dear\b|(?:(?:best|kind|warm)(?:est)? )?regards$|(?:best|warm) wishes$"
    r"|sincerely$|yours(?: (?:truly|sincerely|faithfully))?$|cheers$", re.IGNORECASE)
"""A letter's salutation or sign-off (``Dear heron counters``, ``Best regards``); not "Hello",
which titles many a tutorial's first section ("Hello World")."""
_COLUMNS = re.compile(r"[^\s.:;!?,](?: {2,}|\t)+(?=\S)")
"""A gap between two columns: two spaces or a tab, not after a sentence or a clause (GNU's two
spaces after a full stop)."""
_LOG_RECORD = re.compile(
    r"(?<![\d:])\d{1,2}:\d\d:\d\d(?![\d:])\S*\s+\[?(?:ERROR|WARN|WARNING|INFO|DEBUG|NOTICE"
    r"|CRITICAL|FATAL|TRACE)\b")
"""A log record's time of day and level (``12:00:01 ERROR``); a ChangeLog's ``Thu Nov  3
14:09:31 1994  Phil Nelson`` is a heading."""
_MARKERS = re.compile(r"^(?:=+|#+|\*+)[ \t]+")
"""The marks before an AsciiDoc, Markdown or org-mode title (``== Tag signatures``,
``** Bug fixes``): left out of the heading, kept in the text."""


def _collapsed(line: str) -> str:
    return " ".join(line.split())


def _candidate(line: str) -> bool:
    """Whether ``line`` may be a heading: unindented, short, with a letter, not a list item."""
    if not line or line[0].isspace():
        return False
    text = _collapsed(line)
    return (len(text) <= MAX_HEADING_CHARS and len(text.split()) <= _MAX_HEADING_WORDS
            and _LETTER.search(text) is not None and not _BULLET.match(text)
            and not _MARKUP.match(text) and not _RULE.fullmatch(text))


def _reads_as_a_sentence(line: str) -> bool:
    """Whether ``line`` reads as a piece of a sentence, not a title: it begins or ends with a
    stop word in lower case ("Choices for (int) crit_action are", "rather than within", "and
    at the MIT Kerberos Consortium web site"; "Logging Out" is a title), or has five words or
    more (outside brackets), no digit, and all but one of the words after the first in lower
    case ("To inform libpng about your function, use")."""
    words = line.split()
    first, last = words[0], words[-1].strip("\"'")
    if any(word.islower() and word in STOPWORDS for word in (first, last)):  # not "Logging Out"
        return True
    words = _PARENTHESES.sub(" ", line).split()
    if len(words) < 5 or any(ch.isdigit() for ch in line):
        return False
    return sum(not w[:1].islower() for w in words[1:]) <= 1


def letter_line(line: str) -> bool:
    """Whether ``line`` is a letter's salutation or sign-off, no title of what follows: the
    report reads a passage's short first line as its entry's heading, too.

    Example:
        >>> [letter_line(t) for t in ("Dear heron counters", "Best regards", "Regards files")]
        [True, True, False]
    """
    return _LETTER_LINE.match(_collapsed(line)) is not None


def _no_title(line: str, block: str) -> bool:
    """Whether ``line``, short and over the indented ``block`` (its first line), is something
    else than a title: a letter's salutation or sign-off, a table's header row (over a row:
    each has three columns or more, set apart by two spaces or a tab; a ChangeLog's ``Thu Nov
    3 14:09:31 1994  Phil Nelson  (phil@cs.wwu.edu)`` is over a line of prose), a log record
    (a time of day, to the second, and a level)."""
    text = _collapsed(line)
    return bool(letter_line(text) or _LOG_RECORD.search(text)
                or min(len(_COLUMNS.findall(row.strip())) for row in (line, block)) >= 2)


def _underline(line: str, title: str) -> bool:
    """Whether ``line`` underlines ``title``: one character repeated, about as long."""
    rule = line.rstrip()
    size = len(_collapsed(title))
    return bool(_RULE.fullmatch(rule)) and size - 3 <= len(rule) <= max(2 * size, size + 6)


def _block_start(line: str) -> bool:
    """Whether ``line`` starts an indented or bulleted block."""
    return bool(line.strip()) and (line[0].isspace() or bool(_BULLET.match(line)))


_NUMBERED = re.compile(r"[ \t]{0,4}\d{1,3}(?:\.\d{1,3})+\.?[ \t]+[A-Z][^\n]*[^\s.:,;]")
"""A numbered section's title (``3.8 How do I tell curl to follow HTTP redirects?``,
``4.30. How do I read environment variables with sed?``): a section number of two parts or
more (``1.`` alone numbers steps as often), a capital, no full stop or clause mark at its end."""


def _numbered(line: str) -> bool:
    """Whether ``line``, alone between blank lines, is a numbered section's title
    (:data:`_NUMBERED`; an FAQ's question, indented as its answer is: curl's FAQ), short."""
    text = _collapsed(line)
    return (_NUMBERED.fullmatch(line.rstrip()) is not None and len(text) <= MAX_HEADING_CHARS
            and len(text.split()) <= _MAX_HEADING_WORDS + 1)


_NUMBERED_LEAD = re.compile(r"[ \t]{0,4}\d{1,3}(?:\.\d{1,3})+\.?[ \t]+(?=[A-Z])")
_MAX_QUESTION_LINES = 4
_MAX_QUESTION_WORDS = 40


def _numbered_span(lines: list[str], at: int) -> int:
    """How many lines the numbered title at ``lines[at]`` takes, 0 when it is none: after a
    blank line (or the text's start) and before one, one line (:func:`_numbered`), or a
    question of up to :data:`_MAX_QUESTION_LINES` lines, those after the first indented to its
    text's column, ending in "?" (Vim's FAQ: "5.4. How do I write a file without the line feed
    (EOL) at the end of the" over "     file?", and "5.5. How do I configure Vim to open a
    file at the last edited location?", 14 words, headed nothing: each answer was cut into the
    passage of the one before, under its "For more information, read", trial 126, F5).

    Example:
        >>> _numbered_span(["", "5.4. How do I write a file", "     without an EOL?", ""], 1)
        2
        >>> _numbered_span(["5.4. How do I write it", "with no EOL?"], 0)
        0
    """
    lead = _NUMBERED_LEAD.match(lines[at])
    if lead is None or (at and lines[at - 1].strip()):
        return 0
    column, end = len(lead.group().expandtabs(8)), at + 1
    while (end < len(lines) and end - at < _MAX_QUESTION_LINES and lines[end].strip()
           and len(lines[end].expandtabs(8)) - len(lines[end].expandtabs(8).lstrip()) == column):
        end += 1
    if end < len(lines) and lines[end].strip():
        return 0  # a paragraph going on: no title
    title = _collapsed(" ".join(lines[at:end]))
    if end - at == 1 and _numbered(lines[at]):
        return 1
    return end - at if title.endswith("?") and len(title.split()) <= _MAX_QUESTION_WORDS else 0


def heading_lines(lines: list[str]) -> dict[int, bool]:
    """The headings among ``lines`` (a text's lines): ``{index: underlined}``, the index of each
    heading line and whether the next line is its underline (see the module's rule)."""
    found: dict[int, bool] = {}
    for i, line in enumerate(lines):
        above = lines[i - 1] if i else ""
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if _numbered_span(lines, i):  # a numbered title, perhaps a question on lines of its own
            found[i] = False
            continue
        if (above.strip() and not _MODE_LINE.match(above)) or not _candidate(line):
            continue
        if _underline(after, line):
            found[i] = True
            continue
        if _ENDS_CLAUSE.search(line.rstrip()) or _reads_as_a_sentence(line):
            continue
        if not after.strip():  # one blank line between the heading and its block
            after = lines[i + 2] if i + 2 < len(lines) else ""
        elif after.lstrip()[:1].islower():  # a paragraph going on under a hanging indent
            continue
        if _block_start(after) and not _no_title(line, after):
            found[i] = False
    return found


def text_sections(text: str) -> tuple[tuple[str, str], ...]:
    """A plain text's ``(heading, text)`` sections: the text before the first heading under
    ``""``, then one per heading, its text starting with the heading's line (its runs of
    spaces made one, its underline left out); ``()`` when the text has fewer than two headings
    (:func:`heading_lines`).

    Example:
        >>> log = ("Changes with nginx 1.2    28 Dec 2021\\n\\n    *) Bugfix: a crash.\\n\\n"
        ...        "Changes with nginx 1.1    02 Nov 2021\\n\\n    *) Feature: a flag.\\n")
        >>> [heading for heading, _text in text_sections(log)]
        ['Changes with nginx 1.2 28 Dec 2021', 'Changes with nginx 1.1 02 Nov 2021']
        >>> text_sections(log)[0][1]
        'Changes with nginx 1.2 28 Dec 2021\\n\\n    *) Bugfix: a crash.\\n'
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found = heading_lines(lines)
    if len(found) < 2:
        return ()
    sections: list[tuple[str, list[str]]] = [("", [])]
    after = 0  # the first line after the last heading (its underline, a question's lines)
    for i, line in enumerate(lines):
        if i < after:
            continue
        if i in found:  # its underline left out; a numbered question's lines one title
            span = 1 if found[i] else max(1, _numbered_span(lines, i))
            title = _collapsed(" ".join(lines[i:i + span]))
            sections.append((_MARKERS.sub("", title), [title]))
            after = i + (2 if found[i] else span)
            continue
        sections[-1][1].append(line)
    out = ((heading, "\n".join(body)) for heading, body in sections)
    return tuple((heading, body) for heading, body in out if body.strip())


def opening_heading(text: str) -> str:
    """The heading a text opens with (:func:`heading_lines`: an underlined title, say), its runs
    of spaces made one; "" when it opens with anything else: a reST page's title.

    Example:
        >>> opening_heading("\\nUser Guide\\n==========\\n\\nText."), opening_heading("Text.")
        ('User Guide', '')
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or first not in heading_lines(lines[:first + 3]):
        return ""
    return _MARKERS.sub("", _collapsed(lines[first]))


def text_title(text: str) -> str:
    """A plain text's title: the heading it opens with (:func:`opening_heading`) when it has no
    digit, else "". The Debian Reference's ``.txt.gz`` opens "Debian Reference" over its
    author's name, and was listed in Sources by its file name alone, where its HTML chapters had
    their titles (trial 124, M2-F3); a change log's first version line (``nginx (1.22.1-9)
    unstable; urgency=medium``, ``Version 2.54.7``) or a numbered section heads one part of
    the file, not all of it.

    Example:
        >>> text_title("Debian Reference\\n\\n     Osamu Aoki\\n\\nThis book is free.")
        'Debian Reference'
        >>> text_title("Version 2.54.7\\n\\n  * Fix a crash.\\n"), text_title("Some text.")
        ('', '')
    """
    heading = opening_heading(text)
    return "" if any(ch.isdigit() for ch in heading) else heading
