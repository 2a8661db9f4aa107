"""The corpus tools the agent workers bind, and the parsers that read their output back."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from workers.sources import Corpus
from workers.tools import (
    READ_MAX_CHARS,
    READ_TOOL,
    SEARCH_TOOL,
    make_corpus_tools,
    parse_document,
    parse_search_results,
)


def make_folder(root: Path, sentences: dict[str, str]) -> Path:
    for rel, text in sentences.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    root = make_folder(
        tmp_path_factory.mktemp("tools-folder"),
        {
            "guide.md": """
                # Guide

                The zebra protocol synchronizes quokka ledgers every night.

                Quokka ledgers are append-only, so a retry never duplicates a row.
                """,
            "notes/ops.txt": "Marmalade turbines spin counterclockwise during eclipses.\n",
            "long.rst": "\n\n".join(
                f"Section {i}: the heron census counts {i} herons at dawn. " * 5 for i in range(60)
            ),
        },
    )
    c = Corpus.open(tmp_path_factory.mktemp("tools-data"), folder=root)
    yield c
    c.close()


@pytest.fixture(scope="module")
def tools(corpus: Corpus) -> dict[str, BaseTool]:
    return {t.name: t for t in make_corpus_tools(corpus)}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory):
    c = Corpus.open(tmp_path_factory.mktemp("tools-pkg"))
    yield c
    c.close()


def test_tool_names_schemas_and_descriptions(tools: dict[str, BaseTool], corpus: Corpus) -> None:
    assert set(tools) == {SEARCH_TOOL, READ_TOOL} == {"search_corpus", "read_document"}
    search, read = tools[SEARCH_TOOL], tools[READ_TOOL]
    assert set(search.args) == {"query"} and search.args["query"]["type"] == "string"
    assert set(read.args) == {"ref"} and read.args["ref"]["type"] == "string"
    assert corpus.description in search.description
    for text in (search.description, read.description):
        assert "ref" in text and "JSON" in text
    assert READ_TOOL in search.description  # tells the model how to read more


def test_search_returns_json_results(tools: dict[str, BaseTool], corpus: Corpus) -> None:
    out = tools[SEARCH_TOOL].invoke({"query": "zebra quokka ledgers"})
    assert isinstance(out, str)
    data = json.loads(out)
    assert set(data) == {"results"}
    results = data["results"]
    assert results and all(set(r) == {"ref", "title", "source", "text", "score"} for r in results)
    top = results[0]
    assert top["ref"].startswith("guide.md#") and top["source"] == "guide.md"
    assert "The zebra protocol synchronizes quokka ledgers" in top["text"]
    expected = corpus.search("zebra quokka ledgers", k=5)
    assert [r["ref"] for r in results] == [p.ref for p in expected]
    assert [r["score"] for r in results] == [round(p.score, 3) for p in expected]
    assert parse_search_results(out) == results


def test_search_with_nothing_found_or_hostile_input(tools: dict[str, BaseTool]) -> None:
    for query in ("", "the of and", "nonexistentword", '" OR * NEAR( :', "x" * 10_000, "🚀"):
        out = tools[SEARCH_TOOL].invoke({"query": query})
        assert parse_search_results(out) == json.loads(out)["results"]
    assert json.loads(tools[SEARCH_TOOL].invoke({"query": "nonexistentword"})) == {"results": []}


def test_read_by_ref_and_by_doc_id(tools: dict[str, BaseTool], corpus: Corpus) -> None:
    [hit] = parse_search_results(tools[SEARCH_TOOL].invoke({"query": "marmalade turbines"}))
    out = tools[READ_TOOL].invoke({"ref": hit["ref"]})
    doc = parse_document(out)
    assert doc == json.loads(out)
    assert set(doc) == {"ref", "title", "source", "text"}
    assert doc["ref"] == hit["ref"] == "notes/ops.txt#0"
    assert doc["title"] == "ops.txt" and doc["source"] == "notes/ops.txt"
    assert "Marmalade turbines spin counterclockwise" in doc["text"]
    by_id = parse_document(tools[READ_TOOL].invoke({"ref": "notes/ops.txt"}))
    assert by_id["ref"] == "notes/ops.txt#0" and by_id["text"] == doc["text"]
    assert corpus.passage(by_id["ref"]) is not None  # the ref it gives back is citable


def test_read_truncates_long_documents_around_the_ref(tools: dict[str, BaseTool]) -> None:
    hits = parse_search_results(tools[SEARCH_TOOL].invoke({"query": "Section 57 heron census"}))
    ref = hits[0]["ref"]
    assert ref.startswith("long.rst#")
    doc = parse_document(tools[READ_TOOL].invoke({"ref": ref}))
    assert len(doc["text"]) <= READ_MAX_CHARS + 20
    assert hits[0]["text"] in doc["text"]
    assert "[…]" in doc["text"]


def test_read_unknown_ref_is_an_error_payload(tools: dict[str, BaseTool]) -> None:
    out = tools[READ_TOOL].invoke({"ref": "no/such/file.md#3"})
    assert json.loads(out) == {"error": "no document with ref 'no/such/file.md#3'"}
    assert parse_document(out) is None


def test_tool_calls_produce_parseable_tool_messages(tools: dict[str, BaseTool]) -> None:
    msg = tools[SEARCH_TOOL].invoke(
        {"type": "tool_call", "id": "call-1", "name": SEARCH_TOOL, "args": {"query": "zebra"}}
    )
    assert isinstance(msg, ToolMessage) and msg.tool_call_id == "call-1"
    [first, *_] = parse_search_results(msg.content)
    read = tools[READ_TOOL].invoke(
        {"type": "tool_call", "id": "call-2", "name": READ_TOOL, "args": {"ref": first["ref"]}}
    )
    assert parse_document(read.content)["ref"] == first["ref"]
    # Content given as a list of text blocks parses too.
    assert parse_search_results([{"type": "text", "text": msg.content}]) == parse_search_results(
        msg.content
    )


@pytest.mark.parametrize(
    "content", ["", "not json", "[]", "null", '{"results": "x"}', '{"error": "boom"}', None, 42]
)
def test_parsers_tolerate_garbage(content) -> None:
    assert parse_search_results(content) == []
    assert parse_document(content) is None


def test_parse_search_results_skips_malformed_items() -> None:
    content = json.dumps({"results": [{"ref": "a#0", "text": "x"}, "junk", {"text": "no ref"}]})
    assert parse_search_results(content) == [{"ref": "a#0", "text": "x"}]


def test_k_limits_results_and_must_be_positive(corpus: Corpus) -> None:
    search, _ = make_corpus_tools(corpus, k=2)
    assert len(parse_search_results(search.invoke({"query": "heron census section"}))) == 2
    assert "at most 2 results" in search.description
    with pytest.raises(ValueError):
        make_corpus_tools(corpus, k=0)


def test_each_tool_set_binds_its_own_corpus(tools: dict[str, BaseTool], pkg: Corpus) -> None:
    pkg_search, pkg_read = make_corpus_tools(pkg)
    results = parse_search_results(pkg_search.invoke({"query": "checkpointer pending writes"}))
    assert results and all(r["ref"].startswith("langgraph.") for r in results)
    assert any("checkpoint" in r["text"].lower() for r in results)
    assert parse_search_results(tools[SEARCH_TOOL].invoke({"query": "checkpointer"})) == []
    doc = parse_document(pkg_read.invoke({"ref": "langgraph.types.RetryPolicy#0"}))
    assert doc["title"] == "langgraph.types.RetryPolicy" and "retrying" in doc["text"].lower()
    assert parse_document(tools[READ_TOOL].invoke({"ref": "langgraph.types.RetryPolicy#0"})) is None


def test_a_closed_corpus_gives_error_payloads_not_exceptions(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "f", {"a.md": "Axolotl regeneration notes for the tool test.\n"})
    c = Corpus.open(tmp_path / "data", folder=root)
    search, read = make_corpus_tools(c)
    assert parse_search_results(search.invoke({"query": "axolotl"}))
    c.close()
    assert json.loads(search.invoke({"query": "axolotl"})) == {
        "results": [],
        "error": "corpus is closed",
    }
    assert json.loads(read.invoke({"ref": "a.md#0"})) == {"error": "corpus is closed"}
