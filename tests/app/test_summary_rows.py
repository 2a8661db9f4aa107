"""The run's summary counts the thread's rows, not only those of its envelopes: a row of the
thread that is none of its current envelopes (another plan or ``as_of``) makes the run not ok
and is named in a note (found by a new-user trial: 18 rows for 9 envelopes, and the summary said
"db rows: 9", "duplicates: 0")."""

from __future__ import annotations

import time

from app.runs.summary import summarize_run
from app.storage import Storage
from state import make_envelope_id

AS_OF, OTHER_DAY, QUESTION = "2026-11-30", "2026-11-29", "What is Send?"


def _envelope(as_of: str) -> dict:
    return {"envelope_id": make_envelope_id("docs_search", QUESTION, as_of),
            "worker": "docs_search", "task_key": QUESTION, "as_of": as_of, "status": "ok",
            "round": 1, "structured": None, "persisted": True}


def _summary(storage: Storage, final: dict):
    return summarize_run(final, storage=storage, thread_id="t", topic="Send", as_of=AS_OF,
                         labels={"model": "offline", "corpus": "c"}, workers=1,
                         resumed_from=None, started=time.perf_counter())


def test_a_row_of_another_as_of_in_the_thread_is_counted_and_named(storage: Storage) -> None:
    final = {"topic": "Send", "as_of": AS_OF, "sub_questions": [QUESTION],
             "routing": {"workers": ["docs_search"], "first_round": 1},
             "envelopes": [_envelope(AS_OF)], "outcome": "ok", "failed_tasks": [],
             "report_path": "r.md", "warnings": []}
    with storage.checkpointer():  # the run's checkpoints exist (else: "data dir deleted")
        pass
    with storage.results() as store:
        store.upsert([_envelope(AS_OF)], thread_id="t", topic="Send")
    clean = _summary(storage, final)
    assert clean.ok and clean.db_rows == clean.envelopes == 1 and clean.notes == []
    with storage.results() as store:
        store.upsert([_envelope(OTHER_DAY)], thread_id="t", topic="Send")
        store.upsert([_envelope(OTHER_DAY)], thread_id="another", topic="Send")
    summary = _summary(storage, final)
    assert summary.db_rows == 2 and summary.envelopes == 1 and summary.missing_rows == 0
    assert not summary.ok
    assert any("1 row(s) of this thread" in n and "none of its current envelopes" in n
               for n in summary.notes), summary.notes
