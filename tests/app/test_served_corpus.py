"""A served thread stays on the corpus its plan was made on (trial 8, finding 15): LangGraph
Server continued a paused thread, or reran a finished one, on another ``corpus_name`` without a
word, while the CLI refuses both. The graph runs in process, as the server runs it (served
``Resources``, a checkpointer, the choices as the run's context)."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from app.errors import CorpusMismatch
from app.graph.build import build_graph
from app.graph.resources import Resources
from app.settings.config import RunContext, Settings
from tests.conftest import SMALL_CORPUS_FILES

TOPIC = "zorblax flux capacitors"


@pytest.fixture
def served(tmp_path: Path, make_corpus):
    """``(graph, config)``: a served graph with two corpora, ``first`` and ``second``."""
    first = make_corpus(name="first")
    second = make_corpus(SMALL_CORPUS_FILES, name="second")
    settings = Settings(data_dir=str(tmp_path / "data"), model="offline",
                        corpora=(f"first={first}", f"second={second}"))
    graph = build_graph(resources=Resources(settings, served=True),
                        checkpointer=InMemorySaver())
    return graph, {"configurable": {"thread_id": "t1"}}


def _rows(graph, config) -> int:
    return len(graph.get_state(config).values.get("envelopes") or [])


@pytest.mark.parametrize("other", ["second", None])
def test_a_finished_thread_is_not_rerun_on_another_corpus(served, other):
    graph, config = served
    graph.invoke({"topic": TOPIC, "as_of": "2026-01-15"}, config,
                 context=RunContext(corpus_name="first"))
    before = graph.get_state(config).values
    assert before["outcome"] and before["routing"]["corpus_name"] == "first"
    with pytest.raises(CorpusMismatch, match="planned on corpus_name 'first'"):
        graph.invoke({"topic": TOPIC, "as_of": "2026-01-15"}, config,
                     context=RunContext(corpus_name=other))
    after = graph.get_state(config).values
    assert after["report"] == before["report"]  # the thread's report is the first corpus's
    graph.invoke({"topic": TOPIC, "as_of": "2026-01-15"}, config,  # its own corpus: reruns
                 context=RunContext(corpus_name="first"))
    assert graph.get_state(config).values["outcome"]


def test_a_paused_thread_is_not_continued_on_another_corpus(served):
    graph, config = served
    graph.invoke({"topic": TOPIC, "as_of": "2026-01-15"}, config,
                 context=RunContext(corpus_name="first", review=True))
    assert graph.get_state(config).next == ("review_plan",)
    with pytest.raises(CorpusMismatch, match="not continued or rerun on corpus_name 'second'"):
        graph.invoke(Command(resume={"approve": True}), config,
                     context=RunContext(corpus_name="second", review=True))
    assert _rows(graph, config) == 0  # no worker searched the other corpus
    graph.invoke(Command(resume={"approve": True}), config,
                 context=RunContext(corpus_name="first", review=True))
    assert _rows(graph, config) > 0
