"""A paragraph too long for one passage is cut between sentences, but not before a sentence
that goes on from the one before it ("This enables ..."): Asymptote's manual ended a passage
with "If the option -nosafe is given, Asymptote runs in unsafe mode." and opened the next with
"This enables the int system(string s) ... calls", so "What does the -nosafe option enable?"
cited two pages that mention -nosafe in passing and never the one that says what it enables."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus
from workers.sources.chunks import chunk_text

FILLER = ("Antialiasing is controlled by the parameter antialias, which by default specifies a "
          "sampling width of two pixels. ") * 6
NOSAFE = ("If the option -nosafe is given, the program runs in unsafe mode. This enables the "
          "system calls, allowing one to execute arbitrary shell commands.")
PAGE = (FILLER + NOSAFE + "\n\nThe file named name may be deleted by delete(name). Unless the "
        "-globalwrite (or -nosafe) option is enabled, the file must reside in the current "
        "directory.")


def test_a_sentence_going_on_from_the_one_before_keeps_it_in_its_passage() -> None:
    chunks = chunk_text(FILLER + NOSAFE, 800)
    assert len(chunks) == 2
    assert chunks[1] == NOSAFE
    assert chunks[0] == FILLER.strip()


def test_a_sentence_that_starts_afresh_is_cut_as_before() -> None:
    afresh = NOSAFE.replace("This enables", "Unsafe mode enables")
    chunks = chunk_text(FILLER + afresh, 800)
    assert chunks[-1] == afresh[afresh.index("Unsafe mode"):]


def test_the_option_asked_about_is_found_with_what_it_enables(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "options.txt").write_text(PAGE, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does the -nosafe option enable?", k=3)
    assert hits and "-nosafe is given" in hits[0].text and "This enables" in hits[0].text
