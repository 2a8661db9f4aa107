"""A long PDF beside the folder's pages is judged a copy from a sample of its pages and read no
further; one of its own is read whole and indexed as before: the Debian Reference's PDF took
27 s to read, only to be skipped as a copy of its HTML chapters (trial 124, FA1)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pypdf import PageObject

from tests.workers.sources.documents_helpers import make_pdf
from workers.sources import Corpus
from workers.sources.pdf_samples import LONG_PDF_PAGES, SAMPLE_PAGES

_PAGES = LONG_PDF_PAGES + 12


def _sentence(n: int, bird: str) -> str:
    return (f"The {bird} census of colony {n} counts {n + 3} nesting pairs on the shore of "
            f"lake {n * 7} each spring, and warden {n % 9} records them in ledger {n}.")


def _manual(root: Path, pdf: list[str]) -> None:
    """Three HTML pages of the heron census under ``root/html``, and ``manual.pdf``."""
    (root / "html").mkdir(parents=True)
    for part in range(3):
        body = "".join(f"<p>{_sentence(n, 'heron')} {_sentence(n + 1, 'heron')}</p>"
                       for n in range(part * 40, (part + 1) * 40, 2))
        (root / "html" / f"census-{part}.html").write_text(
            f"<html><head><title>Census part {part}</title></head><body><h1>Census part "
            f"{part}</h1>{body}</body></html>", encoding="utf-8")
    (root / "manual.pdf").write_bytes(make_pdf(pdf))


def _pages(bird: str) -> list[str]:
    """A PDF's pages, two sentences of the census of ``bird`` each, a line of 70 at most."""
    out = []
    for page in range(_PAGES):
        words, lines = f"{_sentence(2 * page, bird)} {_sentence(2 * page + 1, bird)}".split(), [""]
        for word in words:
            if len(lines[-1]) + len(word) >= 70:
                lines.append("")
            lines[-1] = f"{lines[-1]} {word}".strip()
        out.append("\n".join(lines))
    return out


def _extracted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the PDF pages pypdf extracts text of."""
    real, seen = PageObject.extract_text, []

    def counted(page: PageObject, *args: object, **kwargs: object) -> str:
        seen.append(1)
        return real(page, *args, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", counted)
    return seen


def test_a_long_copy_of_the_pages_is_told_from_a_sample_and_read_no_further(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "doc"
    _manual(root, _pages("heron"))
    extracted = _extracted(monkeypatch)
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        cited = {p.doc_id for p in corpus.search("heron census nesting pairs", k=30)}
        notes = [n for n in corpus.notes if "a PDF of pages indexed" in n]
    assert cited == {f"html/census-{part}.html" for part in range(3)}, cited
    assert len(extracted) == SAMPLE_PAGES  # not the 60 pages
    assert notes == [f"manual.pdf: skipped, a PDF of pages indexed (100% of the text of "
                     f"{SAMPLE_PAGES} of its {_PAGES} pages read is in 3 files of html/)"], notes


def test_a_long_pdf_of_its_own_beside_the_pages_is_indexed_as_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # its sample is no copy: it is read whole, and its passages are those it has alone
    mixed, alone = tmp_path / "mixed", tmp_path / "alone"
    own = _pages("egret")
    _manual(mixed, own)
    alone.mkdir()
    (alone / "manual.pdf").write_bytes(make_pdf(own))
    extracted = _extracted(monkeypatch)
    rows = []
    for folder in (mixed, alone):
        with Corpus.open(tmp_path / folder.name, folder=folder) as corpus:
            assert not [n for n in corpus.notes if "pages indexed" in n], corpus.notes
            with sqlite3.connect(corpus.path) as con:
                rows.append(con.execute("SELECT ref, title, heading, text FROM passages WHERE "
                                        "doc_id LIKE 'manual.pdf:%' ORDER BY ref").fetchall())
    assert len({ref.partition("#")[0] for ref, *_ in rows[1]}) == _PAGES
    assert rows[0] == rows[1]
    assert len(extracted) == SAMPLE_PAGES + 2 * _PAGES  # the sample, then each whole


def test_the_progress_names_the_file_read_next_and_a_sampled_pdf_last(tmp_path: Path) -> None:
    # a display names a file that takes long (trial 124, FA2): a long PDF's sample is read in
    # its turn, the file judged (and read whole when no copy) after the rest
    root = tmp_path / "doc"
    _manual(root, _pages("heron"))
    heard: list[tuple[int, int, str]] = []
    with Corpus.open(tmp_path / "d", folder=root,
                     progress=lambda *event: heard.append(event)):
        pass
    pages = [f"html/census-{part}.html" for part in range(3)]
    assert heard == [(0, 4, pages[0]), (1, 4, pages[1]), (2, 4, pages[2]), (3, 4, "manual.pdf"),
                     (3, 4, ""), (3, 4, "manual.pdf"), (4, 4, "")], heard
