"""An HTML page that only redirects to another is skipped, named in the run's notes: flex's
manual holds 49 such Texinfo stubs ("The node you are looking for is at Scanning Strings."),
each indexed as a passage (trial 101, F8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.sources import Corpus

STUB = """<html><!-- This file redirects to the location of a node or anchor --><head>
<title>Scanning Strings (Lexical Analysis With Flex)</title>
<meta name="Generator" content="makeinfo">
<meta http-equiv="Refresh" content="0; url=Multiple-Input-Buffers.html#Scanning-Strings">
</head><body><p>The node you are looking for is at
<a href="Multiple-Input-Buffers.html#Scanning-Strings">Scanning Strings</a>.</p></body></html>"""

TARGET = """<html><head><title>Multiple Input Buffers</title></head><body>
<h2>Multiple Input Buffers</h2><p>The yy_scan_string function scans a string in memory
instead of a file, and returns a new input buffer for it.</p></body></html>"""

MOVED_WITH_TEXT = """<html><head><meta http-equiv='refresh' content='30;URL=new.html'></head>
<body><h2>Harbour tides</h2><p>{}</p></body></html>""".format(
    "The harbour's tide table lists high and low water for each day of the month. " * 8)


def test_a_redirect_stub_is_skipped_and_named_and_its_target_is_found(tmp_path: Path) -> None:
    root = tmp_path / "flex"
    root.mkdir()
    for i in range(5):
        (root / f"stub{i}.html").write_text(STUB.replace("Strings", f"Strings{i}"))
    (root / "Multiple-Input-Buffers.html").write_text(TARGET)
    (root / "tides.html").write_text(MOVED_WITH_TEXT)
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        assert all(corpus.passage(f"stub{i}.html#0") is None for i in range(5))
        hits = corpus.search("scan a string in memory", k=3)
        assert [h.ref for h in hits] == ["Multiple-Input-Buffers.html#0"], hits
        # a page with text of its own that also refreshes is a page
        assert corpus.passage("tides.html#0") is not None
        assert corpus.meta["documents"] == "2"
        notes = corpus.notes
        assert any(n.startswith("5 files skipped, pages that only redirect to another (stub0"
                                ".html -> Multiple-Input-Buffers.html#Scanning-Strings0")
                   for n in notes), notes


@pytest.mark.parametrize("page", [
    # a status page reloading itself every five minutes
    '<html><head><meta http-equiv="refresh" content="300; url=page.html"></head><body>',
    # a refresh in a comment, a script's string, and a <noscript> of a page with no head
    '<html><head><!-- old: <meta http-equiv="refresh" content="0; url=old.html"> --></head><body>',
    "<html><head><script>document.write('<meta http-equiv=\"refresh\" content=\"0; "
    "url=old.html\">')</script></head><body>",
    '<!doctype html><title>Frob</title><noscript><meta http-equiv="refresh" content="0; '
    'url=nojs.html"></noscript>',
    # a refresh at once, but to the page itself
    '<html><head><meta http-equiv="refresh" content="0; url=page.html#top"></head><body>',
])
def test_a_short_page_that_does_not_send_its_reader_away_is_indexed(tmp_path: Path,
                                                                    page: str) -> None:
    # each was skipped as a redirect stub and a folder of them refused (trial 103, F1)
    root = tmp_path / "site"
    root.mkdir()
    (root / "page.html").write_text(f"{page}<p>The nightly build of frobnicate runs at 02:00 "
                                    "UTC; a red badge means it failed.</p></body></html>")
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        assert "nightly build" in corpus.passage("page.html#0").text


DOWNLOAD = """<!DOCTYPE html>
<html><head><title>Download quillsync 2.0</title>
<meta http-equiv="refresh" content="3; url=https://downloads.example.org/quillsync-2.0.tar.gz">
</head><body>
<h1>Download quillsync 2.0</h1>
<p>Your download starts in 3 seconds. Verify the archive before you build it: its SHA-256 checksum
is 9f2c4e1a7b, and it is signed with the release key 0x5EED1953.</p>
</body></html>"""

MOVED = """<html><head><title>Moved</title><meta http-equiv="refresh" content="0;
url=https://quillsync.example.org/manual/"></head><body><h1>This manual has moved</h1><p>It now
lives at <a href="https://quillsync.example.org/manual/">quillsync.example.org</a>. Please
update your bookmarks.</p></body></html>"""


@pytest.mark.parametrize("target", ["https://downloads.example.org/quillsync-2.0.tar.gz",
                                    "quillsync-2.0.tar.gz"])
def test_a_page_that_sends_its_reader_out_of_the_folder_is_a_stub_only_when_it_says_just_that(
        tmp_path: Path, target: str) -> None:
    # a download page (a refresh to the archive) was skipped as 'a page that only redirects to
    # https://...tar.gz', its checksum with it (trial 113, F3)
    root = tmp_path / "site"
    root.mkdir()
    (root / "index.html").write_text("<html><head><title>Quillsync</title></head><body><h1>"
                                     "Quillsync</h1><p>Quillsync keeps two trees in step. See "
                                     "the <a href='download.html'>download page</a>.</p>"
                                     "</body></html>")
    (root / "download.html").write_text(DOWNLOAD.replace(
        "https://downloads.example.org/quillsync-2.0.tar.gz", target))
    (root / "old-manual.html").write_text(MOVED)
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        hits = corpus.search("SHA-256 checksum of the quillsync 2.0 archive", k=1)
        assert hits[0].ref == "download.html#0", hits
        assert "9f2c4e1a7b" in hits[0].text
        assert corpus.passage("old-manual.html#0") is None
        assert "old-manual.html: skipped, a page that only redirects to https://quillsync." \
               "example.org/manual/" in corpus.notes, corpus.notes
