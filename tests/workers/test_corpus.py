"""The corpus: real package docs and folder files, indexed in SQLite FTS5, searched with bm25."""

from __future__ import annotations

import ast
import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import workers.corpus as corpus_mod
from workers.corpus import (
    DEFAULT_PACKAGES,
    MAX_PASSAGE_CHARS,
    Corpus,
    CorpusError,
    Document,
    Passage,
    chunk_text,
    query_to_fts,
)

REPO = Path(__file__).resolve().parents[2]

HOSTILE_QUERIES = [
    "",
    "   ",
    '"',
    '""',
    '"unbalanced quote',
    "'",
    "AND OR NOT NEAR",
    "checkpoint AND",
    "OR",
    "NEAR(checkpoint writes, 2)",
    "*",
    "check*",
    "title:checkpoint",
    ":",
    "a:b:c",
    "((( checkpoint",
    ")",
    "-checkpoint",
    "- -- ---",
    "^checkpoint",
    "{title text}: state",
    "+",
    "checkpoint; DROP TABLE passages; --",
    "' OR 1=1 --",
    "\"; DELETE FROM passages WHERE 1=1; --",
    "x' UNION SELECT * FROM meta --",
    "ünïcödé naïve café Zürich",
    "日本語のテキスト 检查点",
    "🚀🔥 checkpoint 🧪",
    "\x00\x01\x02 checkpoint",
    "\\ / \\\\",
    "__ ___ _",
    "a",
    "the of and is",
    "checkpoint " * 3000,
    "x" * 10_000,
    " ".join(f"word{i}" for i in range(2000)),
    "%_%",
    "NULL",
    "\t\n\r",
]


# --------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def pkg_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corpus-pkg")


@pytest.fixture(scope="module")
def pkg(pkg_dir: Path):
    """The default-packages corpus, built once for this module."""
    started = time.perf_counter()
    corpus = Corpus.open(pkg_dir)
    corpus.build_wall_seconds = time.perf_counter() - started  # type: ignore[attr-defined]
    yield corpus
    corpus.close()


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def make_folder(root: Path) -> Path:
    """A small folder corpus whose sentences are known (and found nowhere else)."""
    write(
        root,
        "guide.md",
        """
        # Zebra guide

        The zebra protocol synchronizes quokka ledgers every night.

        Quokka ledgers are append-only.
        """,
    )
    write(root, "notes.txt", "Marmalade turbines spin counterclockwise during eclipses.\n")
    write(
        root,
        "docs/reference.rst",
        """
        Reference
        =========

        The pelican cache evicts sardines after ninety seconds.
        """,
    )
    write(
        root,
        "pkg/scheduler.py",
        '''
        """Flamingo scheduler: it balances lagoon shifts across the flock."""


        class Roster:
            """A roster pairs each flamingo with exactly one lagoon."""

            def rotate(self):
                """Rotate the roster so every flamingo visits the northern lagoon."""


        def _private_helper():
            """Platypus secrets must never be indexed from private helpers."""
        ''',
    )
    write(root, "pkg/plain.py", "OCELOT_CONSTANT = 'ocelot firmware checksum'\n")
    write(
        root,
        "site/page.html",
        """
        <html><head><title>Narwhal page</title><style>.x { color: red }</style></head>
        <body><h1>Narwhals</h1>
        <p>Narwhal tusks detect salinity &amp; temperature changes.</p>
        <script>var hiddenscriptword = 1;</script>
        <p>Second<br>line about <b>walrus</b> diplomacy.</p></body></html>
        """,
    )
    write(root, ".hidden/secret.md", "Gorgonzola hidden file must not be indexed.\n")
    write(root, "data.json", '{"armadillo": "json files are not indexed"}\n')
    (root / "big.txt").write_bytes(b"capybara " * (corpus_mod.MAX_FILE_BYTES // 9 + 10))
    return root


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return make_folder(tmp_path / "docs-folder")


@pytest.fixture
def folder_corpus(folder: Path, tmp_path: Path):
    corpus = Corpus.open(tmp_path / "data", folder=folder)
    yield corpus
    corpus.close()


def cache_files(data_dir: Path) -> list[Path]:
    return sorted(data_dir.glob("corpus-*.sqlite"))


# --------------------------------------------------------------------------------------------
# Default corpus: package docstrings + pydoc topics


def test_default_build_is_fast_and_sizeable(pkg: Corpus) -> None:
    assert pkg.built
    assert pkg.build_wall_seconds < 20  # a few seconds on 2 cores; generous for slow CI
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
    # "he", "and", "or" are stopwords; "x", "y", "z" too short; NEAR and col:val are plain words.
    assert fts == '"said" OR "near" OR "col" OR "val"'
    assert query_to_fts('say "hi""zebra"') == '"say" OR "hi" OR "zebra"'
    for token in fts.split(" OR "):
        assert token.startswith('"') and token.endswith('"')
    long = query_to_fts(" ".join(f"w{i}" for i in range(500)))
    assert long is not None and long.count(" OR ") == corpus_mod.MAX_QUERY_TOKENS - 1


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
    [path] = cache_files(pkg_dir)
    mtime = path.stat().st_mtime_ns
    started = time.perf_counter()
    warm = Corpus.open(pkg_dir)
    elapsed = time.perf_counter() - started
    try:
        assert not warm.built
        assert warm.path == path and path.stat().st_mtime_ns == mtime
        assert warm.fingerprint == pkg.fingerprint
        assert warm.passage_count() == pkg.passage_count()
        assert elapsed < 1.0
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
    assert DEFAULT_PACKAGES == ("langgraph", "langchain_core", "langchain", "pydantic")


# --------------------------------------------------------------------------------------------
# Folder corpus


@pytest.mark.parametrize(
    ("query", "rel", "sentence"),
    [
        ("zebra quokka ledgers", "guide.md", "The zebra protocol synchronizes quokka ledgers"),
        ("marmalade turbines", "notes.txt", "Marmalade turbines spin counterclockwise"),
        ("pelican sardines", "docs/reference.rst", "The pelican cache evicts sardines"),
        ("flamingo lagoon roster", "pkg/scheduler.py", "A roster pairs each flamingo"),
        ("narwhal salinity", "site/page.html", "Narwhal tusks detect salinity & temperature"),
        ("ocelot firmware", "pkg/plain.py", "ocelot firmware checksum"),
    ],
)
def test_folder_sentences_are_found_with_refs_to_their_files(
    folder_corpus: Corpus, query: str, rel: str, sentence: str
) -> None:
    results = folder_corpus.search(query, k=3)
    assert results, query
    top = results[0]
    assert sentence in top.text
    assert top.doc_id == rel and top.source == rel and top.title == Path(rel).name
    assert top.ref.startswith(f"{rel}#")
    assert folder_corpus.passage(top.ref).text == top.text
    assert sentence in folder_corpus.read(top.ref).text


def test_folder_skips_hidden_private_script_big_and_other_files(folder_corpus: Corpus) -> None:
    for word in ("gorgonzola", "platypus", "hiddenscriptword", "armadillo", "capybara", "red"):
        assert folder_corpus.search(word) == [], word
    html = folder_corpus.read("site/page.html")
    assert html is not None
    assert "<p>" not in html.text and "walrus diplomacy" in html.text.replace("\n", " ")
    py = folder_corpus.read("pkg/scheduler.py").text
    assert "Flamingo scheduler" in py and "Rotate the roster" in py and "Platypus" not in py
    assert "6 files" in folder_corpus.description
    assert folder_corpus.description.startswith("folder corpus: ")


def test_long_documents_split_into_ordered_passages(tmp_path: Path) -> None:
    root = tmp_path / "long"
    sentence = "Paragraph {i} mentions the heron number {i} in its sentence. "
    paras = [sentence.format(i=i) * 4 for i in range(40)]
    write(root, "long.md", "\n\n".join(paras))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        refs = [f"long.md#{n}" for n in range(c.passage_count())]
        assert len(refs) > 5
        texts = [c.passage(r).text for r in refs]
        assert all(0 < len(t) <= MAX_PASSAGE_CHARS for t in texts)
        assert c.passage(f"long.md#{len(refs)}") is None
        whole = c.read("long.md", max_chars=100_000).text
        assert whole == "\n\n".join(texts)
        assert all(p.strip() in whole for p in paras)
        window = c.read(refs[-3], max_chars=2000)
        assert texts[-3] in window.text and len(window.text) <= 2000 + 20
        assert window.text.startswith("[…]")


def test_chunk_text_respects_the_limit_on_any_text() -> None:
    text = "word " * 1000 + "\n\n" + "x" * 3000 + "\n\n" + "Short one. " * 200
    chunks = chunk_text(text, max_chars=300)
    assert chunks and all(0 < len(c) <= 300 for c in chunks)
    assert chunk_text("   \n\n  ") == []
    assert chunk_text("a\n\nb") == ["a\n\nb"]


def test_cache_reused_then_rebuilt_when_a_file_changes(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Corpus.open(data, folder=folder)
    assert first.built
    [path] = cache_files(data)
    mtime = path.stat().st_mtime_ns

    second = Corpus.open(data, folder=folder)
    assert not second.built and second.path == path
    assert path.stat().st_mtime_ns == mtime
    assert second.fingerprint == first.fingerprint
    second.close()

    write(folder, "notes.txt", "Tangerine zeppelins hover above the harbour.\n")
    third = Corpus.open(data, folder=folder)
    try:
        assert third.built and third.fingerprint != first.fingerprint
        assert third.search("marmalade turbines") == []
        assert "Tangerine zeppelins" in third.search("tangerine zeppelins")[0].text
        assert cache_files(data) == [third.path]  # the stale index was cleaned up
        # The corpus opened before the change still answers from its own (stale) index.
        assert first.search("marmalade turbines")
    finally:
        first.close()
        third.close()

    (folder / "extra.md").write_text("Iguana sentence added later.\n", encoding="utf-8")
    with Corpus.open(data, folder=folder) as fourth:
        assert fourth.built and fourth.search("iguana")[0].ref == "extra.md#0"


def test_folder_and_package_corpora_share_a_data_dir(folder: Path, pkg_dir: Path) -> None:
    with Corpus.open(pkg_dir, folder=folder) as c:
        assert c.search("zebra")[0].doc_id == "guide.md"
    with Corpus.open(pkg_dir) as p:
        assert not p.built  # building the folder index did not evict the package index


def test_crash_mid_build_leaves_no_index(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    real = corpus_mod._folder_docs

    def crashing(files, *rest):
        yield from list(real(files, *rest))[:2]
        raise KeyboardInterrupt("simulated crash mid-build")

    monkeypatch.setattr(corpus_mod, "_folder_docs", crashing)
    with pytest.raises(KeyboardInterrupt):
        Corpus.open(data, folder=folder)
    assert [p.name for p in data.iterdir() if p.suffix in (".sqlite", ".tmp")] == []

    monkeypatch.setattr(corpus_mod, "_folder_docs", real)
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")


def test_a_broken_cache_file_is_rebuilt(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    path.write_bytes(b"")  # e.g. a power cut after rename, before the data reached the disk
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")
    path.write_bytes(b"this is not a sqlite database" * 100)
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")


def test_threads_opening_the_same_data_dir_at_once(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    barrier = threading.Barrier(6)

    def open_and_search(_: int) -> tuple[bool, str]:
        barrier.wait()
        with Corpus.open(data, folder=folder) as c:
            return c.built, c.search("zebra")[0].ref

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(open_and_search, range(6)))
    assert {ref for _, ref in outcomes} == {"guide.md#0"}
    assert sum(built for built, _ in outcomes) == 1  # the build lock made the others wait
    assert len(cache_files(data)) == 1


def test_processes_opening_the_same_data_dir_at_once(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = (
        "import sys; from pathlib import Path; from workers.corpus import Corpus\n"
        "c = Corpus.open(Path(sys.argv[1]), folder=Path(sys.argv[2]))\n"
        "print(c.built, c.search('pelican sardines')[0].ref)\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(data), str(folder)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    lines = [out.strip() for out, _ in outs]
    assert all(line.endswith("docs/reference.rst#0") for line in lines), lines
    assert sum(line.startswith("True") for line in lines) == 1
    assert len(cache_files(data)) == 1


def test_an_open_corpus_survives_its_file_being_removed(folder: Path, tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=folder) as c:
        c.path.unlink()  # e.g. a newer build of a changed folder cleaned it up
        with ThreadPoolExecutor(max_workers=8) as pool:
            refs = list(pool.map(lambda _: c.search("pelican sardines")[0].ref, range(64)))
        assert set(refs) == {"docs/reference.rst#0"}


def test_missing_folder_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=tmp_path / "nope")
    message = str(info.value)
    assert "not found" in message and "nope" in message and "\n" not in message


def test_folder_that_is_a_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "file.md").write_text("hello")
    with pytest.raises(CorpusError, match="not a directory"):
        Corpus.open(tmp_path / "data", folder=tmp_path / "file.md")


@pytest.mark.parametrize(
    "files",
    [
        {},
        {"data.json": "{}", "image.png": "x", ".hidden.md": "hidden"},
        {"blank.md": "   \n\n  ", "empty.txt": ""},
    ],
    ids=["empty", "nothing-indexable", "only-blank-files"],
)
def test_folder_without_indexable_text_is_a_one_line_error(
    tmp_path: Path, files: dict[str, str]
) -> None:
    root = tmp_path / "folder"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    data = tmp_path / "data"
    with pytest.raises(CorpusError) as info:
        Corpus.open(data, folder=root)
    message = str(info.value)
    assert "no indexable" in message and str(root) in message and "\n" not in message
    assert cache_files(data) == []


def test_non_utf8_files_are_decoded_with_replacement(tmp_path: Path) -> None:
    root = tmp_path / "latin"
    root.mkdir()
    latin1 = "Jalapeño manifests ship with a caf\xe9 byte.".encode("latin-1")
    (root / "latin1.txt").write_bytes(latin1)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        [hit] = c.search("manifests")
        assert "\ufffd" in hit.text


def _fs_supports_raw_names(root: Path) -> bool:
    try:
        fd = os.open(os.path.join(os.fsencode(root), b"probe-\xff.txt"), os.O_WRONLY | os.O_CREAT)
    except OSError:
        return False
    os.close(fd)
    os.unlink(os.path.join(os.fsencode(root), b"probe-\xff.txt"))
    return True


def write_raw(root: Path, name: bytes, data: bytes) -> None:
    """Create a file whose name is raw bytes (not necessarily UTF-8)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    fd = os.open(os.path.join(os.fsencode(root), name), flags, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def test_files_with_non_utf8_names_are_indexed_under_safe_unique_refs(tmp_path: Path) -> None:
    root = tmp_path / "names"
    root.mkdir()
    if not _fs_supports_raw_names(root):
        pytest.skip("this filesystem refuses non-UTF-8 file names")
    write_raw(root, b"n\xe9e.md", b"Latin-1 named file about ocelot firmware.\n")
    write_raw(root, b"n\xe8e.md", b"Another latin-1 name about ocelot gearboxes.\n")
    os.mkdir(os.path.join(os.fsencode(root), b"d\xff"))
    write_raw(root, b"d\xff/inner.txt", b"Ocelot notes kept in a badly named folder.\n")
    # A real UTF-8 file whose name is exactly what an escaped one could display as.
    (root / "n\\xe9e.md").write_text("Backslash named file about ocelot manuals.\n")
    (root / "plain.md").write_text("Plain file about ocelot whiskers.\n")
    data = tmp_path / "data"
    with Corpus.open(data, folder=root) as c:
        assert c.built
        hits = c.search("ocelot", k=10)
        refs = [h.ref for h in hits]
        assert len(hits) == 5 and len(set(refs)) == 5, refs
        for hit in hits:
            for field in (hit.ref, hit.doc_id, hit.title, hit.source, hit.text):
                field.encode("utf-8")  # no lone surrogates anywhere: printable, JSON-able
            found = c.passage(hit.ref)
            assert found is not None and (found.doc_id, found.text) == (hit.doc_id, hit.text)
            assert c.read(hit.ref).text == hit.text
        assert "plain.md#0" in refs and "n\\xe9e.md#0" in refs
        assert c.description.encode("utf-8")
    # Same inputs, same refs: reopened from the cache and rebuilt from scratch.
    with Corpus.open(data, folder=root) as again:
        assert not again.built
        assert sorted(h.ref for h in again.search("ocelot", k=10)) == sorted(refs)
    with Corpus.open(tmp_path / "data2", folder=root) as fresh:
        assert fresh.built
        assert sorted(h.ref for h in fresh.search("ocelot", k=10)) == sorted(refs)


def test_a_folder_with_a_non_utf8_path_opens_and_reports_printably(tmp_path: Path) -> None:
    if not _fs_supports_raw_names(tmp_path):
        pytest.skip("this filesystem refuses non-UTF-8 file names")
    raw_root = os.path.join(os.fsencode(tmp_path), b"f\xe9")
    os.mkdir(raw_root)
    root = Path(os.fsdecode(raw_root))
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=root)
    str(info.value).encode("utf-8")
    (root / "doc.md").write_text("Quetzal migration timetables.\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert c.search("quetzal")[0].ref == "doc.md#0"
        c.description.encode("utf-8")


def _tmp_files(data: Path) -> list[Path]:
    return sorted(p for p in data.iterdir() if p.name.endswith(".tmp"))


_HANGING_BUILDER = """
import sys
from pathlib import Path
import workers.corpus as m
real = m._folder_docs
def hanging(files, *rest):
    print("building", flush=True)
    sys.stdin.readline()  # wait for the test (or be killed)
    yield from real(files, *rest)
m._folder_docs = hanging
c = m.Corpus.open(Path(sys.argv[1]), folder=Path(sys.argv[2]))
print(c.built, c.search("zebra")[0].ref, flush=True)
"""


def _start_hanging_builder(data: Path, folder: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HANGING_BUILDER, str(data), str(folder)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "building", proc.stderr.read() if proc.stderr else ""
    return proc


def test_a_killed_build_leaves_no_temp_file_behind(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    orphans: list[Path] = []
    for _ in range(3):
        proc = _start_hanging_builder(data, folder)
        proc.kill()  # SIGKILL: no finally clause runs
        proc.communicate(timeout=30)
        # The next build removes the previous orphan: they never pile up.
        [orphan] = _tmp_files(data)
        assert orphan not in orphans
        orphans.append(orphan)
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")[0].ref == "guide.md#0"
    assert _tmp_files(data) == []
    assert len(cache_files(data)) == 1


def test_cleanup_never_touches_a_live_builders_temp_file(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    other = make_folder(tmp_path / "other-folder")
    live = _start_hanging_builder(data, folder)
    try:
        [live_tmp] = _tmp_files(data)
        with Corpus.open(data, folder=other) as c:  # another source builds meanwhile
            assert c.built
        assert _tmp_files(data) == [live_tmp]
    finally:
        out, err = live.communicate("go\n", timeout=60)
    assert live.returncode == 0, err
    assert out.strip() == "True guide.md#0"
    assert _tmp_files(data) == []


def test_orphan_temp_files_are_removed_by_the_rules(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        kind = c.meta["kind"]
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        old = time.time() - 2 * corpus_mod.STALE_TMP_SECONDS

        def fake(kind_: str, pid: int, hexpart: str, *, aged: bool = False) -> Path:
            path = data / f".corpus-{kind_}-{'0' * 20}.sqlite.{pid}.{hexpart}.tmp"
            path.write_bytes(b"partial")
            if aged:
                os.utime(path, (old, old))
            return path

        removed = [
            fake(kind, dead.pid, "00000001"),  # same source, dead builder
            fake(kind, sleeper.pid, "00000002", aged=True),  # same source, pid reused long after
            fake("dir-abcdef12", dead.pid, "00000003", aged=True),  # other source, dead and old
        ]
        kept = [
            fake(kind, sleeper.pid, "00000004"),  # same source, live and recent
            fake("dir-abcdef12", dead.pid, "00000005"),  # other source, recent: maybe another host
            fake("dir-abcdef12", sleeper.pid, "00000006", aged=True),  # other source, alive
        ]
        unrelated = data / "notes.tmp"
        unrelated.write_text("not ours")
        (folder / "guide.md").write_text("Changed: iguana husbandry.\n")  # force a rebuild
        with Corpus.open(data, folder=folder) as c:
            assert c.built
        assert not any(p.exists() for p in removed)
        assert all(p.exists() for p in kept) and unrelated.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_binary_files_with_text_extensions_are_skipped(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    root = tmp_path / "bin"
    root.mkdir()
    (root / "random.md").write_bytes(rng.randbytes(20_000))
    (root / "no-nul.rst").write_bytes(bytes(b or 1 for b in rng.randbytes(20_000)))
    (root / "nuls.txt").write_bytes(b"gibberish words\0\0\0 more gibberish\0" * 50)
    (root / "image.html").write_bytes(b"\x89PNG\r\n\x1a\n" + rng.randbytes(5000))
    (root / "good.md").write_text("Real prose about gibberish detectors and walrus tusks.\n")
    (root / "utf16.txt").write_bytes("Walrus census in UTF-16 with a BOM.\n".encode("utf-16"))
    (root / "latin1.txt").write_bytes("Jalapeño walrus recipes from the café.".encode("latin-1"))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        names = ["random.md", "no-nul.rst", "nuls.txt", "image.html", "good.md", "utf16.txt"]
        present = {n for n in [*names, "latin1.txt"] if c.passage(f"{n}#0") is not None}
        assert present == {"good.md", "utf16.txt", "latin1.txt"}
        assert c.search("census")[0].ref == "utf16.txt#0"
        assert c.meta["documents"] == "3"


def test_a_folder_of_only_binary_files_names_the_reason(tmp_path: Path) -> None:
    root = tmp_path / "bin"
    root.mkdir()
    (root / "a.md").write_bytes(b"\0" * 100)
    (root / "b.txt").write_bytes(b"\x00\x01\x02\x03" * 100)
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=root)
    message = str(info.value)
    assert "no indexable" in message and "2 files skipped as binary" in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("files", "reason"),
    [
        ({}, "empty"),
        ({"huge.md": None}, "1 file skipped as larger than 2 MB"),
        ({"huge.md": None, "x.json": "{}", "y.png": "x"}, "1 file skipped as larger than 2 MB"),
        ({"x.json": "{}", "y.png": "x"}, "2 files of other types"),
        ({".secret.md": "hidden"}, "1 hidden"),
        ({"blank.md": "  \n"}, "1 file without text"),
    ],
    ids=["empty", "only-too-big", "too-big-and-others", "other-types", "hidden", "blank"],
)
def test_no_indexable_files_message_says_why(
    tmp_path: Path, files: dict[str, str | None], reason: str
) -> None:
    root = tmp_path / "folder"
    root.mkdir()
    for name, text in files.items():
        if text is None:
            (root / name).write_bytes(b"y" * (corpus_mod.MAX_FILE_BYTES + 1))
        else:
            (root / name).write_text(text)
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=root)
    message = str(info.value)
    assert "no indexable" in message and str(root) in message and "\n" not in message
    assert reason in message, message
    assert "indexable: .md .txt .rst .py .html" in message, message


# --------------------------------------------------------------------------------------------
# Layering


def test_workers_never_import_app() -> None:
    for path in sorted((REPO / "workers").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name != "app" and not name.startswith("app."), f"{path} imports {name}"


def test_corpus_module_needs_only_the_standard_library() -> None:
    tree = ast.parse((REPO / "workers" / "corpus.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
    assert os.path.basename(corpus_mod.__file__) == "corpus.py"
