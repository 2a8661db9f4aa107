"""The index build's passages are written by a thread while the next are cut
(workers.sources.batch_writer): the same rows in the same order, a write's failure raised in the
builder, and nothing written after the builder fails."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from workers.sources import Corpus, batch_writer
from workers.sources.batch_writer import BatchWriter


def test_every_row_is_written_in_order_by_another_thread() -> None:
    written: list[tuple[str, list[int]]] = []
    with BatchWriter(lambda rows: written.append((threading.current_thread().name, rows)),
                     batch=3) as writer:
        for row in range(8):
            writer.add(row)
    assert [rows for _name, rows in written] == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert {name for name, _rows in written} == {"batch-writer"}


def test_a_failed_write_is_raised_in_the_builder_and_stops_the_writes() -> None:
    written: list[list[int]] = []

    def write(rows: list[int]) -> None:
        if rows[0] == 2:
            raise sqlite3.OperationalError("database or disk is full")
        written.append(rows)

    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        with BatchWriter(write, batch=2) as writer:
            for row in range(10):
                writer.add(row)
    assert written == [[0, 1]]


def test_the_builders_failure_writes_nothing_more() -> None:
    written: list[list[int]] = []
    with pytest.raises(KeyboardInterrupt):
        with BatchWriter(written.append, batch=2) as writer:
            writer.add(1)
            raise KeyboardInterrupt
    assert written == []


def test_a_folder_index_holds_every_passage_once_in_order(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(batch_writer, "BATCH_ROWS", 16)  # many batches of a small folder
    folder = tmp_path / "docs"
    folder.mkdir()
    for n in range(30):
        paras = "".join(f"<p>Paragraph {p} of page {n} tells how the frobnicator {n} "
                        f"turns widget {p} {'and more ' * 40}.</p>" for p in range(12))
        (folder / f"page{n:02}.html").write_text(
            f"<html><head><title>Page {n}</title></head><body><h1>Page {n}</h1>{paras}"
            "</body></html>")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        con = sqlite3.connect(corpus.path)
        ids = [row[0] for row in con.execute("SELECT id FROM passages ORDER BY id")]
        (fts,) = con.execute("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH "
                             "'frobnicator'").fetchone()
        con.close()
        hits = corpus.search("frobnicator 17 widget", k=3)
    assert ids == list(range(1, len(ids) + 1)) and len(ids) > 16 * 5
    assert fts == len(ids)
    assert hits[0].ref.startswith("page17.html")
