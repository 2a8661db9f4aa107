"""Many files skipped for one reason are one note, with the count and the first names
(:mod:`workers.sources.note_groups`). Trial 17, finding 6: the Debian Apache manual folder (14
languages, untranslated pages linked to ``en/``) printed 1,857 link notes, 200 shown, on every
run and in every report."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus
from workers.sources.note_groups import NAMED, grouped_notes

PAGE = "<html><head><title>{0}</title></head><body><p>The {0} directive sets a limit.</p>"


def _manual(tmp_path: Path, links: int) -> Path:
    """``en/`` with ``links`` pages, and ``da/`` and ``de/`` linking to each (as Debian's)."""
    root = tmp_path / "manual"
    (root / "en").mkdir(parents=True)
    for lang in ("da", "de"):
        (root / lang).mkdir()
    for i in range(links):
        (root / "en" / f"p{i:02d}.html").write_text(PAGE.format(f"Page{i}"), encoding="utf-8")
        for lang in ("da", "de"):
            (root / lang / f"p{i:02d}.html").symlink_to(f"../en/p{i:02d}.html")
    return root


def test_links_to_pages_indexed_under_another_path_are_one_note(tmp_path: Path) -> None:
    root = _manual(tmp_path, 6)
    expected = ["12 files skipped, links to files indexed under another path, each indexed once "
                "there (da/p00.html -> en/p00.html, de/p00.html -> en/p00.html, "
                "da/p01.html -> en/p01.html and 9 more)"]
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        assert corpus.built and corpus.notes == expected
        assert "en/p05.html" in {p.doc_id for p in corpus.search("Page5 directive", k=3)}
        # the index keeps each link's own note: the grouping is in what is shown
        assert len(corpus.meta["notes"].split("\n")) == 12
    with Corpus.open(tmp_path / "data", folder=root) as reused:
        assert not reused.built and reused.notes == expected


def test_a_few_links_are_still_named_one_by_one(tmp_path: Path) -> None:
    root = _manual(tmp_path, 1)
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        assert corpus.notes == [
            "da/p00.html: skipped, the same file as en/p00.html (a link to it), indexed once",
            "de/p00.html: skipped, the same file as en/p00.html (a link to it), indexed once"]


def test_many_files_skipped_for_one_reason_name_the_first_and_count_the_rest(
        tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "bin").mkdir(parents=True)
    (root / "ok.md").write_text("Herons nest in colonies.\n", encoding="utf-8")
    for i in range(NAMED + 2):
        (root / "bin" / f"b{i:02d}.txt").write_bytes(bytes([0, 1, i]) * 100)  # no copies
        (root / f"r{i:02d}").mkdir()
        (root / f"r{i:02d}" / ".git").mkdir()
    (root / "big.md").write_text("word " * 400, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root, max_file_bytes=1000) as corpus:
        names = ", ".join(f"bin/b{i:02d}.txt" for i in range(NAMED))
        folders = ", ".join(f"r{i:02d}/.git/" for i in range(NAMED))
        assert sorted(corpus.notes) == sorted([
            f"{folders} and 2 more: passed over, a hidden folder",
            "big.md: skipped, too large (2.0 KB > 1,000 bytes)",  # alone: its own line
            f"{names} and 2 more: skipped, binary (not text)"])


def test_details_that_differ_are_shown_by_each_name_and_links_out_grouped() -> None:
    sizes = [f"f{i}.txt: skipped, too large ({i + 3} MB > 2 MB)" for i in range(NAMED + 1)]
    out = [f"o{i}.md: a link to /srv/docs/o{i}.md, outside the folder: indexed" for i in range(4)]
    dirs = [f"d{i}/: a link to /srv/d{i}, outside the folder: followed" for i in range(5)]
    lines = grouped_notes(["x.pdf: skipped, encrypted (needs a password)", *sizes, *out, *dirs])
    assert lines[0] == "x.pdf: skipped, encrypted (needs a password)"
    # one more is named, not counted ("and 1 more" named none, trial 111, F12)
    assert lines[1] == (", ".join(f"f{i}.txt ({i + 3} MB > 2 MB)" for i in range(NAMED + 1))
                        + ": skipped, too large")
    assert lines[2] == ("4 files are links leading out of the folder, indexed (o0.md -> "
                        "/srv/docs/o0.md, o1.md -> /srv/docs/o1.md, o2.md -> /srv/docs/o2.md, "
                        "o3.md -> /srv/docs/o3.md)")
    assert lines[3] == ("5 folders are links leading out of the folder, followed (d0/ -> /srv/d0, "
                        "d1/ -> /srv/d1, d2/ -> /srv/d2 and 2 more)")
    assert len(lines) == 4


def test_the_sources_of_pages_indexed_are_counted_with_a_few_examples() -> None:
    # trial 79: a Sphinx site's 218 _sources/*.rst.txt were a 1 KB note naming ten with their
    # pages; nothing is lost (each page is indexed), so a count and examples say it
    sources = [f"_sources/p{i}.rst.txt: skipped, the source of a page indexed (p{i}.html)"
               for i in range(218)]
    included = [f"inc{i}.txt: skipped, included in a page indexed (guide.html)" for i in range(5)]
    assert grouped_notes([*sources, *included]) == [
        "218 files skipped, the sources of pages indexed (_sources/p0.rst.txt -> p0.html, "
        "_sources/p1.rst.txt -> p1.html, _sources/p2.rst.txt -> p2.html and 215 more)",
        "5 files skipped, included in pages indexed (inc0.txt -> guide.html, inc1.txt -> "
        "guide.html, inc2.txt -> guide.html and 2 more)"]
