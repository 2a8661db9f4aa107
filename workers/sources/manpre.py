"""A man page groff rendered to HTML as one ``<pre>`` (Postfix's manual: ``qshape.1.html``,
``postsuper.1.html``, ``postscreen.8.html``) read as a man page: its section names (NAME,
DESCRIPTION, ...) head its sections, and an indented option list is a list of entries, each
its name then its description.

Read as one ``<pre>`` of prose, its passages had no heading (sources listed bare refs,
``postscreen.8.html#17``) and its labels were stuck onto sentences: "DESCRIPTION The "postfix
tls subcommand" feature ...", "queue_name By default qshape displays ...", "user, password
The user name and password to log into the mysql server." (trial 114, F4).

:func:`man_parts` says what the ``<pre>`` holds, in order; :mod:`workers.sources.htmlpage`
writes it with its own marks. This module imports the standard library,
:mod:`workers.sources.hyphens` and :mod:`workers.sources.preformatted`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from workers.sources.hyphens import compounds, dehyphenated
from workers.sources.preformatted import reads_as_prose

__all__ = ["man_marked", "man_parts"]

_PAGE_TOP = re.compile(r"(?:\S+\(\w+\)\s*){1,3}")
"""The line groff writes at a page's top and bottom: ``QSHAPE(1)   QSHAPE(1)``."""
_SENTENCE_END = re.compile(r"(?<!\.\.)[.!?:;]$")
"""A line ending a sentence; not a term ending in an ellipsis (``-C class,...``,
``installation_parameter=value...``: a list of them, trial 119, F7)."""
_BULLETS = frozenset({"o", "*", "-", "+", "\u2022", "\u00b7"})
_FIRST_WORD = re.compile(r"(\S+) +(?=\S)")
_SHORT_TAG = re.compile(r"(\S+(?: \S+)*?) {2,}(?=\S)")
"""groff's short tag of words and its description on one line, the two apart by a run of
spaces: ``-d id  Delete the queued transfer id.`` (trial 119, F7)."""
_TP_INDENT = 7
"""groff's default indent of a tagged paragraph's text (``.TP``, ``.IP``): a name shorter than
it is followed on its line by its description ("dbname The database name ...", its next line
an example indented further)."""
_MAX_TERM = 100
"""A term is at most this long (``-m min_subdomains``, ``virtual_alias_maps ($virtual_maps)``)."""


def man_parts(pre: str) -> list[tuple[str, str]] | None:
    """What a man page's ``<pre>`` text holds, in order, as ``(kind, text)``: ``heading`` (a
    section's name, a line at column 0 with no lower-case letter), ``entries`` and ``end``
    around a list of options, ``entry`` (an option's name: a line at the section's indent over
    a more indented description), ``prose`` (a paragraph, its broken words whole again) and
    ``code`` (a display indented further that does not read as prose). None when ``pre`` is
    no man page: no ``NAME`` heading first, or fewer than two headings. The page's top and
    bottom lines (``QSHAPE(1)``) are left out.

    Example:
        >>> pre = ("QSHAPE(1)      QSHAPE(1)\\n\\nNAME\\n       qshape - Print queue shape\\n\\n"
        ...        "OPTIONS\\n       -s     Display the sender domain distribution instead\\n"
        ...        "              of the recipient domain distribution.\\n\\n"
        ...        "       -m min_subdomains\\n              Sets the minimum subdo-\\n"
        ...        "              main count.\\n\\n                 QSHAPE(1)\\n")
        >>> for part in man_parts(pre): print(part)
        ('heading', 'NAME')
        ('prose', 'qshape - Print queue shape')
        ('heading', 'OPTIONS')
        ('entries', '')
        ('entry', '-s')
        ('prose', 'Display the sender domain distribution instead\\nof the recipient domain distribution.')
        ('entry', '-m min_subdomains')
        ('prose', 'Sets the minimum subdomain count.')
        ('end', '')
    """  # noqa: E501
    lines = pre.expandtabs(8).split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    top = set(first.split()) if _PAGE_TOP.fullmatch(first) else set()
    lines = [line for line in lines if not (top and line.strip() and set(line.split()) <= top)]
    heads = [i for i, line in enumerate(lines) if _heading(line)]
    if len(heads) < 2 or lines[heads[0]].strip() != "NAME":
        return None
    keep = compounds([pre]) if "-\n" in pre else frozenset()
    parts: list[tuple[str, str]] = []
    for at, end in zip(heads, [*heads[1:], len(lines)], strict=True):
        name = " ".join(lines[at].split())
        parts.append(("heading", name))
        parts += _section(_dedented(lines[at + 1:end]), keep, lists=name != "SYNOPSIS")
    return parts


def man_marked(pre: str, marks: Mapping[str, str]) -> str | None:
    """A man page's ``<pre>`` text (:func:`man_parts`) written with ``marks``: each kind's
    mark, its ``"\\0"`` the part's text; None when ``pre`` is no man page.

    Example:
        >>> man_marked("X(1)  X(1)\\nNAME\\n   x - y\\nBUGS\\n   None.\\n",
        ...            {"heading": "# \\0\\n", "prose": "\\0\\n"})
        '# NAME\\nx - y\\n# BUGS\\nNone.\\n'
    """
    parts = man_parts(pre)
    if parts is None:
        return None
    return "".join(marks[kind].replace("\0", text) for kind, text in parts)


def _heading(line: str) -> bool:
    text = line.strip()
    return (bool(text) and not line[0].isspace() and len(text) <= 60
            and not any(c.islower() for c in text) and sum(c.isupper() for c in text) >= 2)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _dedented(lines: list[str]) -> list[str]:
    base = min((_indent(line) for line in lines if line.strip()), default=0)
    return [line[min(base, _indent(line)):].rstrip() for line in lines]


def _section(lines: list[str], keep: frozenset[str], lists: bool) -> list[tuple[str, str]]:
    """A section's (or an entry's description's) parts, its lines dedented (:func:`man_parts`);
    entries only when ``lists`` (a SYNOPSIS's wrapped lines are no list; nor is a list inside
    an entry's description). A paragraph between entries ending with ":" opens the next entry
    ("Available in Postfix 3.4 and later:"), unless a display follows it: then it ends the
    list and keeps its display ("To delete every queued transfer at once, run:" over
    ``qpurge -d ALL`` was the next entry's, apart from its command, trial 119, F7)."""
    parts: list[tuple[str, str]] = []
    pending: list[tuple[str, str]] = []  # a paragraph in a list ending with ":": the next entry's
    listed, i, n = False, 0, len(lines)
    while i < n:
        if not lines[i].strip():
            i += 1
            continue
        j = i
        while j < n and lines[j].strip() and (_indent(lines[j]) == 0) == (_indent(lines[i]) == 0):
            j += 1  # a run of lines at column 0, or of indented lines
        item = (_item(lines[i:j], lines[j] if j < n else "", listed)
                if lists and not _indent(lines[i]) else None)
        if item is None:
            while (not _indent(lines[i]) and j < n and lines[j].strip()
                   and not lines[j - 1].endswith(":")):  # ("Example:" over its display)
                j += 1  # a hanging paragraph (a SYNOPSIS, a list inside a description): one
            block = _block(lines[i:j], keep)
            if (listed and not _indent(lines[i]) and block[1].endswith(":")
                    and not _indent(next((line for line in lines[j:] if line.strip()), ""))):
                pending.append(block)  # "Available in Postfix 3.4 and later:" between entries
            elif listed and not _indent(lines[i]):
                parts += [("end", ""), *pending, block]
                listed, pending = False, []
            else:
                parts.append(block)
            i = j
            continue
        k = j
        while k < n and (not lines[k].strip() or _indent(lines[k]) > 0):
            k += 1  # the description: every line up to the next at column 0
        term, first = item
        if not listed:
            parts.append(("entries", ""))
            listed = True
        parts += [("entry", term), *pending]
        pending = []
        parts += _section(_dedented([*first, *lines[j:k]]), keep, lists=False)
        i = k
    return [*parts, ("end", ""), *pending] if listed else parts


def _item(head: list[str], after: str, listed: bool) -> tuple[str, list[str]] | None:
    """An option's name and its description's first line (when on the name's line), or None:
    ``head`` (lines at column 0, at most two) is followed by an indented line at the
    description's column (``after``), or is one line of a list already begun (``listed``)
    with its description at groff's indent, and is short and ends no sentence. A name of
    words is apart from its description by a run of spaces (``-d id  Delete ...``, trial 119,
    F7)."""
    column = _indent(after) if after.strip() else _TP_INDENT if listed and len(head) == 1 else 0
    if not 3 <= column <= 16 or len(head) > 2:
        return None
    first = head[0]
    word = next((m for m in (_FIRST_WORD.match(first), _SHORT_TAG.match(first))
                 if m and m.end() in (column, _TP_INDENT)), None)
    if len(head) == 1 and word:
        term, rest = word[1], [" " * word.end() + first[word.end():]]
    else:
        term, rest = " ".join(dehyphenated("\n".join(head)).split()), []
    if (len(term) > _MAX_TERM or term in _BULLETS or re.fullmatch(r"\(?\w\)|\d+\.", term)
            or _SENTENCE_END.search(term)):
        return None
    return term, rest


def _block(lines: list[str], keep: frozenset[str]) -> tuple[str, str]:
    """A paragraph at the section's indent (prose), or a display indented further: prose if it
    reads as prose, else code as written."""
    text = "\n".join(lines)
    if _indent(lines[0]) and not reads_as_prose(text):
        return ("code", "\n".join(_dedented(lines)))
    return ("prose", dehyphenated("\n".join(line.strip() for line in lines), keep))
