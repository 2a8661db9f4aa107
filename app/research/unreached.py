"""Sources a run could not reach: a web search that did not answer (Tavily or SearXNG down, or
pointed at a closed port) fails the tasks that needed it, and the report must say that source
was *not reached*, never that it had nothing to say (a SearXNG that was down was
reported as "the sources say nothing about" the topic).

Read from the failed rows' error lines (:func:`workers.sources.web.unreached_source`), so the
run's notes, the report's Notes and the relevance verdict (:mod:`app.research.relevance`) name
the same sources. (A failed MCP tool is handed to the agent, which answers without it; the
agent worker notes it: ``workers.agent``.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from workers.errors import ANSWERED_WITHOUT
from workers.sources.web import unreached_source

__all__ = ["unreached_notes", "unreached_sources", "unreached_tools"]


def unreached_sources(rows: Iterable[Mapping[str, Any]]) -> Counter[str]:
    """How many failed tasks of ``rows`` (results-database rows or envelopes: ``status``,
    ``error``) each unreached source failed, by its message, in the order first seen.

    Example:
        >>> rows = [{"status": "error", "error": "WebTimeout: Tavily did not answer within 30 s"},
        ...         {"status": "error", "error": "ValueError: no"}, {"status": "ok"}]
        >>> dict(unreached_sources(rows))
        {'Tavily did not answer within 30 s': 1}
    """
    found: Counter[str] = Counter()
    for row in rows:
        if row.get("status") == "error" and (what := unreached_source(row.get("error") or "")):
            found[what] += 1
    return found


def unreached_tools(notes: Iterable[str]) -> list[str]:
    """The failed tools of the operator's (MCP) the run's ``notes`` name: an agent answered
    without each (``workers.agent``: a note ending with ``ANSWERED_WITHOUT``), once each.

    Example:
        >>> unreached_tools(["MCP server 'n' does not answer; the agent answered without it",
        ...                  "round 2: re-dispatching 1 failed task(s)"])
        ["MCP server 'n' does not answer"]
    """
    return list(dict.fromkeys(n.removesuffix(ANSWERED_WITHOUT) for n in notes
                              if isinstance(n, str) and n.endswith(ANSWERED_WITHOUT)))


def unreached_notes(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """One note per source ``rows`` say could not be reached (:func:`unreached_sources`), for
    the run's notes and the report's Notes."""
    return [f"source not reached: {what} ({n} task(s) failed on it): what it holds is missing "
            "from this report, which does not mean it has nothing on the topic"
            for what, n in unreached_sources(rows).items()]
