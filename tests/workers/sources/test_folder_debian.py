"""Documentation as Debian installs it (``/usr/share/doc/PKG``): text files without an extension
(``README``, ``upstream``, ``README.Debian``) are indexed, each cited by its own name (trial 34,
finding 8: nginx's docs were refused as "3 files of other types", and the user had to ``zcat``
and rename every file by hand)."""
from __future__ import annotations

from pathlib import Path

import pytest

from workers.sources import Corpus, CorpusError
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
    (root / "blob").write_bytes(b"\x00\x01upstream\x02" * 50)  # binary: another type, as before
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
        assert ("3 files passed over, of types not indexed (.pikchr, (no extension), .png)"
                in c.notes), c.notes
        assert not any("blob" in note for note in c.notes), c.notes  # no "binary" note


def test_a_folder_of_binary_files_without_an_extension_is_refused_as_other_types(
    tmp_path: Path,
) -> None:
    root = tmp_path / "bin"
    root.mkdir()
    (root / "blob").write_bytes(b"\x00\x01\x02" * 100)
    (root / "empty").write_bytes(b"")
    with pytest.raises(CorpusError, match="no indexable files: 2 files of other types"):
        corpus_folder(root, max_file_bytes=1000, probe=True)


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

