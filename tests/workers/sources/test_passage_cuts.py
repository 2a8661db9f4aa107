"""A paragraph too long for one passage is cut between sentences, but not before a sentence
that goes on from the one before it ("This enables ..."): Asymptote's manual ended a passage
with "If the option -nosafe is given, Asymptote runs in unsafe mode." and opened the next with
"This enables the int system(string s) ... calls", so "What does the -nosafe option enable?"
cited two pages that mention -nosafe in passing and never the one that says what it enables.
Nor after an entry's labels: Exim's option name, "Use:" and "Default:" rows ended one passage
and the description the next (trial 73, F1)."""

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


ENTRY = ("message_size_limit\n\nUse: main\n\nDefault: 50M\n\nThis option limits the maximum size "
         "of message that the relay will process. ")


def test_an_entrys_labels_go_into_the_passage_of_what_they_head() -> None:
    # Exim's option entries: name, "Use:" and "Default:" rows ended one passage and the
    # description opened the next (135 of 264 passages of its main configuration chapter)
    text = FILLER + "\n\n" + ENTRY + "The value is expanded for each connection. " * 4
    chunks = chunk_text(text, 800)
    assert chunks[-1].startswith("message_size_limit\n\nUse: main\n\nDefault: 50M\n\nThis option")
    assert not any(c.endswith("Default: 50M") for c in chunks)


def test_a_run_of_short_lines_is_a_list_not_labels() -> None:
    index = "\n\n".join(f"entry {i} - crossref.html#e{i}" for i in range(12))
    chunks = chunk_text(index + "\n\n" + FILLER, 800)
    assert not any(c.startswith("entry 8") for c in chunks)
    assert chunks[-1] == FILLER.strip()


def test_an_option_opening_its_passage_ranks_first(tmp_path: Path) -> None:
    # Exim's <dt> has no anchor, so its term is no heading: "-bt" alone opens the passage of
    # its entry, which ranked below a note naming -bt four times (trial 73, F1)
    folder = tmp_path / "spec"
    folder.mkdir()
    options = "".join(
        f'<dt><span class="option">-b{c}</span></dt>\n<a id="v{c}"></a><dd>\n<p>\nThis option '
        f"runs the relay in {word} mode.</p>\n<p>{FILLER}</p></dd>\n"
        for c, word in (("s", "batch SMTP"), ("t", "address testing"), ("v", "verify")))
    notes = ("<p>Note: when testing with -bt the full results are shown; -bt tests differ "
             "from -bv tests, and -bt is what the option -bt does in testing.</p>")
    (folder / "command_line.html").write_text(
        f"<html><head><title>The command line</title></head><body><h1>Options</h1><dl>{options}"
        f"</dl>{notes}</body></html>", encoding="utf-8")
    for i in range(6):
        (folder / f"chapter{i}.html").write_text(
            f"<html><head><title>Chapter {i}</title></head><body><p>{FILLER}</p><p>The relay "
            f"option {i} does other things.</p></body></html>", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does the -bt option do?", k=4)
    assert hits[0].text.startswith("-bt\n\nThis option runs the relay in address testing"), [
        h.text[:60] for h in hits]


def test_entries_of_short_lines_are_cut_between_entries() -> None:
    # ls(1): "-C" and "list entries by columns" are both short lines; held as one run they
    # became a list, and passages ended on "-C" with its description in the next (trial 77, F5)
    entries = [(f"-{c}, --option-{c}", f"list the entries by rule {c}" + " in order" * (i % 4))
               for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")]
    text = "\n\n".join(f"{label}\n\n{what}" for label, what in entries)
    chunks = chunk_text(text, 300)
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.startswith("-") and not chunk.split("\n\n")[-1].startswith("-"), chunk
