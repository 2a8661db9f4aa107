"""``report``'s storage retry neither pays for the model summary twice nor loses its tokens
(trial 25, finding 5).

``IO_RETRY`` runs ``report`` again when the results database is busy. The report model's
summary comes before the database write; the retry used to ask the model again, and the first
summary's tokens, served and billed, were in no write (100 of 200 counted).
"""

from __future__ import annotations

import sqlite3

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.graph import build_graph
from app.graph.resources import Models, Resources
from app.research.synthesis import Synthesis
from app.settings.config import Settings
from app.storage.results import ResultsStore
from tests.durability._helpers import AS_OF, TOPIC, write_corpus
from workers.registry import WORKERS

SUMMARY_TOKENS = 100


@pytest.fixture
def summaries(monkeypatch):
    """The report model's summary, as a provider bills it: 100 tokens a call, each call
    counted; the first save of the report refused with SQLite's "database is locked"."""
    calls = {"summary": 0, "save": 0}

    def summarize(data):
        calls["summary"] += 1
        return Synthesis(tokens=SUMMARY_TOKENS, notes=["model summary: none written"])

    real_build = Resources._build_models

    def build_models(self, ctx, key):
        models = real_build(self, ctx, key)
        return Models(models.planner, models.worker, models.report, models.label, summarize)

    real_save = ResultsStore.save_report

    def save_report(self, thread_id, markdown):
        calls["save"] += 1
        if calls["save"] == 1:
            raise sqlite3.OperationalError("database is locked")  # transient: IO_RETRY
        return real_save(self, thread_id, markdown)

    monkeypatch.setattr(Resources, "_build_models", build_models)
    monkeypatch.setattr(ResultsStore, "save_report", save_report)
    return calls


def test_a_retried_report_reuses_its_summary_and_counts_its_tokens_once(tmp_path, summaries):
    corpus = write_corpus(tmp_path / "corpus")
    res = Resources(Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus),
                             model="offline", retry_interval=0.01))
    graph = build_graph(WORKERS, resources=res, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "report-retry"}}
    try:
        out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context={"rounds": 1})
    finally:
        res.close()
    assert out["outcome"] == "ok"
    assert summaries["save"] == 2  # the busy save, then the retry's
    assert summaries["summary"] == 1  # the model asked once for one report
    before = next(s for s in graph.get_state_history(config) if s.next == ("report",))
    assert out["tokens"] == before.values["tokens"] + SUMMARY_TOKENS
    assert "model summary: none written" in out["notes"]
