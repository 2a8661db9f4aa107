"""A round of more tasks than a wave holds goes out in waves (issue 21, item 13), and every
promise of one fan-out holds: one row per task, failed tasks re-sent once per round (not once per
wave), one progress announcement per round, resume and time travel without a lost or a
duplicated row, and the waves fit the recursion limit the run is given.

The wave size is patched down to 1 task so that the small topic's tasks take several waves (its
offline plan is the topic alone: no facet of it is in the corpus).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

import app.research.rounds
from app.graph import build_graph
from app.graph.resources import Resources
from app.research.plan import offline_plan
from app.research.rounds import recursion_limit, waves
from app.settings.config import Settings
from tests.conftest import AS_OF, SMALL_TOPIC
from tests.results_db import db_rows, logical_duplicates
from workers.registry import WORKERS

QUESTIONS = offline_plan(SMALL_TOPIC)
TASKS = len(QUESTIONS) * len(WORKERS)

pytestmark = pytest.mark.filterwarnings("ignore:`durability` has no effect:UserWarning")


@pytest.fixture(autouse=True)
def small_waves(monkeypatch):
    monkeypatch.setattr(app.research.rounds, "WAVE_TASKS", 1)
    assert waves(TASKS) > 2  # the test is about several waves


def _graph(tmp_path: Path, corpus: Path, **settings):
    context = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus), model="offline",
                       retry_interval=0.0, **settings)
    return build_graph(WORKERS, resources=Resources(context), checkpointer=InMemorySaver())


def _rows(tmp_path: Path, thread_id: str = "t") -> list[dict]:
    assert not logical_duplicates(db_rows(tmp_path / "data"))
    return db_rows(tmp_path / "data", thread_id)


def test_a_round_goes_out_in_waves_and_is_announced_once(tmp_path, small_corpus):
    graph = _graph(tmp_path, small_corpus)
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": recursion_limit(1)}
    dispatched, events = 0, []
    for mode, chunk in graph.stream({"topic": SMALL_TOPIC, "as_of": AS_OF}, config,
                                    stream_mode=["updates", "custom"]):
        if mode == "updates":
            dispatched += "dispatch" in chunk
        elif "planned" in chunk or "dispatched" in chunk:
            events.append(chunk)
    assert dispatched == waves(TASKS)
    assert events == [{"planned": {"sub_questions": QUESTIONS, "total": TASKS, "first_round": 1}}]
    final = graph.get_state(config).values
    assert final["outcome"] == "ok"
    rows = _rows(tmp_path)
    assert len(rows) == TASKS and {r["round"] for r in rows} == {1}


def test_failed_tasks_are_sent_again_once_per_round_not_once_per_wave(tmp_path, small_corpus):
    graph = _graph(tmp_path, small_corpus, rounds=2, fail_workers=("critic:1",))
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": recursion_limit(2)}
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    assert final["outcome"] == "ok", final["failed_tasks"]
    rows = _rows(tmp_path)
    assert len(rows) == TASKS and all(r["status"] == "ok" for r in rows)
    # every task ran in round 1 (a wave after the first is not a new round); critic's again in 2
    assert {r["worker"]: r["round"] for r in rows} == {
        w.name: 2 if w.name == "critic" else 1 for w in WORKERS}
    assert [n for n in final["notes"] if n.startswith("round")] == [
        f"round 2: re-dispatching {len(QUESTIONS)} failed task(s)"]


def test_a_fan_out_that_raises_in_a_later_wave_is_run_again_on_resume(
        tmp_path, small_corpus, monkeypatch):
    real, calls = app.research.rounds.Send, []

    def send(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # the first Send of the second wave
            raise RuntimeError("Send failed once")
        return real(*args, **kwargs)

    monkeypatch.setattr(app.research.rounds, "Send", send)
    graph = _graph(tmp_path, small_corpus)
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": recursion_limit(1)}
    with pytest.raises(RuntimeError, match="Send failed once"):
        graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    assert len(graph.get_state(config).values["envelopes"]) == 2  # the first wave's
    final = graph.invoke(None, config)
    assert final["outcome"] == "ok"
    assert len(_rows(tmp_path)) == TASKS


def test_time_travel_to_between_waves_runs_the_rest_once(tmp_path, small_corpus):
    graph = _graph(tmp_path, small_corpus)
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": recursion_limit(1)}
    graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    between = next(s for s in graph.get_state_history(config)
                   if s.next == ("dispatch",) and 0 < len(s.values.get("envelopes") or []) < TASKS)
    done_before = len(between.values["envelopes"])
    names = {w.name for w in WORKERS}
    ran = sum(sum(1 for node in chunk if node in names)
              for chunk in graph.stream(None, between.config, stream_mode="updates"))
    assert ran == TASKS - done_before  # only the waves after the fork point ran again
    forked = graph.get_state(config).values
    assert forked["outcome"] == "ok" and len(forked["envelopes"]) == TASKS
    rows = _rows(tmp_path)
    assert len(rows) == TASKS  # persist of the fork updated the rows in place
