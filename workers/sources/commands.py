"""A question naming a command ("git clone", "git rebase", "apt-get install", "docker run") is
answered from that command's own man page (git-clone(1), its NAME line "git-clone - Clone a
repository into a new directory" and its own options), not from an option of another command
that shares a word with it: git-submodule(1)'s ``--rebase``, git-rev-list(1)'s ``--cherry``,
git-fetch(1)'s ``--depth`` answered "What is git rebase?", "What does git cherry-pick do?" and
"What does git clone --depth do?" (trial 121, F1).

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["COMMAND_BOOST", "asks_command", "command_name", "command_span", "commands_named"]

COMMAND_BOOST = 1.0
"""How much a passage of the man page of the command a question names is raised: x2, as a
title naming the question's identifiers exactly is (:data:`~.ranking.EXACT_NAME_BOOST`)."""

_MAN_TITLE = re.compile(r"(?<![\w.+-])([\w.+-]+)\(\d\w*\)")
"""A man page's title: its name and section, "git-clone(1)" (git-doc's HTML), "Postfix manual -
smtp-source(1)" (Postfix's)."""
_NAME_LINE = re.compile(r"^\s*([\w.+-]+)\s+\u2014\s")
"""A man page's troff source read as Markdown is titled by its NAME line, "git-clone \u2014 Clone
a repository into a new directory" (:func:`~.manpage.man_markdown`)."""
_WORDS = re.compile(r"[^\W_]+")


def command_name(doc_id: str, title: str) -> str:
    """The command a man page documents, lower-cased: its file's name (``git-clone.html``,
    ``git-clone.1.gz``) when the title names it as a man page's does (``git-clone(1)``, or the
    NAME line ``git-clone \u2014 ...``); ``""`` for any other document (a page titled
    "Shallow clones" names no command).

    Example:
        >>> command_name("git-clone.html", "git-clone(1)")
        'git-clone'
        >>> command_name("man1/apt-get.8.gz", "apt-get \u2014 APT package handling utility")
        'apt-get'
        >>> command_name("clone.html", "git-clone(1)"), command_name("user-manual.html", "Manual")
        ('', '')
    """
    stem = doc_id.rsplit("/", 1)[-1].split(".", 1)[0].lower()
    names = {m[1].lower() for m in _MAN_TITLE.finditer(title)}
    if line := _NAME_LINE.match(title):
        names.add(line[1].lower())
    return stem if stem and stem in names else ""


def command_span(question: str, name: str) -> tuple[int, int] | None:
    """Where ``question`` writes the command ``name`` of two words or more as its words, side by
    side in its order (``git clone``, ``git cherry-pick``, ``apt-get``): ``(first word, after the
    last)``, counted in the question's words; None when it does not (a name of one word, as
    git(1)'s or systemctl(1)'s, is too often a word of the question's prose: Postfix's smtp(8)).

    Example:
        >>> command_span("What does git cherry-pick do?", "git-cherry-pick")
        (2, 5)
        >>> command_span("What does apt-get install do?", "apt-get")
        (2, 4)
        >>> command_span("What is git rebase?", "git-rev-list"), command_span("What is git?", "git")
        (None, None)
    """
    words = _WORDS.findall(name.lower())
    asked = _WORDS.findall(question.lower())
    if len(words) < 2:
        return None
    for start in range(len(asked) - len(words) + 1):
        if asked[start:start + len(words)] == words:
            return start, start + len(words)
    return None


def commands_named(question: str, pages: Sequence[tuple[str, str]]) -> set[str]:
    """The documents among ``pages`` (``(doc_id, title)`` each) that are the man page of a
    command ``question`` names (:func:`command_name`, :func:`command_span`), but one whose name
    sits inside a longer command's the question names (``git merge`` in "git merge-base").

    Example:
        >>> sorted(commands_named("What is git merge-base?", [("git-merge.html", "git-merge(1)"),
        ...     ("git-merge-base.html", "git-merge-base(1)"), ("git.html", "git(1)")]))
        ['git-merge-base.html']
    """
    spans = {doc_id: span for doc_id, title in dict(pages).items()
             if (span := command_span(question, command_name(doc_id, title))) is not None}
    return {doc_id for doc_id, (start, end) in spans.items()
            if not any(s <= start and end <= e and (s, e) != (start, end)
                       for s, e in spans.values())}


def asks_command(terms: Sequence[str], name: str) -> bool:
    """Whether a question's ``terms`` are all words of the command ``name``: it asks what the
    command is or does ("What does git cherry-pick do?"), not one of its options ("git clone
    --depth"), so the page's NAME line ("git-cherry-pick - Apply the changes introduced by
    some existing commits") is its definition.

    Example:
        >>> asks_command(["git", "cherry", "pick"], "git-cherry-pick")
        True
        >>> asks_command(["git", "clone", "depth"], "git-clone")
        False
    """
    words = set(_WORDS.findall(name.lower()))
    return bool(terms) and all(t in words for t in terms)
