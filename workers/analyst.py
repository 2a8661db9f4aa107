"""``analyst``: a ``create_agent`` worker that extracts the key facts answering a sub-question."""

from __future__ import annotations

from collections.abc import Callable

from state import Task
from workers.agent import build_agent_runner
from workers.base import WorkerDeps, WorkerResult, WorkerSpec
from workers.schemas import Findings

__all__ = ["SPEC", "SYSTEM_PROMPT"]

SYSTEM_PROMPT = (
    "You are a careful research analyst. Use the search_corpus tool to find passages that answer "
    "the sub-question, and read_document when a passage looks central. Answer only with facts "
    "stated in the passages; give every finding the exact ref of its passage. If the passages do "
    "not answer the question, return an empty list."
)


def build(deps: WorkerDeps) -> Callable[[Task], WorkerResult]:
    """Compile the analyst agent once and return its per-task runner."""
    return build_agent_runner(
        deps,
        name="analyst",
        system_prompt=SYSTEM_PROMPT,
        schema=Findings,
        items_field="findings",
        kind="finding",
    )


SPEC = WorkerSpec(
    name="analyst",
    kind="agent",
    description="extracts sourced findings that answer the sub-question.",
    build=build,
)
