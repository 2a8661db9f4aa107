"""What LangGraph's runtime ``task_id`` does, measured: why envelope ids come from task inputs.

``runtime.execution_info.task_id`` is a hash of the checkpoint id, the step, the node name and the
task's path (its position in the ``Send`` list), computed in ``langgraph/pregel/_algo.py``
(``prepare_push_task_send``). On langgraph 1.2.24 it therefore:

* stays the same across a ``RetryPolicy`` retry of the task (same task object);
* stays the same when a failed or interrupted run is resumed on its ``thread_id`` (the task is
  rebuilt from the same checkpoint);
* changes when the same work is dispatched again in a later superstep (a re-dispatch round),
  and when the thread is run again (a new checkpoint).

So it cannot be an envelope's identity: a re-dispatch or a re-run of the same (worker,
sub-question, as_of) would write a new row. ``make_envelope_id`` derives the id from those inputs
instead (docs/architecture.md, "The envelope contract"). If a LangGraph upgrade changes any of
these facts, this test fails and the docs that state them must change with it.
"""

from __future__ import annotations

import operator
import threading
from typing import Annotated, Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command, RetryPolicy, Send, interrupt

QUESTIONS = ("what is a reducer?", "what is a checkpointer?")


class RoundState(TypedDict, total=False):
    round: int
    done: Annotated[list[str], operator.add]


class Recorder:
    """A graph whose ``worker`` records ``(question, round, attempt, task_id)`` per attempt.

    Round 1: the first question's task raises a retryable ``ConnectionError`` on its first
    attempt; the second question's task either raises ``KeyError`` once (not retried: the run
    fails) or calls ``interrupt()``. A ``join`` node then starts round 2, which sends the same
    two tasks again.
    """

    def __init__(self, second: str) -> None:
        self.second = second
        self.seen: list[tuple[str, int, int, str]] = []
        self.failed_once: set[tuple[str, int]] = set()
        # the first question's round-1 task is done (retried once): only then may the second
        # fail the run, else LangGraph stops the retry mid-way and its writes are never saved
        # (seen on a loaded CI machine: attempts [1, 2, 1])
        self.first_done = threading.Event()

        def fan(state: RoundState) -> list[Send] | str:
            if state["round"] > 2:
                return END
            return [Send("worker", {"q": q, "round": state["round"]}) for q in QUESTIONS]

        def worker(task: dict[str, Any], runtime: Runtime) -> dict[str, Any]:
            info = runtime.execution_info
            self.seen.append((task["q"], task["round"], info.node_attempt, info.task_id))
            first_time = (task["q"], task["round"]) not in self.failed_once
            if task["round"] == 1 and first_time:
                if task["q"] == QUESTIONS[0]:
                    self.failed_once.add((task["q"], task["round"]))
                    raise ConnectionError("transient: retried by the RetryPolicy")
                if self.second == "fail":
                    self.failed_once.add((task["q"], task["round"]))
                    assert self.first_done.wait(30), "the first task never finished"
                    raise KeyError("permanent: the run fails")
            if task["round"] == 1 and task["q"] == QUESTIONS[1] and self.second == "interrupt":
                interrupt("approve?")
            if task["round"] == 1 and task["q"] == QUESTIONS[0]:
                self.first_done.set()
            return {"done": [task["q"]]}

        builder = StateGraph(RoundState)
        builder.add_node("worker", worker, retry_policy=RetryPolicy(
            retry_on=ConnectionError, initial_interval=0.01, jitter=False))
        builder.add_node("join", lambda state: {"round": state["round"] + 1})
        builder.add_conditional_edges(START, fan, ["worker", END])
        builder.add_edge("worker", "join")
        builder.add_conditional_edges("join", fan, ["worker", END])
        self.graph = builder.compile(checkpointer=InMemorySaver())

    def ids(self, question: str, round_: int) -> list[tuple[int, str]]:
        """``(attempt, task_id)`` of every attempt of one task, in order."""
        return [(a, t) for q, r, a, t in self.seen if q == question and r == round_]


def test_task_id_is_stable_across_a_retry_and_a_resume_and_new_in_a_later_step_and_a_rerun():
    rec = Recorder(second="fail")
    config = {"configurable": {"thread_id": "task-id"}}
    try:
        rec.graph.invoke({"round": 1}, config)
    except KeyError:
        pass
    else:
        raise AssertionError("the second task should have failed the run")
    rec.graph.invoke(None, config)  # resume on the thread: the failed task runs again

    retried = rec.ids(QUESTIONS[0], 1)
    assert [a for a, _ in retried] == [1, 2]  # one RetryPolicy retry, then done
    assert retried[0][1] == retried[1][1]  # the same task_id across the retry

    resumed = rec.ids(QUESTIONS[1], 1)
    assert len(resumed) == 2  # the failed run's attempt, then the resumed one
    assert resumed[0][1] == resumed[1][1]  # the same task_id across the resume

    # round 2 sends the very same tasks (same inputs): each gets a new task_id
    for question in QUESTIONS:
        [(_, later)] = rec.ids(question, 2)
        assert later != rec.ids(question, 1)[0][1]

    first_run = {(q, r): t for q, r, _, t in rec.seen}
    rec.seen.clear()
    rec.graph.invoke({"round": 1}, config)  # the same thread run again: same work, new task_ids
    rerun = {(q, r): t for q, r, _, t in rec.seen}
    assert rerun.keys() == first_run.keys()
    assert not set(rerun.values()) & set(first_run.values())


def test_task_id_is_stable_across_an_interrupt_and_its_resume():
    rec = Recorder(second="interrupt")
    config = {"configurable": {"thread_id": "task-id-interrupt"}}
    rec.graph.invoke({"round": 1}, config)
    assert rec.graph.get_state(config).interrupts  # paused inside the second task
    rec.graph.invoke(Command(resume="yes"), config)

    paused_then_resumed = rec.ids(QUESTIONS[1], 1)
    assert len(paused_then_resumed) == 2
    assert paused_then_resumed[0][1] == paused_then_resumed[1][1]
    assert rec.graph.get_state(config).values["round"] == 3  # both rounds ran to the end
