"""The words of the API symbol a docstring documents, read from its title (a qualified name):
what the offline model counts a docstring's sentences as being about."""

from __future__ import annotations

import re

from workers.sources.query import symbol_name

__all__ = ["name_words"]

_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


_FILE_SUFFIXES = frozenset(
    "md markdown txt text rst html htm xhtml pdf docx py pyi json yaml yml toml csv xml tex "
    "ipynb".split())
"""A title ending in one of these is a file's name ("guide.md"), not a symbol's."""


def name_words(title: str) -> str:
    """The words of the API symbol a passage documents, when its title is a qualified name
    (a docstring's): ``"langgraph.types.RetryPolicy"`` -> ``"Retry Policy"``; ``""`` for a
    page or file title. A docstring's sentences are about that symbol even where they do not
    name it ("Configuration for retrying nodes." is what ``RetryPolicy`` is).

    Example:
        >>> name_words("langgraph.types.RetryPolicy"), name_words("x.load_pending_writes")
        ('Retry Policy', 'load pending writes')
        >>> name_words("SQLite Query Language: ALTER TABLE"), name_words("guide.md")
        ('', '')
    """
    name = symbol_name(title)
    if not name or title.rpartition(".")[2].lower() in _FILE_SUFFIXES:
        return ""
    return " ".join(_CAMEL_PART.findall(name))
