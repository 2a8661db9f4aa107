"""The folder source (``--corpus DIR``): what is indexed, what is skipped and why, how refs read
(encodings and non-UTF-8 names: test_folder_encodings.py)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.workers.sources.conftest import (
    cache_files,
    write,
)
from workers.sources import (
    MAX_PASSAGE_CHARS,
    Corpus,
    CorpusError,
    chunk_text,
)


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
    # an HTML page is titled by its <title> (issue 19), a Markdown file by its first h1 (trial
    # 20, finding 9), a reST file by the title it opens with (trial 62, F1), every other file
    # by its name
    title = {"site/page.html": "Narwhal page", "guide.md": "Zebra guide",
             "docs/reference.rst": "Reference"}.get(rel, Path(rel).name)
    assert top.doc_id == rel and top.source == rel and top.title == title
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


def test_files_rewritten_with_the_same_bytes_keep_their_index(folder: Path, tmp_path: Path
                                                               ) -> None:
    # Trial 17, finding 7: a ``sed -i`` that matched nothing rewrote a file (a new mtime, the
    # same bytes) and the next run indexed the whole folder again.
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as first:
        assert first.built
    notes = folder / "notes.txt"
    notes.write_bytes(notes.read_bytes())  # as sed -i does: the same bytes, written again
    os.utime(notes, ns=(notes.stat().st_atime_ns, notes.stat().st_mtime_ns + 10**9))
    with Corpus.open(data, folder=folder) as second:
        assert not second.built and second.path == first.path
        assert second.content_fingerprint == first.content_fingerprint
        assert second.search("marmalade turbines")
    write(folder, "notes.txt", "Tangerine zeppelins hover above the harbour.\n")
    with Corpus.open(data, folder=folder) as third:  # new bytes: built again
        assert third.built and "Tangerine" in third.search("tangerine zeppelins")[0].text
        assert cache_files(data) == [third.path]


def test_folder_and_package_corpora_share_a_data_dir(
    folder: Path, pkg: Corpus, pkg_dir: Path
) -> None:
    with Corpus.open(pkg_dir, folder=folder) as c:
        assert c.search("zebra")[0].doc_id == "guide.md"
    with Corpus.open(pkg_dir) as p:
        assert not p.built  # building the folder index did not evict the package index



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


def test_a_long_paragraph_cut_into_passages_keeps_its_line_breaks() -> None:
    # StateGraph.set_node_defaults's "Args:" block is one paragraph past the passage limit: cut
    # into sentences joined by spaces, "to error-handler nodes.\n    cache_policy: ..." became
    # one line, and the offline model quoted "... nodes. cache_policy: Default cache policy ..."
    # as one sentence about retry policies (trial 8, finding 2).
    entries = [f"    field_{n}: Default value number {n} for nodes that do not set\n"
               f"        their own. Also applies to handler nodes." for n in range(12)]
    text = "Args:\n" + "\n".join(entries)
    chunks = chunk_text(text, max_chars=300)
    assert len(chunks) > 1 and all(len(c) <= 300 for c in chunks)
    assert not any(re.search(r"nodes\. +field_", c) for c in chunks), chunks
    joined = "\n".join(chunks)
    assert all(f"field_{n}: Default" in joined for n in range(12))
    assert sum(line.lstrip().startswith("field_") for c in chunks
               for line in c.splitlines()) == 12


def test_a_folder_that_cannot_be_listed_is_named_like_an_unreadable_file(tmp_path, monkeypatch):
    # Trial 10: a sub-folder without read permission (and every file in it) was passed over
    # without a word while an unreadable file beside it was named. Root reads every folder, so
    # the refusal is made where os.walk lists a folder.
    import os
    from collections import Counter

    from workers.sources.folder import folder_files

    (tmp_path / "a.md").write_text("# A\n\nHerons nest in colonies.\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.md").write_text("# X\n\nEgrets too.\n")
    listed = os.scandir

    def scandir(path=".", *rest):
        if os.fspath(path) == os.fspath(tmp_path / "sub"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return listed(path, *rest)

    monkeypatch.setattr(os, "scandir", scandir)
    skipped, notes = Counter(), []
    found = folder_files(tmp_path, skipped, notes=notes)
    assert [rel for rel, _path, _st in found] == ["a.md"]
    assert notes == ["sub/: skipped, unreadable (Permission denied)"]
    assert skipped["unreadable"] == 1



def _deep_file(top: Path, path_bytes: int, name: str) -> None:
    """A markdown file ``name`` under folders below ``top`` whose absolute path is at least
    ``path_bytes`` long, made with relative ``mkdir``/``chdir`` as an archive's deep tree is (an
    absolute path that long is refused)."""
    import os

    here = os.getcwd()
    os.chdir(top)
    try:
        level = 0
        while len(os.getcwd()) < path_bytes:
            os.mkdir(folder := f"level{level:03d}_abcdefghijkl")
            os.chdir(folder)
            level += 1
        with open(name, "w", encoding="utf-8") as out:
            out.write("# Deep\n\nThe deepest kilometres are surveyed by lamp.\n")
    finally:
        os.chdir(here)


@pytest.mark.parametrize("depth", [5200, 4060], ids=["folder-too-deep", "file-name-crosses"])
def test_a_file_deeper_than_the_system_allows_is_named_in_the_notes(
        tmp_path: Path, depth: int) -> None:
    # trial 10, finding 33: deep.md 5,516 bytes of path down was skipped without a note (then
    # named as "unreadable (File name too long)", its 4 KB path whole)
    from collections import Counter

    from workers.sources.folder import folder_files

    (tmp_path / "top.md").write_text("# Top\n\nHerons nest in colonies.\n")
    name = "the_deepest_kilometres_of_the_mine.md"
    _deep_file(tmp_path, depth, name)
    skipped, notes = Counter(), []
    found = folder_files(tmp_path, skipped, notes=notes)
    assert [r for r, _path, _st in found] == ["top.md"]
    (note,) = notes
    assert note.startswith("level000_abcdefghijkl/…(") and len(note) < 300, note
    assert note.endswith(("/: skipped, its path is longer than the system allows (4096 bytes)"
                          if depth > 4096 else f"/{name}: skipped, its path is longer than the "
                          "system allows (4096 bytes)")), note
    assert skipped["unreadable"] == 1


def test_a_corpus_folder_that_cannot_be_listed_is_said_so(tmp_path: Path, monkeypatch) -> None:
    # Trial 46, F4 (as a user without the right to list it): "contains no indexable files:
    # 1 unreadable" read as one file inside being unreadable
    import os

    from workers.sources import CorpusError
    from workers.sources.folder import corpus_folder

    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nSome text.\n")
    real = os.scandir

    def refusing(path=".", *args):
        if Path(path) == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args)

    monkeypatch.setattr(os, "scandir", refusing)
    with pytest.raises(CorpusError) as refused:
        corpus_folder(folder, max_file_bytes=10**6, probe=True)
    assert str(refused.value) == f"corpus folder {folder} cannot be read (Permission denied)"


def test_a_long_paragraph_is_cut_where_the_offline_model_ends_a_sentence() -> None:
    # The chunker cut at any "." before a space, the model's splitter (one owner now,
    # workers/sources/sentence_ends.py) only where a sentence ends: a passage began "the default
    # pen is black." after a cut at "e.g.", a sentence the model then read as a whole one.
    sentence = "Pens set the colour of everything drawn, e.g. the default pen is black."
    chunks = chunk_text(" ".join([sentence] * 4), max_chars=120)
    assert len(chunks) == 4 and all(chunk == sentence for chunk in chunks), chunks


def test_a_pdf_bullet_starts_a_passage_and_a_sentence() -> None:
    # A PDF's items ("• A pen with ...") follow a full stop with no capital after it: the
    # chunker packed an item's last sentence with the next item as one sentence, and the
    # offline model quoted them as one ("... miterlimit(pen p=currentpen).\n• A pen with a
    # specific PostScript fill rule ..."); asymptote-doc, "default miter limit".
    from app.llm.offline.sentences import split_sentences

    items = [f"\u2022 A pen with a specific setting number {n} is returned by set{n}(real).\n"
             f"The setting of a pen is returned by get{n}(pen p=currentpen)." for n in range(4)]
    text = "Pens:\n" + "\n".join(items)
    heads = [chunk.split("\n")[0][:23] for chunk in chunk_text(text, max_chars=160)[1:]]
    assert heads == ["\u2022 A pen with a specific"] * 3
    assert "The setting of a pen is returned by get0(pen p=currentpen)." in split_sentences(text)
