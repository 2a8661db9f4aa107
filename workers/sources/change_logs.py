"""What is a change log (release notes, an announcement, a list of what is new), by its file's
path, its title or a passage's heading, and when a question asks about changes: the one owner of
both decisions, read by the search's ranking
(:func:`workers.sources.rank_factors.change_log_factor`) and by the report's answer rows
(:func:`app.research.asked_rows.asked_rows`, which puts a change log's row after the docs' own).

A change log's entries name every feature in a line that points to the page that explains it,
so they match any question about a feature and answer none of them.

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["asks_change", "is_change_log", "is_change_log_passage"]

_PATH = re.compile(
    r"(?:^|/)(?:change[-_ ]?logs?|changes|news|history|release[-_ ]?notes?|release[-_ ]?logs?|"
    r"releaselog|releases|whats[-_ ]?new|announce(?:ments?)?|rel[-_ ]?notes|"
    r"release[-_ ]?v?\d+(?:[._-]\d+)*)(?:/|(?:\.[a-z0-9]+)+$|$)", re.IGNORECASE)
"""A change log's path, its folder's or file's name: also a release's announcement, a page of
its own (pytest's 153 ``announce/release-2.9.0.html``: "--lf and --ff now support long names"
answered "What does --lf do?", trial 123, F4), or a folder of them (git's ``RelNotes/``)."""

_FILE = re.compile(r"(?:^|/)(?:version[-_ ]?v?\d+(?:[._-]\d+)*|to[-_ ]?do)(?:\.[a-z0-9]+)*$",
                   re.IGNORECASE)
"""A file named for a version, or a to-do list: Vim's ``version9.html`` ("Patch 8.2.4237
Problem: Record buffer wrong if character in Select mode was not typed." answered "How do I
record typed characters into a register?") and its ``todo.html`` (planned changes, as terse:
"Perhaps keep a cached list of which line is where." was a finding for recovering a swap
file, trial 126, F2). A file only (compressed or not): a folder ``version2/`` may hold a
whole manual."""

_TITLE = re.compile(
    r"(?:change[- ]?log|changes|news|history|release[- ]?notes|release[- ]?log|what'?s[- ]new|"
    r"release[- ]announcements?)"
    r"\b(?!\s+(?:of|for|to)\b)", re.IGNORECASE)
"""A title that names its page a change log, before anything after it (BIND's ``notes.html``,
"Release Notes — BIND 9 ... documentation": two of its entries on "rndc flushname" answered
what the command does, above the command's own entry, trial 75)."""

_VERSION_HEADING = re.compile(r"v?\d+\.\d+(?:\.\d+)*(?:\s|$)", re.IGNORECASE)
"""A heading that is a release's version, on a page of its own or in a long page's list of
releases (pytest's ``2.9.0 (compared to 2.8.7)``, trial 123, F3)."""

_MIGRATION = re.compile(r"\bmigrat(?:e|es|ing|ion)\b", re.IGNORECASE)
"""A migration guide's title or heading ("Migrating from 1.x"): what changed, for upgraders."""

_ASKS_CHANGE = re.compile(
    r"^(?:change[ds]?|changelog|new|release[ds]?|version[s]?|added|removed|deprecated|since|"
    r"upgrad\w*|migrat\w*|fix(?:ed|es)|history|introduced|\d+(?:\.\d+)+|v\d+\S*)$")
"""Words of a question about changes or versions. Not "fix": "How do I fix a typo in my last
commit message?" is the user's own task, and git-doc's changelog lines "Fix typo in ..." were
cited for it (trial 53, A8); "fixed" and "fixes" ask what a release changed."""
_ASKERS = frozenset("a an the my our your their this these those some any all i you we to".split())
"""Words before a change word that make it the asker's own: a thing they have ("keep the
changes", "a new branch", "the history") or do ("How do I change ...")."""
_OWNABLE = frozenset("change changes changed new release released releases version versions "
                     "added removed history fixed fixes".split())
"""The change words an asker's own work is called by too; "upgrade", "migrate", "deprecated",
"since" and a version's number always ask about versions ("How do I migrate to ...")."""
_WORD = re.compile(r"\w+(?:[.-]\w+)*")


def is_change_log(doc_id: str, title: str = "") -> bool:
    """Whether a document is a change log by its path ``doc_id`` (a file or folder named
    ``CHANGELOG``, ``CHANGES``, ``NEWS``, ``HISTORY``, ``release-notes``, ``releaselog``,
    ``releases``, ``whatsnew``, ``announce``, ``release-2.9.0``, compressed or not; a file
    named for a version, ``version9.html``, or a to-do list, ``todo.txt``) or its
    ``title`` ("Release Notes — BIND 9", not "History of proxies").

    Example:
        >>> is_change_log("docs/release-notes.md"), is_change_log("releases/1.8.html")
        (True, True)
        >>> is_change_log("changelog.html.gz"), is_change_log("announce/release-2.9.0.html")
        (True, True)
        >>> is_change_log("docs/history-of-proxies.md"), is_change_log("intro.html",
        ...     "History of proxies")
        (False, False)
        >>> is_change_log("notes.html", "Release Notes — BIND 9")
        True
        >>> is_change_log("html/version9.html"), is_change_log("TODO"), is_change_log("todo.txt")
        (True, True, True)
        >>> is_change_log("version2/index.html"), is_change_log("versioning.html")
        (False, False)
    """
    return bool(_PATH.search(doc_id) or _FILE.search(doc_id) or _TITLE.match(title.strip()))


def is_change_log_passage(ref: str, title: str = "", heading: str = "") -> bool:
    """Whether a passage (``ref`` is ``doc_id#n``) is a change log's or a migration guide's: its
    document is a change log (:func:`is_change_log`), or its document's ``title`` or its own
    ``heading`` names a change log, a release's version or a migration.

    Example:
        >>> is_change_log_passage("announce/release-2.9.0.html#4")
        True
        >>> is_change_log_passage("changelog.html#30", "Changelog", "2.9.0 (compared to 2.8.7)")
        True
        >>> is_change_log_passage("index.html#3", "pytest", "Changelog")
        True
        >>> is_change_log_passage("upgrade.html#1", "Migrating from 1.x to 2.0")
        True
        >>> is_change_log_passage("how-to/cache.html#2", "How to re-run failed tests", "Usage")
        False
        >>> is_change_log_passage("c3ref/release_memory.html#0", "Attempt To Free Heap Memory")
        False
    """
    heading = heading.strip()
    return (is_change_log(ref.split("#", 1)[0], title) or bool(_TITLE.match(heading))
            or bool(_VERSION_HEADING.match(heading)) or bool(_MIGRATION.search(title))
            or bool(_MIGRATION.search(heading)))


def asks_change(terms: Sequence[str], question: str = "") -> bool:
    """Whether a question with the search ``terms`` asks about changes or versions
    (:data:`_ASKS_CHANGE`): a change word (:data:`_OWNABLE`) the ``question`` writes only after
    one of :data:`_ASKERS` is the asker's own work, not a release's ("How do I undo my last
    commit but keep the changes?" had git-doc's changelog, 5,076 of its 11,778 passages, in its
    Top passages: "Version v2.24.0-rc0; changes since v2.23.4:: Pratyush Yadav (6): git-gui:
    ...", trial 121, F10). A term the question does not write (the run's topic's) counts.

    Example:
        >>> asks_change(["undo", "commit", "changes"], "How do I undo it but keep the changes?")
        False
        >>> asks_change(["changes", "since"], "What are the changes since the last one?")
        True
        >>> asks_change(["create", "new", "branch"], "How do I create a new branch?"), asks_change(
        ...     ["new", "2.0"], "What is new in 2.0?")
        (False, True)
        >>> asks_change(["migrate", "api"], "How do I migrate to the new API?")
        True
    """
    words = _WORD.findall(question.lower())
    for term in (t.lower() for t in terms):
        if _ASKS_CHANGE.match(term) and (
                term not in words or term not in _OWNABLE
                or any(i == 0 or words[i - 1] not in _ASKERS
                       for i, word in enumerate(words) if word == term)):
            return True
    return False
