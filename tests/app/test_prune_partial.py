"""``prune`` stopped part way (a full disk, Ctrl-C) says what it pruned before it stopped.

Each thread's prune is its own transaction, so the threads pruned before the error stay pruned;
the output said only "the disk is full ... nothing was lost", and ``--json`` had no thread in
it, so a script and a person both believed nothing had changed (trial 28, finding 2). The CLI
runs in-process (``app.cli.main``); the full disk is the SQLite error a full disk raises, at
the second thread's prune.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.runs.ids import default_thread_id
from tests.conftest import AS_OF, SMALL_TOPIC

OTHER = "zorblax relay signals"


def test_a_prune_stopped_by_a_full_disk_names_the_threads_it_pruned(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    import app.runs.prune
    from app.cli import main
    from app.storage import open_storage

    data = ["--data-dir", str(tmp_path / "data")]
    for topic in (SMALL_TOPIC, OTHER, SMALL_TOPIC):  # a rerun: the first has more to prune
        assert main(["research", topic, "--as-of", AS_OF, "--corpus", str(small_corpus),
                     *data, "--quiet"]) == 0
    capsys.readouterr()
    real, calls = app.runs.prune.keep_latest, []

    def full_at_second(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        return real(*args, **kwargs)

    monkeypatch.setattr(app.runs.prune, "keep_latest", full_at_second)
    assert main(["prune", *data]) == 1
    out, err = capsys.readouterr()
    first = calls[0]
    assert f"pruned  {first}" in out and "removed " in out, out
    assert "disk is full" in err and len(err.strip().splitlines()) == 1, err
    with open_storage(tmp_path / "data").checkpointer(read_only=True) as saver:
        kept = {tid: len(list(saver.list({"configurable": {"thread_id": tid}})))
                for tid in (default_thread_id(SMALL_TOPIC, AS_OF), default_thread_id(OTHER, AS_OF))}
    assert kept[first] == 1 and max(kept.values()) > 1, kept  # the first pruned, the other not

    # --json: the error object holds the threads done before the error, as the ok one would
    calls.clear()
    assert main(["prune", *data, "--json"]) == 1
    shown = json.loads(capsys.readouterr().out)
    assert shown["status"] == "failed" and "disk is full" in shown["error"], shown
    assert [t["thread_id"] for t in shown["threads"]] == calls[:1], shown
    assert shown["threads"][0]["action"] == "pruned" and shown["checkpoints_removed"] > 0, shown
