"""Each text once, in full: a file whose content is another's (a changelog the binary packages of
one source package each install, ``.gz`` or not) is indexed once, and what plain-text files
share is never stripped as a navigation bar (trial 36, F1: the ``changelog.Debian.gz`` of
``libpq-dev``, ``libpq5``, ``postgresql-15`` and ``postgresql-client-15`` lost every short
entry from all four copies, its CVE entries with them, and the rest was indexed four times)."""
from __future__ import annotations

import gzip
from pathlib import Path

from workers.sources import Corpus

ENTRIES = "".join(
    f"postgresql-15 (15.{n}-0+deb12u1) bookworm-security; urgency=medium\n\n"
    f"  * New upstream release 15.{n}.\n"
    f"    + Fix the heron-{n} check of the planner (CVE-2026-64{n:02d}).\n\n"
    f" -- Christoph Berg <myon@debian.org>  Thu, 0{n % 9 + 1} Feb 2026 10:00:00 +0100\n\n"
    for n in range(9, 0, -1))

PACKAGES = ("libpq-dev", "libpq5", "postgresql-15", "postgresql-client-15")


def _changelog_folder(root: Path) -> None:
    for i, package in enumerate(PACKAGES):
        (root / package).mkdir(parents=True)
        # the same text, other gzip headers (mtime): byte-different files of one content
        (root / package / "changelog.Debian.gz").write_bytes(
            gzip.compress(ENTRIES.encode(), mtime=1_700_000_000 + i))


def test_a_changelog_several_packages_install_is_indexed_once_in_full(tmp_path: Path) -> None:
    root = tmp_path / "pgdocs"
    _changelog_folder(root)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = c.search("heron-3 check planner CVE-2026-6403", k=10)
        assert hits and "CVE-2026-6403" in hits[0].text, hits
        kept = "libpq-dev/changelog.Debian.gz"
        assert {hit.doc_id for hit in hits} == {kept}  # once: the first in order
        text = c.read(kept, max_chars=100_000).text
        assert all(f"CVE-2026-64{n:02d}" in text for n in range(1, 10)), text  # in full
        assert c.notes == [f"{package}/changelog.Debian.gz: skipped, a copy of {kept}, "
                           "indexed once" for package in PACKAGES[1:]], c.notes
        assert "1 file" in c.description, c.description


def test_identical_plain_files_are_indexed_once_and_the_first_in_order_kept(
    tmp_path: Path,
) -> None:
    root = tmp_path / "twins"
    root.mkdir()
    for name in ("TODO", "c1", "c2", "guide.txt", "NEWS"):
        (root / name).write_text(ENTRIES)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert {hit.doc_id for hit in c.search("heron planner", k=20)} == {"guide.txt"}
        assert c.notes == ["4 files skipped, copies of files indexed (the same content), each "
                           "indexed once there (NEWS -> guide.txt, TODO -> guide.txt, c1 -> "
                           "guide.txt, c2 -> guide.txt)"], c.notes


def test_entries_that_other_versions_of_a_changelog_share_are_never_stripped(
    tmp_path: Path,
) -> None:
    # four releases' NEWS files: each older entry is in every one, no file is a copy of another
    root = tmp_path / "releases"
    blocks = ENTRIES.split("\n\n -- ")
    for version in range(4):
        (root / f"heron-1.{version}").mkdir(parents=True)
        (root / f"heron-1.{version}" / "NEWS").write_text("\n\n -- ".join(blocks[version:]))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        for version in range(4):
            text = c.read(f"heron-1.{version}/NEWS", max_chars=100_000).text
            assert all(f"CVE-2026-64{n:02d}" in text for n in range(1, 6)), (version, text)
        assert "CVE-2026-6402" in c.search("heron-2 check CVE-2026-6402")[0].text
        assert not any("repeats across" in note for note in c.notes), c.notes


def test_a_page_left_with_only_its_headings_is_indexed_once_as_it_was_read(
    tmp_path: Path,
) -> None:
    # pages whose every paragraph repeats: their headings kept each from the fallback, and the
    # index held only the headings
    root = tmp_path / "site"
    root.mkdir()
    for n in range(4):
        (root / f"p{n}.html").write_text(
            f"<html><head><title>Page {n}</title></head><body><h2>Heron census</h2>"
            "<p>Herons are counted at the colony in spring.</p></body></html>")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = c.search("herons counted colony spring", k=10)
        assert hits and "counted at the colony" in hits[0].text, hits
        assert any("p0.html: all its text repeats" in note for note in c.notes), c.notes


def test_of_identical_pages_the_one_kept_is_the_one_its_title_names_or_index_html(
    tmp_path: Path,
) -> None:
    # Postfix's mailq.1.html and sendmail.1.html are one page, titled "sendmail(1)": the first
    # in order was kept, and a user looking for sendmail.1.html found mailq.1.html; gnuplot's
    # htmldocs/index.html was kept as figures.html (trial 114, F11)
    root = tmp_path / "html"
    (root / "gp").mkdir(parents=True)
    page = ("<html><head><title>Postfix manual - sendmail(1)</title></head><body>"
            "<p>The sendmail program implements the heron mail interface.</p></body></html>")
    for name in ("mailq.1.html", "newaliases.1.html", "sendmail.1.html"):
        (root / name).write_text(page)
    for name in ("figures.html", "index.html"):
        (root / "gp" / name).write_text("<html><head><title>figures</title></head><body>"
                                         "<p>Gnuplot plots egrets in figures.</p></body></html>")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert {hit.doc_id for hit in c.search("sendmail heron interface", k=10)} == {
            "sendmail.1.html"}
        assert {hit.doc_id for hit in c.search("gnuplot plots egrets", k=10)} == {
            "gp/index.html"}
