"""The report reads its rows back (``ResultsStore.rows``) decoding each row's JSON payload as
the row is read, not after every row's text was fetched: at 1,200 tasks all the payloads' text
at once was 3 MB of the report's peak, on top of the decoded rows (issue 21, item 13)."""

from __future__ import annotations

import json
import sqlite3
import types

import app.storage.results as results_mod
from app.storage import open_storage
from state import make_envelope_id

AS_OF = "2026-11-30"


def _envelope(question: str) -> dict:
    return {"envelope_id": make_envelope_id("docs_search", question, AS_OF),
            "worker": "docs_search", "task_key": question, "as_of": AS_OF, "status": "ok",
            "round": 1, "persisted": True,
            "structured": {"findings": [{"claim": f"{question} is answered.", "ref": "a.md#1"}]}}


def test_each_rows_payload_is_decoded_as_it_is_read(tmp_path, monkeypatch) -> None:
    questions = ["What is Send?", "What is a reducer?", "What is a superstep?"]
    storage = open_storage(tmp_path / "data")
    with storage.checkpointer():
        pass
    with storage.results() as store:
        store.upsert([_envelope(q) for q in questions], thread_id="t", topic="graphs")
    order: list[str] = []

    def loads(text, **kwargs):
        order.append("decoded")
        return json.loads(text, **kwargs)

    monkeypatch.setattr(results_mod, "json", types.SimpleNamespace(loads=loads, dumps=json.dumps))
    with storage.results() as store:
        conn = store._conn  # the SQLite driver's rows, seen as SQLite steps to each

        def row(cursor, values):
            order.append("read")
            return sqlite3.Row(cursor, values)

        conn.row_factory = row
        rows = store.rows([_envelope(q)["envelope_id"] for q in questions], thread_id="t")
    assert [r["structured"]["findings"][0]["claim"] for r in rows] == [
        f"{q} is answered." for q in questions]
    assert order == ["read", "decoded"] * 3, order
