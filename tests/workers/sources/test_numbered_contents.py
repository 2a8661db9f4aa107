"""A plain-text manual's table of contents, numbered titles one a line, is no prose: the Debian
Reference's ``.txt`` contents ("9.5.6. The terminal configuration / 9.5.7. The sound
infrastructure / ...") were indexed under "Preface" and the whole Answer to "How do I stop the
terminal from beeping?" was "Preface: The terminal configuration 9.5.7." (trial 124, M2-F1)."""
from __future__ import annotations

import gzip
from pathlib import Path

from workers.sources import Corpus
from workers.sources.contents_lines import numbered_contents, without_numbered_contents

MANUAL = """\
Heron Reference

                             Ann Heron

Table of Contents

Preface
    1. Disclaimer
    2. About this document
        2.1. Guiding rules
        2.2. Conventions
1. Heron basics
    1.1. Console basics
        1.1.1. The terminal configuration
        1.1.2. Disabling chirp sounds
        1.1.3. Counting nests from the
        command line
    1.2. Colonies
A. Appendix
    A.1. Copyright history

1.1.1. The terminal configuration

The terminal of a counting station is configured by the census tool.

1.1.2. Disabling chirp sounds

One can always unplug the speaker to disable chirp sounds. Removing the chirp module does
this for you.
"""


def test_a_text_manuals_numbered_contents_are_not_indexed(tmp_path: Path) -> None:
    root = tmp_path / "heron-doc"
    root.mkdir()
    (root / "manual.txt").write_text(MANUAL)
    (root / "manual-copy.txt.gz").write_bytes(gzip.compress(MANUAL.replace(
        "Ann Heron", "A. Heron").encode()))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = c.search("terminal configuration chirp sounds")
        assert hits, "the sections themselves are indexed"
        for hit in hits:
            assert "1.1.3. Counting nests" not in hit.text, hit.text
            assert "Disclaimer" not in hit.text, hit.text
        chirp = next(h for h in hits if "unplug the speaker" in h.text)
        assert chirp.heading == "1.1.2. Disabling chirp sounds", chirp.heading


def test_numbered_lists_and_prose_are_kept() -> None:
    steps = "1.1. Unpack the tarball.\n1.2. Run make.\n1.3. Install it.\n1.4. Start it."
    platforms = "Supported:\n\n1. Linux\n2. macOS\n3. Windows\n4. FreeBSD"
    releases = "1.2.5 Fixed a crash\n1.2.4 Added a flag\n1.2.3 Dropped a test\n1.2.2 First"
    prose = ("1.1. Intro\n1.2. Setup\nwhich the setup script reads, as section 1.3 says.\n"
             "1.3. Use\n1.4. End")
    for text in (steps, platforms, releases, prose):
        assert without_numbered_contents(text) == text, text
    assert not numbered_contents("1.1. Intro\n1.2. Setup\n1.3. Use")  # three: too few


def test_rfc_and_faq_contents_with_page_numbers_or_questions() -> None:
    rfc = ("   1.  Introduction . . . . . . . . . . . . . . . . . . . .   3\n"
           "     1.1.  Terminology  . . . . . . . . . . . . . . . . . .   4\n"
           "   2.  Protocol Overview  . . . . . . . . . . . . . . . . .   5\n"
           "     2.1.  Messages . . . . . . . . . . . . . . . . . . . .   6\n"
           "     2.2.  Errors . . . . . . . . . . . . . . . . . . . . .   9")
    faq = ("1.0\tGeneral Concepts\n1.1\tWhat is it?\n1.2\tWhere do I get it?\n"
           "1.2.1\tAre there mirror sites?\n2.0\tPorts")
    assert numbered_contents(rfc) and numbered_contents(faq)
    text = f"Status of This Memo\n\n{rfc}\n\n1.  Introduction\n\nThe protocol counts herons."
    assert without_numbered_contents(text) == (
        "Status of This Memo\n\n1.  Introduction\n\nThe protocol counts herons.")
