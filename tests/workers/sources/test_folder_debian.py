"""Documentation as Debian installs it (``/usr/share/doc/PKG``): text files without an extension
(``README``, ``upstream``, ``README.Debian``) and gzip-compressed files (``changelog.gz``,
``NEWS.gz``, ``x.html.gz``) are indexed, each cited by its own name (trial 34, finding 8:
nginx's docs were refused as "3 files of other types", and the user had to ``zcat`` and rename
every file by hand)."""
from __future__ import annotations

import gzip
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

from tests.workers.sources.documents_helpers import make_docx, make_pdf
from workers.sources import Corpus, CorpusError, fileread
from workers.sources.folder import corpus_folder
from workers.sources.walk import RUN_LOG_LINE

UPSTREAM = """\
An upstream block allows you to set a list of upstream locations for both
proxy_pass and fastcgi_pass directives.

upstream apache {
\t# Adding 'down' keeps the upstream from being used. Useful for downtime management.
\tserver apache4.domain.com down;
}
"""


def _docs(corpus: Corpus, query: str) -> set[str]:
    return {p.doc_id for p in corpus.search(query, k=20)}


def test_a_text_file_without_an_extension_is_indexed_as_plain_text(tmp_path: Path) -> None:
    root = tmp_path / "nginx"
    (root / "examples").mkdir(parents=True)
    (root / "upstream").write_text(UPSTREAM)
    (root / "README.Debian").write_text("The upstream module ships in nginx-core.\n")
    (root / "examples" / "http").write_text("# an upstream example\nupstream php { }\n")
    (root / "copyright").write_text("Upstream-Name: nginx\nCopyright 2002-2021 Igor Sysoev\n")
    (root / "blob").write_bytes(b"\x00\x01upstream\x02" * 50)  # binary: named, as a .txt
    (root / "latin").write_bytes("Le serveur upstream du caf\xe9.\n".encode("latin-1"))
    (root / "photo.png").write_bytes(b"\x89PNG upstream")
    (root / "arrows.pikchr").write_text("upstream: box")  # a type: letters of one case
    (root / "changelog.Debian.amd64").write_text("The upstream binNMU.\n")  # no type: text
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert _docs(c, "upstream") == {"upstream", "README.Debian", "examples/http",
                                        "copyright", "latin", "changelog.Debian.amd64"}
        hit = c.search("downtime management")[0]
        assert (hit.ref, hit.title) == ("upstream#0", "upstream")
        assert "latin: not UTF-8; read as Windows-1252 (Latin-1)" in c.notes
        assert "2 files passed over, of types not indexed (.pikchr, .png)" in c.notes, c.notes
        assert "blob: skipped, binary (not text)" in c.notes, c.notes


def test_a_packages_example_configuration_is_indexed_as_plain_text(tmp_path: Path) -> None:
    # Trial 37: /usr/share/doc/nginx/examples/nginx.conf was passed over as "(.conf)", and a
    # question about it got php-fpm's install lines
    root = tmp_path / "nginx"
    (root / "examples").mkdir(parents=True)
    (root / "README").write_text("Install php5-fpm from the repository.\n")
    (root / "examples" / "nginx.conf").write_text(
        "# nginx has the ability to use more than one worker process.\nworker_processes 4;\n")
    (root / "examples" / "site.ini").write_text("; The site's worker pool.\n[pool]\nsize=2\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert c.search("worker processes")[0].doc_id == "examples/nginx.conf"
        assert _docs(c, "worker") == {"examples/nginx.conf", "examples/site.ini"}
        assert not any("passed over" in note for note in c.notes), c.notes


def test_files_without_an_extension_that_hold_no_text_are_named_with_why(tmp_path: Path) -> None:
    # Trial 36, F5: empty, blank, binary, corrupt and doubly compressed files without a type
    # were counted as "(no extension)" or ".gz" among the types not indexed, none named, and
    # the refusal of a folder of them said to rename them .txt (which read "no text")
    root = tmp_path / "bin"
    root.mkdir()
    (root / "blob").write_bytes(b"\x00\x01\x02" * 100)
    (root / "EMPTY").write_bytes(b"")
    (root / "BLANK").write_text("   \n\n  \n")
    # ... and the probe's refusal names them (trial 77, F6: "1 file skipped as binary", no name)
    named = (r"no indexable files: 1 file skipped as binary, 2 files without text \(BLANK: "
             r"skipped, no text; EMPTY: skipped, no text; blob: skipped, binary \(not text\)\); "
             r"indexable: ")
    with pytest.raises(CorpusError, match=named):
        corpus_folder(root, max_file_bytes=1000, probe=True)
    (root / "UTF16NOBOM").write_bytes("heron\n".encode("utf-16-le"))
    (root / "image").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 200)
    (root / "ls.gz").write_bytes(gzip.compress(b"\x7fELF\x02\x01\x01\x00" * 100))
    (root / "empty.gz").write_bytes(b"")
    _gz(root / "emptymember.gz", b"")
    _gz(root / "nested.gz", gzip.compress(b"Herons nested twice.\n"))
    _gz(root / "page.html.gz", gzip.compress(b"<p>Herons nested twice.</p>"))
    _gz(root / "double.gz.gz", gzip.compress(b"Herons nested twice.\n"))
    (root / "README").write_text("Heron census methods.\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert sorted(c.notes) == [
            "BLANK: skipped, no text", "EMPTY: skipped, no text",
            "UTF16NOBOM: skipped, binary (not text)", "blob: skipped, binary (not text)",
            "double.gz.gz: skipped, a gzip file inside a gzip file",
            "empty.gz: skipped, not a readable gzip file (empty)",
            "emptymember.gz: skipped, no text", "image: skipped, binary (not text)",
            "ls.gz: skipped, binary (not text)",
            "nested.gz: skipped, a gzip file inside a gzip file",
            "page.html.gz: skipped, a gzip file inside a gzip file"], c.notes
    (root / "README").unlink()
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data2", folder=root)
    assert ("contains no indexable text: 4 files skipped as binary, 3 files without text, "
            "1 file not readable as gzip (corrupt, truncated or empty), 3 files compressed "
            "twice (a gzip file inside a gzip file) (BLANK: skipped, no text; EMPTY: skipped, "
            "no text; UTF16NOBOM: skipped, binary (not text); 8 more); indexable:"
            ) in str(info.value), info.value  # the files named, as the notes name them
    assert str(info.value).endswith("; to index them: a file compressed twice is read once it is "
                                    "decompressed once (zcat x.gz > y.gz)"), info.value


def test_a_run_log_without_an_extension_is_not_indexed(tmp_path: Path) -> None:
    # --run-log takes any name: a log written inside the corpus folder is the app's own output
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("Heron census counts nests.\n")
    line = "docs_search:2026-11-30:0123abcd\t1\tok\t4242\n"
    assert RUN_LOG_LINE.match(line)
    (root / "runlog").write_text(line * 3)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert "runlog: skipped, a run log of this app (--run-log)" in c.notes
        assert c.passage("runlog#0") is None


def _gz(path: Path, data: bytes) -> None:
    path.write_bytes(gzip.compress(data))


def test_a_gzip_compressed_file_is_indexed_as_the_file_its_inner_name_says(
    tmp_path: Path,
) -> None:
    root = tmp_path / "doc"
    root.mkdir()
    _gz(root / "changelog.gz", b"Changes with nginx 1.21.5\n\n    Now built with PCRE2.\n")
    _gz(root / "NEWS.gz", b"The PCRE2 news of the Debian package.\n")
    _gz(root / "guide.html.gz", b"<html><head><title>PCRE2 guide</title></head><body><h1>Regex"
                               b"</h1><p>PCRE2 patterns in a compressed page.</p></body></html>")
    _gz(root / "notes.TXT.GZ", b"PCRE2 notes in a compressed text file.\n")
    _gz(root / "manual.pdf.gz", make_pdf(["PCRE2 in a compressed PDF page."]))
    make_docx(tmp_path / "memo.docx", ["PCRE2 in a compressed Word file."])
    _gz(root / "memo.docx.gz", (tmp_path / "memo.docx").read_bytes())
    _gz(root / "logo.png.gz", b"\x89PNG PCRE2")
    _gz(root / "bundle.tar.gz", b"PCRE2" * 100)
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert _docs(c, "PCRE2") == {"changelog.gz", "NEWS.gz", "guide.html.gz", "notes.TXT.GZ",
                                     "manual.pdf.gz:p1", "memo.docx.gz"}
        page = c.passage("guide.html.gz#0")
        assert page is not None and page.title == "PCRE2 guide"  # read as HTML, not as text
        assert "<p>" not in page.text
        assert c.passage("changelog.gz#0").title == "changelog.gz"  # cited by its own name
        assert "2 files passed over, of types not indexed (.tar.gz, .png.gz)" in c.notes


def test_a_gzip_bomb_stops_at_the_size_limit_and_is_named(tmp_path: Path) -> None:
    root = tmp_path / "bomb"
    root.mkdir()
    (root / "a.md").write_text("Heron census counts nests.\n")
    limit = 1024 * 1024
    with gzip.open(root / "bomb.txt.gz", "wb") as fh:  # 64 MB of text in about 64 KB
        for _ in range(64):
            fh.write(b"heron " * (1024 * 1024 // 6))
    assert (root / "bomb.txt.gz").stat().st_size < limit
    tracemalloc.start()
    try:
        with Corpus.open(tmp_path / "data", folder=root, max_file_bytes=limit) as c:
            peak = tracemalloc.get_traced_memory()[1]
            notes = c.notes
    finally:
        tracemalloc.stop()
    assert "bomb.txt.gz: skipped, too large (decompresses to more than 1 MB)" in notes, notes
    assert peak < 8 * limit, f"peak {peak:,} bytes for a limit of {limit:,}"


def test_a_corrupt_or_truncated_gzip_file_is_named_never_a_traceback(tmp_path: Path) -> None:
    root = tmp_path / "broken"
    root.mkdir()
    (root / "a.md").write_text("Heron census counts nests.\n")
    (root / "garbage.txt.gz").write_bytes(b"this is no gzip data at all")
    whole = gzip.compress(b"Heron notes. " * 2000)
    (root / "cut.gz").write_bytes(whole[: len(whole) // 2])
    bad = bytearray(gzip.compress(b"Heron news." * 100))
    bad[20:30] = b"\xff" * 10
    (root / "NEWS.gz").write_bytes(bytes(bad))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        said = [n for n in c.notes if "gzip" in n]
        assert "garbage.txt.gz: skipped, not a readable gzip file (BadGzipFile)" in said, said
        assert "cut.gz: skipped, not a readable gzip file (truncated)" in said, said
        assert any(n.startswith("NEWS.gz: skipped, not a readable gzip file") for n in said)
        assert _docs(c, "heron") == {"a.md"}


def test_the_probe_finds_text_in_a_folder_of_gzip_files(tmp_path: Path) -> None:
    # the CLI's check before a run: a folder of changelog.gz and copyright is not refused
    root = tmp_path / "nginx-doc"
    root.mkdir()
    _gz(root / "changelog.gz", b"Changes with nginx 1.22.1\n")
    skipped: Counter[str] = Counter()
    corpus_folder(root, skipped, max_file_bytes=1000, probe=True)
    (root / "changelog.gz").unlink()
    _gz(root / "notes.txt.gz", b"   \n\n")
    with pytest.raises(CorpusError, match="1 file without text"):
        corpus_folder(root, max_file_bytes=1000, probe=True)


@pytest.mark.parametrize(
    ("files", "way_on"),
    [
        ({"data.json": "{}"}, "to index them: a text file of another type is read once named .txt"),
        ({"big.md": None}, "to index them: --max-file-bytes raises the size limit"),
        ({".notes.md": "hidden"}, "to index them: a visible link to a hidden file or folder"),
        ({"blob": None}, "1 file skipped as binary"),  # binary without an extension: named
    ],
    ids=["other-type", "too-large", "hidden", "typeless-binary"],
)
def test_the_refusal_names_what_is_indexed_and_the_way_on(
    tmp_path: Path, files: dict[str, str | None], way_on: str
) -> None:
    root = tmp_path / "folder"
    root.mkdir()
    for name, text in files.items():
        if text is None:
            (root / name).write_bytes(b"\0" * 2000)
        else:
            (root / name).write_text(text)
    with pytest.raises(CorpusError) as info:
        corpus_folder(root, max_file_bytes=1000, probe=True)
    message = str(info.value)
    assert ("indexable: .md .markdown .txt .rst .py .html .htm .conf .cfg .ini .pdf .docx, other "
            "text files (README, changelog, run.sh) and man pages (ls.1), each of them "
            "also gzip-compressed (.gz)") in message
    assert way_on in message, message
    assert "\n" not in message


def test_a_compressed_copy_and_a_pages_text_rendering_are_indexed_once(tmp_path: Path) -> None:
    # sqlite3-doc: dh_installchangelogs installs changes.html again as changelog.html.gz, and
    # its plain-text rendering as changelog.gz; indexed three times, the copies took a gold
    # page's place among a question's first three sources (scripts/eval_research.py)
    root = tmp_path / "sqlite3"
    root.mkdir()
    page = ("<html><head><title>Release History Of SQLite</title></head><body><h2>2022-12-28 "
            "(3.40.1)</h2><p>Fix the safe command-line option so that the shell disallows "
            "writefile and other harmful functions in untrusted databases.</p></body></html>")
    (root / "changes.html").write_text(page)
    _gz(root / "changelog.html.gz", page.encode())
    _gz(root / "changelog.gz", b"Release History Of SQLite\n\n2022-12-28 (3.40.1)\n\n   Fix "
                               b"the safe command-line option so that the shell disallows "
                               b"writefile and other harmful functions in untrusted databases.\n")
    _gz(root / "other.html.gz", page.replace("3.40.1", "3.40.2").encode())  # not the same bytes
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert _docs(c, "writefile harmful functions") == {"changes.html", "other.html.gz"}
        assert "changelog.html.gz: skipped, a compressed copy of changes.html, indexed once" \
            in c.notes, c.notes
        assert "changelog.gz: skipped, the text of a page indexed (changelog.html.gz)" in c.notes


def test_another_size_limit_indexes_again_the_gz_files_it_decides_both_ways(
    tmp_path: Path,
) -> None:
    # Trial 36, F3: a .gz is measured only once decompressed, so its folder's listing was the
    # same under either limit: raised, the old index (big.gz skipped) was reused with its note
    root = tmp_path / "stale"
    root.mkdir()
    (root / "README").write_text("Kingfisher burrows are dug in river banks.\n")
    _gz(root / "big.gz", b"Kingfisher burrows face the water. " * 200)  # 7 KB decompressed
    data = tmp_path / "data"
    for limit, indexed in ((4096, False), (65536, True), (4096, False)):
        with Corpus.open(data, folder=root, max_file_bytes=limit) as c:
            assert ("big.gz" in _docs(c, "kingfisher burrows")) is indexed, (limit, c.notes)
            skipped = [n for n in c.notes if n.startswith("big.gz: skipped, too large")]
            assert skipped == ([] if indexed else
                               ["big.gz: skipped, too large (decompresses to more than 4 KB)"])
    (root / "big.gz").unlink()  # no .gz: the limit is in the listing, an index is kept
    with Corpus.open(data, folder=root, max_file_bytes=4096) as c:
        assert c.built
    with Corpus.open(data, folder=root, max_file_bytes=65536) as c:
        assert not c.built


def test_a_folders_gz_files_decompress_to_a_bounded_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Trial 36, F4: 60 small bombs just under the 8 MB limit (3.3 MB on disk) took 1.26 GB,
    # the build holding every document at once; the bound is MAX_FOLDER_GZIP_BYTES (128 MB)
    monkeypatch.setattr(fileread, "MAX_FOLDER_GZIP_BYTES", 20_000)
    root = tmp_path / "bombs"
    root.mkdir()
    (root / "plain.txt").write_text("Heron census counts nests. " * 330)  # 9 KB: not counted
    for i in range(5):
        _gz(root / f"notes{i}.gz", f"Heron colony {i} counted. ".encode() * 320)  # 8 KB each
    with Corpus.open(tmp_path / "data", folder=root, max_file_bytes=40_000) as c:
        assert c.notes == []  # a limit over the bound is the bound: 5 x 8,000 bytes fit
    with Corpus.open(tmp_path / "data", folder=root, max_file_bytes=10_000) as c:
        assert _docs(c, "heron colony counted") == {"notes0.gz", "notes1.gz", "plain.txt"}
        assert c.notes == [f"notes{i}.gz: skipped, past the 20,000 bytes the folder's .gz files "
                           "may decompress to in all (those before it are read)"
                           for i in (2, 3, 4)]


def test_a_suffix_after_a_documents_name_in_capitals_is_decided_by_content(
    tmp_path: Path,
) -> None:
    # Trial 36, F6: git's README.source and README.emacs were counted as ".source" and ".emacs"
    # among the types not indexed, unnamed, while README.Debian was read
    root = tmp_path / "git"
    root.mkdir()
    (root / "README.source").write_text("The git source package is maintained with quilt.\n")
    (root / "README.emacs").write_text("The git emacs modes moved to elpa-git-modes.\n")
    _gz(root / "NEWS.old.gz", b"Old git news: the quilt series was dropped.\n")
    (root / "README.saving").write_bytes(b"\x00\x01quilt\x02" * 50)  # binary: named
    (root / "README.png").write_bytes(b"\x89PNG quilt")  # a common type: a type
    (root / "test.netrc").write_text("machine quilt login git\n")  # credentials: a type
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert _docs(c, "quilt source package") == {"README.source", "NEWS.old.gz"}
        assert _docs(c, "emacs modes elpa") == {"README.emacs"}
        assert "README.saving: skipped, binary (not text)" in c.notes, c.notes
        assert "2 files passed over, of types not indexed (.png, .netrc)" in c.notes, c.notes


def test_a_text_file_of_a_suffix_of_no_known_type_is_read_by_its_content(tmp_path: Path) -> None:
    # Trial 125, F8: bash's examples "21 files passed over, of types not indexed (.sh x7, .bash
    # x4, .arrows x1, ... .v2 x1, .bfox x1)": shellmath.sh, the library its README describes,
    # was passed over beside the extension-less scripts indexed (functions/isvalidip)
    root = tmp_path / "bash"
    (root / "examples").mkdir(parents=True)
    (root / "examples" / "shellmath.sh").write_text(
        "#!/bin/env bash\n# Decimal arithmetic for Bash: add, subtract, multiply.\n"
        "# Each function sets the global result.\ndeclare -r quokka='decimal number'\n")
    (root / "examples" / "cat.sh").write_text("shcat() { while read -r; do :; done; }\n")
    (root / "examples" / "spin.bash").write_text("# spin.bash: a spinning wheel for progress.\n")
    (root / "examples" / "Bashrc.bfox").write_text("# Umask and mail check of a login.\n")
    (root / "inputrc.arrows").write_text("# Readline arrow keys for history search.\n")
    (root / "autoload.v2").write_text("# An almost ksh-compatible autoloader of functions.\n")
    (root / "isvalidip").write_text("# Test an IP address for validity.\n")
    (root / "drawing.vsd").write_bytes(b"\xd0\xcf\x11\xe0\x00\x01 arithmetic" * 40)
    (root / "hosts.json").write_text('{"arithmetic": "decimal"}')  # a known type: not read
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert _docs(c, "decimal arithmetic") == {"examples/shellmath.sh"}
        assert _docs(c, "quokka") == set()  # a script is read as its comments, as a .py is
        assert _docs(c, "spinning wheel") == {"examples/spin.bash"}
        assert _docs(c, "umask mail check") == {"examples/Bashrc.bfox"}
        assert _docs(c, "arrow keys history") == {"inputrc.arrows"}
        assert _docs(c, "autoloader") == {"autoload.v2"}
        assert _docs(c, "ip address validity") == {"isvalidip"}
        # a binary file of a suffix the app does not know is counted by its type, as before
        assert c.notes == ["2 files passed over, of types not indexed (.vsd, .json)",
                           "examples/cat.sh: skipped, a script without comments (a script is "
                           "read as its comments)"], c.notes


def test_a_folder_of_only_change_logs_and_a_licence_says_its_documents_are_elsewhere(
    tmp_path: Path,
) -> None:
    # /usr/share/doc/asymptote-doc holds changelog.Debian.gz, changelog.gz and copyright; the
    # PDFs are under /usr/share/texmf: "How do I draw a circle?" was answered from the
    # changelog, and nothing said the manual was not in the folder
    root = tmp_path / "kite-doc"
    root.mkdir()
    _gz(root / "changelog.Debian.gz", b"kite-doc (2.1-1) unstable; urgency=medium\n\n"
                                      b"  * New upstream release.\n")
    _gz(root / "changelog.gz", b"Version 2.1\n\nAdded convenient circle and arc functions.\n")
    (root / "copyright").write_text("Files: *\nCopyright: 2020 Kite authors\nLicense: LGPL-3+\n",
                                    encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        said = [n for n in c.notes if "holds only change logs" in n]
    assert said == ["kite-doc holds only change logs and licence files (changelog.Debian.gz, "
                    "changelog.gz, copyright): the documents of its package may be installed "
                    "in another folder (on Debian, `dpkg -L kite-doc` lists where)"], said
    (root / "guide.html").write_text("<html><head><title>Kites</title></head><body><p>Draw a "
                                     "circle with the circle function.</p></body></html>",
                                     encoding="utf-8")
    with Corpus.open(tmp_path / "data2", folder=root) as c:
        assert not any("holds only change logs" in n for n in c.notes), c.notes
