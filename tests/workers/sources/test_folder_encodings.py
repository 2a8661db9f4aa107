"""The folder source's encodings and names (``--corpus DIR``): a file read in the encoding it
declares or that fits (Windows-1252, a stray UTF-8 byte, an HTML meta charset, a Python coding
comment), and files or folders whose names are not UTF-8, indexed under printable refs."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from workers.sources import Corpus, CorpusError


def test_a_latin1_file_is_read_as_windows_1252_and_said_so(tmp_path: Path) -> None:
    # Found by a new-user trial: a Latin-1 note read as UTF-8 was cited as "Le h\ufffdron".
    root = tmp_path / "latin"
    root.mkdir()
    latin1 = "Jalapeño manifests ship with a caf\xe9 byte.".encode("latin-1")
    (root / "latin1.txt").write_bytes(latin1)
    (root / "mixed.txt").write_bytes("Manifests in UTF-8: café. ".encode() + b"\x81\x8d stray")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = {h.ref: h.text for h in c.search("manifests")}
        assert "Jalapeño manifests ship with a café byte." in hits["latin1.txt#0"]
        assert "café" in hits["mixed.txt#0"]  # not clean Windows-1252: UTF-8, replaced
        assert any("latin1.txt: not UTF-8; read as Windows-1252" in n for n in c.notes)
        assert "mixed.txt: read as UTF-8; 2 invalid byte sequences replaced with U+FFFD" in c.notes


def test_text_over_a_binary_body_is_binary_wherever_the_body_begins(tmp_path: Path) -> None:
    # Trial 36, F8: a shell-archive installer (a 300-line #!/bin/sh head, then 2 MB of random
    # bytes) passed the test of its first 8 KB and was indexed whole as Windows-1252 mojibake
    root = tmp_path / "sfx"
    root.mkdir()
    head = "".join(f"echo 'installing heron census part {n}'\n" for n in range(300)).encode()
    noise = random.Random(36).randbytes(200_000)
    (root / "installer").write_bytes(b"#!/bin/sh\n" + head + noise)  # NULs among them
    (root / "notes.txt").write_bytes(head + noise.replace(b"\0", b"\1"))  # no NUL: garbage
    (root / "late.txt").write_bytes(head * 3 + b"\0")  # one NUL at the very end
    (root / "README").write_text("Heron census installer notes.\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert sorted(n for n in c.notes if "binary" in n) == [
            "installer: skipped, binary (not text)", "late.txt: skipped, binary (not text)",
            "notes.txt: skipped, binary (not text)"], c.notes
        assert {hit.doc_id for hit in c.search("heron census installing")} == {"README"}


def test_a_declared_codec_that_reads_no_text_is_passed_over_and_named(tmp_path: Path) -> None:
    # trial 8: one .py whose coding comment named rot13 (or zlib_codec), or one page whose
    # meta charset named base64 or idna, failed every run of its folder with "run failed:
    # LookupError" (UnicodeError for idna), the file not named
    root = tmp_path / "codecs"
    root.mkdir()
    (root / "plain.md").write_text("Heron census counts nests.\n", encoding="utf-8")
    # trial 9: one naming a codec that does not read ASCII as ASCII (utf-16, utf_32_be,
    # punycode) was read as CJK mojibake, or dropped as binary or empty, without a word
    for name, codec in (("rot.py", "rot13"), ("zlib.py", "zlib_codec"), ("u16.py", "utf-16"),
                        ("u32.py", "utf_32_be"), ("puny.py", "punycode")):
        (root / name).write_bytes(f'# -*- coding: {codec} -*-\n"""Heron {name} module."""\n'
                                  .encode())
    for name, codec in (("b64.html", "base64"), ("idna.html", "idna")):
        (root / name).write_bytes(f'<html><head><meta charset="{codec}"></head><body><p>Heron '
                                  f"{name} page \xe9t\xe9.</p></body></html>".encode("latin-1"))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        refs = {h.doc_id for h in c.search("heron", k=10)}
        assert refs == {"plain.md", "rot.py", "zlib.py", "u16.py", "u32.py", "puny.py",
                        "b64.html", "idna.html"}, refs
        assert "rot.py: declares the encoding rot-13, which does not read text; read as UTF-8" \
            in c.notes
        assert any(n.startswith("idna.html: declares the encoding idna, which does not read "
                                "text; read as Windows-1252") for n in c.notes), c.notes
        assert "u16.py: declares the encoding utf-16, which does not read text; read as UTF-8" \
            in c.notes
        assert len([n for n in c.notes if "which does not read text" in n]) == 7, c.notes


def test_utf8_with_one_stray_byte_is_read_as_utf8_not_windows_1252(tmp_path: Path) -> None:
    # Found by a new-user trial: one bad byte turned a whole UTF-8 file into "CafÃ©", so a
    # search for "Café" found nothing.
    root = tmp_path / "stray"
    root.mkdir()
    (root / "stray.txt").write_bytes("Café résumé naïve — heron méthodes. One stray byte: "
                                     .encode() + b"\xff here.\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        [hit] = c.search("Café résumé")
        assert hit.text == "Café résumé naïve — heron méthodes. One stray byte: \ufffd here."
        assert c.notes == ["stray.txt: read as UTF-8; 1 invalid byte sequence replaced with "
                           "U+FFFD"]


def test_an_html_page_is_read_in_the_charset_its_meta_declares(tmp_path: Path) -> None:
    root = tmp_path / "sjis"
    root.mkdir()
    body = "<p>サギの営巣地は春に数えられる。Heron colonies are counted in spring.</p>"
    (root / "meta.html").write_bytes(
        f'<html><head><meta charset="shift_jis"><title>サギ</title></head><body>{body}'
        "</body></html>".encode("shift_jis"))
    (root / "http-equiv.html").write_bytes(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">'
        "<title>Hérons</title></head><body><p>Les hérons comptent 5 € par nid.</p></body>"
        "</html>".encode("iso-8859-15"))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        sjis = next(h for h in c.search("heron colonies spring") if h.doc_id == "meta.html")
        assert sjis.title == "サギ" and "サギの営巣地は春に数えられる。" in sjis.text
        latin9 = next(h for h in c.search("hérons nid") if h.doc_id == "http-equiv.html")
        assert latin9.title == "Hérons" and "5 € par nid" in latin9.text
        assert c.notes == []


def _fs_supports_raw_names(root: Path) -> bool:
    try:
        fd = os.open(os.path.join(os.fsencode(root), b"probe-\xff.txt"), os.O_WRONLY | os.O_CREAT)
    except OSError:
        return False
    os.close(fd)
    os.unlink(os.path.join(os.fsencode(root), b"probe-\xff.txt"))
    return True


def write_raw(root: Path, name: bytes, data: bytes) -> None:
    """Create a file whose name is raw bytes (not necessarily UTF-8)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    fd = os.open(os.path.join(os.fsencode(root), name), flags, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def test_files_with_non_utf8_names_are_indexed_under_safe_unique_refs(tmp_path: Path) -> None:
    root = tmp_path / "names"
    root.mkdir()
    if not _fs_supports_raw_names(root):
        pytest.skip("this filesystem refuses non-UTF-8 file names")
    write_raw(root, b"n\xe9e.md", b"Latin-1 named file about ocelot firmware.\n")
    write_raw(root, b"n\xe8e.md", b"Another latin-1 name about ocelot gearboxes.\n")
    os.mkdir(os.path.join(os.fsencode(root), b"d\xff"))
    write_raw(root, b"d\xff/inner.txt", b"Ocelot notes kept in a badly named folder.\n")
    # A real UTF-8 file whose name is exactly what an escaped one could display as.
    (root / "n\\xe9e.md").write_text("Backslash named file about ocelot manuals.\n")
    (root / "plain.md").write_text("Plain file about ocelot whiskers.\n")
    data = tmp_path / "data"
    with Corpus.open(data, folder=root) as c:
        assert c.built
        hits = c.search("ocelot", k=10)
        refs = [h.ref for h in hits]
        assert len(hits) == 5 and len(set(refs)) == 5, refs
        for hit in hits:
            for field in (hit.ref, hit.doc_id, hit.title, hit.source, hit.text):
                field.encode("utf-8")  # no lone surrogates anywhere: printable, JSON-able
            found = c.passage(hit.ref)
            assert found is not None and (found.doc_id, found.text) == (hit.doc_id, hit.text)
            assert c.read(hit.ref).text == hit.text
        assert "plain.md#0" in refs and "n\\xe9e.md#0" in refs
        assert c.description.encode("utf-8")
    # Same inputs, same refs: reopened from the cache and rebuilt from scratch.
    with Corpus.open(data, folder=root) as again:
        assert not again.built
        assert sorted(h.ref for h in again.search("ocelot", k=10)) == sorted(refs)
    with Corpus.open(tmp_path / "data2", folder=root) as fresh:
        assert fresh.built
        assert sorted(h.ref for h in fresh.search("ocelot", k=10)) == sorted(refs)


def test_a_folder_with_a_non_utf8_path_opens_and_reports_printably(tmp_path: Path) -> None:
    if not _fs_supports_raw_names(tmp_path):
        pytest.skip("this filesystem refuses non-UTF-8 file names")
    raw_root = os.path.join(os.fsencode(tmp_path), b"f\xe9")
    os.mkdir(raw_root)
    root = Path(os.fsdecode(raw_root))
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=root)
    str(info.value).encode("utf-8")
    (root / "doc.md").write_text("Quetzal migration timetables.\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert c.search("quetzal")[0].ref == "doc.md#0"
        c.description.encode("utf-8")


def test_a_python_file_is_read_in_the_encoding_its_coding_comment_declares(tmp_path: Path) -> None:
    # the sibling of an HTML page's meta charset: PEP 263's coding comment
    root = tmp_path / "pep263"
    root.mkdir()
    (root / "herons.py").write_bytes(
        '# -*- coding: iso-8859-15 -*-\n"""Héron counts: the café ledger costs 5 € a colony."""\n'
        .encode("iso-8859-15"))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        hits = c.search("héron ledger")
        assert hits and "Héron counts: the café ledger costs 5 € a colony." in hits[0].text
        assert c.notes == []
