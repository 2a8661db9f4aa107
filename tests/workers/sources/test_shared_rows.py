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


FURNISHED = ("<html><head><title>{name}</title></head><body id=\"top\"><h1>{name}</h1>"
             "<div class=\"cookie-banner\"><p>We use cookies to improve your experience on this "
             "site. By continuing to browse you agree to our use of cookies.</p></div>"
             "<p>This page describes {name} in quill.</p>"
             "<h2>Using {name}</h2><p>Run quill {name} to use it on a folder.</p>"
             "<p><a href=\"#top\">Back to top</a></p>"
             "<h2>Options of {name}</h2><p>quill {name} takes the folder as its argument.</p>"
             "<p><a href=\"#top\">Back to top</a></p>"
             "<div class=\"feedback\"><p>Was this page helpful? Yes No</p></div>"
             "<p>Last updated on 2024-0{month}-01.</p></body></html>")


def test_furniture_between_a_pages_own_paragraphs_is_still_furniture(tmp_path: Path) -> None:
    # trial 120, F1: since the rows of trial 117 were kept, a "Back to top" link between
    # sections, a feedback box before a per-page "Last updated" line and a cookie banner were
    # indexed, and the banner was cited as what "What are hooks in quill?" found
    folder = tmp_path / "docs"
    folder.mkdir()
    for month, name in enumerate(("sync", "install", "config", "server", "backup", "hooks"), 1):
        (folder / f"{name}.html").write_text(FURNISHED.format(name=name, month=month), "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        texts = [corpus.read(f"{name}.html").text for name in ("sync", "hooks")]
    for text in texts:
        assert "in quill" in text and "Last updated" in text, text
        for furniture in ("Back to top", "Was this page helpful", "cookies"):
            assert furniture not in text, text


def test_a_page_whose_body_names_its_cookie_banner_keeps_its_text() -> None:
    page = html_page('<html><body class="has-cookie-banner"><div class="cookie-consent"><p>We '
                     'use cookies.</p></div><p>quill syncs folders.</p></body></html>')
    assert page.text == "quill syncs folders.", page.text
