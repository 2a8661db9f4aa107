"""Old or loose HTML keeps all its text (trial 15, findings 13 and 14): elements left open 600
deep (``<font>`` never closed) lost every line past the 254th without a word; text after
``</html>`` (browsers show it) was dropped; a ``<summary>`` ran into the text after it. A page
nested past what libxml2 reads is named in the corpus's notes as cut."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus
from workers.sources.htmlpage import MAX_DEPTH, html_page


def _unclosed(tag: str, lines: int) -> str:
    return "<html><body>" + "".join(
        f"<{tag}>Line {i} of the {tag} page talks about thing{i} here.\n"
        for i in range(lines)) + "</body></html>"


def test_elements_left_open_hundreds_deep_keep_their_text() -> None:
    for tag in ("font", "div", "span"):
        page = html_page(_unclosed(tag, 600))
        assert "thing599" in page.text and not page.cut, tag


def test_text_after_the_closing_html_tag_and_a_summary_are_their_own() -> None:
    text = html_page("<html><body><p>Before.</p></body></html>"
                     "<p>Thetaword after the closing html tag.</p>").text
    assert text == "Before.\n\nThetaword after the closing html tag."
    text = html_page("<html><body><details><summary>Gammaword summary</summary>Deltaword "
                     "inside details.</details></body></html>").text
    assert text == "Gammaword summary\n\nDeltaword inside details."


def test_a_page_nested_past_the_parsers_depth_is_named_as_cut(tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    (root / "deep.html").write_text(_unclosed("div", MAX_DEPTH + 500), encoding="utf-8")
    (root / "after.html").write_text("<html><body><p>Intro.</p></body></html>"
                                     "<p>Thetaword lives after the html tag.</p>",
                                     encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        assert corpus.notes == [f"deep.html: cut where its elements nest deeper than "
                                f"{MAX_DEPTH}; the text past that depth is not indexed"]
        assert corpus.search("thing100")  # the text before the cut is indexed
        assert "Thetaword" in corpus.search("thetaword")[0].text
