"""``Passage`` owns the citation format; ``Corpus`` keeps the ``Source`` protocol; the tools and
the offline model read results through one parser into that ``Passage``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workers.sources import Corpus, Passage, Source
from workers.tools import make_corpus_tools, parse_read_passages, parse_search_passages

REPO = Path(__file__).resolve().parents[3]


def test_refs_are_made_and_split_in_one_place() -> None:
    assert Passage.make_ref("langgraph.types.RetryPolicy", 0) == "langgraph.types.RetryPolicy#0"
    assert Passage.split_ref("docs/guide.md#2") == ("docs/guide.md", "2")
    # a URL with a fragment keeps its fragment in the doc_id
    assert Passage.split_ref("https://x.org/a#b#0") == ("https://x.org/a#b", "0")
    assert Passage.split_ref("no-hash") is None
    assert Passage.split_ref("#0") is None


def test_citation_lines() -> None:
    doc = Passage("a.md#0", "a.md", "a.md", "docs/a.md", "text")
    assert doc.citation() == "`a.md#0`: docs/a.md"
    pkg = Passage("x.Y#1", "x.Y", "x.Y", "pkg 1.0 docstring: x.Y", "text")
    assert pkg.citation() == "`x.Y#1`: pkg 1.0 docstring: x.Y"
    other = Passage("pydoc:for#0", "pydoc:for", "for", "Python 3 pydoc topic", "text")
    assert other.citation() == "`pydoc:for#0`: for (Python 3 pydoc topic)"
    web = Passage("https://e.org/p#0", "https://e.org/p", "A [page]", "https://e.org/p", "t")
    assert web.is_web and web.citation() == "[A [page)](https://e.org/p)"


def test_dict_round_trip_and_junk() -> None:
    p = Passage("a#0", "a", "A", "src", "some text", score=1.23456)
    assert p.to_dict() == {"ref": "a#0", "title": "A", "source": "src", "text": "some text",
                           "score": 1.235}
    assert Passage.from_dict(p.to_dict()) == Passage("a#0", "a", "A", "src", "some text", 1.235)
    for junk in (None, 3, "x", {"ref": "a#0"}, {"text": "t"}, {"ref": "", "text": "t"},
                 {"ref": "a#0", "text": "  "}, {"error": "boom", "ref": "a#0", "text": "t"}):
        assert Passage.from_dict(junk) is None


def test_the_corpus_keeps_the_source_protocol(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text("Herons count the fish of the lake every spring.\n")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        assert isinstance(corpus, Source)
        [hit] = corpus.search("heron census fish")
        assert hit.ref == Passage.make_ref("guide.md", 0)
        assert corpus.passage(hit.ref) == Passage(*[getattr(hit, f) for f in
                                                    ("ref", "doc_id", "title", "source",
                                                     "text")])
        # the tool's output parses back into the very passages the source returned
        search, _read = make_corpus_tools(corpus)
        assert parse_search_passages(search.invoke({"query": "heron census fish"})) == [
            Passage.from_dict(hit.to_dict())
        ]


@pytest.mark.parametrize("content", ["", "junk", "[]", '{"error": "x"}', None, '{"ref": "a"}'])
def test_read_passages_only_from_results_that_name_them(content) -> None:
    assert parse_read_passages(content) == []
    named = json.dumps({"passages": [{"ref": "a#1", "text": "one"}, {"ref": "a#2"}]})
    assert [p.ref for p in parse_read_passages(named)] == ["a#1"]


def test_the_offline_model_has_no_parser_or_passage_of_its_own() -> None:
    # One protocol: app/llm/offline reads tool output through workers.tools' parsers into
    # workers.sources.Passage, with the sources' stopwords. (Its folder moved from app/offline:
    # the old path matched no file, and the test checked nothing.)
    paths = sorted((REPO / "app" / "llm" / "offline").glob("*.py"))
    assert paths, "the offline model's folder has moved: point this test at it"
    for path in paths:
        text = path.read_text("utf-8")
        assert "class Passage" not in text, path
        assert "def parse_search" not in text and "json.loads" not in text, path
        assert "frozenset(\n    \"\"\"a about" not in text, path


@pytest.mark.parametrize("package", ["workers/sources", "app/llm/offline"])
def test_modules_stay_small(package: str) -> None:
    paths = sorted((REPO / package).glob("*.py"))
    assert paths, f"no module in {package}: point this test at the package's folder"
    for path in paths:
        lines = path.read_text("utf-8").count("\n")
        assert lines <= 400, f"{path.relative_to(REPO)} has {lines} lines"
