"""``docs_search``: a plain-function worker that returns the top corpus passages for a sub-question.

No model call: it is the cheapest worker, and the one whose output the others can be checked
against. Its items are the passages themselves (kind ``"passage"``) with their bm25 scores.
"""

from __future__ import annotations

from collections.abc import Callable

from state import Task
from workers.base import WorkerDeps, WorkerResult, WorkerSpec

__all__ = ["SPEC", "build"]


def build(deps: WorkerDeps) -> Callable[[Task], WorkerResult]:
    """Return ``run(task) -> WorkerResult``: searches ``deps.corpus`` for the sub-question,
    focused on the run's topic (its words rank; the plan's template words around it do not)."""

    def run(task: Task) -> WorkerResult:
        passages = deps.corpus.search(task["sub_question"], k=deps.search_k,
                                      focus=task.get("focus") or task["topic"])
        items = [
            {
                "kind": "passage",
                "text": p.text,
                "ref": p.ref,
                "title": p.title,
                "source": p.source,
                "score": round(p.score, 3),
                **({"heading": p.heading} if p.heading else {}),
            }
            for p in passages
        ]
        return WorkerResult(items=items)

    return run


SPEC = WorkerSpec(
    name="docs_search",
    kind="function",
    description="the top passages of the corpus for the sub-question (FTS5 bm25).",
    build=build,
)
