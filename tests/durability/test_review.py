"""Human review (``research --review`` and ``review THREAD_ID``) through the real CLI: the two
pauses, every decision, and the durability promise across them (issue 14).

* nothing reaches the results database before the results review is approved;
* approving twice, or approving again after a SIGKILL during the approval, gives the same rows
  as approving once;
* a thread that awaits nothing: exit 2, one line.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from state import make_envelope_id
from tests.durability._helpers import (
    AS_OF,
    SIGKILLED,
    TOPIC,
    db_rows,
    describe,
    run_app,
    thread_id_of,
)
from workers.registry import WORKERS

THREAD = thread_id_of()


def _common(data: Path, corpus: Path) -> list:
    return ["--data-dir", data, "--corpus", corpus, "--model", "offline"]


def _research(data: Path, corpus: Path, *extra: str):
    return run_app("research", TOPIC, "--as-of", AS_OF, *_common(data, corpus), "--review",
                   "--json", *extra)


def _review(data: Path, corpus: Path, *extra: str):
    return run_app("review", THREAD, *_common(data, corpus), "--json", *extra)


def _paused(run) -> dict:
    assert run.returncode == 0, describe(run)
    out = json.loads(run.stdout)
    assert out["status"] == "awaiting_review", out
    return out["review"]


def _row_ids(data: Path) -> list[str]:
    return sorted(r["envelope_id"] for r in db_rows(data, THREAD))


def test_plan_edit_drop_redo_then_approve_twice(tmp_path, durability_corpus):
    data = tmp_path / "data"
    plan = _paused(_research(data, durability_corpus))
    assert plan["stage"] == "plan"
    assert len(plan["sub_questions"]) >= 3
    assert db_rows(data) == []

    # the plan review replaces the sub-questions
    questions = ["What is Send?", "What is a reducer?"]
    results = _paused(_review(data, durability_corpus, "--question", questions[0],
                              "--question", questions[1]))
    assert results["stage"] == "results"
    envelopes = results["envelopes"]
    assert sorted({e["task_key"] for e in envelopes}) == sorted(questions)
    ids = {e["envelope_id"] for e in envelopes}
    assert ids == {make_envelope_id(w.name, q, AS_OF) for q in questions for w in WORKERS}
    assert len(ids) == len(envelopes)
    for e in envelopes:
        assert set(e) >= {"envelope_id", "worker", "task_key", "status", "summary"}
        assert e["status"] == "ok" and e["summary"]
    assert db_rows(data) == []  # nothing persisted before the results review is approved

    # drop one, redo another (it fails in its new round: its first result is kept, reducer
    # rule 8, and the review says so), then a second results review
    drop = next(e for e in envelopes if e["worker"] == "critic")["envelope_id"]
    redo = next(e for e in envelopes if e["worker"] == "analyst")["envelope_id"]
    again = _paused(_review(data, durability_corpus, "--drop", drop, "--redo", redo,
                            "--fail-worker", "analyst"))
    assert again["stage"] == "results"
    by_id = {e["envelope_id"]: e for e in again["envelopes"]}
    assert drop not in by_id
    assert by_id[redo]["status"] == "ok" and by_id[redo]["round"] == 2
    assert by_id[redo]["summary"].startswith("kept from round 1 (the latest attempt failed: "
                                             "InjectedWorkerError"), by_id[redo]
    assert db_rows(data) == []

    # approve: every result but the dropped one is persisted, once; the report says why
    done = _review(data, durability_corpus, "--approve")
    assert done.returncode == 1, describe(done)  # the redone task failed for good
    summary = json.loads(done.stdout)
    assert [(t["envelope_id"], t["kept"]) for t in summary["failed_tasks"]] == [(redo, True)]
    assert summary["expected"] == summary["envelopes"] == summary["db_rows"] == len(ids) - 1
    rows = db_rows(data, THREAD)
    assert sorted(r["envelope_id"] for r in rows) == sorted(ids - {drop})
    assert all(r["write_count"] == 1 and r["status"] == "ok" for r in rows)
    report = Path(summary["report_path"]).read_text("utf-8")
    dropped_task = next(e for e in envelopes if e["envelope_id"] == drop)["task_key"]
    assert f"dropped at review, not persisted: critic on {dropped_task!r}" in report

    # approving again: nothing awaits review, exit 2 and one line; the rows are unchanged
    twice = _review(data, durability_corpus, "--approve")
    assert twice.returncode == 2, describe(twice)
    assert twice.stderr.strip().splitlines() == [
        f"error: thread {THREAD!r} has nothing awaiting review"]
    assert db_rows(data, THREAD) == rows


def test_sigkill_during_the_approval_then_approve_gives_the_rows_of_one_approval(
        tmp_path, durability_corpus):
    data = tmp_path / "data"
    _paused(_research(data, durability_corpus))
    results = _paused(_review(data, durability_corpus, "--approve"))
    ids = sorted(e["envelope_id"] for e in results["envelopes"])
    assert db_rows(data) == []

    killed = _review(data, durability_corpus, "--approve", "--crash-at", "persist-commit")
    assert killed.returncode in SIGKILLED, describe(killed)
    assert _row_ids(data) == ids  # persist committed, its checkpoint was lost with the process

    finish = _review(data, durability_corpus, "--approve")
    assert finish.returncode == 0, describe(finish)
    summary = json.loads(finish.stdout)
    assert summary["ok"] and summary["duplicates"] == 0
    assert _row_ids(data) == ids  # the same rows: persist ran again and upserted


def test_review_of_a_thread_that_awaits_nothing_exits_2(tmp_path, durability_corpus):
    data = tmp_path / "data"
    unknown = _review(data, durability_corpus)
    assert unknown.returncode == 2, describe(unknown)
    assert len(unknown.stderr.strip().splitlines()) == 1

    plain = run_app("research", TOPIC, "--as-of", AS_OF, *_common(data, durability_corpus),
                    "--quiet")
    assert plain.returncode == 0, describe(plain)
    for extra in ((), ("--approve",)):
        run = _review(data, durability_corpus, *extra)
        assert run.returncode == 2, describe(run)
        assert run.stderr.strip().splitlines() == [
            f"error: thread {THREAD!r} has nothing awaiting review"]


def test_a_paused_thread_is_not_run_past_its_review_and_flags_must_fit_the_stage(
        tmp_path, durability_corpus):
    data = tmp_path / "data"
    _paused(_research(data, durability_corpus))
    # the same research command without --review shows the pause, it does not skip it
    same = run_app("research", TOPIC, "--as-of", AS_OF, *_common(data, durability_corpus),
                   "--json")
    assert _paused(same)["stage"] == "plan"
    wrong = _review(data, durability_corpus, "--drop", "docs_search:x")
    assert wrong.returncode == 2, describe(wrong)
    assert "--drop and --redo are for the results review" in wrong.stderr
    assert db_rows(data) == []


def test_approving_an_unfinished_thread_started_without_review_is_refused(tmp_path,
                                                                          durability_corpus):
    # Trial 70, F3: "review T --approve" on a thread killed mid-map that never asked for a
    # review ran it with reviews switched on (it paused for a plan review) and approved nothing
    data = tmp_path / "data"
    killed = run_app("research", TOPIC, "--as-of", AS_OF, *_common(data, durability_corpus),
                     "--quiet", "--crash-at", "map:1")
    assert killed.returncode in SIGKILLED, describe(killed)
    before, approve = db_rows(data), _review(data, durability_corpus, "--approve")
    said = f"error: thread {THREAD!r} has nothing awaiting review; its run is unfinished"
    assert approve.returncode == 2 and approve.stderr.count("\n") == 1, describe(approve)
    assert approve.stderr.startswith(said), describe(approve)
    assert db_rows(data) == before  # then resume continues it, with no review pause
    resumed = run_app("resume", THREAD, *_common(data, durability_corpus), "--json")
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["status"] == "ok", describe(
        resumed)


def test_the_printed_continue_commands_find_the_thread_when_pasted(tmp_path, durability_corpus):
    # Found by a new-user trial: the pause printed "python -m app review T --approve" without
    # the run's --data-dir, and the pasted command answered "no thread 'T' in .data".
    data = tmp_path / "my data"  # a space: the printed flag must be quoted
    paused = run_app("research", TOPIC, "--as-of", AS_OF, *_common(data, durability_corpus),
                     "--review")
    assert paused.returncode == 0, describe(paused)
    approve = next(line.strip() for line in paused.stdout.splitlines()
                   if line.strip().startswith("uv run python -m app review")
                   and "--approve" in line)
    argv = shlex.split(approve)[5:]  # after "uv run python -m app", as the README runs it
    assert argv[:2] == ["review", THREAD] and argv[argv.index("--data-dir") + 1] == str(data)
    approved = run_app(*argv)  # as printed: the thread keeps its corpus and model
    assert approved.returncode == 0, describe(approved)  # the plan review: it pauses again
    assert f"thread {THREAD} awaits the results review" in approved.stdout, describe(approved)


def test_a_plan_replaced_at_review_leaves_only_the_new_plans_rows(place, durability_corpus):
    # Found by a new-user trial: a thread run once, then again with --review and its plan
    # replaced, kept the abandoned plan's 9 rows beside the new plan's 3 (inspect: 12 rows),
    # while the summary said "db rows: 3". The same through time travel to the plan pause.
    where = place("data")
    common = [*_common(where.data_dir, durability_corpus), *where.args]
    first = run_app("research", TOPIC, "--as-of", AS_OF, *common, "--quiet")
    assert first.returncode == 0, describe(first)
    old = {r["envelope_id"] for r in db_rows(where, THREAD)}
    assert len(old) == len(WORKERS) * 3

    def plan_replaced(question: str, *extra: str) -> None:
        paused = run_app("review", THREAD, *common, "--json", *extra, "--question", question)
        assert _paused(paused)["stage"] == "results"
        done = run_app("review", THREAD, *common, "--json", "--approve")
        assert done.returncode == 0, describe(done)
        summary = json.loads(done.stdout)
        ids = {make_envelope_id(w.name, question, AS_OF) for w in WORKERS}
        rows = db_rows(where, THREAD)
        assert {r["envelope_id"] for r in rows} == ids and len(rows) == len(ids)
        assert summary["db_rows"] == summary["envelopes"] == len(ids)

    assert _paused(run_app("research", TOPIC, "--as-of", AS_OF, *common, "--review",
                           "--json"))["stage"] == "plan"
    plan_replaced("What is Send?")
    # time travel: the plan pause again, decided otherwise, on the finished thread
    listed = run_app("inspect", THREAD, "--data-dir", where.data_dir, *where.args, "--json")
    assert listed.returncode == 0, describe(listed)
    pause = [c for c in json.loads(listed.stdout)["checkpoints"]
             if c["next"] == ["review_plan"]][-1]
    plan_replaced("What is a reducer?", "--checkpoint", pause["checkpoint_id"])


def test_a_rerun_keeps_what_the_review_dropped(tmp_path, durability_corpus):
    # Found by a new-user trial: after "review T --drop E", a plain rerun of the topic ran E's
    # task again and its row and citations came back, with no word in the report.
    data = tmp_path / "data"
    _paused(_research(data, durability_corpus))
    results = _paused(_review(data, durability_corpus, "--approve"))
    drop = next(e for e in results["envelopes"] if e["worker"] == "critic")
    done = _review(data, durability_corpus, "--drop", drop["envelope_id"])
    assert done.returncode == 0, describe(done)
    kept = _row_ids(data)
    assert drop["envelope_id"] not in kept and len(kept) == len(results["envelopes"]) - 1

    rerun = run_app("research", TOPIC, "--as-of", AS_OF, *_common(data, durability_corpus),
                    "--json")
    assert rerun.returncode == 0, describe(rerun)
    summary = json.loads(rerun.stdout)
    assert _row_ids(data) == kept
    assert summary["db_rows"] == summary["envelopes"] == summary["expected"] == len(kept)
    report = Path(summary["report_path"]).read_text("utf-8")
    assert (f"dropped at an earlier review, not run again: critic on {drop['task_key']!r}"
            in report)


def test_the_json_continue_with_and_the_resume_hint_find_the_thread_when_pasted(
        tmp_path, durability_corpus):
    # Found by a new-user trial: --json's continue_with and review's "continue it with python -m
    # app resume T" dropped the run's --data-dir (the text pause had it).
    data = tmp_path / "my data"
    paused = _research(data, durability_corpus)
    argv = shlex.split(json.loads(paused.stdout)["continue_with"])
    assert argv[:5] == ["uv", "run", "python", "-m", "app"], argv
    assert argv[5:7] == ["review", THREAD] and argv[argv.index("--data-dir") + 1] == str(data)
    shown = run_app("review", THREAD, "--data-dir", data, "--json")  # the same, shown again
    assert json.loads(shown.stdout)["continue_with"] == json.loads(paused.stdout)["continue_with"]
    approved = run_app(*argv[5:], "--json")
    assert approved.returncode == 0, describe(approved)
    assert json.loads(approved.stdout)["review"]["stage"] == "results"
    # killed while it persists: the thread awaits no review and its run is unfinished (under
    # "sync": the default "async" may not have saved the approval's checkpoint by the kill,
    # and the thread then rightly still awaits the review: seen once under load)
    killed = run_app(*argv[5:], "--crash-at", "persist-commit", "--durability", "sync")
    assert killed.returncode in SIGKILLED, describe(killed)
    refused = run_app("review", THREAD, "--data-dir", data)
    assert refused.returncode == 2, describe(refused)
    hint = refused.stderr.split("continue it with ", 1)[1].strip()
    assert shlex.split(hint)[:7] == ["uv", "run", "python", "-m", "app", "resume", THREAD]
    resumed = run_app(*shlex.split(hint)[5:])
    assert resumed.returncode == 0, describe(resumed)
    assert _row_ids(data) and len(set(_row_ids(data))) == len(_row_ids(data))


def _edit_envelopes(data: Path, update) -> None:
    """``update_state`` of the paused thread's envelopes, as Studio's "edit state" writes it."""
    from app.runs.threads import research_graph
    from app.storage import open_storage

    config = {"configurable": {"thread_id": THREAD}}
    with open_storage(data).checkpointer() as saver:
        graph = research_graph(saver)
        envelopes = graph.get_state(config).values["envelopes"]
        graph.update_state(config, {"envelopes": update(dict(envelopes[1]), envelopes)})


@pytest.mark.parametrize("edit", ["new id", "id upper-cased", "task_key", "as_of", "worker"])
def test_an_envelope_an_edit_made_another_is_refused_before_a_row_is_written(
        tmp_path, durability_corpus, edit):
    # trial 28, finding 10: at the results review, a copy under a new id wrote 10 rows for 9
    # tasks, a task_key or as_of changed lost a row (missing_rows 0), a worker changed wrote a
    # duplicate; each run ended exit 1 with no line saying why
    from state import delete_envelope

    data = tmp_path / "data"
    _paused(_research(data, durability_corpus))
    results = _paused(_review(data, durability_corpus, "--approve"))
    questions = sorted({e["task_key"] for e in results["envelopes"]})
    other = next(w.name for w in WORKERS if w.name != results["envelopes"][1]["worker"])
    forged = {}

    def change(e: dict, _all: list) -> list:
        eid = e["envelope_id"]
        if edit in ("new id", "id upper-cased"):
            forged["id"] = eid[:-8] + "deadbeef" if edit == "new id" else eid.upper()
            return [{**e, "envelope_id": forged["id"]}]
        value = {"task_key": next(q for q in questions if q != e["task_key"]),
                 "as_of": "1999-01-01", "worker": other}[edit]
        forged["back"] = {"envelope_id": eid, edit: e[edit]}
        return [{"envelope_id": eid, edit: value}]

    _edit_envelopes(data, change)
    refused = _review(data, durability_corpus, "--approve")
    assert refused.returncode == 2, describe(refused)
    errors = [line for line in refused.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "is not the one its worker, task_key and as_of name" in errors[0]
    assert "edit it again with update_state" in errors[0], errors
    assert db_rows(data, THREAD) == []  # nothing written, the thread where it was

    # the way on the line names: the edit undone, the approval goes on, one row per task
    _edit_envelopes(data, lambda e, _all: ([delete_envelope(forged["id"])] if "id" in forged
                                            else [forged["back"]]))
    done = _review(data, durability_corpus, "--approve")
    assert done.returncode == 0, describe(done)
    rows = db_rows(data, THREAD)
    assert len(rows) == len({r["envelope_id"] for r in rows}) == len(results["envelopes"])
    assert all(r["envelope_id"] == make_envelope_id(r["worker"], r["task_key"], r["as_of"])
               for r in rows)


def _state(data: Path) -> dict:
    from app.runs.threads import research_graph
    from app.storage import open_storage

    with open_storage(data).checkpointer() as saver:
        return research_graph(saver).get_state({"configurable": {"thread_id": THREAD}}).values


def test_an_envelope_an_edit_marked_persisted_is_written_all_the_same(tmp_path,
                                                                     durability_corpus):
    # trial 31, finding F2 (A): at the results review, an edit marking one envelope
    # persisted=True left 8 rows of 9, and the served verdict said ok. persist trusts the mark
    # only where the thread has the row; the envelope still held its payload, so it is written.
    data = tmp_path / "data"
    _paused(_research(data, durability_corpus))
    results = _paused(_review(data, durability_corpus, "--approve"))
    _edit_envelopes(data, lambda e, _all: [{"envelope_id": e["envelope_id"], "persisted": True}])
    done = _review(data, durability_corpus, "--approve")
    assert done.returncode == 0, describe(done)
    assert len(_row_ids(data)) == len(set(_row_ids(data))) == len(results["envelopes"])
    assert _state(data)["outcome"] == "ok"


def test_a_run_whose_edit_skipped_persist_claims_no_success(tmp_path, durability_corpus):
    # trial 31, finding F2 (B): Studio's "edit as persist" at the results review skipped the
    # write; the run went on to report "envelopes: 0" and outcome ok with no row written. The
    # verdict, in state for a server's client as in the CLI's exit code, counts the rows.
    from app.runs.threads import research_graph
    from app.storage import open_storage

    data = tmp_path / "data"
    _paused(_research(data, durability_corpus))
    results = _paused(_review(data, durability_corpus, "--approve"))
    config = {"configurable": {"thread_id": THREAD}}
    with open_storage(data).checkpointer() as saver:
        research_graph(saver).update_state(config, None, as_node="persist")
    done = run_app("resume", THREAD, *_common(data, durability_corpus), "--json")
    assert done.returncode == 1, describe(done)
    summary = json.loads(done.stdout)
    assert summary["ok"] is False and summary["missing_rows"] == len(results["envelopes"])
    state = _state(data)
    assert state["outcome"] == "failed" and db_rows(data, THREAD) == []
    assert {t["error"] for t in state["failed_tasks"]} == {
        "its row is missing from the results database"}


def test_inspect_names_a_paused_thread_as_threads_does(tmp_path, durability_corpus):
    # trial 58, F8: inspect said "unfinished: next review_results" (the README's "killed or
    # interrupted: resume it") where threads said "awaiting review"
    data = tmp_path / "data"
    for stage, node, step in (("plan", "review_plan", _research),
                              ("results", "review_results", _review)):
        extra = ("--approve",) if stage == "results" else ()
        assert _paused(step(data, durability_corpus, *extra))["stage"] == stage
        listed = run_app("threads", "--data-dir", data, "--json")
        assert [t["status"] for t in json.loads(listed.stdout)] == ["awaiting review"], listed
        shown = run_app("inspect", THREAD, "--data-dir", data)
        assert shown.returncode == 0, describe(shown)
        assert f"awaiting review: next {node}" in shown.stdout.splitlines(), shown.stdout
        assert "unfinished" not in shown.stdout, shown.stdout
        as_json = json.loads(run_app("inspect", THREAD, "--data-dir", data, "--json").stdout)
        assert as_json["run_status"] == "awaiting review" and as_json["next"] == [node]
