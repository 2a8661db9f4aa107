"""Trial 100: a hostile tester's inputs against this session's indexing rules (page headers by
their printed number, sentences stitched across page breaks, groff's terms, contents lines,
option entries in the folder's boilerplate, a sidebar's logo). Each held input is a case here
as well as each fault found."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus
from workers.sources.htmlpage import html_page
from workers.sources.pagebreaks import stitched
from workers.sources.running_lines import printed_offset, without_page_header

GROFF = '<html><head><meta name="generator" content="groff -Thtml"></head><body>{}</body></html>'


def test_a_pages_outline_heading_and_a_numbered_sentence_are_not_its_header() -> None:
    # F1: "2 Installation" opening page 2 is the outline entry's heading, not a header; F2:
    # "42 is the answer to the question ..." on the page printed 42 is text
    pages = [f"{i + 1} {t}\nThe relay hums.\nIt hums on." for i, t in enumerate(
        ["Introduction", "Installation", "Configuration", "Troubleshooting"])]
    offset = printed_offset(pages)
    assert offset == 1
    assert without_page_header(pages[1], 1 + offset, ["Installation"]).startswith(
        "2 Installation")
    page = "42 is the answer to the question the quokka lantern asked\nabout life.\n42"
    assert without_page_header(page, 42) == ("42 is the answer to the question the quokka "
                                             "lantern asked\nabout life.")


def test_a_page_an_outline_entry_starts_on_keeps_its_opening() -> None:
    # F4: page 4 opens with its entry's title in lower case ("printf"): it was moved to page 3
    pages = ["The last command listed is", "printf\nprints formatted output. It takes one."]
    assert stitched(pages, {1: ["printf"]}) == pages
    assert stitched(pages)[1] == "It takes one."  # without the outline: one sentence, joined


def test_groffs_indented_prose_is_no_term_and_its_description() -> None:
    # F5: "Note that" / "the daemon never stops" became "Note that: the daemon never stops"
    page = html_page(GROFF.format(
        '<p style="margin-left:11%">Note that</p><p style="margin-left:22%">the tapir daemon '
        'never stops.</p><p style="margin-left:11%">Its log goes to</p><p style="margin-left:'
        '22%">/var/log/tapir.log</p><p style="margin-left:11%">--quiet</p><p style="margin-'
        'left:22%">say nothing</p>'))
    assert "Note that: " not in page.text and "goes to: " not in page.text, page.text
    assert "--quiet: say nothing" in page.text, page.text


def test_a_list_of_the_pages_section_names_in_prose_is_text() -> None:
    # F6: "Red / Amber / Green" (the lamps, top to bottom) was dropped as the page's contents
    page = html_page("<html><body><h1>Traffic lights</h1><p>The lamps, from top to bottom, "
                     "are:</p><p>Red<br>Amber<br>Green</p><h2>Red</h2><p>Stop.</p><h2>Amber</h2>"
                     "<p>Wait.</p><h2>Green</h2><p>Go.</p></body></html>")
    assert "Red\nAmber\nGreen" in page.text, page.text


def test_an_anchor_named_title_in_a_sidebar_block_is_kept() -> None:
    # F8: <h1><a name="top">Otter quickstart</a></h1> in a div#sidebar read as a logo link
    page = html_page('<html><body><div id="sidebar"><h1><a name="top">Otter quickstart</a></h1>'
                     '<a href="a.html">Install</a> <a href="b.html">Run</a></div><p>The otter '
                     'scheduler runs jobs.</p></body></html>')
    assert "Otter quickstart" in page.text, page.text


def test_a_footer_after_an_options_entry_is_still_boilerplate(tmp_path: Path) -> None:
    # F7: "--help: display this help and exit" kept the footer after it on every page, and a
    # footer written "-Index- | -Up: suite- | -Home-" counted as an option's entry
    folder = tmp_path / "docs"
    folder.mkdir()
    for tool in ("alpha", "beta", "gamma", "delta", "omega"):
        (folder / f"{tool}.1.html").write_text(GROFF.format(
            f'<h2>NAME</h2><p>{tool} - the {tool} narwhal tool</p><h2>OPTIONS</h2>'
            f'<p style="margin-left:11%">--help</p><p style="margin-left:22%">display the {tool} '
            'help and exit</p><p>Narwhal suite manual pages: index, search, about this site</p>'
            '<p>-Index- | -Up: narwhal suite- | -Home-</p>'), "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        text = corpus.read("alpha.1.html").text
    assert "--help: display the alpha help and exit" in text, text
    assert "Narwhal suite manual pages" not in text and "-Index-" not in text, text
