"""The prose of an annotated example file: its comment blocks read as sentences.

Debian ships example configurations as plain text (nginx's ``examples/virtual_hosts``,
``upstream``), where what the example means is written in ``#`` comments a sentence spans:

    # If you're going to proxy to Apache, then just push the whole
    # request to it. You'll generally have better performance with
    # a dedicated php listener (fastcgi: php-cgi, php-fpm).

Read with their marks, each line began a block of its own (a ``#`` at a line's start is a
Markdown heading to the readers of passages), and a report quoted "a dedicated php listener
(fastcgi: php-cgi, php-fpm)." as a finding (trial 65, F2). :func:`comment_prose` drops the
mark of each line of such a block, so its sentences read whole. Standard library only.
"""

from __future__ import annotations

import re

__all__ = ["SHELL_SUFFIXES", "comment_prose", "script_comments"]

_BLOCK = re.compile(r"(?:^[ \t]*# [^\n]*\S[^\n]*(?:\n|\Z)){2,}", re.MULTILINE)
"""Two or more lines in a row, each a ``#`` comment: the mark, one space, then text (a
commented-out setting, ``#location ~ \\.php$ {``, has no space after its mark)."""
_MARK = re.compile(r"^([ \t]*)# ", re.MULTILINE)
_SENTENCE_END = re.compile(r"[.!?][\"')\]]?[ \t]*$", re.MULTILINE)


def comment_prose(text: str) -> str:
    """``text`` with the ``# `` mark dropped from each line of a block of two or more comment
    lines of which one ends a sentence (a block of commands after a root prompt, ``# apt-get
    install nginx``, ends none, and keeps its marks); the indentation is kept, and a blank line
    ends the block (the setting under it is no part of its last sentence).

    Example:
        >>> print(comment_prose("# Proxy to Apache. You get better speed with\\n"
        ...                     "# a php listener.\\n#location / {\\n# apt update\\n# apt upgrade"))
        Proxy to Apache. You get better speed with
        a php listener.
        <BLANKLINE>
        #location / {
        # apt update
        # apt upgrade
    """
    if "# " not in text:
        return text

    def prose(block: re.Match[str]) -> str:
        found = block.group(0)
        if not _SENTENCE_END.search(found):
            return found
        # a paragraph of its own: the setting under it is no part of its last sentence
        return _MARK.sub(r"\1", found) + ("\n" if found.endswith("\n") else "")

    return _BLOCK.sub(prose, text)


SHELL_SUFFIXES = (".sh", ".bash", ".ksh", ".zsh")
"""The suffixes of a shell script, read as its comments (:func:`script_comments`)."""

_COMMENT = re.compile(r"^[ \t]*#+[ \t]?(.*)$")
_RULE = re.compile(r"[#=*_~+\-\s]*")
"""A comment line that only draws a banner's rule (``#####``, ``# ------``)."""
_MODELINE = re.compile(r"-\*-.*-\*-|\b(?:vi|vim|ex):\s")


def script_comments(text: str) -> str:
    """The comments of a shell script, marks dropped, each run of comment lines a paragraph:
    what its author wrote in prose, without the code between (``.py`` files are read as
    their docstrings so). Read whole, shellmath's ``shellmath.sh`` was found before its
    README for "Can bash do math with decimal numbers?" by a ``declare`` of its error strings
    (trial 125, F8). The ``#!`` line, banner rules and editor mode lines are left out, and so
    is a comment after code on its line; "" when the script has no comment.

    Example:
        >>> print(script_comments("#!/bin/bash\\n#####\\n# spin.bash -- a spinning wheel\\n"
        ...                       "# to show progress.\\nspin() { :; }  # a wheel\\n# Usage:\\n"))
        spin.bash -- a spinning wheel
        to show progress.
        <BLANKLINE>
        Usage:
    """
    paragraphs: list[list[str]] = [[]]
    for number, line in enumerate(text.splitlines()):
        found = _COMMENT.match(line)
        said = found.group(1).rstrip() if found else ""
        if found and number == 0 and line.startswith("#!"):
            continue
        if found and said and not _RULE.fullmatch(said) and not _MODELINE.search(said):
            paragraphs[-1].append(said)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join("\n".join(lines) for lines in paragraphs if lines)
