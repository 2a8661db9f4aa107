"""Trials 117 and 118: what a folder's pages share that is their content, not their furniture
(a reference entry's field rows), and the pages a site's generator made of links."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus
from workers.sources.htmlpage import html_page

PAGE = ("<html><head><title>{name}</title></head><body><p>Home | Prev | Next</p>"
        "<p>Quokka manual</p><h1>The {name} driver</h1><p>Contents below</p>"
        "<p>The {name} driver moves mail for the quokka.</p>"
        "<table><tr><td>{name}_retry</td><td>Use: {name}</td><td>Type: boolean</td>"
        "<td>Default: false</td></tr></table><p>When set, the {name} driver retries.</p>"
        "<table><tr><td>timeout</td><td>Use: {name}</td><td>Type: time</td>"
        "<td>Default: unset</td></tr></table><p>How long the {name} driver waits.</p>"
        "<p>Copyright the quokka authors</p></body></html>")


def test_a_reference_entrys_rows_that_pages_share_are_kept(tmp_path: Path) -> None:
    # F1 (trial 117): Exim's "Type: boolean" / "Default: false" rows and an option named
    # "timeout" on several pages were stripped as navigation; the bars around them still go
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("pipe", "lmtp", "smtp", "autoreply", "appendfile"):
        (folder / f"{name}.html").write_text(PAGE.format(name=name), "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        text = corpus.read("pipe.html").text
    assert "pipe_retry" in text and "Type: boolean" in text and "Default: false" in text, text
    assert "timeout" in text and "Type: time" in text and "Default: unset" in text, text
    for furniture in ("Home | Prev", "Quokka manual", "Contents below", "Copyright"):
        assert furniture not in text, text


def test_a_footnote_reference_with_no_superscript_is_no_word_of_its_sentence() -> None:
    # F8 (trial 118): docutils 0.18 writes the mark as a link of its own, no <sup>: "BIND
    # includes a copy 4 of the root key"; Pandoc's class names it too; a citation stays
    page = html_page('<html><body><p>It includes a copy <a class="footnote-reference brackets" '
                     'href="#root" id="id21" role="doc-noteref"><span class="fn-bracket">[</span>'
                     '4<span class="fn-bracket">]</span></a> of the root key, signed<a href="#fn1"'
                     ' class="footnote-ref">1</a> by <a href="#rfc">RFC 5011</a>.</p>'
                     '</body></html>')
    assert page.text == "It includes a copy of the root key, signed by RFC 5011.", page.text
