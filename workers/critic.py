"""``critic``: a ``create_agent`` worker that finds caveats, limitations and deprecations."""

from __future__ import annotations

from collections.abc import Callable

from state import Task
from workers.agent import build_agent_runner
from workers.base import WorkerDeps, WorkerResult, WorkerSpec
from workers.schemas import Caveats

__all__ = ["SPEC", "SYSTEM_PROMPT"]

SYSTEM_PROMPT = (
    "You are a skeptical reviewer. Use the search_corpus tool to find what a user of the subject "
    "must watch out for: limitations, warnings, deprecations, requirements and pitfalls. Report "
    "only caveats stated in the passages, each with the exact ref of its passage. If there are "
    "none, return an empty list."
)


def build(deps: WorkerDeps) -> Callable[[Task], WorkerResult]:
    """Compile the critic agent once and return its per-task runner."""
    return build_agent_runner(
        deps,
        name="critic",
        system_prompt=SYSTEM_PROMPT,
        schema=Caveats,
        items_field="caveats",
        kind="caveat",
    )


SPEC = WorkerSpec(
    name="critic",
    kind="agent",
    description="finds sourced caveats, limitations and deprecations.",
    build=build,
)
