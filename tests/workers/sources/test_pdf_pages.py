"""A PDF's pages read as its text, not its layout: a chapter's running title with the page's
printed number is no text (with an outline to head the passages), and a sentence a page break
cut is whole on the page it starts on (trial 95)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.workers.sources.documents_helpers import make_pdf, outline_pdf
from workers.sources import Corpus


def test_a_chapters_running_title_with_the_page_number_is_not_indexed(tmp_path: Path) -> None:
    # Trial 95, F5: Bash's manual heads its odd pages "Chapter 5: Shell Variables 90", a title
    # that changes with the chapter, so no line runs on half the pages; a Top passage was
    # labelled "Chapter 5: Shell Variables 90: In an interactive shell, the value ..."
    chapters = ["Relays", "Relays", "Lanterns", "Lanterns", "Wicks", "Wicks"]
    pages = [f"Chapter {1 + n // 2}: {c} {n + 4}\nThe relay on page {n} hums at {40 + n} "
             f"hertz.\nIt hums on." for n, c in enumerate(chapters)]
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(outline_pdf(make_pdf(pages), [
        ("Relays", 0, None), ("Lanterns", 2, None), ("Wicks", 4, None)]))
    (folder / "plain.pdf").write_bytes(make_pdf([p.replace("relay", "lamp") for p in pages]))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        found = corpus.search("relay lamp hums hertz", k=20)
    hits = [h for h in found if h.ref.startswith("manual.pdf")]
    lamps = [h for h in found if h.ref.startswith("plain.pdf")]
    assert len(hits) == len(lamps) == 6, found
    for hit in hits:
        assert "Chapter" not in hit.text, hit.text
        assert re.fullmatch(r"The relay on page \d hums at \d+ hertz\.\nIt hums on\.",
                            hit.text.strip()), hit
    # without an outline to head its passages, a page keeps its chapter's title
    assert all(hit.text.startswith("Chapter ") for hit in lamps), lamps


def test_a_sentence_a_page_break_cut_is_whole_on_the_page_it_starts_on(tmp_path: Path) -> None:
    # Trial 95: once a page's running title was gone, Asymptote's page 48 opened with the end
    # of page 47's sentence, "default setting, font(...), corresponds to 12pt Computer Modern
    # Roman; ...", and an Answer quoted that fragment as its first line
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(make_pdf([
        "The relay hums at forty hertz.\nThe default relay is the brass",
        "relay of the north station, tuned at dawn.\nLanterns burn oil.",
        "A listing follows:", "relay north;\nrelay south;"]))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        texts = {hit.ref.split("#")[0]: hit.text for hit in corpus.search("relay lanterns", k=9)}
    assert ("The default relay is the brass relay of the north station, tuned at dawn."
            in " ".join(texts["manual.pdf:p1"].split())), texts
    assert texts["manual.pdf:p2"].strip() == "Lanterns burn oil.", texts
    assert texts["manual.pdf:p4"].startswith("relay north;"), texts  # after a colon: its own


def test_a_contents_pages_dot_leaders_are_not_its_text(tmp_path: Path) -> None:
    # Valgrind's manual: "... but there should be none. ................................ [3]"
    # was a finding (trial 106, F7)
    from tests.workers.sources.documents_helpers import make_pdf

    root = tmp_path / "pdf"
    root.mkdir()
    (root / "manual.pdf").write_bytes(make_pdf([
        "Contents\n1 Heron census ....................... 3\n2 Egret survey . . . . . . . . 9",
        "The wardens count the herons each spring... but there should be none. ........"]))
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        texts = [corpus.passage(f"manual.pdf:p{n}#0").text for n in (1, 2)]
    assert not any("...." in t or ". . . ." in t for t in texts), texts
    assert "1 Heron census 3" in texts[0] and "spring... but there should be none." in texts[1]
