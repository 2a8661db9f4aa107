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

A composite font (``Type0``, two-byte codes) whose ``ToUnicode`` maps no code to a space has no
space glyph: its word gaps are ``TJ`` offsets alone (xdvipdfmx's, dblatex's: the Debian
Reference's PDF). pypdf then takes code 32, another glyph ("=", 564 thousandths of an em), as
its space, and reads a gap only from an offset of half of that: 866 of the manual's 1,004
passages held runs of 25 letters or more ("Theshellscriptisatextfilewiththeexecutionbitset";
trial 124, M1-F2; pypdf issue 3978). :func:`gap_offsets` writes each offset of at least half of
the space pypdf gives a font without one (half its default width, ``/DW``; the manual's word
gaps are 170 to 700, its kerning at most 40) as a gap pypdf reads, with the same advance.

This module imports only the standard library and pypdf.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["GLUED_LETTERS", "as_offsets", "gap_offsets", "respaced_contents", "run_together"]

GLUED_LETTERS = 25
"""A run of this many letters or more with no space is words run together, not a word (the
Debian Reference's "commandisnotrecommendedfortherelease"; an identifier has a digit, an
underscore or a capital inside, "pSurfaceTreatmentRequested", and is one or two to a page)."""

_GLUED = re.compile(rf"[A-Za-z][a-z]{{{GLUED_LETTERS - 1},}}")
_LETTERS = re.compile(r"[A-Za-z]+")


def run_together(text: str) -> bool:
    """Whether a page's text has its words run together: three runs of :data:`GLUED_LETTERS`
    lower-case letters or more (a capital may start one), a tenth of its letters or more. What
    pypdf reads from a font whose word gaps it cannot tell (one this module does not mend), not
    prose to search or quote: the Debian Reference's PDF held such runs on 245 of its 261 pages
    (trial 124, M1-F2); no page of the asymptote-doc or sqlite3-doc PDFs has three.

    Example:
        >>> run_together("Theshellscriptisatextfilewiththeexecutionbitset. Ok. "
        ...              "Ifyouwritetoanamedpipetheprocesswaits; itdoesnotstoredataitjustlinks.")
        True
        >>> run_together("Set pSurfaceTreatmentRequested and pContourBeforeDeformation here.")
        False
    """
    runs = _GLUED.findall(text)
    if len(runs) < 3:
        return False
    return sum(map(len, runs)) * 10 >= sum(map(len, _LETTERS.findall(text)))


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


_BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
_BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
_HEX = re.compile(rb"<([0-9A-Fa-f]*)>")
_RANGE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])")


def maps_space(cmap: bytes) -> bool:
    """Whether a ``ToUnicode`` CMap maps some code to a space (U+0020), by a ``bfchar`` pair or
    a ``bfrange``.

    Example:
        >>> maps_space(b"1 beginbfchar <0003> <0020> endbfchar")
        True
        >>> maps_space(b"1 beginbfrange <0024> <0026> <0041> endbfrange")
        False
    """
    for block in _BFCHAR.findall(cmap):
        codes = _HEX.findall(block)
        if any(dst.upper() == b"0020" for dst in codes[1::2]):
            return True
    for block in _BFRANGE.findall(cmap):
        for low, high, dst in _RANGE.findall(block):
            if dst.startswith(b"["):
                if any(one.upper() == b"0020" for one in _HEX.findall(dst)):
                    return True
            elif len(dst) == 6 and 0 <= 0x20 - int(dst[1:-1], 16) <= int(high, 16) - int(low, 16):
                return True
    return False


def _cid_width(widths: Any, cid: int) -> float | None:
    """The width a CID font's ``/W`` array (``c [w ...]`` and ``c_first c_last w`` entries)
    gives ``cid``; None when it gives none."""
    items, at = list(widths), 0
    while at + 1 < len(items):
        first, then = int(items[at]), items[at + 1]
        if hasattr(then, "__len__"):
            if first <= cid < first + len(then):
                return float(then[cid - first])
            at += 2
        else:
            if at + 2 < len(items) and first <= cid <= int(then):
                return float(items[at + 2])
            at += 3
    return None


def gapless(font: Any) -> tuple[float, float] | None:
    """For a composite font with no space glyph (``Identity-H``, its ``ToUnicode`` mapping no
    code to a space, :func:`maps_space`) whose code 32 has a width, ``(the width pypdf takes as
    its space, the least offset that is a word gap)``: half of the space pypdf gives a font
    without one, half its default width (``/DW``, 1000 when not given); else None (pypdf
    reads the font's gaps by its space, or by that default when code 32 has no width)."""
    try:
        font = font.get_object()
        if font.get("/Subtype") != "/Type0" or font.get("/Encoding") != "/Identity-H":
            return None
        to_unicode = font.get("/ToUnicode")
        if to_unicode is None or maps_space(to_unicode.get_object().get_data()):
            return None
        cid_font = font["/DescendantFonts"].get_object()[0].get_object()
        misread = _cid_width(cid_font.get("/W", []).get_object(), _SPACE)
        default = float(cid_font.get("/DW", 1000))
    except Exception:  # noqa: BLE001 - a damaged font dict: pypdf reads its gaps as it does
        return None
    return (misread, 0.95 * default / 4) if misread else None


def gap_offsets(items: list[Any], misread: float, gap: float) -> list[Any] | None:
    """``items`` (a ``TJ`` array of a :func:`gapless` font) with each offset of at least
    ``gap`` made two of the same advance that pypdf reads as a word gap: the offset less
    ``misread`` (past half the ``misread`` space it judges by), then ``misread``; None when
    none is.

    Example:
        >>> gap_offsets([b"ab", -250, b"c", 18, b"d"], 564, 118.75)
        [b'ab', -814, 564, b'c', 18, b'd']
        >>> gap_offsets([b"ab", -40, b"c"], 564, 118.75) is None
        True
    """
    from pypdf.generic import FloatObject

    out: list[Any] = []
    for item in items:
        if isinstance(item, (bytes, str)) or -float(item) < gap:
            out.append(item)
        else:
            out += [FloatObject(float(item) - misread), FloatObject(misread)]
    return out if len(out) > len(items) else None


class _State:
    """The text state the rewrite needs: ``Tc``, ``Tw``, the font's size, whether the font is
    simple and its space's width (None: unknown, or not simple), and a composite font's
    :func:`gapless` widths. Saved by ``q``, restored by ``Q``, as the graphics state holds
    them."""

    def __init__(self) -> None:
        self.tc = self.tw = self.size = 0.0
        self.simple = False
        self.space: float | None = None
        self.gapless: tuple[float, float] | None = None
        self.saved: list[tuple[Any, ...]] = []
        # by font name: simple, space, gapless
        self.known: dict[str, tuple[bool, float | None, tuple[float, float] | None]] = {}

    def track(self, operator: bytes, operands: list[Any], fonts: Any) -> None:
        if operator == b"q":
            self.saved.append((self.tc, self.tw, self.size, self.simple, self.space,
                               self.gapless))
        elif operator == b"Q" and self.saved:
            self.tc, self.tw, self.size, self.simple, self.space, self.gapless = self.saved.pop()
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
                self.known[operands[0]] = (simple, _space_width(font) if simple else None,
                                           None if simple or font is None else gapless(font))
            self.simple, self.space, self.gapless = self.known[operands[0]]


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
    docstring), and the word gaps of each ``TJ`` of a :func:`gapless` font made ones pypdf
    reads (:func:`gap_offsets`); None when the page has neither, or its content cannot be read
    (pypdf then reads the page as it is). Put it in the page's ``/Contents`` before
    ``extract_text``. ``3.275 Tc (oa) Tj`` in a 10 pt font becomes ``0 Tc [(o) -327.5 (a)] TJ
    3.275 Tc`` (:func:`as_offsets`).
    """
    from pypdf.generic import ContentStream

    try:
        contents = page.get_contents()
        if contents is None:
            return None
        data = contents.get_data()
        fonts = page.get("/Resources", {}).get_object().get("/Font", {}).get_object()
        if (b"Tc" not in data and b"Tw" not in data and b'"' not in data
                and not any(map(gapless, fonts.values()))):
            return None
        stream = ContentStream(contents, reader, "bytes")  # as pypdf's extraction parses it
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
    (and each ``"``), and each ``TJ`` of a :func:`gapless` font, rewritten; None when none
    is."""
    from pypdf.generic import ArrayObject, FloatObject

    state, out, changed = _State(), [], False
    for operands, operator in operations:
        if operator == b'"' and len(operands) >= 3:  # aw ac string ": Tw, Tc, then '
            out += [([operands[0]], b"Tw"), ([operands[1]], b"Tc")]
            state.track(b"Tw", [operands[0]], fonts)
            state.track(b"Tc", [operands[1]], fonts)
            operands, operator = operands[2:], b"'"
        state.track(operator, operands, fonts)
        if (operator == b"TJ" and operands and state.gapless
                and (gaps := gap_offsets(list(operands[0]), *state.gapless))):
            out.append(([ArrayObject(gaps)], b"TJ"))
            changed = True
            continue
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
