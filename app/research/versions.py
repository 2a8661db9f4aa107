"""Which release a sentence is about, for a question that asks "in which version ...?": the
heading of a change log's entry names it, the sentence seldom does.

Pure.
"""

from __future__ import annotations

import re

__all__ = ["asks_version", "history_row", "version_label"]

_MARKS = "¶#§ \t"
"""A permalink mark after a heading's text."""

_ASKS_VERSION = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+)?(?:version|release)s?\b|\bsince\s+when\b|"
    r"\bwhen\s+(?:was|were|did)\b.*\b(?:added|introduced|removed|fixed|changed|deprecated)\b",
    re.IGNORECASE)
_VERSION = re.compile(r"\b\d+\.\d+(?:\.\d+)*\b")


def version_label(question: str, text: str, heading: str) -> str:
    """The heading to show before ``text`` (a sentence of a passage under ``heading``) in an
    answer to ``question``: the heading when the question asks which version or release
    (:data:`_ASKS_VERSION`) and the heading names one the sentence does not (a changelog's
    ``Changes with nginx 1.21.5  28 Dec 2021`` over ``*) Change: now nginx is built with the
    PCRE2 library by default.``); else "". Without it, the version stood only in
    the Sources list.

    Example:
        >>> version_label("In which version is PCRE2 the default?", "PCRE2 is the default.",
        ...               "Changes with nginx 1.21.5  28 Dec 2021")
        'Changes with nginx 1.21.5 28 Dec 2021'
        >>> version_label("What is PCRE2?", "PCRE2 is the default.", "Changes with nginx 1.21.5")
        ''
    """
    heading = " ".join(heading.rstrip(_MARKS).split())
    versions = set(_VERSION.findall(heading))
    if not versions or not _ASKS_VERSION.search(question) or versions & set(
            _VERSION.findall(text)):
        return ""
    return heading


_HISTORY_ROW = re.compile(r"^\W*v?\d+(?:\.\d+)+(?:,\s*v?\d+(?:\.\d+)+)*\s+—\s+changes?:",
                          re.IGNORECASE)


def history_row(text: str) -> bool:
    """Whether ``text`` is a row of an entry's version history (a ``Version | Changes`` table
    read as a sentence: Node.js's ``v15.4.0 — Changes: No longer experimental.``): what changed
    when, no limitation and seldom the answer, unless the question asks which version
    (:func:`asks_version`).

    Example:
        >>> history_row("v13.11.0, v12.17.0 — Changes: In recursive mode, the callback ...")
        True
        >>> history_row("Calling fs.mkdir() on an existing directory fails.")
        False
    """
    return bool(_HISTORY_ROW.match(text))


def asks_version(question: str) -> bool:
    """Whether ``question`` asks which version or release, or since when (:data:`_ASKS_VERSION`).

    Example:
        >>> asks_version("In which version was recursive added?"), asks_version("What is X?")
        (True, False)
    """
    return bool(_ASKS_VERSION.search(question))
