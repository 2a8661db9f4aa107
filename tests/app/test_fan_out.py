"""Fan-outs that raise once are run again on resume, and runs with many rounds fit their
recursion limit.

The fan-out is a conditional edge (``app.graph.edges.to_workers``) leaving ``dispatch``, a node
that writes no state. An edge that raised after a node that *wrote* was skipped on resume: the
node's writes were saved with the edge's error, the resume replayed them and never re-ran the
edge, so no worker ran (langgraph#8834). After ``dispatch`` the resume runs the node and its edge
again, and every worker runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

import app.research.rounds
from app.graph import build_graph
from app.graph.resources import Resources
from app.research.plan import offline_plan
from app.research.rounds import recursion_limit
from app.settings.config import Settings
from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
from tests.results_db import db_rows, logical_duplicates
from workers.registry import WORKERS

QUESTIONS = offline_plan(SMALL_TOPIC)
TASKS = len(QUESTIONS) * len(WORKERS)

pytestmark = pytest.mark.filterwarnings("ignore:`durability` has no effect:UserWarning")


def _graph(tmp_path: Path, corpus: Path, **settings):
    context = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus), model="offline",
                       retry_interval=0.0, **settings)
    return build_graph(WORKERS, resources=Resources(context),
                       checkpointer=InMemorySaver())


def _send_fails_on_call(monkeypatch, n: int) -> list[int]:
    """Make the n-th ``Send`` built by the graph raise, once."""
    real, calls = app.research.rounds.Send, []

    def send(*args, **kwargs):
        calls.append(1)
        if len(calls) == n:
            raise RuntimeError("Send failed once")
        return real(*args, **kwargs)

    monkeypatch.setattr(app.research.rounds, "Send", send)
    return calls


def _rows(tmp_path: Path, thread_id: str) -> list[dict]:
    """The thread's result rows; no logical task may have two."""
    assert not logical_duplicates(db_rows(tmp_path / "data"))
    return db_rows(tmp_path / "data", thread_id)


def test_a_plan_fan_out_that_raises_once_is_run_again_on_resume(tmp_path, small_corpus,
                                                                monkeypatch):
    graph = _graph(tmp_path, small_corpus)
    config = {"configurable": {"thread_id": "t"}}
    _send_fails_on_call(monkeypatch, 1)
    with pytest.raises(RuntimeError, match="Send failed once"):
        graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    assert graph.get_state(config).next == ("dispatch",)  # dispatch wrote nothing: it runs again
    final = graph.invoke(None, config)
    assert final["outcome"] == "ok"
    assert len(final["envelopes"]) == TASKS
    rows = _rows(tmp_path, "t")
    assert len(rows) == TASKS and all(r["status"] == "ok" for r in rows)


def test_a_redispatch_that_raises_once_is_run_again_on_resume(tmp_path, small_corpus,
                                                             monkeypatch):
    graph = _graph(tmp_path, small_corpus, rounds=2, fail_workers=("critic:1",))
    config = {"configurable": {"thread_id": "t"}}
    _send_fails_on_call(monkeypatch, TASKS + 1)  # the first Send of round 2's fan-out
    with pytest.raises(RuntimeError, match="Send failed once"):
        graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    assert graph.get_state(config).next == ("dispatch",)
    final = graph.invoke(None, config)
    assert final["outcome"] == "ok", final["failed_tasks"]
    rows = _rows(tmp_path, "t")
    assert len(rows) == TASKS and all(r["status"] == "ok" for r in rows)
    critic = [r for r in rows if r["worker"] == "critic"]
    assert len(critic) == len(QUESTIONS) and all(r["round"] == 2 for r in critic)


def test_many_rounds_fit_the_recursion_limit_sized_from_them(tmp_path, small_corpus):
    graph = _graph(tmp_path, small_corpus, rounds=50, fail_workers=("critic",))
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": recursion_limit(50)}
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    assert final["outcome"] == "partial"
    assert {t["worker"] for t in final["failed_tasks"]} == {"critic"}
    rows = _rows(tmp_path, "t")
    assert len(rows) == TASKS
    assert {r["round"] for r in rows if r["worker"] == "critic"} == {50}


def test_a_recursion_limit_too_small_for_the_rounds_stops_redispatching_and_saves_all(
        tmp_path, small_corpus):
    graph = _graph(tmp_path, small_corpus, rounds=50, fail_workers=("critic",))
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": 15}
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)  # no GraphRecursionError
    assert final["outcome"] == "partial" and Path(final["report_path"]).is_file()
    assert any("recursion limit of 15" in note for note in final["notes"]), final["notes"]
    assert len(_rows(tmp_path, "t")) == TASKS  # every finished result is persisted
    # ... and a rerun of the same thread (its steps count on from the first run's) does too
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config)
    assert final["outcome"] == "partial" and len(_rows(tmp_path, "t")) == TASKS


def test_the_cli_runs_fifty_rounds_of_a_failing_worker_to_the_end(tmp_path, small_corpus):
    data = tmp_path / "data"
    proc = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--as-of", AS_OF,
                   "--data-dir", data, "--rounds", "50", "--fail-worker", "critic", "--quiet")
    assert proc.returncode == 1, proc.stderr  # partial: critic failed for good
    assert "Recursion" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert f"db rows: {TASKS}" in proc.stdout
    assert f"errors: {len(QUESTIONS)}" in proc.stdout
    assert "still failed after 50 round(s)" in proc.stdout
    # one note for rounds 2 to 50, not 49 "note: round N" lines (issue 21, item 8)
    notes = [line.strip() for line in proc.stdout.splitlines() if line.strip().startswith("note:")]
    assert [n for n in notes if "re-dispatch" in n] == [
        f"note: rounds 2–50: re-dispatched {len(QUESTIONS)} failed task(s) each"], notes


def test_a_resume_at_dispatch_prints_its_plan_once(tmp_path, small_corpus, monkeypatch, capsys,
                                                   cli_env):
    # Trial 17, finding 7: a run resumed at dispatch printed "planned 1 sub-question, 3 tasks:"
    # and its questions twice: the resume announced the thread's plan, then dispatch, run
    # again, announced it too.
    from app.cli import main

    research = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                "--data-dir", str(tmp_path / "data")]
    _send_fails_on_call(monkeypatch, 1)
    assert main(research) == 1
    assert "Send failed once" in capsys.readouterr().err
    assert main(research) == 0
    out = capsys.readouterr().out
    assert "(at dispatch)" in out, out
    assert out.count(f"  1. {QUESTIONS[0]}") == 1, out
    # trial 58, F8: and it says it goes on with its plan: it did not plan again
    assert out.count("resumed with its plan of 1 sub-question, 3 tasks:") == 1, out
    assert "planned " not in out, out


def test_the_cli_says_many_rounds_of_the_same_failures_in_a_few_lines(tmp_path, small_corpus):
    # Trial 58, F3: --rounds 1000 with a worker that always fails printed 999 "round N: sending
    # 3 task(s) again" lines and 3,006 task lines. Round 1's task lines stay; the first three
    # re-dispatch rounds get their line and a count of the same failures; later rounds are
    # one line per 100 rounds, and the last stretch when the rounds end.
    proc = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--as-of", AS_OF,
                   "--data-dir", tmp_path / "data", "--rounds", "250", "--fail-worker", "critic")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    failing = len(QUESTIONS)
    assert len([line for line in lines if line.startswith("[")]) == TASKS, proc.stdout
    said = [line for line in lines if line.startswith("round ")]
    assert said == [line for n in (2, 3, 4) for line in (
        f"round {n}: sending {failing} task(s) again",
        f"round {n}: {failing} task(s) failed again as before")], proc.stdout
    each = f"sent {failing} task(s) again each round; each failed again as before"
    assert [line for line in lines if line.startswith("rounds ")] == [
        f"rounds 5–104: {each}", f"rounds 105–204: {each}", f"rounds 205–250: {each}"], lines
    assert len(lines) < TASKS + 60, proc.stdout  # 4,000 lines for 1,000 rounds before
    assert f"note: rounds 2–250: re-dispatched {failing} failed task(s) each" in proc.stdout


def test_a_counted_rounds_news_is_said_and_the_stretch_counts_the_rest():
    import io

    from app.cli.progress import Progress

    out = io.StringIO()
    progress = Progress(out)
    fail = {"worker": "critic", "status": "error", "error": "InjectedWorkerError: round N"}
    progress("planned", {"sub_questions": ["a?", "b?"], "total": 2, "first_round": 1})
    for n in range(1, 9):
        if n > 1:
            progress("dispatched", {"round": n, "run_round": n, "tasks": 2 if n < 8 else 1})
        a = {**fail, "task_key": "a?", "round": n}
        b = ({**fail, "task_key": "b?", "round": n} if n < 7 else
             {"worker": "critic", "status": "ok", "task_key": "b?", "round": n})
        progress("envelope", {"envelope": a, "done": 1, "total": 2 if n < 8 else 1})
        if n <= 7:
            progress("envelope", {"envelope": b, "done": 2, "total": 2})
    progress("persisted", {"count": 2})
    lines = out.getvalue().splitlines()
    assert "[2/2] critic       ok    b? round 7" in lines, lines  # news: said
    assert "round 4: 2 task(s) failed again as before" in lines  # a count: the same failures
    assert ("rounds 5–8: sent 1 to 2 task(s) again a round, 7 in all; 6 failed again as before"
            in lines), lines
    assert lines[-1] == "persisted 2 envelope(s) to the results database"
