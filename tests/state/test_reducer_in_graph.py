"""envelope_reducer inside real LangGraph graphs, and the import rules of the state package.

Proves, on langgraph's own channel machinery (not a simulation of it):

* a ``Send`` fan-out to N workers followed by a persist node that writes back
  ``{"envelope_id", "persisted": True, "structured": None}`` for each envelope ends with 2N
  entries under ``Annotated[list, operator.add]`` (the bug the reducer exists for) and with
  exactly N, all persisted and without payload, under ``envelope_reducer``;
* ``Overwrite([])`` resets the channel, and ``delete_envelope(id)`` removes one envelope;
* with an ``InMemorySaver`` checkpointer, the state read back with ``get_state`` (values restored
  from a checkpoint, pending writes replayed) is unique, across an interrupt, a resume after a
  failed worker, and a second run on the same thread;
* ``state`` imports neither ``app`` nor ``workers`` (nor model or database code), and its source
  does no I/O.
"""

from __future__ import annotations

import operator
import re
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Overwrite, Send

from state import Envelope, delete_envelope, envelope_reducer, make_envelope_id

ROOT = Path(__file__).resolve().parents[2]
AS_OF = "2026-11-30"
N = 12


class AddState(TypedDict, total=False):
    envelopes: Annotated[list[dict[str, Any]], operator.add]


class UpsertState(TypedDict, total=False):
    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]


def question(i: int) -> str:
    return f"sub-question {i}"


def eid(i: int) -> str:
    return make_envelope_id("docs_search", question(i), AS_OF)


def fan_out(_state: dict) -> list[Send]:
    return [Send("worker", {"i": i}) for i in range(N)]


def worker(task: dict) -> dict:
    i = task["i"]
    env = Envelope(
        envelope_id=eid(i),
        worker="docs_search",
        as_of=AS_OF,
        task_key=question(i),
        structured={"passages": [f"passage {i}"]},
    )
    return {"envelopes": [env.to_state()]}


def persist(state: dict) -> dict:
    return {
        "envelopes": [
            {"envelope_id": e["envelope_id"], "persisted": True, "structured": None}
            for e in state["envelopes"]
        ]
    }


def build(schema, *, after_persist: list[tuple[str, Any]] = (), worker_node=worker, **compile_kw):
    """START -> Send x N -> worker -> persist -> [extra nodes in a chain] -> END."""
    builder = StateGraph(schema)
    builder.add_node("worker", worker_node)
    builder.add_node("persist", persist)
    builder.add_conditional_edges(START, fan_out, ["worker"])
    builder.add_edge("worker", "persist")
    previous = "persist"
    for name, node in after_persist:
        builder.add_node(name, node)
        builder.add_edge(previous, name)
        previous = name
    builder.add_edge(previous, END)
    return builder.compile(**compile_kw)


def assert_all_persisted_once(envelopes: list[dict]) -> None:
    assert len(envelopes) == N
    assert sorted(e["envelope_id"] for e in envelopes) == sorted(eid(i) for i in range(N))
    assert all(e["persisted"] is True and e["structured"] is None for e in envelopes)
    assert sorted(e["task_key"] for e in envelopes) == sorted(question(i) for i in range(N))


def test_operator_add_duplicates_every_persisted_envelope():
    out = build(AddState).invoke({"envelopes": []})
    envelopes = out["envelopes"]
    assert len(envelopes) == 2 * N
    assert len({e["envelope_id"] for e in envelopes}) == N
    assert sum(1 for e in envelopes if e.get("persisted")) == N  # half are stale copies


def test_envelope_reducer_keeps_each_envelope_once_persisted_and_without_payload():
    out = build(UpsertState).invoke({"envelopes": []})
    assert_all_persisted_once(out["envelopes"])
    # the worker's other fields survived the persist write (shallow merge)
    assert all(e["worker"] == "docs_search" and e["as_of"] == AS_OF for e in out["envelopes"])


def test_overwrite_resets_the_channel():
    def reset(_state: dict) -> dict:
        return {"envelopes": Overwrite([])}

    def seen_after_reset(state: dict) -> dict:
        assert state["envelopes"] == []
        return {"envelopes": [{"envelope_id": "fresh", "worker": "w", "as_of": AS_OF}]}

    out = build(UpsertState, after_persist=[("reset", reset)]).invoke({"envelopes": []})
    assert out["envelopes"] == []
    graph = build(UpsertState, after_persist=[("reset", reset), ("after", seen_after_reset)])
    out = graph.invoke({"envelopes": []})
    assert out["envelopes"] == [{"envelope_id": "fresh", "worker": "w", "as_of": AS_OF}]


def test_delete_envelope_removes_one_envelope():
    def drop_first(_state: dict) -> dict:
        return {"envelopes": delete_envelope(eid(0))}

    def drop_missing(_state: dict) -> dict:
        return {"envelopes": [delete_envelope("no-such-id")]}

    graph = build(UpsertState, after_persist=[("drop", drop_first), ("noop", drop_missing)])
    out = graph.invoke({"envelopes": []})
    ids = [e["envelope_id"] for e in out["envelopes"]]
    assert len(ids) == N - 1 == len(set(ids))
    assert eid(0) not in ids and eid(1) in ids


def test_checkpointed_state_is_unique_across_interrupt_resume_and_rerun():
    graph = build(UpsertState, checkpointer=InMemorySaver(), interrupt_before=["persist"])
    config = {"configurable": {"thread_id": "reducer-in-graph"}}

    graph.invoke({"envelopes": []}, config)  # stops before persist
    paused = graph.get_state(config)
    assert paused.next == ("persist",)
    envelopes = paused.values["envelopes"]
    assert len(envelopes) == N == len({e["envelope_id"] for e in envelopes})
    assert not any(e["persisted"] for e in envelopes)

    graph.invoke(None, config)  # resume: persist runs on the state restored from the checkpoint
    assert_all_persisted_once(graph.get_state(config).values["envelopes"])

    # the same run again on the same thread: the workers write the same ids again
    graph.invoke({"envelopes": []}, config)
    assert len(graph.get_state(config).values["envelopes"]) == N
    graph.invoke(None, config)
    assert_all_persisted_once(graph.get_state(config).values["envelopes"])


def test_pending_writes_replayed_after_a_failed_worker_stay_unique():
    attempts: dict[int, int] = {}

    def flaky_worker(task: dict) -> dict:
        attempts[task["i"]] = attempts.get(task["i"], 0) + 1
        if task["i"] == 3 and attempts[3] == 1:
            raise RuntimeError("worker 3 fails once")
        return worker(task)

    graph = build(UpsertState, worker_node=flaky_worker, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "flaky"}}
    with pytest.raises(RuntimeError, match="worker 3"):
        graph.invoke({"envelopes": []}, config)
    # get_state replays the pending writes of the workers that finished
    replayed = graph.get_state(config).values["envelopes"]
    assert len(replayed) == len({e["envelope_id"] for e in replayed})
    assert eid(3) not in {e["envelope_id"] for e in replayed}

    saved = {e["envelope_id"] for e in replayed}
    graph.invoke(None, config)  # resume: worker 3 runs again, and any worker LangGraph cancelled
    # when worker 3 failed; a worker whose pending writes were saved is not re-run.
    assert attempts[3] == 2
    assert all(attempts[i] == 1 for i in range(N) if eid(i) in saved)
    assert_all_persisted_once(graph.get_state(config).values["envelopes"])


# --- import rules of the state package (docs/architecture.md, "Layout and import rules") ------


def test_state_imports_neither_app_nor_workers():
    code = (
        "import state, sys; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'app', 'workers', 'langchain', 'langchain_openai', 'sqlite3'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


STATE_SOURCES = sorted((ROOT / "state").glob("*.py"))

IO_PATTERNS = [
    r"\bopen\(",
    r"\bsqlite3\b",
    r"^\s*(import|from)\s+(os|subprocess|socket|shutil|tempfile|pathlib|io|urllib|http)\b",
    r"^\s*(import|from)\s+(requests|httpx)\b",
    r"^\s*(import|from)\s+(app|workers)\b",
    r"^\s*(import|from)\s+langchain(_openai)?\b",
    r"\bprint\(",
]


def test_state_sources_exist():
    names = {p.name for p in STATE_SOURCES}
    assert {"envelope.py", "reducers.py", "schema.py", "__init__.py"} <= names


@pytest.mark.parametrize("path", STATE_SOURCES, ids=lambda p: p.name)
def test_state_source_does_no_io(path):
    text = path.read_text(encoding="utf-8")
    hits = [
        f"{path.name}:{n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        for pattern in IO_PATTERNS
        if re.search(pattern, line)
    ]
    assert hits == []
