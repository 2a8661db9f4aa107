"""What man(7) and mdoc(7) pages share (:mod:`workers.sources.manpage`,
:mod:`workers.sources.mdocpage`): a troff source read line by line (:func:`source_lines`:
continued lines joined, comments, macro definitions and conditionals left out), a request's
arguments (:func:`request_args`), troff's escapes as the characters they print
(:func:`unescaped`), and the Markdown page built block by block (:class:`TroffPage`: its
``##``/``###`` sections, paragraphs, labels and fenced code, titled by its NAME section).

Split from manpage.py (past 400 lines) when mdoc pages came to be read too. This module
imports only the standard library.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = ["NAME_HEADINGS", "TroffPage", "markdown_escaped", "quoted_args", "request_args",
           "source_lines", "unescaped"]

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
    # strings: the man macros', pod2man's and mdoc's
    "L\"": "“", "R\"": "”", "--": "—", "C+": "C++", "Aq": "'", "PI": "π", "R": "®", "Tm": "™",
    "Lq": "“", "Rq": "”", "q": '"', "Ba": "|", "Am": "&", "Le": "≤", "Ge": "≥", "Lt": "<",
    "Gt": ">", "Ne": "≠", "Pm": "±", "If": "∞", "Pi": "π", "Na": "NaN", "Ua": "↑", "Da": "↓",
    "Ra": "→", "La": "←",
}
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", ":": "\u0308", "~": "\u0303",
            ",": "\u0327", "o": "\u030a", "v": "\u030c"}
_ONE = {"-": "-", "e": "\\", "E": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "t": " ",
        ".": ".", "'": "'", "`": "`", "_": "_"}
NAME_HEADINGS = frozenset({"NAME", "NOM", "NOMBRE", "BEZEICHNUNG", "NAAM", "NOME", "NAZWA",
                            "ИМЯ", "НАЗВАНИЕ", "名前", "名称"})
_MD_INLINE = re.compile(r"[\\`*<>\[\]&|~]|(?<![^\W_])_|_(?![^\W_])")
"""Markdown's characters of inline markup, escaped in text: ``char *addr, int *p`` keeps its
stars, ``<file>`` is no HTML tag."""
_LINE_START = re.compile(r"^(?:[#+\-=!:/{>]|(\d{1,9})([.)]))")
"""What reads as a heading, list, rule, quote or MkDocs mark at a line's start."""
_REQUEST = re.compile(r"[.'][ \t]*([^\s\\]*)[ \t]*")
_BACKSLASHED = re.compile(r"\\.")
_CONTINUED = re.compile(r"\\+\n")
_SKIPPED_BLOCKS = frozenset({"de", "de1", "dei", "am", "am1", "ami", "ig"})
_CONDITIONALS = frozenset({"if", "ie", "el", "while"})


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


def request_args(rest: str) -> list[str]:
    """A request's arguments (``"const char" *varName in`` → three), escapes still in them.

    Example:
        >>> request_args('"const char" *varName in')
        ['const char', '*varName', 'in']
    """
    return [word for word, _quoted in quoted_args(rest)]


def quoted_args(rest: str) -> list[tuple[str, bool]]:
    """A request's arguments as :func:`request_args` reads them, each with whether it was
    quoted (an mdoc macro's quoted argument is a word, never a macro's name).

    Example:
        >>> quoted_args('Sy "Ta" Ta x')
        [('Sy', False), ('Ta', True), ('Ta', False), ('x', False)]
    """
    return [(m[1].replace('""', '"'), True) if m[1] is not None else (m[2], False)
            for m in _ARG.finditer(rest) if m[1] is not None or m[2]]


def source_lines(text: str) -> Iterator[tuple[str, str]]:
    """``(request name, rest)`` for a request line, ``("", line)`` for a text line, of the page
    ``text``: continued lines joined, comments cut, macro definitions (``.de X`` ... ``..``),
    ``.ig`` blocks and the conditionals' branches ``man`` does not show (``.if``,
    ``.ie``/``.el``, with their ``\\{ ... \\}`` blocks: :func:`_branch`) left out, a line that
    held only a comment gone."""
    text = _CONTINUED.sub(lambda m: m[0][:-2] if len(m[0]) % 2 == 0 else m[0],
                          text.replace("\r\n", "\n"))  # an odd run of backslashes ends it
    until, depth, last = "", 0, False  # last: whether the last .ie's branch was taken
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
        kept = kept.replace("\\}", "")  # the end of a branch taken (below)
        request = _REQUEST.match(kept)
        if request is None:
            yield "", kept
            continue
        name, rest = request[1], kept[request.end():]
        if name in _SKIPPED_BLOCKS:  # to its end line: ".." or "." and the name given
            words = request_args(rest)[0 if name == "ig" else 1:]
            until = words[0] if words else "."
            continue
        if name in _CONDITIONALS:
            taken, body = _branch(name, rest, last)
            last = taken if name == "ie" else last
            if not taken:
                depth = max(0, line.count("\\{") - line.count("\\}"))
                continue
            body = body.replace("\\{", "").replace("\\}", "").strip()
            inner = _REQUEST.match(body) if body else None
            if body and inner is None:
                yield "", body
            elif inner is not None and inner[1] and inner[1] not in _CONDITIONALS:
                yield inner[1], body[inner.end():]
            continue
        if name:
            yield name, rest


_CONDITION = re.compile(r"[ \t]*(!?)([nt])(?=[ \t]|\\\{|$)[ \t]*(.*)", re.DOTALL)


def _branch(name: str, rest: str, last: bool) -> tuple[bool, str]:
    """Whether a conditional's branch is taken as ``man`` shows a page (nroff: ``n`` true,
    ``t`` false; an ``.el`` when its ``.ie`` was not; any other condition not), and its body:
    the nroff branches held bash(1)'s list of character classes (trial 77, F3).

    Example:
        >>> _branch("if", "n .B x", False), _branch("ie", "t .B x", False)
        ((True, '.B x'), (False, '.B x'))
        >>> _branch("el", ".B x", False), _branch("if", "o .B x", False)
        ((True, '.B x'), (False, 'o .B x'))
    """
    if name == "el":
        return not last, rest.strip()
    found = _CONDITION.match(rest) if name in ("if", "ie") else None
    if found is None:
        return False, rest.strip()
    return (found[2] == "n") != (found[1] == "!"), found[3].strip()


STRING_CHARS = 256
"""The most characters a page's string (``.ds``) holds: a name, a quote mark, a version; 30
strings each defined as two of the one before were a billion characters (an 803-byte page held
an index build for 5 minutes in 22 GB, trial 77, F1)."""

OUTPUT_SHARE = 4
"""A page's text may be at most this many times its source's length (plus 64 KB): what
strings expand to is bounded, however they nest."""


def page_budget(source: str) -> int:
    """How many characters of text a page of troff ``source`` may give (:data:`OUTPUT_SHARE`).

    Example:
        >>> page_budget("x" * 1000)
        69536
    """
    return OUTPUT_SHARE * len(source) + (1 << 16)


class TroffPage:
    """The Markdown of a page built request by request: its sections' blocks, the paragraph,
    label or code block open, and what the next text line is (a heading, a label)."""

    def __init__(self, budget: int = 1 << 24) -> None:
        self.budget = budget  # characters of text it still takes (OUTPUT_SHARE)
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
        """One line of text, as the state takes it: a heading, a label, code, or words; none
        once the page's :attr:`budget` is spent."""
        self.budget -= len(plain)
        if self.budget < 0:
            return
        if self.code is not None:
            cells = re.sub(r"^T\}|T\{$", "", plain) if self.table is False else plain
            self.code.append(cells.rstrip())
            return
        plain = " ".join(plain.split())
        if self.want in ("##", "###"):
            self.flush()
            heading = [f"{self.want} {markdown_escaped(plain)}"] if plain else []
            self.sections.append((plain, heading))
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
            self.block("\\\n".join(markdown_escaped(label) for label in labels))
        self.labels = []

    def block(self, markdown: str) -> None:
        self.sections[-1][1].append(markdown)

    def flush(self) -> None:
        """Ends the paragraph (and the code block, labels and link) open."""
        self.end_code()
        self.emit_labels()
        self.want = "" if self.want == "label" else self.want
        lines = " ".join(self.para).replace(" \n ", "\n").strip("\n ").split("\n")
        if text := "\\\n".join(markdown_escaped(line) for line in lines if line.strip()):
            self.block(f"{markdown_escaped(self.lead)} {text}" if self.lead else text)
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
            if not title and heading.upper() in NAME_HEADINGS:
                title = " ".join(" ".join(_unescaped_markdown(b).split()) for b in held[1:])
                continue
            blocks.extend(held)
        if not any(b for b in blocks if not b.startswith("#")) and not title:
            return ""  # no text: a page that is only a .so link
        title = title or self.fallback
        return "\n\n".join(([f"# {markdown_escaped(title)}"] if title else []) + blocks) + "\n"


def markdown_escaped(text: str) -> str:
    """A line of text as Markdown that reads as that text: its inline markup characters
    escaped, and one that would start a heading, list, rule or quote kept a paragraph's."""
    text = _MD_INLINE.sub(lambda m: f"\\{m[0]}", text)
    return _LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[0]}", text)


def _unescaped_markdown(text: str) -> str:
    """Text :func:`markdown_escaped` made, as it was (the NAME line, re-read as the title), its
    broken lines (``bzip2 \\- ...``, ``.br``, ``bzcat \\- ...``) one line."""
    return re.sub(r"\\(.)", r"\1", text.replace("\\\n", "; "))  # .br lines: "; "


