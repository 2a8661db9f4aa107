"""What a passage's page keeps of its search score for what kind of page it is
(:func:`workers.sources.ranking.candidate_score`): a page made of links, a passage of code
alone, a change log's entry.

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.sources.fences import split_fences

__all__ = ["CHANGE_LOG_FACTOR", "CODE_FACTOR", "LINK_SHARE_FREE", "asks_change",
           "change_log_factor", "code_factor", "link_factor"]

LINK_SHARE_FREE = 0.5
"""A page whose link text is at most this share of its text is ranked as it is; above, it is
a page of links (an index, a site map, a cross-reference list)."""

_LINK_FACTOR_MIN = 0.1


def link_factor(link_share: float) -> float:
    """The factor a passage's score is multiplied by for its page's link share (0..1): 1 up to
    ``LINK_SHARE_FREE``, then falling linearly to 0.1 for a page that is all links. Such a page
    names every topic, so it matches any question, and answers none (issue 19: the sqlite
    keyword index and site map were cited for paraphrased questions). Source of the idea: link
    density as a boilerplate feature (Kohlschütter et al., WSDM 2010).
    """
    share = min(max(float(link_share), 0.0), 1.0)
    if share <= LINK_SHARE_FREE:
        return 1.0
    return max(_LINK_FACTOR_MIN, (1 - share) / (1 - LINK_SHARE_FREE))


CODE_FACTOR = 0.5
"""What a passage that is code alone keeps of its score (see :func:`code_factor`)."""


def code_factor(text: str) -> float:
    """:data:`CODE_FACTOR` for a passage that is code alone (every line of it in a fenced
    block), else 1. Its identifiers repeat the words asked ("fts5_api", "fts5_tokenizer"),
    so a listing outscored the page's definition for "What is FTS5?" and took one of the
    page's two places (the chunker keeps an HTML ``<pre>`` as one block);
    it shows how, seldom what or why.

    Example:
        >>> code_factor("```\\nstruct fts5_api {\\n  int iVersion;\\n};\\n```")
        0.5
        >>> code_factor("FTS5 is a virtual table module.\\n\\n```\\nCREATE ...\\n```")
        1.0
    """
    return CODE_FACTOR if all(fence or not segment.strip()
                              for fence, segment in split_fences(text)) else 1.0


CHANGE_LOG_FACTOR = 0.4
"""What a change log's passage keeps of its score for a question that does not ask about
changes (see :func:`change_log_factor`)."""
_CHANGE_LOG = re.compile(
    r"(?:^|/)(?:change[-_ ]?logs?|changes|news|history|release[-_ ]?notes?|release[-_ ]?logs?|"
    r"releaselog|releases|whats[-_ ]?new|announce(?:ments?)?|rel[-_ ]?notes|"
    r"release[-_ ]?v?\d+(?:[._-]\d+)*)(?:/|(?:\.[a-z0-9]+)+$|$)", re.IGNORECASE)
"""A change log's path, its folder's or file's name: also a release's announcement, a page of
its own (pytest's 153 ``announce/release-2.9.0.html``: "--lf and --ff now support long names"
answered "What does --lf do?", trial 123, F4), or a folder of them (git's ``RelNotes/``)."""
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


_CHANGE_LOG_TITLE = re.compile(
    r"(?:change[- ]?log|changes|news|history|release[- ]?notes|release[- ]?log|what'?s[- ]new|"
    r"release[- ]announcements?)"
    r"\b(?!\s+(?:of|for|to)\b)", re.IGNORECASE)
"""A title that names its page a change log, before anything after it (BIND's ``notes.html``,
"Release Notes — BIND 9 ... documentation": two of its entries on "rndc flushname" answered
what the command does, above the command's own entry, trial 75)."""


def change_log_factor(doc_id: str, terms: Sequence[str], title: str = "",
                      question: str = "") -> float:
    """The factor a passage's score is multiplied by when its document is a change log (a file
    or folder named ``CHANGELOG``, ``CHANGES``, ``NEWS``, ``HISTORY``, ``release-notes``,
    ``releaselog``, ``releases``, ``whatsnew``, ``announce``, ``release-2.9.0``, or titled so:
    :data:`_CHANGE_LOG_TITLE`): :data:`CHANGE_LOG_FACTOR`, unless the question asks about
    changes or versions (:func:`asks_change`: ``terms`` hold "changed", "release", "version",
    "since", "3.8" ..., not as the ``question``'s own "the changes"); else 1. A change log's
    entries name every feature in a line that points to the page that explains it (FastAPI's
    700 KB ``release-notes.md`` answered "What is root_path behind a proxy?" with "New docs
    about `root_path` ...", above the page itself; Django's ``releases/1.8.html``, "What does
    select_related() do?", trial 60).

    Example:
        >>> change_log_factor("docs/release-notes.md", ["root_path", "proxy"])
        0.4
        >>> change_log_factor("docs/release-notes.md", ["root_path", "changed"])
        1.0
        >>> change_log_factor("docs/history-of-proxies.md", ["proxy"])
        1.0
        >>> change_log_factor("releases/1.8.html", ["select_related"])  # Django's (trial 60)
        0.4
        >>> change_log_factor("changelog.html.gz", ["lf"])  # pytest's, compressed (trial 79)
        0.4
        >>> change_log_factor("changelog.gz", ["fix", "typo"]), change_log_factor(
        ...     "changelog.gz", ["fixed", "typo"])
        (0.4, 1.0)
        >>> change_log_factor("notes.html", ["flushname"], "Release Notes — BIND 9")
        0.4
        >>> change_log_factor("intro.html", ["proxy"], "History of proxies")
        1.0
        >>> change_log_factor("announce/release-2.9.0.html", ["lf"])  # pytest's (trial 123)
        0.4
        >>> change_log_factor("changelog.gz", ["changes"], "", "How do I keep the changes?")
        0.4
    """
    log = _CHANGE_LOG.search(doc_id) or _CHANGE_LOG_TITLE.match(title.strip())
    if not log or asks_change(terms, question):
        return 1.0
    return CHANGE_LOG_FACTOR
