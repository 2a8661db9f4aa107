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


def test_a_huge_title_or_heading_is_cut_for_the_index(tmp_path) -> None:
    # Trial 61, F4: a page's 1 MB <title> was every report's label and source line (twice
    # 909 KB), 1.4 million tokens counted; a 1 MB heading, repeated on each passage of its
    # section, took 91 s to index (one under 64 KB is kept as written: SQLite's keyword index)
    from workers.sources import Corpus
    from workers.sources.text import MAX_TITLE_CHARS

    folder = tmp_path / "docs"
    folder.mkdir()
    huge = " ".join(f"heron{i}" for i in range(100_000))
    (folder / "page.html").write_text(
        f"<html><head><title>{huge}</title></head><body><h2>{huge}</h2><p>The zorblax "
        "calibration interval is 42 minutes.</p></body></html>", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("zorblax calibration interval", k=1)
    assert len(hit.title) <= MAX_TITLE_CHARS and hit.title.endswith("…"), hit.title[-50:]
    assert hit.title.startswith("heron0 heron1 ") and len(hit.heading) <= MAX_TITLE_CHARS
    assert "The zorblax calibration interval is 42 minutes." in hit.text


def test_a_refused_folder_names_its_files_and_why(tmp_path) -> None:
    # Trial 61, F7: a page whose text sits past the nesting depth read was cut, then found
    # without text, and the folder was refused with "1 file without text" and no name
    import pytest

    from workers.sources import Corpus, CorpusError

    folder = tmp_path / "docs"
    folder.mkdir()
    depth = MAX_DEPTH + 500
    (folder / "n.html").write_text("<html><body>" + "<div>" * depth + "Deep heron text."
                                   + "</div>" * depth + "</body></html>", encoding="utf-8")
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=folder)
    said = str(info.value)
    assert (f"1 file without text (n.html: cut where its elements nest deeper than {MAX_DEPTH}; "
            "the text past that depth is not indexed; n.html: skipped, no text)") in said, said


def test_a_line_break_ends_a_line_and_two_end_a_paragraph() -> None:
    # Trial 61, F3: Valgrind's READMEs (DocBook's literallayout) write a <br> per line, and each
    # line was a paragraph: "This release supports X86/Linux, AMD64/Linux, ARM32/Linux,
    # ARM64/Linux," was quoted as a sentence
    page = html_page('<html><body><div class="literallayout"><p><br>Supported platforms<br>'
                     '-------------------<br>- MIPS32 and MIPS64 are supported.<br>- Both '
                     'endians are<br>supported.<br><br>This release supports X86/Linux,<br>'
                     'AMD64/Linux and ARM64/Linux.<br></p></div></body></html>')
    assert page.text.split("\n\n") == [
        "Supported platforms\n-------------------\n- MIPS32 and MIPS64 are supported.\n- Both "
        "endians are\nsupported.", "This release supports X86/Linux,\nAMD64/Linux and "
        "ARM64/Linux."], page.text


def test_an_admonitions_title_labels_its_text() -> None:
    # trial 82, F10: the Debian Reference's DocBook caution ("<th>Caution</th>" above "The
    # direct alteration of owner or mode ... is reset by the next upgrade.") was a finding beside
    # "No limitations or warnings were found"; Sphinx's admonition-title is the same kind
    page = html_page('<html><body><p>Intro text here.</p><div class="admonition warning"><p '
                     'class="admonition-title">Warning</p><p>Do not delete the cache while '
                     'running.</p></div><div class="caution"><table border="0" summary="Caution">'
                     '<tr><td rowspan="2"><img alt="[Caution]" src="c.png"/></td><th align="left">'
                     'Caution</th></tr><tr><td><p>The direct alteration of owner is reset by the '
                     'next upgrade.</p></td></tr></table></div></body></html>')
    assert page.text == ("Intro text here.\n\nWarning: Do not delete the cache while running."
                         "\n\nCaution: The direct alteration of owner is reset by the next "
                         "upgrade."), page.text


def test_a_page_with_an_empty_title_is_titled_by_its_first_heading() -> None:
    # Trial 121, F11: git's technical/reftable.html writes "<title></title>" and was cited by
    # its path alone; a page without a <title> at all is titled the same way
    page = html_page("<html><head><title> </title></head><body><div><h2>reftable</h2><h3>"
                     "Overview</h3><h4>Problem statement</h4><p>The reftable format is a "
                     "binary format.</p></div></body></html>")
    assert page.title == "reftable"  # not the heading of its first passage
    assert html_page("<html><body><h1>Zorblax guide</h1><p>Text.</p></body></html>"
                     ).title == "Zorblax guide"
    assert html_page("<html><head><title>Kept</title></head><body><h1>Other</h1><p>T.</p>"
                     "</body></html>").title == "Kept"
