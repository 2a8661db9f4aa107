"""Edge cases a hostile tester found, each reproduced with a real process:

* a SIGKILL right after LangGraph saved the *input* checkpoint (state has no topic yet) must
  not wedge the thread: the same command, and ``resume``, finish it;
* two processes must not run one thread at once (the second is refused with exit 75, "try
  later", nothing duplicated);
* ``resume THREAD`` without ``--corpus`` continues on the corpus the thread started on, and an
  unfinished thread is never continued on another corpus, nor with a ``--review`` or
  ``--rounds`` its plan fixed otherwise;
* a results database deleted under a finished checkpoint is reported (exit 1), never a silent
  "ok" with an empty report.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from app.settings.hints import APP
from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    ROOT,
    SIGKILLED,
    TOPIC,
    assert_completed_thread,
    checkpoint_envelopes,
    clean_env,
    db_rows,
    db_run,
    describe,
    latest_checkpoint,
    run_app,
    thread_id_of,
    write_corpus,
)

# Runs the CLI with SqliteSaver.put patched to SIGKILL the process as soon as the checkpoint
# whose metadata says source="input" is saved: the narrowest window there is.
_KILL_AFTER_INPUT_CHECKPOINT = """
import os, signal, sys
from langgraph.checkpoint.sqlite import SqliteSaver
_put = SqliteSaver.put
def put(self, config, checkpoint, metadata, new_versions):
    out = _put(self, config, checkpoint, metadata, new_versions)
    if metadata.get("source") == "input":
        os.kill(os.getpid(), signal.SIGKILL)
    return out
SqliteSaver.put = put
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _args(data_dir: Path, corpus: Path) -> list[str]:
    return ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(data_dir), "--corpus",
            str(corpus), "--durability", "sync"]


def _kill_after_input(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-c", _KILL_AFTER_INPUT_CHECKPOINT, *args], cwd=ROOT,
                          env=clean_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode in SIGKILLED, describe(proc)


def test_kill_after_the_input_checkpoint_resumes_with_the_same_command(tmp_path,
                                                                      durability_corpus):
    data = tmp_path / "data"
    _kill_after_input(_args(data, durability_corpus))
    proc = run_app(*_args(data, durability_corpus))
    assert proc.returncode == 0, describe(proc)
    assert "resuming thread" in proc.stdout
    assert_completed_thread(data, thread_id_of())


def test_kill_after_the_input_checkpoint_resumes_by_thread_id(tmp_path, durability_corpus):
    data = tmp_path / "data"
    _kill_after_input(_args(data, durability_corpus))
    # no --corpus: resume uses the corpus the thread was started on
    proc = run_app("resume", thread_id_of(), "--data-dir", str(data))
    assert proc.returncode == 0, describe(proc)
    assert f"folder corpus: {durability_corpus}" in proc.stdout or str(durability_corpus) in (
        proc.stdout
    ), proc.stdout
    assert_completed_thread(data, thread_id_of())


def test_an_unfinished_thread_is_not_continued_on_another_corpus(tmp_path, durability_corpus):
    data = tmp_path / "data"
    crashed = run_app(*_args(data, durability_corpus), "--crash-at", "map:3")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    other = write_corpus(tmp_path / "other-corpus")
    proc = run_app("resume", thread_id_of(), "--data-dir", str(data), "--corpus", str(other))
    assert proc.returncode == 2, describe(proc)
    assert proc.stderr.startswith("error: ") and "same corpus" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run_app(*_args(data, durability_corpus))  # the right corpus: it finishes
    assert proc.returncode == 0, describe(proc)
    assert_completed_thread(data, thread_id_of())
    rows = db_rows(data, thread_id_of())
    # Finished, the same topic on another corpus replaced the thread's rows and report without
    # a word (found by a new-user trial): refused, and --fresh, which it advises, works.
    for bad in ([*_args(data, other)], [*_args(data, other), "--fresh", "--thread-id", "t1"]):
        proc = run_app(*bad)
        assert proc.returncode == 2, describe(proc)
        assert proc.stderr.startswith("error: ") and "--fresh" in proc.stderr, describe(proc)
        assert len(proc.stderr.strip().splitlines()) == 1, describe(proc)
    assert db_rows(data, thread_id_of()) == rows
    assert run_app(*_args(data, other), "--fresh").returncode == 0
    assert db_rows(data, thread_id_of()) == rows


def test_a_choice_an_unfinished_threads_plan_fixed_otherwise_is_refused(tmp_path,
                                                                        durability_corpus):
    # Issue 21: ``resume T --review`` of a thread planned without review ran to the end without
    # a pause, and ``--rounds 3`` took the plan's 2, without a word (``plan`` writes both into
    # state, where the edges read them). Refused in one line, in every command that continues
    # a thread; the same choice as the plan's, or none, continues it.
    data = tmp_path / "data"
    crashed = run_app(*_args(data, durability_corpus), "--crash-at", "map:3",
                      "--max-concurrency", "1")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    rows = db_rows(data, thread_id_of())
    resume = ["resume", thread_id_of(), "--data-dir", str(data)]
    for bad, says in (([*resume, "--review"], "planned without --review"),
                      ([*resume, "--rounds", "3"], "planned with --rounds 2"),
                      ([*_args(data, durability_corpus), "--review"], "--fresh --review")):
        proc = run_app(*bad)
        assert proc.returncode == 2, describe(proc)
        assert proc.stderr.startswith("error: ") and says in proc.stderr, describe(proc)
        assert len(proc.stderr.strip().splitlines()) == 1, describe(proc)
    assert db_rows(data, thread_id_of()) == rows
    assert run_app(*resume, "--rounds", "2").returncode == 0
    assert_completed_thread(data, thread_id_of())

    # ``review T --approve --rounds 3`` at a review pause: the plan's rounds are fixed too
    paused = run_app(*_args(tmp_path / "paused", durability_corpus), "--review")
    assert paused.returncode == 0, describe(paused)
    review = ["review", thread_id_of(), "--data-dir", str(tmp_path / "paused"), "--approve"]
    proc = run_app(*review, "--rounds", "3")
    assert proc.returncode == 2 and "planned with --rounds 2" in proc.stderr, describe(proc)
    assert run_app(*review).returncode == 0  # still at its plan review: approving continues


def test_an_unfinished_thread_is_not_continued_on_changed_corpus_content(place, tmp_path):
    # Found by a new-user trial: a run killed mid-map, then a file of its folder deleted and
    # another added, then the same command resumed the thread: its report cited both the
    # deleted file and the new one. ``resume`` (and review, inspect --report) refuse it like
    # another corpus (SQLite and PostgreSQL keep the same runs row); the topic's own command
    # starts it again from its input on the new content, as a finished thread reruns (trial
    # 12, finding 6: that command was refused for the rest of the day, the thread stuck).
    where, corpus = place("data"), write_corpus(tmp_path / "corpus")
    args = [*_args(where.data_dir, corpus), *where.args]
    crashed = run_app(*args, "--crash-at", "map:3", "--max-concurrency", "1")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    rows = db_rows(where, thread_id_of())
    (corpus / "send.md").unlink()
    (corpus / "fanout.md").write_text("# Fan-out\n\nSend objects fan work out to nodes.\n",
                                      encoding="utf-8")
    resume = ["resume", thread_id_of(), "--data-dir", str(where.data_dir), *where.args]
    proc = run_app(*resume)
    assert proc.returncode == 2, describe(proc)
    # resume cannot run it: the line names the research command that can (a new-user trial)
    assert proc.stderr.startswith("error: ") and f"{APP} research" in proc.stderr, describe(proc)
    assert "has changed since it started" in proc.stderr, describe(proc)
    assert len(proc.stderr.strip().splitlines()) == 1, describe(proc)
    assert db_rows(where, thread_id_of()) == rows
    # Trial 7: prune advised "resume" for it, which refuses it; trial 13, finding 6: each
    # advised "research --fresh", which leaves the thread unfinished for good. Each now prints
    # the topic's own command, which runs the thread again on the new content.
    pruned = run_app("prune", "--data-dir", str(where.data_dir), *where.args)
    assert pruned.returncode == 0, describe(pruned)
    assert f"{APP} resume" not in pruned.stdout, describe(pruned)
    scripted = run_app("prune", "--data-dir", str(where.data_dir), *where.args, "--json")
    (kept,) = json.loads(scripted.stdout)["threads"]
    assert (kept["thread_id"], kept["action"]) == (thread_id_of(), "kept: corpus changed")
    assert kept["run_again"] in pruned.stdout and kept["run_again"] in proc.stderr
    for sibling in (["review", thread_id_of()], ["inspect", thread_id_of(), "--report"]):
        said = run_app(*sibling, "--data-dir", str(where.data_dir), *where.args)
        assert said.returncode == 2 and kept["run_again"] in said.stderr, describe(said)
        assert f"{APP} resume" not in said.stderr, describe(said)
    assert db_rows(where, thread_id_of()) == rows  # the unfinished thread is left as it was

    # pasted, the advice is the topic's own command: the thread starts again, not refused
    again = run_app(*_pasted(proc.stderr, where.database_url, fresh=False))
    assert again.returncode == 0, describe(again)
    said = again.stdout + again.stderr
    assert "has changed since it started (files added, removed or modified): running it " \
           "again from its start on the new content" in said, describe(again)
    assert "resuming thread" not in said, describe(again)
    envelopes = checkpoint_envelopes(latest_checkpoint(where, thread_id_of()))
    ids = sorted(e["envelope_id"] for e in envelopes)
    assert len(ids) == len(set(ids)) == EXPECTED_TASKS
    assert all(e["persisted"] is True and e.get("structured") is None for e in envelopes)
    rows_after = db_rows(where, thread_id_of())
    assert sorted(r["envelope_id"] for r in rows_after) == ids
    assert all(r["write_count"] == 1 for r in rows_after)  # one write each: nothing doubled
    report = Path(db_run(where, thread_id_of())["report_path"]).read_text("utf-8")
    assert "send.md" not in report and "fanout.md" in report  # the new content only


def _pasted(text: str, database_url: str | None, *, fresh: bool = True) -> list[str]:
    """The arguments of the ``research`` command (with ``--fresh`` or not, as ``fresh`` says)
    printed in ``text`` as a shell splits it when pasted, the ``URL`` placeholder of a database
    URL filled in."""
    line = next(line for line in text.splitlines() if f"{APP} research" in line)
    words = shlex.split(line[line.index(APP):].removesuffix(")"))[len(APP.split()):]
    assert words[0] == "research" and ("--fresh" in words) == fresh, line
    return [database_url if word == "URL" and database_url else word for word in words]


def test_an_unfinished_thread_continues_on_touched_files_of_the_same_content(tmp_path):
    # Found by a new-user trial: a mere ``touch`` (same bytes) counted as "modified": the
    # thread could then be neither resumed nor pruned. Its recorded fingerprint is of the
    # files' bytes now; the index's own (stat, for its rebuild) does not decide.
    import os

    data, corpus = tmp_path / "data", write_corpus(tmp_path / "corpus")
    args = _args(data, corpus)
    crashed = run_app(*args, "--crash-at", "map:3", "--max-concurrency", "1")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    later = (corpus / "send.md").stat().st_mtime + 60
    os.utime(corpus / "send.md", (later, later))
    resumed = run_app("resume", thread_id_of(), "--data-dir", str(data))
    assert resumed.returncode == 0 and "resuming thread" in resumed.stdout, describe(resumed)
    assert_completed_thread(data, thread_id_of())


def test_a_second_process_on_the_same_thread_is_refused(place, durability_corpus):
    """The lock is a ``flock`` on SQLite and a PostgreSQL advisory lock on PostgreSQL."""
    from app.storage import open_storage

    where = place("data")
    where.data_dir.mkdir()
    args = [*_args(where.data_dir, durability_corpus), *where.args]
    storage = open_storage(where.data_dir, where.database_url)
    with storage.thread_lock(thread_id_of()):  # this test process plays the first runner
        proc = run_app(*args)
        scripted = run_app(*args, "--json")
    # 75, EX_TEMPFAIL: a script can tell "try later" from a failed run (exit 1)
    assert proc.returncode == 75, describe(proc)
    assert "being run by another process" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert db_rows(where) == [] and "envelopes" not in proc.stdout
    # with --json it printed nothing on stdout (issue 21): one object says what happened
    assert scripted.returncode == 75, describe(scripted)
    outcome = json.loads(scripted.stdout)
    assert outcome.pop("error") == scripted.stderr.strip().removeprefix("error: ")
    assert outcome == {"status": "try_later", "exit_code": 75, "thread_id": thread_id_of()}
    proc = run_app(*args)  # the lock is gone: it runs
    assert proc.returncode == 0, describe(proc)
    assert_completed_thread(where, thread_id_of())


def test_a_deleted_results_database_is_reported_not_hidden(tmp_path, durability_corpus):
    data = tmp_path / "data"
    crashed = run_app(*_args(data, durability_corpus), "--crash-at", "report")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    for path in data.glob("results.sqlite*"):
        path.unlink()
    proc = run_app(*_args(data, durability_corpus), "--json")
    assert proc.returncode == 1, describe(proc)
    summary = json.loads(proc.stdout)
    assert summary["ok"] is False
    assert summary["missing_rows"] == summary["envelopes"] > 0
    [note] = [n for n in summary["notes"] if "missing from the results database" in n]
    # and the advice works: the command it names (research, the thread's own sources; not
    # resume, which has nothing left to run: trial 22) recomputes every row
    command = note.split("recompute them with ", 1)[1].split(" (`resume`", 1)[0]
    words = shlex.split(command)
    assert words[:5] == ["uv", "run", "python", "-m", "app"] and words[5] == "research", note
    assert str(durability_corpus.resolve()) in words and str(data) in words, note
    proc = run_app(*words[5:])
    assert proc.returncode == 0, describe(proc)
    assert_completed_thread(data, thread_id_of())


def test_an_unfinished_threads_moved_corpus_continues_it_at_its_new_place(tmp_path):
    # Found by a new-user trial: after its folder was moved (same files, same bytes), resume
    # said only "corpus folder not found", and with --corpus NEW it advised "--corpus OLD",
    # which led back to "not found". The folder's identity is its content: the moved folder
    # continues the thread; a missing one is named with the ways on.
    data, corpus = tmp_path / "data", write_corpus(tmp_path / "corpus")
    crashed = run_app(*_args(data, corpus), "--crash-at", "map:3", "--max-concurrency", "1")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    rows = db_rows(data, thread_id_of())
    moved = corpus.rename(tmp_path / "moved")
    proc = run_app("resume", thread_id_of(), "--data-dir", str(data))
    assert proc.returncode == 2, describe(proc)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not there now" in lines[0], describe(proc)
    assert str(corpus) in lines[0] and "--corpus NEW_PLACE" in lines[0], lines[0]

    changed = write_corpus(tmp_path / "changed")  # another folder of other files: refused
    (changed / "send.md").write_text("# Send\n\nOther words.\n", encoding="utf-8")
    proc = run_app("resume", thread_id_of(), "--data-dir", str(data), "--corpus", str(changed))
    assert proc.returncode == 2 and "holds other files" in proc.stderr, describe(proc)
    fresh = _pasted(proc.stderr, None)  # the way on runs on the folder it was given
    assert fresh[fresh.index("--corpus") + 1] == str(changed), fresh
    assert db_rows(data, thread_id_of()) == rows

    resumed = run_app("resume", thread_id_of(), "--data-dir", str(data), "--corpus", str(moved))
    assert resumed.returncode == 0 and "resuming thread" in resumed.stdout, describe(resumed)
    assert_completed_thread(data, thread_id_of())


def test_another_max_file_bytes_is_named_as_the_reason_a_thread_is_refused(tmp_path):
    # Found by a new-user trial: continuing with another --max-file-bytes (so other files
    # skipped) was refused as "its corpus folder has changed since it started", no file touched.
    data, corpus = tmp_path / "data", write_corpus(tmp_path / "corpus")
    (corpus / "big.md").write_text("# Big\n\n" + "Send fans out work. " * 300, encoding="utf-8")
    small = ["--max-file-bytes", "4000"]  # big.md (6 KB) skipped
    crashed = run_app(*_args(data, corpus), *small, "--crash-at", "map:3",
                      "--max-concurrency", "1")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    for again in (_args(data, corpus), [*_args(data, corpus), "--max-file-bytes", "10000"],
                  ["resume", thread_id_of(), "--data-dir", str(data), "--max-file-bytes", "10000"]):
        proc = run_app(*again)
        assert proc.returncode == 2, describe(proc)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "has changed" not in lines[0], describe(proc)
        assert "indexed with --max-file-bytes 4000" in lines[0], lines[0]
        assert "continue it with --max-file-bytes 4000" in lines[0], lines[0]
    # prune read the folder with its own limit and called the thread's corpus changed
    pruned = run_app("prune", "--data-dir", str(data), "--json")
    (kept,) = json.loads(pruned.stdout)["threads"]
    assert kept["action"] != "kept: corpus changed" and not kept.get("run_again"), kept
    # a resume by id takes the thread's folder and, unless told another, its limit (trial 9:
    # it was refused until the flag was repeated); as the line says, research continues too
    resumed = run_app("resume", thread_id_of(), "--data-dir", str(data))
    assert resumed.returncode == 0 and "resuming thread" in resumed.stdout, describe(resumed)
    assert_completed_thread(data, thread_id_of())
    again = run_app(*_args(data, corpus), *small)
    assert again.returncode == 0, describe(again)
    assert_completed_thread(data, thread_id_of())
