"""The critic's schema asks for caveats that are caveats.

The offline model reads a field's description to choose sentences, and a real LLM reads it as
its instructions; both must get an empty list, not a filler sentence, from passages that state no
limitation (issue: the Caveats list held "The requested checkpoint tuple, or `None` if not
found.").
"""

from __future__ import annotations

import json

from langchain.agents import create_agent
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool

from app.llm.offline import SEARCH_TOOL, OfflineChatModel
from workers.schemas import Caveats

NO_CAVEAT = [
    {"ref": "saver.get_tuple#0", "text": "Fetch a checkpoint tuple using the given configuration. "
     "The requested checkpoint tuple, or `None` if not found."},
    {"ref": "saver.list#0", "text": "List checkpoints that match the given criteria, newest "
     "first, as checkpoint tuples."},
]
CAVEAT = {"ref": "task.cancel#1", "text": "Unlike Future.cancel, this does not guarantee that "
          "the task will be cancelled: the exception might be caught and acted upon."}


def _caveats(passages: list[dict[str, str]], question: str) -> Caveats:
    @tool(SEARCH_TOOL)
    def search_corpus(query: str) -> str:
        """Search the corpus."""
        return json.dumps({"results": passages})

    agent = create_agent(OfflineChatModel(), tools=[search_corpus],
                         response_format=ToolStrategy(Caveats))
    return agent.invoke({"messages": [HumanMessage(question)]})["structured_response"]


def test_passages_without_a_caveat_give_no_caveat():
    got = _caveats(NO_CAVEAT, "What are the limitations of checkpoint tuples?")
    assert got.caveats == [], got


def test_a_stated_limitation_is_the_caveat():
    got = _caveats([*NO_CAVEAT, CAVEAT], "What are the limitations of asyncio task cancellation?")
    assert [c.ref for c in got.caveats] == ["task.cancel#1"], got
    assert got.caveats[0].claim.startswith("Unlike Future.cancel, this does not guarantee")


def test_schema_allows_an_empty_list_and_at_most_four():
    schema = Caveats.model_json_schema()["properties"]["caveats"]
    assert (schema["minItems"], schema["maxItems"]) == (0, 4)
