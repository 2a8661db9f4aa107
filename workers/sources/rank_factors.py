"""What a passage's page keeps of its search score for what kind of page it is
(:func:`workers.sources.ranking.candidate_score`): a page made of links, a passage of code
alone, a change log's entry.

This module imports only the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence

from workers.sources.change_logs import asks_change, is_change_log
from workers.sources.fences import split_fences

__all__ = ["CHANGE_LOG_FACTOR", "CODE_FACTOR", "LINK_SHARE_FREE", "change_log_factor",
           "code_factor", "link_factor"]

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


def change_log_factor(doc_id: str, terms: Sequence[str], title: str = "",
                      question: str = "") -> float:
    """The factor a passage's score is multiplied by when its document is a change log by its
    path ``doc_id`` or ``title`` (:func:`~workers.sources.change_logs.is_change_log`):
    :data:`CHANGE_LOG_FACTOR`, unless the question asks about changes or versions
    (:func:`~workers.sources.change_logs.asks_change`: ``terms`` hold "changed", "release",
    "version", "since", "3.8" ..., not as the ``question``'s own "the changes"); else 1. A
    change log's entries name every feature in a line that points to the page that explains it
    (FastAPI's 700 KB ``release-notes.md`` answered "What is root_path behind a proxy?" with
    "New docs about `root_path` ...", above the page itself; Django's ``releases/1.8.html``,
    "What does select_related() do?", trial 60).

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
    if not is_change_log(doc_id, title) or asks_change(terms, question):
        return 1.0
    return CHANGE_LOG_FACTOR
