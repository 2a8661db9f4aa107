"""Small PDF and .docx files built by the tests themselves (no fixture files in the repo).

``make_pdf`` writes a minimal, valid PDF by hand (one Helvetica text object per page, a correct
cross-reference table), which is what ``pypdf`` reads in the field; ``encrypt_pdf`` and
``outline_pdf`` use pypdf's own writer; ``make_docx`` uses python-docx.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path


def pdf_string(line: str) -> str:
    return "(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def make_pdf(pages: Sequence[str], differences: str = "") -> bytes:
    """A PDF whose page ``i`` shows the lines of ``pages[i]`` (latin-1 text; with
    ``differences``, e.g. ``"1 /fi /fl"``, those codes name those glyphs)."""
    streams = []
    for text in pages:
        ops = ["BT /F1 11 Tf 72 720 Td 14 TL"]
        ops += [f"{pdf_string(line)} Tj T*" for line in text.split("\n")]
        ops.append("ET")
        streams.append("\n".join(ops))
    return pdf_of_streams(streams, differences=differences)


def pdf_of_streams(streams: Sequence[str], font: str = "Helvetica", differences: str = ""
                   ) -> bytes:
    """A PDF whose page ``i`` draws the content stream ``streams[i]`` (operators, latin-1),
    with font ``/F1``: the Type1 ``font`` (for ``"Courier"``, with its ``/Widths``: 600 for
    each of codes 32 to 126, as a file that embeds its font declares them), its encoding
    WinAnsi with these ``/Differences`` when given."""
    widths = (" /FirstChar 32 /LastChar 126 /Widths [" + " ".join(["600"] * 95) + "]"
              if font == "Courier" else "")
    if differences:
        widths += (" /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding"
                   f" /Differences [{differences}] >>")
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        (
            "<< /Type /Pages /Kids ["
            + " ".join(f"{4 + 2 * i} 0 R" for i in range(len(streams)))
            + f"] /Count {len(streams)} >>"
        ).encode(),
        f"<< /Type /Font /Subtype /Type1 /BaseFont /{font}{widths} >>".encode(),
    ]
    for i, ops in enumerate(streams):
        stream = ops.encode("latin-1")
        objects.append(
            (
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>"
            ).encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def encrypt_pdf(data: bytes, user_password: str, owner_password: str = "owner") -> bytes:
    """``data`` encrypted with pypdf (RC4-128: no extra crypto package needed)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password=owner_password,
                   algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def outline_pdf(data: bytes, entries: Sequence[tuple[str, int, int | None]]) -> bytes:
    """``data`` with an outline (bookmarks): ``(title, page from 0, parent entry's index in
    entries or None)`` each, added with pypdf's ``PdfWriter.add_outline_item``."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    added: list[object] = []
    for title, page, parent in entries:
        added.append(writer.add_outline_item(
            title=title, page_number=page, parent=None if parent is None else added[parent]))
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def make_docx(path: Path, paragraphs: Sequence[str], table: Sequence[Sequence[str]] = (),
              heading_row: str = "") -> Path:
    """A .docx with these paragraphs (the first as a heading) and an optional table, whose
    first row Word marks as its heading row when ``heading_row`` is ``"bold"`` (its runs bold)
    or ``"repeat"`` ("Repeat as header row": ``<w:tblHeader/>``)."""
    import docx
    from docx.oxml import OxmlElement

    document = docx.Document()
    for i, text in enumerate(paragraphs):
        if i == 0:
            document.add_heading(text, level=1)
        else:
            document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, cell in enumerate(row):
                if r == 0 and heading_row == "bold":
                    grid.cell(r, c).paragraphs[0].add_run(cell).bold = True
                else:
                    grid.cell(r, c).text = cell
        if heading_row == "repeat":
            grid.rows[0]._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    return path
