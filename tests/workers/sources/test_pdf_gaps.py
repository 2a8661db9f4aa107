"""A PDF set in a composite font with no space glyph (xdvipdfmx's, dblatex's) is read with its
words apart: its word gaps are ``TJ`` offsets only (trial 124, M1-F2). Every file is built by
the test."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.documents_helpers import make_pdf
from workers.sources import Corpus


def _cid(char: str) -> int:
    """The CID of ``char`` in the test's font (Liberation's glyph order: "A" is 36, "=" 32)."""
    return ord(char) - 29


def _tj(words: list[str], gap: int) -> str:
    """A ``TJ`` array showing ``words`` with ``-gap`` thousandths of an em between them."""
    shown = [f"<{''.join(f'{_cid(c):04x}' for c in word)}>" for word in words]
    return "[" + f"-{gap}".join(shown) + "]"


def type0_pdf(stream: str, text: str) -> bytes:
    """A one-page PDF drawing ``stream`` with ``/F1``: a ``Type0`` font, ``Identity-H``, whose
    ``ToUnicode`` maps the CID of each character of ``text`` (no space among them) and whose
    ``/W`` gives CID 32 (an "=") 564 and every other CID 500 (``/DW``)."""
    chars = sorted(set(text) - {" "})
    bfchar = "".join(f"<{_cid(c):04x}> <{ord(c):04x}>\n" for c in chars)
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "1 begincodespacerange <0000> <ffff> endcodespacerange\n"
            f"{len(chars)} beginbfchar\n{bfchar}endbfchar\n"
            "endcmap CMapName currentdict /CMap defineresource pop end end")
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+LiberationSerif "
        "/Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+LiberationSerif "
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
        "/DW 500 /W [32 [564]] >>",
        f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body.encode("latin-1") + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def test_a_composite_fonts_word_gaps_are_spaces(tmp_path: Path) -> None:
    # Trial 124, M1-F2: the Debian Reference's PDF (dblatex, xdvipdfmx) was read "The
    # shellscriptisatextfilewiththeexecutionbitset": pypdf took code 32, an "=" 564 wide, for
    # the space of a font that has none, and read a gap only from an offset of 268 or more;
    # a tight line's gaps are 250, a kerning (an 18 between "r" and "g") is no gap
    first = "The shell script is a text file with the execution bit set."
    second = "Arguments are read by the shell."
    stream = (f"BT /F1 10 Tf 72 720 Td {_tj(first.split(), 250)} TJ "
              f"0 -12 Td [<{_cid('A'):04x}{_cid('r'):04x}>18<"
              + "".join(f"{_cid(c):04x}" for c in "guments")
              + f">-305{_tj(second.split()[1:], 249)[1:]} TJ ET")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(type0_pdf(stream, first + second))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("execution bit", k=1)
    assert hits and first in hits[0].text and second in hits[0].text, hits


def test_a_page_whose_words_run_together_is_not_indexed_and_named(tmp_path: Path) -> None:
    # Trial 124, M1-F2: a page pypdf reads with no spaces between its words was quoted as is
    # ("Theshellscriptisatextfilewiththeexecutionbitset"); one it reads with spaces stays
    glued = ("Theshellscriptisatextfilewiththeexecutionbitset and\n"
             "Ifyouwritetoanamedpipetheprocesswaitsforareader and\n"
             "Thesizeofthepipeisalwayszeroitdoesnotstoredata.")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.pdf").write_bytes(make_pdf(
        [glued, "The shell script is a text file with the execution bit set."]))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("shell script execution bit", k=5)
        notes = [n for n in corpus.notes if "run together" in n]
    assert [hit.doc_id for hit in hits] == ["manual.pdf:p2"], hits
    assert notes == ["manual.pdf: 1 of 2 pages not indexed, their words run together (its "
                     "text has no spaces between them)"], notes
