"""The PDF copy check gathers the words of the folder's pages only when a PDF page may ask for
them (a contents or index page, or a page too short for a run of words): sqlite3-doc's one-page
copyright PDF beside 764 pages built the set of their 1.1 million words, a sixth of the copy
check, for a page that never read it (issue 19, section 4). What is skipped is the same."""

from __future__ import annotations

import pytest

from workers.sources import format_copies
from workers.sources.base import RawDoc

_SENTENCES = [f"The heron census of colony {n} counts {n + 3} nesting pairs on the {side} shore "
              f"of the lake each spring, and the wardens record it in ledger {n}."
              for n, side in zip(range(1, 41), ["north", "south", "east", "west"] * 10,
                                 strict=True)]


def _folder(pdf_pages: list[str]) -> tuple[list[RawDoc], set[str]]:
    """Two HTML pages of the census and a PDF whose pages are ``pdf_pages``."""
    pages = [RawDoc(f"census-{n}.html", f"Census part {n}", f"census-{n}.html",
                    "\n\n".join(_SENTENCES[n * 20:(n + 1) * 20])) for n in range(2)]
    pdf = [RawDoc(f"manual.pdf:p{n}", "Heron manual", "manual.pdf", text)
           for n, text in enumerate(pdf_pages, 1)]
    return [*pages, *pdf], {"census-0.html", "census-1.html", "manual.pdf"}


@pytest.fixture
def gathered(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """The vocabulary each copy check gathered."""
    seen: list[set[str]] = []
    made = format_copies._Held.__init__

    def spy(self: format_copies._Held, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)  # type: ignore[arg-type]
        seen.append(self.vocabulary)

    monkeypatch.setattr(format_copies._Held, "__init__", spy)
    return seen


def test_a_copy_with_no_listing_page_is_skipped_without_gathering_the_pages_words(
        gathered: list[set[str]]) -> None:
    docs, rels = _folder([" ".join(_SENTENCES[:20]), " ".join(_SENTENCES[20:])])
    notes: list[str] = []
    kept = format_copies.without_format_copies(docs, rels, notes)
    assert [doc.doc_id for doc in kept] == ["census-0.html", "census-1.html"]
    assert notes == ["manual.pdf: skipped, a PDF of pages indexed (100% of its text is in 2 "
                     "files at the folder's top level)"]
    assert gathered == [set()]


def test_a_copys_contents_page_still_reads_the_pages_words(gathered: list[set[str]]) -> None:
    contents = "Contents\n" + "\n".join(f"Heron census of colony {n} {n // 20 + 2}"
                                         for n in range(1, 20))
    docs, rels = _folder([contents, " ".join(_SENTENCES[:20]), " ".join(_SENTENCES[20:])])
    notes: list[str] = []
    kept = format_copies.without_format_copies(docs, rels, notes)
    assert [doc.doc_id for doc in kept] == ["census-0.html", "census-1.html"]
    assert len(notes) == 1 and notes[0].startswith("manual.pdf: skipped, a PDF of pages indexed")
    assert {"heron", "census", "colony", "part"} <= gathered[0]
