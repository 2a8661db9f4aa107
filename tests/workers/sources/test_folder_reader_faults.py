"""A fault in the reading of one file skips that file, named in the notes with why, never the
run: a page whose navigation bar lxml was asked to drop twice raised ``AssertionError`` and the
run ended "run failed: AssertionError: (no message)"."""

from __future__ import annotations

from pathlib import Path

import pytest

import workers.sources.htmlpage as htmlpage
from workers.sources import Corpus


def _failing_reader(source: str | bytes, *_: object) -> htmlpage.HtmlPage:
    raise AssertionError


def _failing_with_words(source: str | bytes, *_: object) -> htmlpage.HtmlPage:
    raise ValueError("x" * 500)


@pytest.mark.parametrize("name", ["broken.html", "broken.htm"])
def test_a_file_its_reader_fails_on_is_named_and_the_rest_is_indexed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / name).write_text("<html><body><p>Herons nest in spring.</p></body></html>")
    (folder / "egrets.md").write_text("# Egrets\n\nEgrets nest in the reeds after the herons.\n")
    monkeypatch.setattr(htmlpage, "html_page", _failing_reader)
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        found = corpus.search("egrets reeds", k=3)
        notes = corpus.notes
    assert [p.ref for p in found][:1] == ["egrets.md#0"]
    assert f"{name}: skipped, its reader failed (AssertionError)" in notes, notes


def test_the_readers_message_is_said_and_kept_short(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.html").write_text("<p>Herons</p>")
    (folder / "b.txt").write_text("Egrets nest in the reeds.")
    monkeypatch.setattr(htmlpage, "html_page", _failing_with_words)
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        said = [n for n in corpus.notes if n.startswith("a.html: ")]
    assert said == [f"a.html: skipped, its reader failed (ValueError: {'x' * 148})"], said
