"""OfflineChatModel drives the real create_agent loop: tool calls, extractive sourced answers."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.structured_output import ProviderStrategy, ToolStrategy
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel, Field

from app.llm.offline import READ_TOOL, SEARCH_TOOL, OfflineChatModel
from workers.schemas import Caveats, Findings

PASSAGES: list[dict[str, str]] = [
    {
        "ref": "langgraph/checkpointers#1",
        "title": "Checkpointers",
        "source": "docs/checkpointers.md",
        "text": (
            "A checkpointer saves a snapshot of the graph state at every superstep. "
            "Checkpoints are grouped by thread_id, so a run can be resumed after a crash. "
            "The SqliteSaver is synchronous only and must not be used with async graphs."
        ),
    },
    {
        "ref": "langgraph/checkpointers#2",
        "title": "Checkpointers in production",
        "source": "docs/checkpointers.md",
        "text": (
            "The checkpointer stores pending writes of finished tasks before the superstep ends. "
            "On resume, tasks whose pending writes were saved are not run again.\n\n"
            "```python\nsaver = SqliteSaver(conn)\n```"
        ),
    },
    {
        "ref": "langgraph/send#1",
        "title": "Map-reduce with Send",
        "source": "docs/send.md",
        "text": (
            "The Send API dispatches one task to a node with its own input. "
            "A conditional edge returns a list of Send objects to fan out work in parallel. "
            "Warning: a conditional edge that raises can make resume skip the workers."
        ),
    },
    {
        "ref": "langgraph/reducers#1",
        "title": "Reducers",
        "source": "docs/reducers.md",
        "text": (
            "A reducer decides how a channel folds concurrent writes into its value. "
            "Reducers must be pure functions, because they are called again on replay."
        ),
    },
]
BY_REF = {p["ref"]: p for p in PASSAGES}
_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 3}


def make_tools(passages: list[dict[str, str]]) -> list[Any]:
    """search_corpus / read_document over ``passages``, following the workers/tools.py contract."""
    by_ref = {p["ref"]: p for p in passages}

    @tool(SEARCH_TOOL)
    def search_corpus(query: str) -> str:
        """Search the documentation corpus; returns JSON with the best matching passages."""
        q = _words(query)
        scored = [(len(q & _words(p["title"] + " " + p["text"])), p) for p in passages]
        hits = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]["ref"]))[:3]
        return json.dumps({"results": [{**p, "score": float(score)} for score, p in hits]})

    @tool(READ_TOOL)
    def read_document(ref: str) -> str:
        """Read one passage in full by its ref."""
        if ref not in by_ref:
            return json.dumps({"error": f"unknown ref {ref!r}"})
        return json.dumps(by_ref[ref])

    return [search_corpus, read_document]


def run_agent(model: OfflineChatModel, question: str, response_format: Any, passages=PASSAGES):
    agent = create_agent(
        model,
        tools=make_tools(passages),
        system_prompt="Answer the question from the corpus only; cite every claim.",
        response_format=response_format,
    )
    # A small recursion limit turns a model that never finishes into a quick failure.
    return agent.invoke({"messages": [HumanMessage(question)]}, {"recursion_limit": 12})


def assert_extractive(items: list[Any], passages=PASSAGES) -> None:
    by_ref = {p["ref"]: p for p in passages}
    for item in items:
        assert item.ref in by_ref, item
        assert item.claim in by_ref[item.ref]["text"], item


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def model() -> OfflineChatModel:
    return OfflineChatModel()


def test_tool_calling_loop_and_findings(model: OfflineChatModel) -> None:
    question = "How does a checkpointer save graph state?"
    result = run_agent(model, question, ToolStrategy(Findings))
    messages = result["messages"]

    ai = [m for m in messages if isinstance(m, AIMessage)]
    calls = [tc for m in ai for tc in m.tool_calls]
    assert [tc["name"] for tc in calls] == [SEARCH_TOOL, READ_TOOL, "Findings"]
    assert calls[0]["args"] == {"query": question}
    assert calls[1]["args"]["ref"] == json.loads(messages[2].content)["results"][0]["ref"]
    tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.name for m in tool_messages] == [SEARCH_TOOL, READ_TOOL, "Findings"]
    assert len(ai) == 3  # three model calls: search, read, structured response

    findings = result["structured_response"]
    assert isinstance(findings, Findings)
    assert 2 <= len(findings.findings) <= 5
    assert_extractive(findings.findings)
    claims = [f.claim for f in findings.findings]
    assert len(set(claims)) == len(claims)
    assert "A checkpointer saves a snapshot of the graph state at every superstep." in claims
    assert all("SqliteSaver(conn)" not in c for c in claims)  # code is never a claim
    for m in ai:
        assert m.usage_metadata is not None
        assert m.usage_metadata["total_tokens"] == (
            m.usage_metadata["input_tokens"] + m.usage_metadata["output_tokens"]
        )


def test_caveats_pick_the_cautionary_sentence(model: OfflineChatModel) -> None:
    question = "How does a checkpointer save graph state?"
    result = run_agent(model, question, ToolStrategy(Caveats))
    caveats = result["structured_response"]
    assert isinstance(caveats, Caveats)
    assert 1 <= len(caveats.caveats) <= 4
    assert_extractive(caveats.caveats)
    assert caveats.caveats[0].claim == (
        "The SqliteSaver is synchronous only and must not be used with async graphs."
    )
    assert caveats.caveats[0].ref == "langgraph/checkpointers#1"


def test_caveats_pick_a_sentence_under_a_limitations_heading(model: OfflineChatModel) -> None:
    # A "## Limitations" section whose sentence says no word of caution was never a caveat: the
    # report then said no limitation was found while its sections quoted this one.
    egret = [{"ref": "egret.md#0", "title": "egret.md", "source": "egret.md", "text": (
        "# Egret nesting\n\nEgret nesting happens in spring colonies of the marsh.\n\n"
        "## Limitations\n\nEgret nesting counts miss every nest under the canopy.")}]
    result = run_agent(model, "What is egret nesting?", ToolStrategy(Caveats), egret)
    claims = [c.claim for c in result["structured_response"].caveats]
    assert claims == ["Egret nesting counts miss every nest under the canopy."]


def test_no_passages_gives_empty_list(model: OfflineChatModel) -> None:
    result = run_agent(model, "zzqx unrelated quux", ToolStrategy(Findings))
    assert result["structured_response"] == Findings(findings=[])
    names = [
        tc["name"] for m in result["messages"] if isinstance(m, AIMessage) for tc in m.tool_calls
    ]
    assert names == [SEARCH_TOOL, "Findings"]  # nothing to read

    empty = run_agent(model, "checkpointer", ToolStrategy(Caveats), passages=[])
    assert empty["structured_response"] == Caveats(caveats=[])


def test_bad_json_from_tools_is_no_results(model: OfflineChatModel) -> None:
    @tool(SEARCH_TOOL)
    def search_corpus(query: str) -> str:
        """Broken search."""
        return "not json {"

    agent = create_agent(model, tools=[search_corpus], response_format=ToolStrategy(Findings))
    result = agent.invoke({"messages": [HumanMessage("checkpointer")]})
    assert result["structured_response"] == Findings(findings=[])


def test_parallel_agents_share_nothing(model: OfflineChatModel) -> None:
    questions = {
        "checkpoint": "How does a checkpointer save graph state after a crash?",
        "send": "How does the Send API dispatch tasks to fan out in parallel?",
    }
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            k: pool.submit(run_agent, model, q, ToolStrategy(Findings))
            for k, q in questions.items()
        }
        results = {k: f.result() for k, f in futures.items()}

    all_ids: list[str] = []
    for key, result in results.items():
        messages = result["messages"]
        search_call = next(m for m in messages if isinstance(m, AIMessage)).tool_calls[0]
        assert search_call["args"] == {"query": questions[key]}
        searched = {r["ref"] for r in json.loads(messages[2].content)["results"]}
        findings = result["structured_response"].findings
        assert findings
        assert {f.ref for f in findings} <= searched
        assert_extractive(findings)
        all_ids += [m.id for m in messages]
        all_ids += [tc["id"] for m in messages if isinstance(m, AIMessage) for tc in m.tool_calls]
    assert {f.ref for f in results["send"]["structured_response"].findings} == {"langgraph/send#1"}
    assert all(all_ids) and len(set(all_ids)) == len(all_ids)


def test_deterministic(model: OfflineChatModel) -> None:
    question = "Why must reducers be pure and how do they fold writes?"
    first = run_agent(model, question, ToolStrategy(Caveats))
    second = run_agent(OfflineChatModel(), question, ToolStrategy(Caveats))
    assert first["structured_response"] == second["structured_response"]
    assert first["messages"][-2].id != second["messages"][-2].id  # fresh ids every call


def test_plain_pydantic_response_format_uses_tool_strategy(model: OfflineChatModel) -> None:
    result = run_agent(model, "How does a checkpointer save graph state?", Findings)
    assert isinstance(result["structured_response"], Findings)
    last_call = [m for m in result["messages"] if isinstance(m, AIMessage)][-1].tool_calls[0]
    assert last_call["name"] == "Findings"  # ToolStrategy: the response tool is the class name
    assert_extractive(result["structured_response"].findings)


def test_provider_strategy_returns_json_text(model: OfflineChatModel) -> None:
    result = run_agent(
        model, "How does a checkpointer save graph state?", ProviderStrategy(Findings)
    )
    findings = result["structured_response"]
    assert isinstance(findings, Findings) and findings.findings
    assert_extractive(findings.findings)
    final = result["messages"][-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert Findings.model_validate_json(final.content) == findings


def test_generic_schema_with_the_same_convention(model: OfflineChatModel) -> None:
    class Point(BaseModel):
        text: str = Field(description="A sentence about parallel work.")
        source: str = Field(description="Where it comes from.")

    class Brief(BaseModel):
        """A short brief."""

        headline: str = Field(description="The most relevant sentence.")
        points: list[Point] = Field(description="Up to 2 points about the question.")

    result = run_agent(model, "How do conditional edges fan out Send tasks?", ToolStrategy(Brief))
    brief = result["structured_response"]
    assert isinstance(brief, Brief)
    texts = [p["text"] for p in PASSAGES]
    assert any(brief.headline in t for t in texts)
    assert 1 <= len(brief.points) <= 2
    for point in brief.points:
        assert point.text in BY_REF[point.source]["text"]
    assert brief.headline not in {p.text for p in brief.points}


def test_without_response_format_answers_in_text(model: OfflineChatModel) -> None:
    agent = create_agent(model, tools=make_tools(PASSAGES))
    result = agent.invoke({"messages": [HumanMessage("How do reducers fold writes?")]})
    final = result["messages"][-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert "[langgraph/reducers#1]" in final.content
    assert (
        "A reducer decides how a channel folds concurrent writes into its value." in final.content
    )


def test_rejected_structured_response_ends_instead_of_looping(model: OfflineChatModel) -> None:
    class AtLeastOne(BaseModel):
        findings: list[str] = Field(min_length=1, description="Facts that answer the question.")

    result = run_agent(model, "zzqx unrelated quux", ToolStrategy(AtLeastOne))
    assert result.get("structured_response") is None
    names = [
        tc["name"] for m in result["messages"] if isinstance(m, AIMessage) for tc in m.tool_calls
    ]
    assert names == [SEARCH_TOOL, "AtLeastOne"]  # one rejected attempt, then a plain-text answer
    assert isinstance(result["messages"][-1], AIMessage) and not result["messages"][-1].tool_calls


def test_with_structured_output_and_async(model: OfflineChatModel) -> None:
    import asyncio

    # No search tool bound and no tool results in the input: nothing to extract from.
    assert model.with_structured_output(Findings).invoke("checkpointer") == Findings(findings=[])

    agent = create_agent(model, tools=make_tools(PASSAGES), response_format=ToolStrategy(Findings))
    result = asyncio.run(
        agent.ainvoke({"messages": [HumanMessage("How do reducers fold writes?")]})
    )
    assert_extractive(result["structured_response"].findings)
    assert result["structured_response"].findings


def test_top_level_ref_cites_the_chosen_sentence(model: OfflineChatModel) -> None:
    class Answer(BaseModel):
        source: str = Field(description="The ref of the passage.")
        answer: str = Field(description="The best sentence.")

    result = run_agent(model, "How do reducers fold concurrent writes?", ToolStrategy(Answer))
    answer = result["structured_response"]
    assert answer.answer in BY_REF[answer.source]["text"]


def test_a_whole_document_read_is_never_cited_under_one_passage_ref(
    model: OfflineChatModel,
) -> None:
    """read_document returns a document window under the ref of one of its passages."""
    first, second = BY_REF["langgraph/checkpointers#1"], BY_REF["langgraph/checkpointers#2"]

    @tool(SEARCH_TOOL)
    def search_corpus(query: str) -> str:
        """Search: only the first passage of the document matches."""
        return json.dumps({"results": [{**first, "score": 1.0}]})

    @tool(READ_TOOL)
    def read_document(ref: str) -> str:
        """Read: the whole document (both passages), cited by the requested passage's ref."""
        return json.dumps({**first, "ref": ref, "text": first["text"] + "\n\n" + second["text"]})

    agent = create_agent(
        model, tools=[search_corpus, read_document], response_format=ToolStrategy(Findings)
    )
    question = "Which pending writes does the checkpointer store before the superstep ends?"
    result = agent.invoke({"messages": [HumanMessage(question)]}, {"recursion_limit": 12})
    findings = result["structured_response"].findings
    assert findings
    assert_extractive(findings)  # every claim is inside the passage its ref names
    assert {f.ref for f in findings} == {first["ref"]}


def test_a_read_result_that_names_its_passages_is_cited(model: OfflineChatModel) -> None:
    first, second = BY_REF["langgraph/checkpointers#1"], BY_REF["langgraph/checkpointers#2"]

    @tool(SEARCH_TOOL)
    def search_corpus(query: str) -> str:
        """Search: only the first passage of the document matches."""
        return json.dumps({"results": [{**first, "score": 1.0}]})

    @tool(READ_TOOL)
    def read_document(ref: str) -> str:
        """Read: the document's passages, each with its ref."""
        return json.dumps({"ref": ref, "passages": [first, second]})

    agent = create_agent(
        model, tools=[search_corpus, read_document], response_format=ToolStrategy(Findings)
    )
    question = "Which pending writes does the checkpointer store before the superstep ends?"
    result = agent.invoke({"messages": [HumanMessage(question)]}, {"recursion_limit": 12})
    findings = result["structured_response"].findings
    assert_extractive(findings)
    assert findings[0].ref == second["ref"]
    assert findings[0].claim == (
        "The checkpointer stores pending writes of finished tasks before the superstep ends."
    )


def test_a_tool_of_one_string_argument_is_called_with_the_question_and_quoted(
        model: OfflineChatModel) -> None:
    """A tool of one's own (docs/extending.md, "Add a tool") is called in the first turn, beside
    the search, and the passages it returns are quoted like search results; before, the offline
    model took any tool it did not know for the structured-response tool."""
    only_send = [BY_REF["langgraph/send#1"]]

    @tool("search_titles")
    def search_titles(query: str) -> str:
        """Passages of the pages whose title names the query's words."""
        return json.dumps({"results": only_send})

    agent = create_agent(model, tools=[*make_tools(PASSAGES[:1]), search_titles],
                         system_prompt="Answer from the corpus only.",
                         response_format=ToolStrategy(Findings))
    question = "How does Send dispatch work in parallel?"
    result = agent.invoke({"messages": [HumanMessage(question)]}, {"recursion_limit": 12})
    first = next(m for m in result["messages"] if isinstance(m, AIMessage))
    assert {tc["name"]: tc["args"] for tc in first.tool_calls}["search_titles"] == {
        "query": question}
    findings = result["structured_response"].findings
    assert any(f.ref == "langgraph/send#1" for f in findings), findings

