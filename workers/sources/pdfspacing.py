"""A PDF page's character and word spacing (``Tc``, ``Tw``) written as the ``TJ`` offsets
pypdf reads word gaps from, so that its text has spaces where the page shows them.

pypdf's plain text extraction finds a word gap in a gap between two shown strings or in a
``TJ`` array's offset ("a negative offset of at least half the font's space is a gap"). It
does not see the gap a page makes by character spacing inside one string, nor count word
spacing in a string's width. Ghostscript's PDFs (groff's man pages printed with ``ps2pdf``, any
file passed through ``pdfwrite``) set words that way: ``3.275 Tc (oa) Tj`` shows "o", a word
gap, "a"; a justified line's wider spaces are ``Tw``; and ``-0.25 Tc -2.15 Tw (iv e) Tj`` shows
"ive", a space glyph drawn with almost no advance. pypdf read Bash's man page as "tw oadjacent
*sused", "the yare", "giv en": 6.9% of its words were not in the HTML copy of the page, 1.9%
with this, nearly all of them halves of words broken at line ends, which the index joins.

:func:`respaced_contents` rewrites a page's text-showing operators set with ``Tc`` or ``Tw``
into ``TJ`` arrays whose offsets carry the same advances (PDF 32000-1, 9.4.4: a glyph's advance
is its width plus ``Tc``, plus ``Tw`` for the single-byte code 32), with ``Tc`` and ``Tw`` at
0 while they show; a space glyph becomes its advance as an offset. The glyph positions are
those the page draws, and pypdf decides from them, by its own rule, where a word gap is. A page
that sets neither is left as it is (pdfTeX's pages: their text is unchanged). Only simple
fonts (Type1, TrueType) are rewritten: a composite font's codes are not single bytes, and
``Tw`` does not apply to them.

pypdf's own options were measured first, on the man page: ``extraction_mode="layout"`` places
each string where it is drawn but not the glyphs inside one ("twoadjacent", "anystring": 4.2%
of the words not in the HTML), and ``space_width`` only stands in for a font that does not give
its space's width (no change). Source of the idea: the text-positioning rules of PDF 32000-1,
9.4.4, and pypdf's ``TJ`` handling (``_text_extraction``'s ``process_tj_offset``).

This module imports only the standard library and pypdf.
"""

from __future__ import annotations

from typing import Any

__all__ = ["as_offsets", "respaced_contents"]

_SIMPLE_FONTS = ("/Type1", "/MMType1", "/TrueType")
_SHOWS = (b"Tj", b"TJ", b"'", b'"')
_SPACE = 32


def _raw(item: Any) -> bytes:
    """The bytes of a string operand (a ``TextStringObject`` keeps its original bytes)."""
    original = getattr(item, "get_original_bytes", None)
    return original() if original is not None else bytes(item)


def _space_width(font: Any) -> float | None:
    """The width (glyph space, thousandths of an em) of code 32 in a simple ``font`` dict, or
    None when the font has no ``/Widths`` for it or its encoding maps 32 to another glyph."""
    try:
        font = font.get_object()
        if font.get("/Subtype") not in _SIMPLE_FONTS:
            return None
        encoding = font.get("/Encoding")
        encoding = encoding.get_object() if encoding is not None else None
        differences = list(encoding.get("/Differences", ())) if hasattr(encoding, "get") else []
        code = None
        for item in differences:
            if isinstance(item, int):
                code = int(item)
            else:
                if code == _SPACE and str(item) != "/space":
                    return None
                code = None if code is None else code + 1
        widths = font.get("/Widths")
        first = int(font.get("/FirstChar", 0))
        if widths is None or not first <= _SPACE < first + len(widths):
            return None
        return float(widths.get_object()[_SPACE - first])
    except Exception:  # noqa: BLE001 - a damaged font dict: the string is left as it is
        return None


class _State:
    """The text state the rewrite needs: ``Tc``, ``Tw``, the font's size, whether the font is
    simple and its space's width (None: unknown, or not simple). Saved by ``q``, restored by
    ``Q``, as the graphics state holds them."""

    def __init__(self) -> None:
        self.tc = self.tw = self.size = 0.0
        self.simple = False
        self.space: float | None = None
        self.saved: list[tuple[float, float, float, bool, float | None]] = []
        self.known: dict[str, tuple[bool, float | None]] = {}  # by font name: simple, space

    def track(self, operator: bytes, operands: list[Any], fonts: Any) -> None:
        if operator == b"q":
            self.saved.append((self.tc, self.tw, self.size, self.simple, self.space))
        elif operator == b"Q" and self.saved:
            self.tc, self.tw, self.size, self.simple, self.space = self.saved.pop()
        elif operator == b"Tc" and operands:
            self.tc = float(operands[0])
        elif operator == b"Tw" and operands:
            self.tw = float(operands[0])
        elif operator == b"Tf" and len(operands) >= 2:
            self.size = float(operands[1])
            if operands[0] not in self.known:
                font = fonts.get(operands[0]) if hasattr(fonts, "get") else None
                subtype = font.get_object().get("/Subtype") if font is not None else None
                simple = subtype in _SIMPLE_FONTS
                self.known[operands[0]] = simple, _space_width(font) if simple else None
            self.simple, self.space = self.known[operands[0]]


def as_offsets(items: list[Any], size: float, tc: float, tw: float,
               space: float | None) -> list[Any]:
    """``items`` (a ``TJ`` array's strings and numbers, shown in a simple font of ``size``
    under ``tc`` and ``tw``) as strings and offsets with the same advances under ``Tc = Tw =
    0``: after each glyph, ``-(tc [+ tw for code 32]) * 1000 / size``; a space glyph of known
    width (``space``, thousandths of an em, or None) is left out, its whole advance made an
    offset. The spacing after the last glyph is left out: the next positioning operator sets
    where the next text starts (pypdf would read it as a gap before text drawn right after);
    a space glyph ending the string stays one (gropdf's ``[(for each )] TJ /F38 10 Tf (name)
    Tj`` was read "eachname"). A positive ``tc`` over a string that has its own space glyphs
    is tracking, not word gaps: its letters stay together ("Q U A R T E R L Y" was read from a
    spaced title).

    Example:
        >>> def shown(items): return [bytes(i) if isinstance(i, bytes) else i for i in items]
        >>> shown(as_offsets([b"oa"], 10, 3.275, 0, 250))  # a word gap inside one string
        [b'o', -327.5, b'a']
        >>> shown(as_offsets([b"iv e"], 10, -0.25, -2.15, 250))  # a space with no advance
        [b'i', 25, b'v', 15, b'e']
        >>> shown(as_offsets([b"each "], 10, 0, 0.58, 250))  # the word ends there
        [b'each', b' ']
    """
    from pypdf.generic import ByteStringObject, FloatObject

    out: list[Any] = []
    run = bytearray()
    pending = 0.0
    scale = 1000.0 / size
    glyphs = [code for item in items if isinstance(item, (bytes, str)) for code in _raw(item)]
    # tracking: a positive Tc over words that have their space glyphs spaces every letter
    # alike (a designed title, "Q U A R T E R L Y"); Ghostscript's word gaps by Tc come in
    # strings with no space glyph ("evenifitiss" is four words)
    tracked = tc > 0 and _SPACE in glyphs and sum(code != _SPACE for code in glyphs) > 2
    for item in items:
        if not isinstance(item, (bytes, str)):
            pending += float(item)
            continue
        for code in _raw(item):
            spacing = (0.0 if tracked else tc) + (tw if code == _SPACE else 0.0)
            if code == _SPACE and space is not None:
                pending -= (space * size / 1000.0 + spacing) * scale
                continue
            if pending:
                if run:
                    out.append(ByteStringObject(bytes(run)))
                    run.clear()
                out.append(FloatObject(round(pending, 4)))
            run.append(code)
            pending = -spacing * scale
    if run:
        out.append(ByteStringObject(bytes(run)))
    if glyphs and glyphs[-1] == _SPACE and space is not None:
        out.append(ByteStringObject(b" "))  # a word's end: the next string is another word
    return out


def respaced_contents(page: Any, reader: Any) -> Any | None:
    """The content stream of ``page`` (a pypdf page of ``reader``) with each string a simple
    font shows under ``Tc`` or ``Tw`` made a ``TJ`` array of offsets (see the module's
    docstring); None when the page sets neither, or its content cannot be read (pypdf then
    reads the page as it is). Put it in the page's ``/Contents`` before ``extract_text``.
    ``3.275 Tc (oa) Tj`` in a 10 pt font becomes ``0 Tc [(o) -327.5 (a)] TJ 3.275 Tc``
    (:func:`as_offsets`).
    """
    from pypdf.generic import ContentStream

    try:
        contents = page.get_contents()
        if contents is None:
            return None
        data = contents.get_data()
        if b"Tc" not in data and b"Tw" not in data and b'"' not in data:
            return None
        stream = ContentStream(contents, reader, "bytes")  # as pypdf's extraction parses it
        fonts = page.get("/Resources", {}).get_object().get("/Font", {}).get_object()
        operations = _rewritten(stream.operations, fonts)
    except Exception:  # noqa: BLE001 - a broken stream or operand: pypdf reads the page as is
        return None
    if operations is None:
        return None
    stream.operations = operations
    return stream


def _rewritten(operations: list[tuple[list[Any], bytes]], fonts: Any
               ) -> list[tuple[list[Any], bytes]] | None:
    """``operations`` (a content stream's ``(operands, operator)`` pairs; ``fonts``: the page's
    font resources) with each text-showing operator of a simple font under ``Tc`` or ``Tw``
    (and each ``"``) rewritten; None when none is."""
    from pypdf.generic import ArrayObject, FloatObject

    state, out, changed = _State(), [], False
    for operands, operator in operations:
        if operator == b'"' and len(operands) >= 3:  # aw ac string ": Tw, Tc, then '
            out += [([operands[0]], b"Tw"), ([operands[1]], b"Tc")]
            state.track(b"Tw", [operands[0]], fonts)
            state.track(b"Tc", [operands[1]], fonts)
            operands, operator = operands[2:], b"'"
        state.track(operator, operands, fonts)
        if (operator not in _SHOWS or not operands or not state.simple or not state.size
                or not (state.tc or state.tw)):
            out.append((operands, operator))
            continue
        if operator == b"'":
            out.append(([], b"T*"))
        items = list(operands[0]) if operator == b"TJ" else [operands[0]]
        offsets = as_offsets(items, state.size, state.tc, state.tw, state.space)
        out += [([FloatObject(0)], b"Tc"), ([FloatObject(0)], b"Tw"),
                ([ArrayObject(offsets)], b"TJ"),
                ([FloatObject(state.tc)], b"Tc"), ([FloatObject(state.tw)], b"Tw")]
        changed = True
    return out if changed else None
