"""Pages made of links to the folder's other pages (a table of contents, an index) and pages
left with nothing but navigation are not answered from: skipped, noted in one line (trial 115,
F4: zsh's ``FAQ.html``, the FAQ's contents, was the Answer's source for "I don't have root
access: how do I make zsh my login shell?"; its seven Texinfo index pages were indexed as
"[ << ] [ < ] [ Up ] ..." and named in every report)."""
from __future__ import annotations

from pathlib import Path

from tests.workers.sources.documents_helpers import make_pdf
from workers.sources import Corpus

QUESTIONS = [f"1.{n}: How do I make the heron number {n} roost?" for n in range(1, 11)]


def _faq(root: Path) -> None:
    root.mkdir(parents=True)
    entries = "".join(f'<dt><h3><a href="FAQ01.html#l{n}">{q}</a></h3></dt>\n'
                      for n, q in enumerate(QUESTIONS))
    (root / "FAQ.html").write_text(
        "<html><head><title>Heron FAQ</title></head><body><h1>Heron FAQ</h1>"
        f"<h1>Table of Contents</h1><dl>{entries}</dl>"
        "<p>This document answers the questions asked most often about herons and their "
        "roosts.</p></body></html>")
    (root / "FAQ01.html").write_text(
        "<html><head><title>Heron FAQ, chapter 1</title></head><body>" + "".join(
            f"<h3 id='l{n}'>{q}</h3><p>Heron number {n + 1} roosts once its nest is "
            f"built on the willow {n + 1}.</p>" for n, q in enumerate(QUESTIONS))
        + "</body></html>")
    words = ", ".join(f'<a href="FAQ01.html#l{n}">willow {n + 1}</a>' for n in range(10))
    (root / "node9.html").write_text(
        f"<html><head><title>Index</title></head><body><h1>Index</h1><p>{words}</p>"
        "</body></html>")


def test_a_table_of_contents_and_an_index_are_not_answered_from(tmp_path: Path) -> None:
    root = tmp_path / "faq"
    _faq(root)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = c.search("How do I make the heron number 7 roost?", k=10)
        assert hits and hits[0].doc_id == "FAQ01.html", hits
        assert not any("number 7" in hit.text for hit in hits if hit.doc_id != "FAQ01.html")
        assert c.read("node9.html") is None
        # the contents' own prose stays, without its list of links
        intro = c.search("questions asked most often about herons", k=3)
        assert intro[0].doc_id == "FAQ.html", intro
        assert "number 7" not in c.read("FAQ.html").text
        assert c.notes == ["node9.html: skipped, a page of links to the folder's other pages (a "
                           "table of contents or an index): those pages are indexed"], c.notes


NAV = "<p>[ &lt;&lt; ] [ &lt; ] [ Up ] [ &gt; ] [ &gt;&gt; ] [Top] [Contents] [Index]</p>"
FOOT = "<p>This document was generated on February 5, 2023 using texi2any.</p>"


def test_pages_left_with_navigation_alone_are_skipped_in_one_note(tmp_path: Path) -> None:
    root = tmp_path / "manual"
    root.mkdir()
    for n, tree in enumerate(("alder", "birch", "cedar", "larch", "maple", "rowan")):
        (root / f"chapter{n}.html").write_text(
            f"<html><head><title>Chapter {n}</title></head><body>{NAV}<h1>Chapter {n}</h1>"
            f"<p>Herons of the {tree} colony nest in the reeds.</p>{FOOT}</body></html>")
    for name in ("Concept", "Options", "Functions", "Variables"):
        (root / f"{name}-Index.html").write_text(
            f"<html><head><title>{name} Index</title></head><body>{NAV}<h1>{name} Index</h1>"
            f"{FOOT}</body></html>")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = c.search("index contents top", k=10)
        assert all(not hit.doc_id.endswith("-Index.html") for hit in hits), hits
        assert c.read("Concept-Index.html") is None
        assert c.notes == ["4 files skipped, nothing but the navigation the pages indexed carry "
                           "too (Concept-Index.html, Functions-Index.html, Options-Index.html, "
                           "Variables-Index.html)"], c.notes
        assert "larch colony" in c.search("herons larch colony reeds")[0].text


CHANGES = ["The bandwidth limit can now be changed while a sync is running",
           "quill.conf can include other files with include =",
           "IPv6 addresses are accepted in brackets", "prune keeps snapshots by age",
           "A hook can run after a failed sync", "restore removes files added since then",
           "quill status prints the time of the last sync", "Long paths work on Windows",
           "DSA keys are no longer accepted"]


def test_a_list_of_links_to_pages_the_folder_lacks_is_the_pages_own_text(
    tmp_path: Path,
) -> None:
    # a release's notes, each change a link to a page (one of nine in the folder), were
    # skipped as "a page of links ...: those pages are indexed" (trial 119, F2)
    root = tmp_path / "quill"
    root.mkdir()
    items = "".join(f'<li><a href="{name}.html#new">{change}</a></li>' for name, change in
                    zip(["sync", "config", "net", "prune", "hooks", "restore", "status",
                         "windows", "ssh"], CHANGES, strict=True))
    (root / "changes.html").write_text(
        "<html><head><title>Changes in quill 1.4</title></head><body><h1>Changes in quill "
        f"1.4</h1><ul>{items}</ul></body></html>")
    (root / "sync.html").write_text(
        "<html><head><title>Syncing</title></head><body><h1>Syncing</h1><p>Run quill sync to "
        "copy the folder; bwlimit limits the bandwidth a sync uses.</p></body></html>")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert "DSA keys are no longer accepted" in c.read("changes.html").text
        assert c.notes == [], c.notes


WARNING = ("<p class='warning'>Warning: the quill server protocol is not encrypted. Never expose "
           "port 8730 to the internet; reach it through an SSH tunnel.</p>")


def test_a_warning_every_page_repeats_stays_in_one_passage(tmp_path: Path) -> None:
    # stripped from all five pages as boilerplate, the warning was in no passage, and the page
    # it was the whole text of was skipped as "nothing but the navigation ..." (trial 119, F1)
    root = tmp_path / "quill"
    root.mkdir()
    for name, own in (("install", "Install quill with pip install quill on the server host."),
                      ("config", "The server reads /etc/quill/server.conf at start."),
                      ("users", "Add a user with quill adduser NAME."),
                      ("backup", "Back up /srv/quill and /etc/quill every night.")):
        (root / f"{name}.html").write_text(f"<html><head><title>{name}</title></head><body>"
                                           f"<h1>{name}</h1>{WARNING}<p>{own}</p></body></html>")
    with Corpus.open(tmp_path / "data", folder=root) as c:  # without security.html: kept once
        held = [n for n in ("install", "config", "users", "backup")
                if "port 8730" in c.read(f"{n}.html").text]
        assert len(held) == 1, held
    (root / "security.html").write_text("<html><head><title>Security</title></head><body><h1>"
                                        f"Security</h1>{WARNING}</body></html>")
    with Corpus.open(tmp_path / "data2", folder=root) as c:
        assert c.notes == [], c.notes
        assert "port 8730" in c.read("security.html").text
        assert "port 8730" not in c.read("install.html").text
        hits = c.search("Is it safe to expose port 8730 to the internet?", k=3)
        assert hits and hits[0].doc_id == "security.html", hits


def _landing(root: Path, prose: str) -> None:
    """A manual's HTML page, its PDF and its text, and an ``index.html`` offering the three
    with ``prose`` beside the links."""
    root.mkdir(parents=True)
    (root / "manual.html").write_text(
        "<html><head><title>Heron manual</title></head><body><h1>Heron manual</h1><p>Herons "
        "roost on the willows by the lake once their nests are built.</p></body></html>")
    (root / "manual.txt").write_text("Heron manual\n\nThe heron census is taken each spring.\n")
    (root / "manual.pdf").write_bytes(make_pdf(["The egrets fledge in a wet year."]))
    (root / "index.html").write_text(
        "<html><head><title>Heron manual (version 2)</title></head><body><h1>Heron manual "
        "(version 2)</h1><dl><dt>English</dt><dd><a href='manual.html'>HTML</a>, <a "
        "href='manual.txt'>plain text</a>, <a href='manual.pdf'>PDF</a></dd></dl>"
        f"<p>{prose}</p></body></html>")


def test_a_landing_page_offering_the_manuals_formats_is_passed_over(tmp_path: Path) -> None:
    # the Debian Reference's index.html (its HTML, text and PDF, and four sentences on reading
    # them) was indexed and could be cited (trial 124, FA3)
    about = ("All files are encoded in UTF-8. If your language is not in this list, install "
             "its package. Some browsers may not read compressed text: use a viewer.")
    _landing(tmp_path / "landing", about)
    with Corpus.open(tmp_path / "d1", folder=tmp_path / "landing") as c:
        assert c.passage("index.html#0") is None
        assert "index.html: skipped, a page of links to the folder's other pages (a table of "\
               "contents or an index): those pages are indexed" in c.notes, c.notes
        assert c.search("heron willows roost", k=1)[0].doc_id == "manual.html"
    # a page that says what the manual is about is the manual's page too, and stays
    story = " ".join(f"The heron colony {n} nests on the willows of the north shore and the "
                     "wardens count its pairs each spring." for n in range(5))
    _landing(tmp_path / "prose", f"{about} {story}")
    with Corpus.open(tmp_path / "d2", folder=tmp_path / "prose") as c:
        assert c.passage("index.html#0") is not None
