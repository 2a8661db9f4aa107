"""A fatal model error stops the run without spending calls on the queued workers.

The app bounds worker concurrency with a semaphore inside the node (see ``WorkerDeps.limiter``),
so for LangGraph every queued task has already started and it cannot cancel it. The cancel event
makes them give up instead: after a 401 in the first worker, no other worker does its work.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.graph import GraphConfig, build_graph
from app.models import ModelChoice
from app.offline_model import OfflineChatModel
from app.plan import offline_plan
from state import Task
from workers.base import Cancellation, WorkerDeps, WorkerResult, WorkerSpec
from workers.errors import FatalModelError


def _graph(tmp_path: Path, cancel: Cancellation | None, calls: list[str]):
    def build(deps: WorkerDeps):
        def run(task: Task) -> WorkerResult:
            calls.append(task["sub_question"])
            raise FatalModelError("HTTP 401: invalid API key")

        return run

    spec = WorkerSpec(name="always_401", kind="function", description="fails fatally",
                      build=build)
    deps = WorkerDeps(corpus=None, limiter=threading.BoundedSemaphore(1), cancel=cancel)
    cfg = GraphConfig(workers=[spec], worker_deps=deps,
                      planner=ModelChoice(OfflineChatModel(), "offline", True),
                      model_label="offline", data_dir=tmp_path)
    return build_graph(cfg, checkpointer=InMemorySaver())


@pytest.mark.parametrize("with_cancel", [True, False])
def test_a_fatal_error_stops_the_queued_workers(tmp_path, with_cancel):
    calls: list[str] = []
    graph = _graph(tmp_path, Cancellation() if with_cancel else None, calls)
    config = {"configurable": {"thread_id": "t"}, "max_concurrency": 64}
    topic = "Send and reducers"
    with pytest.raises(FatalModelError):
        graph.invoke({"topic": topic, "as_of": "2026-11-30"}, config)
    # one task per sub-question, one slot: without the event every queued task still calls
    # the model after the first one's 401
    assert len(calls) == (1 if with_cancel else len(offline_plan(topic)))
