"""Which rows' items the report side reads (app.research.rows.ok_items): finished rows only, each
item as stored, in row then item order."""

from __future__ import annotations

from app.research.rows import ok_items


def test_only_finished_rows_with_a_payload_give_items():
    rows = [
        {"status": "ok", "task_key": "q1", "structured": {"items": [{"ref": "a"}, "odd"]}},
        {"status": "error", "task_key": "q1", "structured": {"items": [{"ref": "b"}]}},
        {"status": "ok", "task_key": "q2", "structured": None},  # payload dropped
        {"status": "ok", "task_key": "q2", "structured": {"items": None}},
        {"task_key": "q2", "structured": {"items": [{"ref": "c"}]}},  # no status: not ok
        {"status": "ok", "task_key": "q2", "structured": {"items": [{"ref": "d"}]}},
    ]
    assert [item for _row, item in ok_items(rows)] == [{"ref": "a"}, "odd", {"ref": "d"}]
    assert [(row["task_key"], item) for row, item in ok_items(rows, "q2")] == [
        ("q2", {"ref": "d"})]
    assert list(ok_items(rows, "q3")) == []
