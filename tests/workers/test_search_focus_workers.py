"""The workers focus their corpus searches on the run's topic: ``docs_search`` passes the task's
topic, and the agents' ``search_corpus`` tool gets it from the agent's state (``TopicState``,
injected by LangGraph as ``InjectedState("topic")``), whatever query the model writes. Called
outside an agent, the tool searches unfocused."""

from __future__ import annotations

import json

from app.llm.offline import OfflineChatModel
from workers import docs_search
from workers.agent import build_agent_runner
from workers.base import WorkerDeps
from workers.schemas import Findings
from workers.sources.base import Passage
from workers.tools import make_corpus_tools

TASK = {"worker": "w", "sub_question": "What is the mechanism behind Send?",
        "topic": "Send and reducers", "as_of": "2026-11-30", "round": 1}


class RecordingSource:
    """A one-passage source that records the ``focus`` of every search."""

    description = "recording source"

    def __init__(self) -> None:
        self.focus: list[str | None] = []
        self.hit = Passage(ref="langgraph.types.Send#0", doc_id="langgraph.types.Send",
                           title="langgraph.types.Send", source="test",
                           text="A message or packet to send to a specific node in the graph.")

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list[Passage]:
        self.focus.append(focus)
        return [self.hit]

    def passage(self, ref: str) -> Passage | None:
        return self.hit if ref == self.hit.ref else None

    def read(self, ref_or_doc_id: str, max_chars: int = 6000):
        return None


def test_docs_search_focuses_on_the_task_topic():
    source = RecordingSource()
    result = docs_search.build(WorkerDeps(corpus=source))(TASK)
    assert source.focus == ["Send and reducers"]
    assert [i["ref"] for i in result.items] == ["langgraph.types.Send#0"]


def test_agent_search_tool_reads_the_topic_from_the_agent_state():
    source = RecordingSource()
    run = build_agent_runner(WorkerDeps(corpus=source, model=OfflineChatModel()),
                             name="analyst", system_prompt="Answer.", schema=Findings,
                             items_field="findings", kind="finding")
    result = run(TASK)
    assert source.focus and set(source.focus) == {"Send and reducers"}, source.focus
    assert [i["ref"] for i in result.items] == ["langgraph.types.Send#0"]


def test_search_tool_outside_an_agent_is_unfocused():
    source = RecordingSource()
    search, _read = make_corpus_tools(source)
    out = json.loads(search.invoke({"query": "Send"}))
    assert source.focus == [None]
    assert out["results"][0]["ref"] == "langgraph.types.Send#0"
    assert list(search.tool_call_schema.model_json_schema()["properties"]) == ["query"]
