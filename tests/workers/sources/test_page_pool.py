"""A folder's HTML pages read by a helper process beside the builder (issue 19: >= 10 MB/s of
HTML): the documents, their order, the skip counts and the notes are the builder's own."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import workers.sources.folder as folder_mod
import workers.sources.page_pool as page_pool
from tests.workers.sources.conftest import REPO, write


def _site(root: Path) -> None:
    for i in range(page_pool.MIN_PARALLEL_PAGES + 4):
        write(root, f"p{i:02d}.html",
              f"<html><head><title>Page {i}</title></head><body><h1>Part {i}</h1>"
              f"<p>Tapir {i} text.</p><h2>More</h2><p>Heron {i} notes.</p></body></html>")
    (root / "p05.html").write_bytes(b"\x89PNG\r\n\x1a\n\x00" * 50)  # binary: skipped, noted
    write(root, "p07.html", "<html><body><script>x</script></body></html>")  # no text
    write(root, "readme.md", "A plain file between the pages.")


def _run(files: list, helpers: int) -> tuple[list, Counter, list[str], list[tuple[int, int, str]]]:
    skipped: Counter[str] = Counter()
    notes: list[str] = []
    calls: list[tuple[int, int, str]] = []
    docs = list(folder_mod.folder_docs(files, skipped, notes, lambda *call: calls.append(call),
                                       helpers=helpers))
    return docs, skipped, notes, calls


def test_pages_read_by_a_helper_give_the_builders_documents_counts_and_notes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workers.sources import htmlpage

    parsed_here: list[int] = []
    real_page = htmlpage.html_page

    def spy(source: str | bytes, to_here: Callable[[str], bool] | None = None
            ) -> htmlpage.HtmlPage:
        parsed_here.append(threading.get_ident())
        return real_page(source, to_here)

    real_take = page_pool.PagePool.take

    def take(self: page_pool.PagePool, i: int) -> page_pool.FileResult | None:
        waited = time.monotonic()  # the helper starts in a second or so: let it read a page
        while (self._threads and not (self._done or self._busy) and self._left
               and time.monotonic() - waited < 30):
            time.sleep(0.01)
        return real_take(self, i)

    monkeypatch.setattr(htmlpage, "html_page", spy)
    monkeypatch.setattr(page_pool.PagePool, "take", take)
    _site(tmp_path / "site")
    files = folder_mod.folder_files(tmp_path / "site")
    alone = _run(files, 0)
    pages = len(parsed_here)
    assert pages == len(files) - 2  # every page but the binary one, read here (and the .md)
    parsed_here.clear()
    helped = _run(files, 1)
    assert 0 < len(parsed_here) < pages  # the helper (another process) read the rest
    assert helped == alone
    docs, skipped, notes, calls = helped
    assert [d.doc_id for d in docs][:3] == ["p00.html", "p01.html", "p02.html"]
    assert "p05.html" not in {d.doc_id for d in docs} and "readme.md" in {d.doc_id for d in docs}
    assert docs[1].title == "Page 1"
    assert docs[1].sections == (("Part 1", "Part 1\n\nTapir 1 text."),
                                ("More", "More\n\nHeron 1 notes."))
    assert skipped == Counter({"binary": 1, "blank": 1})
    assert notes == ["p05.html: skipped, binary (not text)", "p07.html: skipped, no text"]
    reading = [rel for rel, _p, _st in files] + [""]  # the file read next (trial 124, FA2)
    assert calls == [(i, len(files), reading[i]) for i in range(0, len(files) + 1)]


def test_a_helper_that_fails_leaves_its_pages_to_the_builder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    _site(tmp_path / "site")
    files = folder_mod.folder_files(tmp_path / "site")
    alone = _run(files, 0)
    monkeypatch.setattr(page_pool, "_BOOT", "import sys; sys.stdin.buffer.read(1); sys.exit(3)")
    assert _run(files, 1) == alone  # the helper died at its first page: read here


def test_a_script_without_a_main_guard_is_run_once(tmp_path: Path) -> None:
    """A helper runs the readers, never the script that built the index: with
    ``multiprocessing``'s spawn, a script calling ``Corpus.open`` at its top level ran again
    in each helper, and built the index again there."""
    _site(tmp_path / "site")
    script = tmp_path / "build.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(REPO)!r})\nfrom workers.sources import Corpus\n"
        "print('script ran', flush=True)\n"
        f"with Corpus.open({str(tmp_path / 'data')!r}, folder={str(tmp_path / 'site')!r}) as c:\n"
        "    print(c.passage_count())\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    lines = out.split("\n")
    assert lines[0] == "script ran" and int(lines[1]) > 20 and out.count("script ran") == 1, out


def test_a_helper_is_given_its_next_page_before_it_answers_the_one_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a helper that waited for the builder's serving thread after each page waited on the GIL
    # the builder's parsing holds (up to its 5 ms switch interval, per page of a few ms)
    import pickle

    events: list[str] = []

    class Logged:
        HIGHEST_PROTOCOL = pickle.HIGHEST_PROTOCOL

        @staticmethod
        def dump(obj: object, file: object, *args: object) -> None:
            if isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[1], Path):
                events.append("ask")
            pickle.dump(obj, file, *args)

        @staticmethod
        def load(file: object) -> object:
            got = pickle.load(file)
            events.append("answer")
            return got

    monkeypatch.setattr(page_pool, "pickle", Logged)
    _site(tmp_path)
    files = folder_mod.folder_files(tmp_path)
    pages = [i for i, (rel, _p, _st) in enumerate(files) if rel.endswith(".html")]
    with page_pool.PagePool(files, pages, folder_mod.MAX_FILE_BYTES, frozenset(), 1) as pool:
        waited = time.monotonic()
        while len(pool._done) < len(pages) and time.monotonic() - waited < 60:
            time.sleep(0.01)
        assert len(pool._done) == len(pages)  # the helper read every page
    assert events[:3] == ["ask", "ask", "answer"]
    assert events.count("ask") == events.count("answer") == len(pages)
