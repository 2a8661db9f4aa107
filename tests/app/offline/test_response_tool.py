"""Which bound tool the offline model answers through: the response format's, which
create_agent binds after the agent's own tools (``langchain.agents.factory``), never another
tool that takes no single string (an MCP server's ``notes_page(page: int)``)."""

from __future__ import annotations

from langchain.agents import create_agent
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool

from app.llm.offline import OfflineChatModel
from tests.app.offline.test_model import PASSAGES, make_tools
from workers.schemas import Findings


def test_a_tool_of_other_arguments_is_not_taken_for_the_response_tool() -> None:
    # An MCP server offering a tool whose arguments are not one string (a page number): the
    # offline model answered through it, the structured response never came, and every analyst
    # and critic task failed
    @tool("notes_page")
    def notes_page(page: int) -> str:
        """Read one page of the notes by its number."""
        return "page"

    agent = create_agent(OfflineChatModel(), tools=[*make_tools(PASSAGES), notes_page],
                         response_format=ToolStrategy(Findings))
    result = agent.invoke({"messages": [HumanMessage("How does a checkpointer save graph "
                                                     "state?")]}, {"recursion_limit": 12})
    calls = [tc["name"] for m in result["messages"] if isinstance(m, AIMessage)
             for tc in m.tool_calls]
    assert calls[-1] == "Findings" and "notes_page" not in calls, calls
    assert result["structured_response"].findings
