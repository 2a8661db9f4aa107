"""``app.graph.masking.masked`` masks the secrets of what a node raises, and leaves LangGraph's
control flow alone: a ``GraphBubbleUp`` (``interrupt()``'s ``GraphInterrupt``, a
``ParentCommand``) leaves the node as it was raised (review 47, lower rank: every pause went
through ``mask_in_place``, harmless only while its arguments held no text)."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import GraphBubbleUp, ParentCommand
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict

from app.graph.masking import masked

SECRET = "local-KEY-123"


class _Bubble(GraphBubbleUp):
    """A forker's control-flow exception whose argument is text."""


def _raising(exc: BaseException):
    def node(state: dict) -> dict:
        raise exc

    return node


def test_an_error_has_its_secret_masked() -> None:
    with pytest.raises(RuntimeError) as info:
        masked(_raising(RuntimeError(f"Incorrect API key provided: {SECRET}")), (SECRET,))({})
    assert SECRET not in str(info.value)


@pytest.mark.parametrize("exc", [
    _Bubble(f"route to the node that holds {SECRET}"),
    ParentCommand(Command(graph=Command.PARENT, goto="elsewhere", update={"note": SECRET})),
], ids=["bubble-with-text", "parent-command"])
def test_langgraphs_control_flow_leaves_the_node_untouched(exc: GraphBubbleUp) -> None:
    args = exc.args
    with pytest.raises(GraphBubbleUp) as info:
        masked(_raising(exc), (SECRET,))({})
    assert info.value is exc and info.value.args == args and SECRET in repr(info.value.args)


class _State(TypedDict, total=False):
    answer: str


def test_an_interrupt_in_a_masked_node_pauses_and_resumes_with_its_question_whole() -> None:
    def ask(state: _State) -> dict:
        return {"answer": interrupt(f"is {SECRET} the key to use?")}

    builder = StateGraph(_State)
    builder.add_node("ask", masked(ask, (SECRET,)))
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    paused = graph.invoke({}, config)
    assert [i.value for i in paused["__interrupt__"]] == [f"is {SECRET} the key to use?"]
    assert graph.invoke(Command(resume="yes"), config) == {"answer": "yes"}
