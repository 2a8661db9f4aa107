"""The default corpus: the docstrings of the installed packages plus Python's pydoc topics."""
from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import workers.sources.corpus as corpus_mod
import workers.sources.query as query_mod
from tests.workers.sources.conftest import (
    HOSTILE_QUERIES,
    cache_files,
)
from workers.sources import (
    DEFAULT_PACKAGES,
    Corpus,
    CorpusError,
    Document,
    Passage,
    query_to_fts,
)


def test_default_build_is_fast_and_sizeable(pkg: Corpus) -> None:
    assert pkg.built
    # how fast is scripts/bench_research.py's to measure (a ratio), not a timed test's
    count = pkg.passage_count()
    assert count > 1000
    assert pkg.description.startswith("package docs: ")
    for name in ("langgraph", "langchain-core", "langchain", "pydantic", "pydoc topics"):
        assert name in pkg.description
    assert f"({count:,} passages)" in pkg.description
    assert len(pkg.fingerprint) >= 16
    assert "\n" not in pkg.description
    print(f"\ncold build: {pkg.build_wall_seconds:.2f}s, {count} passages")


def test_checkpointer_query_finds_langgraph_checkpoint_docs(pkg: Corpus) -> None:
    results = pkg.search("checkpointer pending writes", k=5)
    assert len(results) == 5
    assert all(isinstance(p, Passage) for p in results)
    assert all(p.doc_id.startswith("langgraph.") for p in results)
    assert all(p.source.startswith("langgraph") and "docstring: " in p.source for p in results)
    with_text = [p for p in results if "checkpoint" in p.text.lower()]
    assert len(with_text) >= 3


def test_scores_follow_bm25_order(pkg: Corpus) -> None:
    for query in ("checkpointer pending writes", "StateGraph add node", "field validator mode"):
        results = pkg.search(query, k=10)
        scores = [p.score for p in results]
        assert scores, query
        assert all(s > 0 for s in scores)
        assert scores == sorted(scores, reverse=True)
        assert len({p.text for p in results}) == len(results)  # no word-for-word duplicates


def test_refs_are_stable_citations_that_resolve(pkg: Corpus) -> None:
    results = pkg.search("retry policy for nodes", k=8)
    assert any(p.ref == "langgraph.types.RetryPolicy#0" for p in results)
    for p in results:
        doc_id, _, n = p.ref.rpartition("#")
        assert doc_id == p.doc_id and n.isdigit()
        again = pkg.passage(p.ref)
        assert again is not None
        assert (again.ref, again.doc_id, again.title, again.source, again.text) == (
            p.ref,
            p.doc_id,
            p.title,
            p.source,
            p.text,
        )
        assert again.score == 0.0
        doc = pkg.read(p.ref)
        assert isinstance(doc, Document)
        assert doc.doc_id == p.doc_id and doc.title == p.title and doc.source == p.source
        assert p.text in doc.text
        assert pkg.read(p.doc_id).doc_id == p.doc_id


def test_package_docs_carry_their_distribution_version(pkg: Corpus) -> None:
    import importlib.metadata

    p = pkg.passage("langgraph.types.RetryPolicy#0")
    assert p is not None
    version = importlib.metadata.version("langgraph")
    assert p.source == f"langgraph {version} docstring: langgraph.types.RetryPolicy"
    assert p.title == "langgraph.types.RetryPolicy"
    assert "retrying" in p.text.lower()
    # Namespace packages: langgraph.checkpoint.* ships in its own distribution.
    base = pkg.search("BaseCheckpointSaver get tuple", k=3)
    assert any(x.source.startswith("langgraph-checkpoint ") for x in base)
    # The package __init__ docstring is in, private modules and objects are not.
    assert pkg.read("langchain_core") is not None
    assert pkg.read("pydantic._internal") is None
    con = sqlite3.connect(pkg.path)
    try:
        doc_ids = [d for (d,) in con.execute("SELECT doc_id FROM docs")]
    finally:
        con.close()
    assert len(doc_ids) == len(set(doc_ids))
    for doc_id in doc_ids:
        if doc_id.startswith("pydoc:"):
            continue
        parts = doc_id.split(".")
        assert not any(
            part.startswith("_") and part not in ("__init__", "__call__") for part in parts
        ), doc_id
        assert "tests" not in parts and not doc_id.startswith("pydantic.v1."), doc_id


def test_pydoc_topics_are_indexed(pkg: Corpus) -> None:
    results = pkg.search("while statement loop else clause", k=10)
    pydoc = [p for p in results if p.ref.startswith("pydoc:")]
    assert pydoc
    assert all("pydoc topic" in p.source for p in pydoc)
    doc = pkg.read("pydoc:while")
    assert doc is not None and '"while" statement' in doc.text


def test_stemming_matches_plural_forms(pkg: Corpus) -> None:
    singular = {p.ref for p in pkg.search("checkpointer", k=20)}
    plural = {p.ref for p in pkg.search("checkpointers", k=20)}
    assert singular & plural


@pytest.mark.parametrize("query", HOSTILE_QUERIES, ids=range(len(HOSTILE_QUERIES)))
def test_hostile_queries_never_raise(pkg: Corpus, query: str) -> None:
    results = pkg.search(query, k=5)
    assert isinstance(results, list) and len(results) <= 5
    scores = [p.score for p in results]
    assert scores == sorted(scores, reverse=True)


def test_hostile_queries_leave_the_index_intact(pkg: Corpus) -> None:
    before = pkg.passage_count()
    for query in HOSTILE_QUERIES:
        pkg.search(query)
        pkg.passage(query)
        pkg.read(query)
    assert pkg.passage_count() == before
    assert pkg.search("checkpoint AND", k=3)  # operators are words: "checkpoint" still matches


def test_queries_with_nothing_searchable_return_nothing(pkg: Corpus) -> None:
    assert pkg.search("") == []
    assert pkg.search("the of and is to") == []
    assert pkg.search("🚀 🔥 !!! ???") == []
    assert query_to_fts("") is None
    assert pkg.search("checkpoint", k=0) == []
    assert len(pkg.search("checkpoint", k=1)) == 1
    assert len(pkg.search("checkpoint", k=10_000)) <= corpus_mod.MAX_K


def test_query_to_fts_quotes_every_token() -> None:
    fts = query_to_fts('He said "NEAR" AND (x OR y*) col:val -z')
    # "he", "and", "or" are stopwords; "x", "y" too short; NEAR and col:val are plain words;
    # "-z" is an option of one letter (as "the -L option of ssh"), searched, quoted as the rest
    assert fts == '"said" OR "near" OR "col" OR "val" OR "z"'
    assert query_to_fts('say "hi""zebra"') == '"say" OR "hi" OR "zebra"'
    for token in fts.split(" OR "):
        assert token.startswith('"') and token.endswith('"')
    long = query_to_fts(" ".join(f"w{i}" for i in range(500)))
    assert long is not None and long.count(" OR ") == query_mod.MAX_QUERY_TOKENS - 1


def test_unknown_refs_resolve_to_none(pkg: Corpus) -> None:
    assert pkg.passage("no.such.thing#0") is None
    assert pkg.read("no.such.thing#0") is None
    assert pkg.read("no.such.thing") is None
    assert pkg.passage("langgraph.types.RetryPolicy#999") is None


def test_parallel_searches_from_eight_threads(pkg: Corpus) -> None:
    queries = [
        "checkpointer pending writes",
        "StateGraph conditional edges",
        "tool calling chat model",
        "field validator",
        "retry policy",
        "message reducer add_messages",
        "runnable config callbacks",
        "for statement",
    ]
    expected = {q: [p.ref for p in pkg.search(q)] for q in queries}
    barrier = threading.Barrier(8)

    def run(i: int) -> list[tuple[str, list[str]]]:
        barrier.wait()
        out = []
        for j in range(40):
            q = queries[(i + j) % len(queries)]
            out.append((q, [p.ref for p in pkg.search(q)]))
            assert pkg.passage(out[-1][1][0]) is not None
        return out

    with ThreadPoolExecutor(max_workers=8) as pool:
        for chunk in pool.map(run, range(8)):
            for q, refs in chunk:
                assert refs == expected[q]


def test_warm_open_reuses_the_cache(pkg: Corpus, pkg_dir: Path) -> None:
    # (the folder tests may have added a folder index to this shared data dir)
    [path] = [p for p in cache_files(pkg_dir) if p.name.startswith("corpus-pkg-")]
    mtime = path.stat().st_mtime_ns
    started = time.perf_counter()
    warm = Corpus.open(pkg_dir)
    elapsed = time.perf_counter() - started
    try:
        assert not warm.built
        assert warm.path == path and path.stat().st_mtime_ns == mtime
        assert warm.fingerprint == pkg.fingerprint
        assert warm.passage_count() == pkg.passage_count()
        print(f"\nwarm open: {elapsed * 1000:.0f} ms")
    finally:
        warm.close()


def test_other_package_lists_get_their_own_index(pkg: Corpus, pkg_dir: Path) -> None:
    with Corpus.open(pkg_dir, packages=["langchain"]) as small:
        assert small.built and small.path != pkg.path
        assert small.description.startswith("package docs: langchain ")
        assert 0 < small.passage_count() < pkg.passage_count()
        assert all(
            p.doc_id.startswith(("langchain.", "pydoc:")) for p in small.search("agent", k=20)
        )
    with Corpus.open(pkg_dir) as again:
        assert not again.built  # neither evicted the other


def test_closed_corpus_raises(pkg_dir: Path) -> None:
    c = Corpus.open(pkg_dir)
    c.close()
    c.close()  # idempotent
    with pytest.raises(CorpusError, match="closed"):
        c.search("checkpoint")


def test_missing_package_is_a_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path, packages=["definitely_not_an_installed_pkg_xyz"])
    assert "not installed" in str(info.value) and "\n" not in str(info.value)


def test_default_packages_constant() -> None:
    assert DEFAULT_PACKAGES == ("langgraph", "langchain_core", "langchain", "pydantic", "asyncio")



def test_a_distributions_label_is_its_first_name_and_version_headers(monkeypatch) -> None:
    # trial 50, F9: the headers read directly kept the last of a repeated Version header,
    # where importlib.metadata (the email parser) gives the first
    import importlib.metadata

    from workers.sources import packages

    class Dist:
        metadata = {"Name": "demo", "Version": "1.0"}
        version = "1.0"

        def read_text(self, name: str) -> str | None:
            return ("Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nVersion: 9.9\n\n"
                    "Version: 7.7 in the long description\n") if name == "METADATA" else None

    monkeypatch.setattr(importlib.metadata, "distribution", lambda _name: Dist())
    assert packages._dist_label("demo") == "demo 1.0"
