"""A worker's work runs on few threads, not on whichever of LangGraph's pool threads took its
task (``workers.work_threads``). At 1,200 tasks a run's 128 pool threads each ran workers in
turn while four slots bounded the work, so glibc's per-thread malloc arenas all filled with
what the workers freed (docs/deploy.md, "Scale, measured"). Now the pool threads wait, and the
work goes to threads started only when none is idle: as many as the slots held at once."""

from __future__ import annotations

import threading
import time
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from state import ResearchState, Task
from tests.workers.test_worker_node import AS_OF, OneDoc, passage
from workers.base import (
    Cancellation,
    RunScope,
    WorkerDeps,
    WorkerResult,
    WorkerSpec,
    make_worker_node,
)
from workers.sources.web import CURRENT_AS_OF
from workers.waits import Slots
from workers.work_threads import WorkThreads

TASKS = 24


def _fan_out(run, slots: int) -> dict[str, Any]:
    """Run ``TASKS`` tasks through a worker node whose ``run`` is ``run``, under ``slots`` worker
    slots, on a LangGraph pool larger than the superstep (as ``app.runs.run`` sizes it)."""
    cancel = Cancellation()
    scope = RunScope(cancel=cancel, limiter=Slots(slots, stop=cancel))
    spec = WorkerSpec(name="probe", kind="function", description="test", build=lambda _d: run)
    builder = StateGraph(ResearchState)
    builder.add_node("probe", make_worker_node(spec, lambda _rt: (WorkerDeps(corpus=OneDoc()),
                                                                     scope)))
    builder.add_conditional_edges(START, lambda _s: [
        Send("probe", Task(worker="probe", sub_question=f"question {i}", topic="t", as_of=AS_OF,
                           round=1)) for i in range(TASKS)], ["probe"])
    builder.add_edge("probe", END)
    return builder.compile().invoke({"topic": "t"}, {"max_concurrency": TASKS + 8})


def test_the_work_of_many_tasks_runs_on_as_many_threads_as_slots() -> None:
    ran_on: set[int] = set()
    as_of_seen: set[str | None] = set()
    lock = threading.Lock()

    def run(task: Task) -> WorkerResult:
        time.sleep(0.01)  # the tasks overlap: every slot is taken while others wait
        with lock:
            ran_on.add(threading.get_ident())
            as_of_seen.add(CURRENT_AS_OF.get())
        return WorkerResult(items=[passage(f"Send dispatches {task['sub_question']}.")])

    values = _fan_out(run, slots=2)
    envelopes = values["envelopes"]
    assert len(envelopes) == TASKS and all(e["status"] == "ok" for e in envelopes)
    assert len(ran_on) <= 2, f"the work ran on {len(ran_on)} threads"
    assert as_of_seen == {AS_OF}  # the caller's context reached the work's thread


def test_a_work_threads_error_is_raised_in_its_caller_and_the_thread_serves_again() -> None:
    threads = WorkThreads(name="test-work")

    def fail() -> None:
        raise KeyboardInterrupt("stop")

    try:
        threads.call(fail)
    except KeyboardInterrupt as exc:
        assert str(exc) == "stop" and exc.__traceback__ is not None
    else:
        raise AssertionError("the error was not raised in the caller")
    assert threads.call(lambda a, b: a + b, 2, 3) == 5
    assert threads.started == 1  # the thread that raised served the next call
