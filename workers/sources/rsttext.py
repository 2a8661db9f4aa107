"""A reStructuredText file as the plain text the index reads well: its roles and links as the
words a reader sees, its code as fenced blocks, its targets, comments and Sphinx's
table-of-contents directives left out, its overlined titles as underlined ones
(:func:`workers.sources.textsections.text_sections` then cuts it at its titles).

Read as plain text before, a Sphinx project's sources (pip's manual ships as .rst) were titled by
their file names, had no headings, and reports quoted ``:ref:`Requirements Files```, ``from
`PyPI`_,`` and ``.. _`open an issue`: https://...``, and the lines of a literal block as a
sentence ("python -m pip download SomePackage python -m pip download -d .": trial 62, F1, F3
and F6). Not docutils: it knows none of Sphinx's roles and directives, and parses a large tree
(a kernel's 30 MB of .rst) far slower than the HTML of the same manual is read; these rules
are line rules, linear in the text.

This module imports the standard library and :mod:`workers.sources.fences`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from workers.sources.fences import split_fences

__all__ = ["rst_inline", "rst_text"]

_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`\n]+(?:\n[^`\n]+)?)`")
"""An interpreted text with its role (``:ref:`Requirements Files```, ``:py:func:`~os.walk```)."""
_LINKED = re.compile(r"`([^`<\n]+?(?:\n[^`<\n]+?)?)\s*(?:<[^>\n]*>)?`__?(?!\w)")
"""A hyperlink reference (```PyPI`_``, ```the docs <https://...>`_``, anonymous ``__``)."""
_LITERAL = re.compile(r"``([^`\n]+(?:\n[^`\n]+)?)``")
_TARGET = re.compile(r"^\s*\.\.\s+(?:_[^:\n]*:|__\s*:|\|[^|\n]+\|)")
"""A hyperlink target (``.. _open an issue: https://...``) or a substitution's definition."""
_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\.\s+(?P<name>[\w:.+-]+)::\s*(?P<args>.*)$")
_COMMENT = re.compile(r"^\s*\.\.(?:\s|$)")
_OPTION = re.compile(r"\s+:[\w-]+:")
"""A directive's option line (``:linenos:``, ``:maxdepth: 2``)."""
_RULE = re.compile(r"^([=\-~^*#+\"'`:._])\1{2,}\s*$")
_CODE = frozenset({"code", "code-block", "sourcecode", "literalinclude", "doctest", "testcode",
                   "parsed-literal", "productionlist"})
_DROPPED = frozenset({"toctree", "contents", "image", "figure", "include", "raw", "only",
                      "index", "autosummary", "tabularcolumns", "meta", "sectionauthor",
                      "moduleauthor", "currentmodule", "module", "program", "highlight"})
"""Directives whose block is no text of the page (a table of contents, an image, markup)."""
_TITLED = frozenset({"function", "class", "method", "attribute", "data", "exception", "option",
                     "cmdoption", "envvar", "describe", "object", "decorator", "staticmethod",
                     "classmethod", "property", "macro", "type", "member", "var", "struct",
                     "enum", "rubric", "topic", "sidebar", "confval", "setting"})
"""Directives whose argument is text: an object's signature (``.. py:function:: walk(top)``,
``.. option:: --no-deps``), a rubric's or a topic's title. Another's argument is no text of
the page (pip's ``.. pip-command-usage:: download`` left "download" as a line: trial 62)."""
_LABELS = {"note": "Note:", "warning": "Warning:", "tip": "Tip:", "important": "Important:",
           "caution": "Caution:", "danger": "Danger:", "attention": "Attention:",
           "hint": "Hint:", "seealso": "See also:", "versionadded": "New in version {}.",
           "versionchanged": "Changed in version {}.", "deprecated": "Deprecated since version {}."}


def rst_text(text: str) -> str:
    """``text`` (reStructuredText) as plain text (see the module's rules).

    Example:
        >>> print(rst_text("==========\\nUser Guide\\n==========\\n\\nSee :ref:`Requirements "
        ...                "Files <reqs>` and `PyPI`_.\\n\\n.. _PyPI: https://pypi.org\\n\\n"
        ...                "Run::\\n\\n    pip install x\\n\\nDone."))
        User Guide
        ==========
        <BLANKLINE>
        See Requirements Files and PyPI.
        <BLANKLINE>
        <BLANKLINE>
        Run:
        <BLANKLINE>
        ```
        pip install x
        ```
        <BLANKLINE>
        Done.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if (_RULE.match(line) and i + 2 < len(lines) and lines[i + 1].strip()
                and lines[i + 2].rstrip() == line.rstrip()):  # an overlined title
            out += [lines[i + 1].strip(), line.strip()]
            i += 3
            continue
        if directive := _DIRECTIVE.match(line):
            i = _directive(lines, i, directive, out)
            continue
        if _TARGET.match(line):
            i += 1
            continue
        if _COMMENT.match(line):  # a comment: its line and the block under it
            i = _block_end(lines, i, _width(line))
            continue
        if line.rstrip().endswith("::") and _indented_after(lines, i):
            said = line.rstrip()[:-2].rstrip()
            out.append(f"{said}:" if said and not said.endswith(":") else said)
            i = _fenced(lines, i + 1, _width(line), "", out)
            continue
        out.append(line)
        i += 1
    return "".join(part if fence else rst_inline(part)  # a role may run onto the next line
                   for fence, part in _with_fences(split_fences("\n".join(out))))


def _with_fences(parts: Iterator[tuple[bool, str]]) -> Iterator[tuple[bool, str]]:
    """:func:`~workers.sources.fences.split_fences`'s segments with the line ends between
    them given back (it cuts at them), so the text is joined as it was."""
    for n, (fence, part) in enumerate(parts):
        yield fence, f"\n{part}" if n else part


def rst_inline(text: str) -> str:
    """``text`` with its reST roles, hyperlink references and literals as the words they show.
    Also for the reST written outside a ``.rst`` file: a docstring, in a ``.py`` file or in a
    page's code block that reads as prose; Sphinx's ``example_google.html`` was quoted as "This
    module demonstrates documentation as specified by the `Google Python Style Guide`_."
    (trial 125, F11, S8).

    Example:
        >>> rst_inline("As the `Google Style Guide`_ says, ``Args`` lists :class:`~a.Pool`.")
        'As the Google Style Guide says, `Args` lists Pool.'
    """
    if "`" not in text:
        return text
    text = _ROLE.sub(lambda m: _shown(m.group(1)), text)
    text = _LINKED.sub(lambda m: m.group(1), text)
    return _LITERAL.sub(lambda m: f"`{m.group(1)}`", text)


def _shown(text: str) -> str:
    """What a role shows: its title before a ``<target>``, ``~a.b.c`` as ``c``."""
    title = re.sub(r"\s*<[^>]*>$", "", " ".join(text.split())) or text
    if title.startswith("~"):
        title = title[1:].rsplit(".", 1)[-1]
    return title.lstrip("!")


def _width(line: str) -> int:
    return len(line) - len(line.lstrip())


def _indented_after(lines: list[str], i: int) -> bool:
    """Whether the first line with text after ``i`` is indented more than line ``i``."""
    for j in range(i + 1, len(lines)):  # by index: a slice of the rest per call is O(n²)
        if lines[j].strip():
            return _width(lines[j]) > _width(lines[i])
    return False


def _block_end(lines: list[str], i: int, width: int) -> int:
    """The index after line ``i`` and the block indented under it (blank lines inside it)."""
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or _width(lines[j]) > width):
        j += 1
    while j > i + 1 and not lines[j - 1].strip():  # the blank lines after it are the text's
        j -= 1
    return j


def _fenced(lines: list[str], start: int, width: int, language: str, out: list[str]) -> int:
    """The block indented under line ``start - 1`` as a fenced code block appended to ``out``
    (its options ``:linenos:`` left out); returns the index after it."""
    end = _block_end(lines, start - 1, width)
    first = start
    while first < end and (not lines[first].strip() or _OPTION.match(lines[first])):
        first += 1  # its blank lines and options before the code
    body = lines[first:end]
    if body:
        cut = min(_width(line) for line in body if line.strip())
        out += ["", f"```{language}", *(line[cut:] for line in body), "```"]
    return end


def _directive(lines: list[str], i: int, found: re.Match[str], out: list[str]) -> int:
    """Line ``i``, a directive (``found``), and its block as text appended to ``out``; returns
    the index after it."""
    name, args, width = found["name"].lower(), found["args"].strip(), len(found["indent"])
    if name in _CODE:
        language = args.split()[0] if args and name != "literalinclude" else ""
        return _fenced(lines, i + 1, width, language, out)
    if name in _DROPPED or (name.startswith("auto") and not args):
        return _block_end(lines, i, width)
    label = _LABELS.get(name)
    if label is not None:
        if "{}" in label:  # a version note: "New in version 3.2." and what it says after
            version, _, rest = args.partition(" ")
            said = (label.format(version) if version else label.replace(" {}", "")) + (
                f" {rest.strip()}" if rest.strip() else "")
        else:
            said = f"{label} {args}".rstrip()
        out.append(found["indent"] + said)
    elif args and name.rpartition(":")[2] in _TITLED:  # a signature, a topic's title
        out.append(found["indent"] + args)
    j = i + 1
    while j < len(lines) and _OPTION.match(lines[j]):  # its options
        j += 1
    return j
