"""``web_search``: a plain-function worker that returns the top web results for a sub-question.

Registered only when the run searches the web (``--web``; see ``workers.registry``). Like
``docs_search`` it makes no model call: its items are the results themselves (kind
``"passage"``), each cited by its URL. The search goes through ``deps.web``
(:class:`workers.sources.web.WebSource`), which answers a query already asked on this ``as_of``
from the data dir's cache: a retry, a resume or a re-dispatch of this task pays no second search.
"""

from __future__ import annotations

from collections.abc import Callable

from state import Task
from workers.base import WorkerDeps, WorkerResult, WorkerSpec

__all__ = ["SPEC", "build"]


def build(deps: WorkerDeps) -> Callable[[Task], WorkerResult]:
    """Return ``run(task) -> WorkerResult`` over ``deps.web``.

    Raises:
        ValueError: the run has no web source (``--web`` is off).
    """
    if deps.web is None:
        raise ValueError("the web_search worker needs a web source (run with --web)")
    web = deps.web

    def run(task: Task) -> WorkerResult:
        passages = web.search(task["sub_question"], k=deps.search_k)
        return WorkerResult(items=[{"kind": "passage", **p.to_dict()} for p in passages])

    return run


SPEC = WorkerSpec(
    name="web_search",
    kind="function",
    description="the top web results for the sub-question (Tavily; with --web).",
    build=build,
)
