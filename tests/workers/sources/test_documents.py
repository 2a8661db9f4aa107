"""``--corpus DIR`` reads PDF pages and .docx files, cites file and page, and skips bad files
with a note instead of crashing. Every file is built by the test (documents_helpers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.workers.sources.documents_helpers import (
    encrypt_pdf,
    make_docx,
    make_pdf,
    outline_pdf,
    pdf_of_streams,
    pdf_string,
)
from workers.sources import Corpus, CorpusError, Passage

PAGES = [
    "Heron census methods\nVolunteers count herons along the river every spring.",
    "The pelican ledger records sardine deliveries for each colony.",
    "Appendix: the ocelot firmware checksum is verified at boot.",
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "reports").mkdir(parents=True)
    (root / "reports" / "survey.pdf").write_bytes(make_pdf(PAGES))
    make_docx(
        root / "minutes.docx",
        ["Board minutes", "The board approved the quokka habitat budget for next year."],
        table=[["Item", "Owner"], ["Lantern repair", "Marguerite"]],
    )
    (root / "notes.md").write_text("Plain notes about capybara grooming schedules.\n")
    return root


def test_pdf_pages_are_cited_by_file_and_page(folder: Path, tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("pelican ledger sardine", k=1)
        assert hit.ref == "reports/survey.pdf:p2#0"
        assert hit.title == "survey.pdf"
        assert hit.source == "reports/survey.pdf, page 2"
        assert "pelican ledger records sardine deliveries" in hit.text
        assert hit.citation() == "`reports/survey.pdf:p2#0`: reports/survey.pdf, page 2"
        assert corpus.search("ocelot firmware checksum", k=1)[0].ref == "reports/survey.pdf:p3#0"
        # the citation resolves, and reading it gives the page
        assert corpus.passage(hit.ref) is not None
        page = corpus.read(hit.ref)
        assert page is not None and "sardine" in page.text and "ocelot" not in page.text
        assert corpus.notes == []


def test_docx_paragraphs_and_tables_are_indexed(folder: Path, tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("quokka habitat budget", k=1)
        assert hit.ref == Passage.make_ref("minutes.docx", 0)
        assert hit.source == "minutes.docx"
        assert "approved the quokka habitat budget" in hit.text
        assert "Lantern repair — Owner: Marguerite." in corpus.read("minutes.docx").text
        # text files are indexed next to them as before
        assert corpus.search("capybara grooming")[0].ref == "notes.md#0"


def test_an_empty_docx_is_named_like_an_empty_text_file(folder: Path, tmp_path: Path) -> None:
    # Issue 21 (trial 6, minor): an empty .docx beside other files was skipped without a note.
    make_docx(folder / "empty.docx", [])
    (folder / "empty.md").write_text("\n", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        assert sorted(corpus.notes) == ["empty.docx: skipped, no text",
                                        "empty.md: skipped, no text"]


def test_encrypted_and_broken_files_are_skipped_with_a_note(folder: Path, tmp_path: Path) -> None:
    secret = make_pdf(["The walrus treaty is confidential."])
    (folder / "secret.pdf").write_bytes(encrypt_pdf(secret, user_password="hunter2"))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog")
    (folder / "truncated.pdf").write_bytes(make_pdf(PAGES)[:200])
    (folder / "broken.docx").write_bytes(b"PK\x03\x04 this is not a zip archive")
    # an owner-password-only PDF opens with the empty password: it is read, not skipped
    (folder / "owner-only.pdf").write_bytes(
        encrypt_pdf(make_pdf(["Narwhal tusks are teeth."]), user_password="")
    )

    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        assert corpus.search("walrus treaty") == []
        assert corpus.search("narwhal tusks")[0].ref == "owner-only.pdf:p1#0"
        assert corpus.search("pelican sardine")[0].ref == "reports/survey.pdf:p2#0"
        notes = corpus.notes
        # survey.pdf (3 pages), minutes.docx, notes.md, owner-only.pdf: the four skipped files
        # are named in the notes, not counted indexed (a new user saw them in the run's count)
        assert "(4 files indexed, 4 more read but not indexed" in corpus.description
    assert "secret.pdf: skipped, encrypted (needs a password)" in notes
    assert any(n.startswith("broken.pdf: skipped") for n in notes), notes
    assert any(n.startswith("truncated.pdf: skipped") for n in notes), notes
    assert any(n.startswith("broken.docx: skipped, not a readable .docx") for n in notes), notes
    assert not any("owner-only" in n for n in notes)
    # the notes are kept in the index: a cached open says the same
    with Corpus.open(tmp_path / "data", folder=folder) as again:
        assert not again.built and again.notes == notes


def test_a_folder_of_only_encrypted_pdfs_says_why(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.pdf").write_bytes(encrypt_pdf(make_pdf(["Locked text here."]), "pw"))
    with pytest.raises(CorpusError) as err:
        Corpus.open(tmp_path / "data", folder=root)
    message = str(err.value)
    assert "\n" not in message
    assert "contains no indexable text" in message and "1 file skipped as encrypted" in message
    assert ".pdf" in message and ".docx" in message  # the indexable types are listed


def test_a_changed_pdf_rebuilds_the_index(folder: Path, tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=folder) as first:
        assert first.search("pelican")
    (folder / "reports" / "survey.pdf").write_bytes(make_pdf(["Only flamingos now, pink ones."]))
    with Corpus.open(tmp_path / "data", folder=folder) as second:
        assert second.built
        assert second.search("pelican") == []
        assert second.search("flamingos")[0].ref == "reports/survey.pdf:p1#0"


def test_a_pdf_outline_gives_its_pages_headings(tmp_path: Path) -> None:
    """Issue 19, section 2: a PDF's outline entries are its passages' headings, indexed as a
    field, so a page found by its section's name cites the right page."""
    import sqlite3

    pages = [
        "1 Overview\nThe heron survey counts birds along the river.",
        "Intro text about the survey tail.\n2 Setup\nUnpack the capybara kit first.\n"
        "2.1 Lantern tuning\nTurn the brass dial until the flame is blue.",
        "Keep the wick trimmed to one centimetre.",
    ]
    root = tmp_path / "docs"
    root.mkdir()
    (root / "manual.pdf").write_bytes(outline_pdf(make_pdf(pages), [
        ("Overview", 0, None), ("Setup", 1, None), ("Lantern tuning", 1, 1),
    ]))
    (root / "plain.pdf").write_bytes(make_pdf(["Lantern tuning is not a heading here."]))
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        con = sqlite3.connect(corpus.path)
        rows = con.execute("SELECT doc_id, heading, text FROM passages ORDER BY doc_id, seq")
        found = [(doc, heading, text.split("\n")[0]) for doc, heading, text in rows]
        con.close()
        assert found == [
            ("manual.pdf:p1", "Overview", "1 Overview"),
            ("manual.pdf:p2", "Overview", "Intro text about the survey tail."),
            ("manual.pdf:p2", "Setup", "2 Setup"),
            ("manual.pdf:p2", "Lantern tuning", "2.1 Lantern tuning"),
            # the third page is headed by the entry in effect: its text never names it
            ("manual.pdf:p3", "Lantern tuning", "Keep the wick trimmed to one centimetre."),
            ("plain.pdf:p1", "", "Lantern tuning is not a heading here."),
        ]
        hits = corpus.search("lantern tuning wick", k=3)
        assert hits[0].ref == "manual.pdf:p3#0", [h.ref for h in hits]


def test_a_docx_that_expands_past_the_limit_is_skipped_before_it_is_parsed(
        folder: Path, tmp_path: Path) -> None:
    # Trial 10: a 780 KB .docx whose document.xml expands to 256 MB passed the 32 MB file limit
    # (on the zipped bytes) and took 3.4 GB of memory to index. Here: just past the limit.
    import zipfile

    from workers.sources.documents import MAX_DOCX_XML_BYTES

    plain = make_docx(tmp_path / "plain.docx", ["Bomb", "The walrus census is annual."])
    bomb = folder / "bomb.docx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/document.xml":
                pad = b"<!--" + b" " * (MAX_DOCX_XML_BYTES + 1) + b"-->"
                data = data.replace(b"<w:body>", b"<w:body>" + pad, 1)
            out.writestr(info, data)
    assert bomb.stat().st_size < 1024 * 1024
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        (note,) = [n for n in corpus.notes if n.startswith("bomb.docx")]
        assert re.fullmatch(r"bomb\.docx: skipped, expands to 3[34] MB of XML \(more than 32 MB\)",
                            note), note
        assert "minutes.docx#0" in {p.ref for p in corpus.search("quokka habitat budget")}
    # alone in its folder, the refusal gives the same reason (trial 11: "larger than 2 MB")
    only = tmp_path / "only"
    only.mkdir()
    bomb.rename(only / "bomb.docx")
    with pytest.raises(CorpusError, match="1 file skipped as expanding past 32 MB of XML"):
        Corpus.open(tmp_path / "data2", folder=only)


def test_a_file_whose_text_all_repeats_keeps_its_first_page(tmp_path: Path) -> None:
    # Trial 10: a PDF of one page and a PDF repeating that page 50 times: the page's text is in
    # every document, so it was stripped as a header would be, and the folder was refused as
    # "the folder is empty". Trial 11: such a PDF beside a note of other text was dropped, and
    # the one document that answered the topic with it.
    page = "Heron census page one: nests are counted from aerial photos."
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "p1.pdf").write_bytes(make_pdf([page]))
    (papers / "q.pdf").write_bytes(make_pdf([page] * 50))
    why = "all its text repeats across the folder's documents: indexed"
    with Corpus.open(tmp_path / "data", folder=papers) as corpus:
        assert [n for n in corpus.notes if why in n] == [f"p1.pdf: {why} as it is",
                                                         f"q.pdf: {why} once, from its first page"]
        assert corpus.search("heron census nests")[0].text.startswith("Heron census page one")
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "q.pdf").write_bytes(make_pdf([page] * 50))
    (alone / "other.md").write_text("Egret notes: egrets are counted at dusk.\n", "utf-8")
    with Corpus.open(tmp_path / "data2", folder=alone) as corpus:
        assert corpus.search("heron census nests")[0].ref == "q.pdf:p1#0"


def test_a_pdfs_running_headers_and_footers_are_not_indexed(tmp_path: Path) -> None:
    # Trial 18, finding 2: gnuplot's manual heads its pages "gnuplot 5.4 167" and "168 gnuplot
    # 5.4"; each page's first sentence began with it, and the report quoted it so
    pages = [(f"Relay Manual 2.1 {n}" if n % 2 else f"{n} Relay Manual 2.1")
             + f"\nThe relay on page {n} hums at {40 + n} hertz.\nPrinted {n}/6"
             for n in range(1, 7)]
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(make_pdf(pages))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("relay hums hertz", k=10)
    assert len(hits) == 6
    for hit in hits:
        assert "Relay Manual" not in hit.text and "Printed" not in hit.text, hit.text
        assert re.fullmatch(r"The relay on page \d hums at \d+ hertz\.", hit.text.strip()), hit


def test_a_word_a_pdf_breaks_at_a_line_end_is_found_whole(tmp_path: Path) -> None:
    # Trial 18, finding 11: TeX breaks words at line ends ("aes-" / "thetically"); a search
    # for the word found none of them, and the report quoted "aes- thetically"
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(make_pdf(
        ["The plot looks aes-\nthetically pleasing with smooth curves.",
         "A read-only plot is kept; a read-\nonly figure too."]))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("aesthetically pleasing", k=1)
        [figure] = corpus.search("figure", k=1)
    assert "aesthetically pleasing" in hit.text and "aes-" not in hit.text
    # trial 19, finding 7: a compound the file writes whole keeps its hyphen when broken
    assert "a read-only figure" in figure.text, figure.text


def test_a_pdf_sections_title_line_is_not_read_into_its_first_sentence(tmp_path: Path) -> None:
    # Trial 18, finding 3: "Fit The fit command fits ..." (the outline entry's title line ran
    # into the sentence under it, and the Answer quoted it so)
    from app.llm.offline.sentences import prose_sentences

    root = tmp_path / "docs"
    root.mkdir()
    pages = ["Fit\nThe fit command fits an expression to data points.\nIt uses weights."]
    (root / "manual.pdf").write_bytes(outline_pdf(make_pdf(pages), [("Fit", 0, None)]))
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        [hit] = corpus.search("fit command expression", k=1)
    assert hit.text.startswith("Fit\n\nThe fit command"), hit.text
    assert prose_sentences(hit.text)[0] == "The fit command fits an expression to data points."


def test_a_pdfs_table_rows_and_repeated_warnings_stay_in_its_text(tmp_path: Path) -> None:
    # Trial 19, findings 5 and 6: number-only rows all read as "# # #" and were left out as
    # running lines at the top and bottom of every page; so was a safety warning on each page
    pages = [f"{n} {n * 7} {n * 13}\nThe kiln log of week {n} lists the firings.\n"
             "Never open the kiln above 400 degrees." for n in range(1, 7)]
    from workers.sources.running_lines import running_lines

    assert running_lines(pages) == frozenset()
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "kiln.pdf").write_bytes(make_pdf(pages))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("kiln above 400 degrees", k=10)
    assert len(hits) == 6 and all("Never open the kiln" in h.text for h in hits)
    assert all(re.match(r"\d+ \d+ \d+\n", h.text) for h in hits), [h.text for h in hits]


def _set_as_ghostscript_does(segments: list[tuple[float, float, str]]) -> str:
    """A content stream drawing ``segments`` (``(Tc, Tw, text)``, in a 10 pt Courier whose
    glyphs are 6 pt wide) as Ghostscript's pdfwrite writes a justified line: each string at its
    own ``Td``, where the last glyph of the one before ends; a word gap inside a string is its
    character spacing, a wider space its word spacing."""
    ops = ["BT /F1 10 Tf 72 720 Td"]
    for tc, tw, text in segments:
        ops.append(f"{tc} Tc {tw} Tw {pdf_string(text)} Tj")
        advance = sum(6 + tc + (tw if ch == " " else 0) for ch in text[:-1]) + 6
        ops.append(f"{advance:.3f} 0 Td")
    return "\n".join([*ops, "ET"])


def test_a_pdfs_words_are_spaced_where_its_glyphs_are(tmp_path: Path) -> None:
    # Trial 45, fault 7: Bash's man page (groff, then Ghostscript) was read "tw oadjacent
    # *sused", "the yare", "giv en": pypdf does not see a gap made by character spacing (Tc)
    # inside one string, nor count word spacing (Tw) in a string's width, nor a space glyph
    # drawn with no advance
    line = [(0, 1.5, "If the"), (7.5, 0, "ya"), (0, 1.5, "re tw"), (7.5, 0, "oa"),
            (0, 1.5, "djacent stars, gi"), (-0.5, -5.0, "v e"), (0, 1.5, "n names.")]
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "man.pdf").write_bytes(
        pdf_of_streams([_set_as_ghostscript_does(line)], font="Courier"))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("adjacent stars", k=1)
        assert [p.ref for p in corpus.search("given names", k=1)] == [hit.ref]
    assert hit.text.strip() == "If they are two adjacent stars, given names.", hit.text


def test_a_string_ending_in_a_space_and_a_tracked_title_keep_their_words(tmp_path: Path) -> None:
    # Trial 48, F6: gropdf's "0.58 Tw [(for each )] TJ ... (name) Tj" was read "eachname" (the
    # space glyph ending the string was dropped with its spacing); F7: a title set with
    # character spacing (reportlab, fpdf2) was read "Q U A R T E R L Y  R E P O R T"
    stream = "\n".join([
        "BT /F1 10 Tf 72 720 Td 0.58 Tw [(an alias for each )] TJ 0 Tw",
        "78.8 0 Td (name) Tj ET",
        "BT /F1 10 Tf 72 700 Td 3 Tc (QUARTERLY REPORT) Tj 0 Tc ET"])
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "man.pdf").write_bytes(pdf_of_streams([stream], font="Courier"))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("quarterly report", k=1)
    assert "an alias for each name" in hit.text and "QUARTERLY REPORT" in hit.text, hit.text


def test_ligatures_are_read_as_their_letters(tmp_path: Path) -> None:
    # Trial 45, fault 7: Bash's man page names its glyphs "fi" and "fl"; pypdf gave U+FB01 and
    # U+FB02, the report quoted "ﬁles", and a search for "files" found none of them. A .docx
    # or HTML page pasted from a PDF holds them too.
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "man.pdf").write_bytes(make_pdf(["The \x01rst \x02ag names the \x01les."],
                                              differences="1 /fi /fl"))
    make_docx(folder / "memo.docx", ["Memo", "Re\ufb02ow the ot\ufb01le cards."])
    (folder / "page.html").write_text("<title>O\ufb03ce</title><p>Sta\ufb00 \ufb01ling.</p>",
                                      "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [pdf] = corpus.search("first flag files", k=1)
        [docx] = corpus.search("reflow otfile", k=1)
        [html] = corpus.search("staff filing", k=1)
    assert pdf.text.strip() == "The first flag names the files.", pdf.text
    assert "Reflow the otfile cards." in docx.text, docx.text
    assert "Staff filing." in html.text and html.title == "Office", (html.text, html.title)


def test_a_pdfs_heading_lines_are_not_read_into_the_next_sentence(tmp_path: Path) -> None:
    # Trial 45, fault 7: "Invoked as an interactive login shell, or with --login When Bash is
    # invoked ..." opened an Answer: a subsection's title the outline does not list (and a man
    # page's section names, which have no outline) ran into the sentence under it
    from app.llm.offline.sentences import prose_sentences

    page = ("Interactive shells are described in the section on interactive shells below.\n"
            "Invoked as an interactive login shell\n"
            "When the heron shell is invoked as an interactive login shell, it first reads\n"
            "the file of startup commands, and then the profile in the home directory.\n"
            "PATTERN MATCHING\n"
            "Any character that appears in a pattern, other than the special characters,\n"
            "matches itself; so, typically, the pattern of a heron file name is its name.\n"
            "Special characters are listed in the table of the section on globbing.\n"
            "So, typically, your profile holds the line\n"
            "if [ -f ~/.heronrc ]; then . ~/.heronrc; fi")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "shell.pdf").write_bytes(make_pdf([page]))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("heron shell login startup pattern", k=1)
    assert "\n\nInvoked as an interactive login shell\n\nWhen the heron" in hit.text, hit.text
    assert "\n\nPATTERN MATCHING\n\nAny character" in hit.text, hit.text
    sentences = prose_sentences(hit.text)
    assert any(s.startswith("When the heron shell is invoked") for s in sentences), sentences
    assert any(s.startswith("Any character that appears") for s in sentences), sentences
    assert not any("login shell When" in s or "MATCHING Any" in s for s in sentences)
    # a short line that the next line goes on from (in lower case) is no heading
    assert "globbing.\nSo, typically, your profile holds the line\nif [" in hit.text, hit.text
