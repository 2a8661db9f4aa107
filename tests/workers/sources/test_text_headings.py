"""Plain-text headings (``.txt`` and files without a type): a changelog's version lines, a NEWS
file's release lines and underlined titles head the passages under them, so a report can say
which version an entry is in; prose is not cut (trial 34, finding 6: nginx's
``Changes with nginx 1.21.5`` was in the passage, and every passage's heading was empty)."""
from __future__ import annotations

import gzip
from pathlib import Path

from workers.sources import Corpus
from workers.sources.textsections import text_sections

NGINX = """
Changes with nginx 1.22.1                                        19 Oct 2022

    *) Security: processing of a specially crafted mp4 file by the
       ngx_http_mp4_module might cause a worker process crash.


Changes with nginx 1.21.5                                        28 Dec 2021

    *) Change: now nginx is built with the PCRE2 library by default.

    *) Feature: support for sendfile(SF_NOCACHE) on FreeBSD.
"""

DEBIAN = """\
nginx (1.22.1-9+deb12u2) bookworm; urgency=medium

  * Fix the HTTP/2 rapid reset denial of service (CVE-2023-44487).

 -- Jan Mojzis <jan.mojzis@gmail.com>  Sat, 14 Oct 2023 10:00:00 +0200

nginx (1.22.1-9) unstable; urgency=medium

  * Build with the PCRE2 library.

 -- Jan Mojzis <jan.mojzis@gmail.com>  Sun, 12 Feb 2023 10:00:00 +0200
"""

NEWS = """\
Heron tracker news
==================

Version 2.0 (2024-01-01)
  - Nest counts are exported as CSV.

Version 1.0 (2023-01-01)
  - First release: egret sightings only.
"""

PROSE = """\
The heron tracker counts nests along the river every spring.
Volunteers walk the banks and note each nest they see.

You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

To run the tracker on your own data, use

    tracker --input nests.csv

Example

    tracker --export

Counts from earlier years are kept in the archive, and a volunteer
who finds an error may correct it there.
"""


def test_a_changelogs_version_lines_head_its_passages(tmp_path: Path) -> None:
    root = tmp_path / "nginx-doc"
    root.mkdir()
    (root / "changelog.gz").write_bytes(gzip.compress(NGINX.encode()))
    (root / "changelog.Debian").write_text(DEBIAN)
    (root / "NEWS.txt").write_text(NEWS)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hit = c.search("PCRE2 library by default")[0]
        assert hit.doc_id == "changelog.gz"
        assert hit.heading == "Changes with nginx 1.21.5 28 Dec 2021", hit.heading
        assert hit.text.startswith("Changes with nginx 1.21.5 28 Dec 2021"), hit.text
        # the entry mark stays: "Change: ..." alone reads as a field listing to the offline model
        assert "*) Change: now nginx is built with the PCRE2" in hit.text
        debian = next(p for p in c.search("rapid reset CVE-2023-44487") if p.doc_id ==
                      "changelog.Debian")
        assert debian.heading == "nginx (1.22.1-9+deb12u2) bookworm; urgency=medium"
        news = next(p for p in c.search("nest counts exported CSV") if p.doc_id == "NEWS.txt")
        assert news.heading == "Version 2.0 (2024-01-01)", news.heading


def test_underlined_titles_head_their_sections_and_the_underline_goes() -> None:
    sections = text_sections(NEWS)
    assert [h for h, _t in sections] == ["Heron tracker news", "Version 2.0 (2024-01-01)",
                                         "Version 1.0 (2023-01-01)"]
    assert sections[0][1].strip() == "Heron tracker news"  # the ==== line is left out
    asciidoc = ("NAME\n----\ngit-add - Add file contents to the index\n\nSYNOPSIS\n--------\n"
                "[verse]\n'git add' [--verbose]\n\n== Tag signatures\n\n  A tag is signed.\n")
    assert [h for h, _t in text_sections(asciidoc)] == ["NAME", "SYNOPSIS", "Tag signatures"]


def test_prose_is_not_cut_at_a_line_over_an_indented_block(tmp_path: Path) -> None:
    # the lines before each indented block are a sentence's start ("... License at", "...,
    # use") or one caption in a file of prose: no heading (checked on /usr/share/doc's text)
    assert text_sections(PROSE) == ()
    root = tmp_path / "prose"
    root.mkdir()
    (root / "README").write_text(PROSE)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert {p.heading for p in c.search("tracker nests license export", k=10)} == {""}
    for text in ("Usage: tracker [options]\n\n  --input FILE\n\nOptions:\n  --export\n",
                 "Install it\nwith pip.\n\nThen run\n   tracker\n",
                 "1. Install the tracker\n\n2. Run it\n   tracker\n\n3. Read the counts\n"):
        assert text_sections(text) == (), text


def test_an_emacs_mode_line_above_the_first_heading_counts_as_blank() -> None:
    # Apache's changelog.gz: the first version's entries were headed by nothing
    log = ("                    -*- coding: utf-8 -*-\nChanges with Apache 2.4.71\n\n"
           "  *) mod_dav: Fix handling of invalid Timeout headers.\n\n"
           "Changes with Apache 2.4.70\n\n  *) core: Faster lookups.\n")
    assert [h for h, _t in text_sections(log)] == ["", "Changes with Apache 2.4.71",
                                                   "Changes with Apache 2.4.70"]


LETTER = """\
Dear heron counters

    Thank you for counting herons this spring. The colony at North Pine
    had more nests than last year.

Best regards

    Ann Heron, census coordinator
"""

TABLE = """\
Colony          Nests   Observers

  North Pine       112       2
  South Reed        48       1

Totals by year

  2023             160       3
"""

LOG = """\
2024-01-01 12:00:01 ERROR heron-census worker crashed

    Traceback (most recent call last):
      File "census.py", line 3, in count

2024-01-01 12:05:09 WARN heron-census retrying colony 7

    retry 1 of 3 after timeout
"""

CHANGELOG = """\
Thu Nov  3 14:09:31 1994  Phil Nelson  (phil@cs.wwu.edu)

\t* bc.y:  Fix the heron count.  Patch from a reader.

Wed Nov  2 10:18:19 1994  Phil Nelson  (phil@cs.wwu.edu)

\t* scan.l:  Count egrets too.
"""


def test_a_letters_greeting_a_tables_header_row_and_a_log_record_head_nothing(
    tmp_path: Path,
) -> None:
    # Trial 36, F7: "Dear heron counters" and "Best regards" headed a letter's passages, and
    # the Answer read "Best regards: Ann Heron, census coordinator"; a table's header row was
    # a heading, its columns' spacing lost; each log line over a traceback was one
    for text in (LETTER, TABLE, LOG):
        assert text_sections(text) == (), text
    # what the rule gets right stays: version lines, a GNU ChangeLog's dated author lines
    assert [h for h, _t in text_sections(CHANGELOG)] == [
        "Thu Nov 3 14:09:31 1994 Phil Nelson (phil@cs.wwu.edu)",
        "Wed Nov 2 10:18:19 1994 Phil Nelson (phil@cs.wwu.edu)"]
    assert [h for h, _t in text_sections(NGINX)][-2:] == [
        "Changes with nginx 1.22.1 19 Oct 2022", "Changes with nginx 1.21.5 28 Dec 2021"]
    root = tmp_path / "headings"
    root.mkdir()
    (root / "table").write_text(TABLE)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hit = c.search("colony nests observers")[0]
        assert hit.heading == "" and "Colony          Nests   Observers" in hit.text, hit


FAQ = """\
FAQ

 1. Herons
  1.1 What is a heron?
  1.2 How do I count nests?

 1. Herons

  1.1 What is a heron?

  A heron is a long-legged wading bird. It nests in colonies called heronries.

  1.2 How do I count nests?

  Count nests from a blind at dawn, one colony at a time:

     census --colony north --at dawn

  Not all nests are in use, see 2.4
"""


def test_an_faqs_numbered_questions_head_their_answers() -> None:
    # trial 63, F6: curl's FAQ indents its numbered questions as it indents their answers;
    # read as prose, "1.2 How do I count nests?" ended the answer above it in a report's bullet
    headings = [heading for heading, _text in text_sections(FAQ)]
    assert headings == ["FAQ", "1.1 What is a heron?", "1.2 How do I count nests?"]
    sections = dict(text_sections(FAQ))
    assert "colonies called heronries." in sections["1.1 What is a heron?"]
    assert "count nests" not in sections["1.1 What is a heron?"]
    steps = "Setup\n\n1. Download the tarball\n\n2.1 Unpack it in a folder.\n\n3. Run it\n"
    assert text_sections(steps) == ()  # steps, and a title that ends as a sentence


def test_a_text_manual_is_titled_by_its_opening_line(tmp_path: Path) -> None:
    # trial 124, M2-F3: the Debian Reference's .txt.gz was listed by its file name alone, where
    # its HTML chapters had their titles; a change log's first version line is no title
    root = tmp_path / "heron-doc"
    root.mkdir()
    manual = "Heron Reference\n\n        Ann Heron\n\nThis book counts herons at dawn.\n"
    (root / "heron-reference.en.txt.gz").write_bytes(gzip.compress(manual.encode()))
    (root / "notes.txt").write_text(manual.replace("Heron Reference", "Egret Notes"))
    (root / "changelog.gz").write_bytes(gzip.compress(NGINX.encode()))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        titles = {p.doc_id: p.title for p in c.search("herons dawn PCRE2 library")}
    assert titles == {"heron-reference.en.txt.gz": "Heron Reference",
                      "notes.txt": "Egret Notes", "changelog.gz": "changelog.gz"}, titles
