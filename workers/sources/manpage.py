"""A man page's troff source (man(7): ``ls.1``, ``Tcl_LinkVar.3tcl.gz``) as the Markdown
:func:`workers.sources.markdownpage.markdown_page` reads: titled by its NAME line, cut at its
``.SH``/``.SS`` headings, its filled lines joined into paragraphs, its ``.nf`` and ``.EX``
displays as fenced code, its fonts and escapes as the characters a reader sees.

Read as plain text before (a file without a type is text), a folder of Tcl's man pages was
titled by file names, and reports quoted ``.SH NAME``, ``\\fBTcl_LinkVar\\fR``, the ``.de MT``
macro definitions of the pages' preamble and their ``'\\" Copyright`` comment lines. Not
groff: a page's own macros are not expanded (a few common ones are known: Tcl's ``.AP``,
``.QW``, ``.CS``; pod2man's ``.Vb``), conditionals are dropped with their blocks, and every
request that only lays out the page (``.RS``, ``.in``, ``.ta``, ``.ft``) is left out. The
rules are line rules, linear in the page. mdoc(7) pages (``.Dd``/``.Dt``: BSD's) are not
man(7) pages: they stay plain text.

This module imports only the standard library.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = ["is_man_page", "man_markdown", "unescaped"]

_HEAD_LINES = 200
"""How many requests a man page's ``.TH`` may come after (comments, blank lines, macro
definitions and conditionals not counted): pod2man's preamble of string and macro definitions
takes up to 105 lines before it (OpenSSL's section 7), Tcl's 270 (``re_syntax.3tcl``), most of
them inside ``.de`` blocks."""
_ARG = re.compile(r'"((?:[^"\\]|""|\\.?)*)"?|((?:[^\s\\"]|\\.?)(?:[^\s\\]|\\.?)*)')
"""A request's argument: quoted (``"const char"``, ``""`` in it a quote) or a word, whose
escapes (``foo\\ bar``) keep it whole."""
_ESCAPE = re.compile(r"""\\(?:
    [fF](?:\[[^\]\n]*\]|\(..|.)                                    # a font
  | \((?P<glyph>..) | \[(?P<named>[^\]\n]*)\] | C'(?P<quoted>[^'\n]*)'
  | \*(?:\[(?P<sname>[^\]\n]*)\]|\((?P<str2>..)|(?P<str1>.))   # a string
  | [nmMgYVkz](?:\[[^\]\n]*\]|\(..|[+-]?.)                         # a register, a colour
  | s[+-]?(?:\(\d\d|\[[^\]\n]*\]|'[^'\n]*'|[1-3]\d|\d)              # a size
  | [hvwlLoXDbxHSRNZBAy]'[^'\n]*'                                  # motions, marks, tests
  | (?P<one>.|$))""", re.VERBOSE)
_GLYPHS = {
    "em": "—", "en": "–", "hy": "-", "mi": "-", "aq": "'", "dq": '"', "lq": "“", "rq": "”",
    "oq": "‘", "cq": "’", "bu": "•", "co": "©", "rg": "®", "tm": "™", "de": "°", "mu": "×",
    "di": "÷", "+-": "±", "<=": "≤", ">=": "≥", "!=": "≠", "->": "→", "<-": "←", "ua": "↑",
    "da": "↓", "ba": "|", "br": "|", "ul": "_", "ru": "_", "sl": "/", "rs": "\\", "ti": "~",
    "ha": "^", "ga": "`", "aa": "´", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "ss": "ß",
    "sc": "§", "ps": "¶", "dg": "†", "ct": "¢", "Po": "£", "Eu": "€", "Ye": "¥", "pl": "+",
    "eq": "=", "**": "*", "pc": "·", "bq": "„", "~~": "≈", "if": "∞", "*m": "µ", "*p": "π",
    "en-dash": "–", "lB": "[", "rB": "]", "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩",
    # strings: the man macros' and pod2man's
    "L\"": "“", "R\"": "”", "--": "—", "C+": "C++", "Aq": "'", "PI": "π", "R": "®", "Tm": "™",
}
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", ":": "\u0308", "~": "\u0303",
            ",": "\u0327", "o": "\u030a", "v": "\u030c"}
_ONE = {"-": "-", "e": "\\", "E": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "t": " ",
        ".": ".", "'": "'", "`": "`", "_": "_"}
_NAME_HEADINGS = frozenset({"NAME", "NOM", "NOMBRE", "BEZEICHNUNG", "NAAM", "NOME", "NAZWA",
                            "ИМЯ", "НАЗВАНИЕ", "名前", "名称"})
_DASH = re.compile(r"[ \t]+(?:\\-|\\\(em|\\\[em\]|\\\(en|-{1,2})[ \t]+")
"""The dash of a NAME line between its names and what they are (``ls \\- list``)."""
_MD_INLINE = re.compile(r"[\\`*<>\[\]&|~]|(?<![^\W_])_|_(?![^\W_])")
"""Markdown's characters of inline markup, escaped in text: ``char *addr, int *p`` keeps its
stars, ``<file>`` is no HTML tag."""
_LINE_START = re.compile(r"^(?:[#+\-=!:/{>]|(\d{1,9})([.)]))")
"""What reads as a heading, list, rule, quote or MkDocs mark at a line's start."""
_FONT_MACROS = {"B": " ", "I": " ", "SM": " ", "SB": " ", "BR": "", "BI": "", "IB": "",
                "IR": "", "RB": "", "RI": "", "UL": "", "SY": " "}
"""Macros whose arguments are text, and what joins them (the alternating fonts: nothing)."""
_BREAKS = frozenset({"PP", "LP", "P", "sp", "HP", "YS", "SE", "TH", "bp"})
_CODE_OPEN = frozenset({"nf", "EX", "CS", "DS", "Vb"})
_CODE_CLOSE = frozenset({"fi", "EE", "CE", "DE", "Ve", "TE"})
_REQUEST = re.compile(r"[.'][ \t]*([^\s\\]*)[ \t]*")
_BACKSLASHED = re.compile(r"\\.")
_CONTINUED = re.compile(r"\\+\n")
_SKIPPED_BLOCKS = frozenset({"de", "de1", "dei", "am", "am1", "ami", "ig"})
_CONDITIONALS = frozenset({"if", "ie", "el", "while"})


def is_man_page(text: str) -> bool:
    """Whether ``text`` is a man page's troff source (man(7)): a ``.TH`` request among its
    first requests (``_HEAD_LINES``; comments, macro definitions and conditionals not counted),
    no text before it; or a page that is only a ``.so`` link to another page (it renders to
    ``""``).

    Example:
        >>> is_man_page("'\\\\\\" Copyright (c) 1993\\n.TH Tcl_LinkVar 3 7.5 Tcl\\n.SH NAME\\n")
        True
        >>> is_man_page("README\\n======\\n\\n.TH is a troff request.\\n")
        False
    """
    requests = []
    for name, rest in _source_lines(text[:64 * 1024]):
        if name == "TH":
            return True
        if (not name and rest.strip()) or len(requests) >= _HEAD_LINES:
            return False  # text before any .TH, or no .TH among the first requests
        if name:
            requests.append((name, rest))
    return len(requests) == 1 and requests[0][0] == "so" and bool(requests[0][1].strip())


def unescaped(text: str, strings: dict[str, str] | None = None) -> str:
    """``text`` with its troff escapes as the characters they print: a string ``\\*(xx`` as
    ``strings`` (the page's ``.ds``) or the man macros' and pod2man's define it; fonts, sizes,
    motions, registers and other strings left out.

    Example:
        >>> unescaped(r"\\fBls\\fR \\- list \\(lqfiles\\(rq \\s-1\\e\\fI(x)\\fP\\&.")
        'ls - list “files” \\\\(x).'
    """
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda match: _escape_text(match, strings or {}), text)


def _escape_text(match: re.Match[str], strings: dict[str, str]) -> str:
    """What one escape (:data:`_ESCAPE`) prints."""
    if (name := match["glyph"] or match["named"] or match["quoted"]) is not None:
        return _glyph(name)
    if (string := match["sname"] or match["str2"] or match["str1"]) is not None:
        return strings.get(string, _GLYPHS.get(string, ""))
    if not (one := match["one"]):
        return ""
    return _ONE.get(one, "" if one.isalnum() or one in "&|^%){}:/,!\"#" else one)


def _glyph(name: str) -> str:
    """A special character by its name (``em``, ``'e``, ``u00E9``, ``char233``), else ""."""
    if name in _GLYPHS:
        return _GLYPHS[name]
    if len(name) == 2 and name[0] in _ACCENTS and name[1].isalpha():
        return unicodedata.normalize("NFC", name[1] + _ACCENTS[name[0]])
    if (code := re.fullmatch(r"u([0-9A-Fa-f]{4,6})|char(\d{1,3})", name)) is not None:
        value = int(code[1], 16) if code[1] else int(code[2])
        return chr(value) if value < 0x110000 and not 0xD800 <= value < 0xE000 else ""
    return ""


def _args(rest: str) -> list[str]:
    """A request's arguments (``"const char" *varName in`` → three), escapes still in them."""
    return [m[1].replace('""', '"') if m[1] is not None else m[2]
            for m in _ARG.finditer(rest) if m[1] is not None or m[2]]


def _source_lines(text: str) -> Iterator[tuple[str, str]]:
    """``(request name, rest)`` for a request line, ``("", line)`` for a text line, of the page
    ``text``: continued lines joined, comments cut, macro definitions (``.de X`` ... ``..``),
    ``.ig`` blocks and conditionals (``.if``, ``.ie``/``.el``, with their ``\\{ ... \\}``
    blocks) left out, a line that held only a comment gone."""
    text = _CONTINUED.sub(lambda m: m[0][:-2] if len(m[0]) % 2 == 0 else m[0],
                          text.replace("\r\n", "\n"))  # an odd run of backslashes ends it
    until, depth = "", 0
    for line in text.split("\n"):
        if until:
            until = "" if line[:1] in ".'" and re.fullmatch(
                rf"[.'][ \t]*{re.escape(until)}(?:[ \t].*|\\\".*)?", line) else until
            continue
        if depth > 0:
            depth = max(0, depth + line.count("\\{") - line.count("\\}"))
            continue
        cut = next((m.start() for m in _BACKSLASHED.finditer(line) if m[0] in ('\\"', "\\#")),
                   None) if "\\" in line else None
        kept = line if cut is None else line[:cut]
        if not kept.strip() and line.strip():
            continue  # a comment's line
        request = _REQUEST.match(kept)
        if request is None:
            yield "", kept
            continue
        name, rest = request[1], kept[request.end():]
        if name in _SKIPPED_BLOCKS:  # to its end line: ".." or "." and the name given
            words = _args(rest)[0 if name == "ig" else 1:]
            until = words[0] if words else "."
            continue
        if name in _CONDITIONALS:
            depth = max(0, line.count("\\{") - line.count("\\}"))
            continue
        if name:
            yield name, rest


class _Page:
    """The Markdown of a page built request by request: its sections' blocks, the paragraph,
    label or code block open, and what the next text line is (a heading, a label)."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, list[str]]] = [("", [])]
        self.para: list[str] = []  # pieces of text; "\n": a line break
        self.code: list[str] | None = None
        self.labels: list[str] = []
        self.want = ""  # what the next text line is: "##", "###", "label", or ""
        self.lead = ""  # a bullet (.IP \(bu) leading the next paragraph
        self.link: tuple[str, int] | None = None  # an open .UR's url, where its text starts
        self.fallback = ""  # name(section) from .TH
        self.strings: dict[str, str] = {}  # .ds name value
        self.table: bool | None = None  # in a tbl table: at its format lines (True), its rows

    def text(self, plain: str) -> None:
        """One line of text, as the state takes it: a heading, a label, code, or words."""
        if self.code is not None:
            cells = re.sub(r"^T\}|T\{$", "", plain) if self.table is False else plain
            self.code.append(cells.rstrip())
            return
        plain = " ".join(plain.split())
        if self.want in ("##", "###"):
            self.flush()
            self.sections.append((plain, [f"{self.want} {_escaped(plain)}"] if plain else []))
            self.want = ""
        elif self.want == "label":
            self.labels.append(plain)
            self.want = ""
        elif plain:
            self.emit_labels()
            self.para.append(plain)

    def emit_labels(self) -> None:
        """The labels of a ``.TP`` (and its ``.TQ``) as a paragraph of their own."""
        if labels := [label for label in self.labels if label]:
            self.block("\\\n".join(_escaped(label) for label in labels))
        self.labels = []

    def block(self, markdown: str) -> None:
        self.sections[-1][1].append(markdown)

    def flush(self) -> None:
        """Ends the paragraph (and the code block, labels and link) open."""
        self.end_code()
        self.emit_labels()
        self.want = "" if self.want == "label" else self.want
        lines = " ".join(self.para).replace(" \n ", "\n").strip("\n ").split("\n")
        if text := "\\\n".join(_escaped(line) for line in lines if line.strip()):
            self.block(f"{_escaped(self.lead)} {text}" if self.lead else text)
        self.para, self.lead, self.link = [], "", None

    def end_code(self) -> None:
        """Closes the code block open, fenced with more backticks than any run in it."""
        if self.code is None:
            return
        code, self.code, self.table = "\n".join(self.code).strip("\n"), None, None
        if code:  # its lines are right-stripped: blank ones are empty
            fence = "`" * max(3, 1 + max(map(len, re.findall(r"`{3,}", code)), default=2))
            self.block(f"{fence}\n{code}\n{fence}")

    def markdown(self) -> str:
        """The page as Markdown: its title (the NAME section's line, else ``name(section)``)
        as ``# title``, then every section but NAME."""
        self.flush()
        title, blocks = "", []
        for heading, held in self.sections:
            if not title and heading.upper() in _NAME_HEADINGS:
                title = " ".join(" ".join(_unescaped_markdown(b).split()) for b in held[1:])
                continue
            blocks.extend(held)
        if not any(b for b in blocks if not b.startswith("#")) and not title:
            return ""  # no text: a page that is only a .so link
        title = title or self.fallback
        return "\n\n".join(([f"# {_escaped(title)}"] if title else []) + blocks) + "\n"


def _escaped(text: str) -> str:
    """A line of text as Markdown that reads as that text: its inline markup characters
    escaped, and one that would start a heading, list, rule or quote kept a paragraph's."""
    text = _MD_INLINE.sub(lambda m: f"\\{m[0]}", text)
    return _LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[0]}", text)


def _unescaped_markdown(text: str) -> str:
    """Text :func:`_escaped` made, as it was (the NAME line, re-read as the title), its
    broken lines (``bzip2 \\- ...``, ``.br``, ``bzcat \\- ...``) one line."""
    return re.sub(r"\\(.)", r"\1", text.replace("\\\n", "; "))  # .br lines: "; "


def man_markdown(text: str) -> str:
    """The man page ``text`` (troff source, man(7)) as Markdown: ``# title`` (the NAME line,
    ``\\-`` as " — ", else ``name(section)`` from ``.TH``), ``.SH``/``.SS`` as ``##``/``###``
    headings, filled lines joined into paragraphs, ``.TP``/``.IP`` labels and Tcl's ``.AP``
    arguments as paragraphs of their own before their description's, ``.nf``/``.EX`` displays
    fenced, fonts and escapes as what they print; comments, macro definitions, conditionals
    and layout requests left out. A page that is only a ``.so`` link gives ``""``.

    Example:
        >>> print(man_markdown('.TH LS 1\\n.SH NAME\\nls \\\\- list files\\n.SH OPTIONS\\n.TP'
        ...                    '\\n.BR \\\\-a ", " \\\\-\\\\-all\\nShow \\\\fIall\\\\fR files.\\n'))
        # ls — list files
        <BLANKLINE>
        ## OPTIONS
        <BLANKLINE>
        \\-a, --all
        <BLANKLINE>
        Show all files.
        <BLANKLINE>
    """
    page = _Page()
    dashed = False
    for name, rest in _source_lines(text):
        if not dashed and page.sections[-1][0].upper() in _NAME_HEADINGS:
            rest, dashed = _DASH.subn(r" \\(em ", rest, count=1)
        if page.table and not name:  # a tbl table's options and format, to its line's "."
            page.table = not rest.rstrip().endswith(".")
        elif not name:
            if not rest.strip() and page.code is None:
                page.flush()  # a blank line: a paragraph's end
            elif page.code is not None or rest.strip():
                page.text(unescaped(rest, page.strings))
        elif name == "ds" and len(words := rest.split(None, 1)) == 2:
            page.strings[words[0]] = unescaped(words[1].removeprefix('"'), page.strings)
        elif name in ("TS", "T&"):  # a table: its rows as lines of code
            if name == "TS":
                page.flush()
            page.code, page.table = [] if page.code is None else page.code, True
        else:
            _request(page, name, _args(rest))
    return page.markdown()


def _request(page: _Page, name: str, args: list[str]) -> None:
    """What the request ``name`` with its arguments ``args`` (escapes in them) does to the
    page; a request of none of the kinds here (layout: ``.RS``, ``.in``, ``.ft``) nothing."""
    words = [unescaped(arg, page.strings) for arg in args]
    if name in _FONT_MACROS:
        if words:
            page.text(_FONT_MACROS[name].join(words))
    elif name in ("SH", "SS"):
        page.flush()
        page.want = "##" if name == "SH" else "###"
        if words:
            page.text(" ".join(words))
    elif name in _BREAKS:
        if page.code is not None:
            page.code.append("")
        else:
            page.flush()
        if name == "TH" and words:
            page.fallback = f"{words[0]}({words[1]})" if len(words) > 1 else words[0]
    elif name in ("RS", "RE"):  # an indented block's start or end: a paragraph's end
        if page.code is None:
            page.flush()
    elif name == "br":
        if page.code is None and page.para:
            page.para.append("\n")
    elif name in ("TP", "TQ"):
        if name == "TP":
            page.flush()
        page.want = "label"
    elif name in ("IP", "AP", "OP"):
        page.flush()
        _label(page, name, words)
    elif name in _CODE_OPEN:
        page.flush()
        page.code = []
    elif name in _CODE_CLOSE:
        page.end_code()
    elif name in ("QW", "PQ", "QR", "MT") and (name != "MT" or not words):
        page.text(_quoted(name, words))
    elif name in ("UR", "MT"):
        page.link = (words[0] if words else "", len(page.para))
    elif name in ("UE", "ME") and page.link is not None:
        _link_end(page, "".join(words))


def _label(page: _Page, name: str, words: list[str]) -> None:
    """The label of an ``.IP`` (a bullet leads its paragraph instead), of Tcl's ``.AP type
    name in/out`` (``Tcl_Interp *interp (in)``), or groff's synopsis ``.OP -b ibs``."""
    if name == "OP":
        page.para.append(f"[{' '.join(words)}]")
    elif name == "AP" and words:
        page.block(_escaped(" ".join(words[:2]) + (f" ({words[2]})" if len(words) > 2 else "")))
    elif words and words[0].strip() in ("•", "-", "*", "·", "o", "+", "—", "–"):
        page.lead = "•"
    elif words and words[0].strip():
        page.block(_escaped(" ".join(words[0].split())))


def _quoted(name: str, words: list[str]) -> str:
    """Tcl's quoting macros: ``.QW word ?after?`` “word”after, ``.PQ`` the same in parentheses,
    ``.QR`` a quoted range, ``.MT`` an empty string “”."""
    words = [*words, "", "", ""]
    if name == "QW":
        return f"“{words[0]}”{words[1]}"
    if name == "PQ":
        return f"(“{words[0]}”{words[1]}){words[2]}"
    return f"“{words[0]}”-“{words[1]}”{words[2]}" if name == "QR" else "“”"


def _link_end(page: _Page, after: str) -> None:
    """Ends a ``.UR url`` (or ``.MT address``) link: its text then the url in parentheses (the
    url alone when it has no text), then ``.UE``'s argument (punctuation) right after."""
    url, start = page.link or ("", 0)
    page.link = None
    if not url:
        return
    shown = url if len(page.para) == start else f"({url})"
    page.para.append(shown)
    if after:
        page.para[-1] += after
