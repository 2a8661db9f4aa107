"""A BSD man page's mdoc(7) source (``.Dd``/``.Dt``/``.Os``: OpenSSH's ``ssh.1`` and
``ssh_config.5``, ``tmux.1``) as the Markdown :func:`workers.sources.markdownpage.markdown_page`
reads: titled by its NAME section, cut at its ``.Sh``/``.Ss`` headings, a list's ``.It`` items
as a label paragraph (``-L port``) before their description's, a ``.Bl -column`` table's rows
as lines ``cell — cell``, literal displays fenced, inline macros (``Fl``, ``Cm``, ``Xr``,
``Op``, ``Ns``, ...) as the words they print.

Read as plain text before, they were titled by file names, and reports quoted ``.It Cm``,
``.Xr ssh 1`` and ``.\\"`` licence comments. Not mandoc: a macro takes the words up to the
next macro's name (``Op``, ``Dq`` and the other enclosures the rest of the line, trailing
punctuation left outside), ``.Sm off`` glues words (ssh's ``-L [bind_address:]port:host``), and
requests that only lay out the page (``.Bk``, ``.Tg``) are left out. Standard library only.
"""

from __future__ import annotations

from workers.sources.manpage import unescaped
from workers.sources.troffpage import (
    NAME_HEADINGS,
    TroffPage,
    markdown_escaped,
    page_budget,
    quoted_args,
    source_lines,
)

__all__ = ["is_mdoc_page", "mdoc_markdown"]

Atom = tuple[str, bool, bool]
"""A piece of a line's output: (text, glued to the one before, a delimiter the page wrote)."""

_HEAD_LINES = 30
"""How many requests a page's ``.Dd``/``.Dt`` may come after (comments not counted)."""
_CLOSERS = frozenset({".", ",", ":", ";", ")", "]", "?", "!"})
_OPENERS = frozenset({"(", "["})
_PLAIN = frozenset({"Ad", "Cd", "Cm", "Dv", "Em", "Er", "Ev", "Fa", "Ft", "Ic", "In", "Li", "Ms",
                    "Mt", "No", "Ot", "Sx", "Sy", "Tn", "Va", "Vt"})
"""Macros that print their arguments as they are."""
_ENCLOSING = {"Op": "[]", "Bq": "[]", "Pq": "()", "Dq": "“”", "Sq": "‘’", "Ql": "‘’", "Qq": '""',
              "Aq": "<>", "Brq": "{}"}
"""Macros that enclose the rest of their line (to a ``Ta``), trailing punctuation left out."""
_OPEN = {"Oo": "[", "Bo": "[", "Po": "(", "Do": "“", "So": "‘", "Qo": '"', "Ao": "<", "Bro": "{"}
_CLOSE = {"Oc": "]", "Bc": "]", "Pc": ")", "Dc": "”", "Sc": "’", "Qc": '"', "Ac": ">", "Brc": "}"}
_SYSTEMS = {"At": "AT&T UNIX", "Bx": "BSD", "Ux": "UNIX", "Ox": "OpenBSD", "Nx": "NetBSD",
            "Fx": "FreeBSD", "Dx": "DragonFly", "Bsx": "BSD/OS"}
_STANDARDS = {"-p1003.1": "IEEE Std 1003.1 (“POSIX.1”)", "-ansiC": "ANSI X3.159-1989 (“C89”)",
              "-p1003.2": "IEEE Std 1003.2 (“POSIX.2”)", "-isoC-99": "ISO/IEC 9899:1999 (“C99”)"}
"""``.St``'s standards by name; another's name is its argument (``-susv3``: ``susv3``)."""
_CALLABLE = _PLAIN | set(_ENCLOSING) | set(_OPEN) | set(_CLOSE) | set(_SYSTEMS) | {
    "Ar", "Fl", "Nm", "Pa", "Xr", "Fn", "Lk", "St", "Ns", "Ta", "Pf", "Ap", "Xo", "Xc", "Eo",
    "Ec", "An", "Lb", "Sm", "Ex"}
"""Macros a line may call after its first (``.It Fl L Ar port``), and the first."""
_TAG_LISTS = frozenset({"-tag", "-hang", "-ohang", "-inset", "-diag"})
_LEADS = {"-bullet": "•", "-dash": "•", "-hyphen": "•", "-enum": "1.", "-item": ""}
_BREAKS = frozenset({"Pp", "Lp", "sp", "br"})


def is_mdoc_page(text: str) -> bool:
    """Whether ``text`` is an mdoc(7) page's source: a ``.Dd`` or ``.Dt`` request among its
    first requests (:data:`_HEAD_LINES`; comments not counted), no text before it.

    Example:
        >>> is_mdoc_page('.\\\\" Copyright (c) 2024\\n.Dd May 7, 2024\\n.Dt LS 1\\n.Os\\n')
        True
        >>> is_mdoc_page(".TH LS 1\\n.SH NAME\\n")
        False
    """
    for seen, (name, rest) in enumerate(source_lines(text[:64 * 1024])):
        if name in ("Dd", "Dt"):
            return True
        if (not name and rest.strip()) or seen >= _HEAD_LINES or name in ("TH", "Sh", "SH"):
            return False
    return False


def _joined(atoms: list[Atom]) -> str:
    """A line's atoms as text: a space between two, unless the second is glued."""
    return "".join(text if glued or not at else f" {text}"
                   for at, (text, glued, _delim) in enumerate(atoms))


class _Phrase:
    """One line's macros and words read left to right into :data:`Atom` pieces."""

    def __init__(self, tokens: list[tuple[str, bool]], name: str, spaced: bool) -> None:
        self.toks, self.i, self.name, self.spaced = tokens, 0, name, spaced
        self.atoms: list[Atom] = []
        self.glue = False  # the next atom has no space before it (after Ns, an opener)

    def add(self, text: str, kind: str = "") -> None:
        """An atom of ``kind`` "open" (glues the next), "close", "delim" (glued), or a word."""
        if not text and kind != "cell":
            return
        glued = self.glue or kind in ("close", "delim") or (not self.spaced and bool(self.atoms))
        self.atoms.append((text, glued, kind == "delim"))
        self.glue = kind == "open"

    def word(self, raw: str, quoted: bool, shown: str = "{}") -> None:
        """A macro's argument ``raw``: a delimiter as it is, else its text in ``shown``."""
        kind = "" if quoted else "delim" if raw in _CLOSERS else "open" if raw in _OPENERS else ""
        self.add(raw if kind else shown.format(unescaped(raw)), kind)

    def args(self) -> list[tuple[str, bool]]:
        """The arguments of the macro read: the tokens up to the next macro's name."""
        start = self.i
        while self.i < len(self.toks) and (self.toks[self.i][1]
                                           or self.toks[self.i][0] not in _CALLABLE):
            self.i += 1
        return self.toks[start:self.i]

    def run(self, enclosed: bool = False) -> None:
        """Reads the tokens to the line's end (an enclosure's: to a ``Ta``)."""
        while self.i < len(self.toks):
            raw, quoted = self.toks[self.i]
            if quoted or raw not in _CALLABLE:
                self.i += 1
                self.word(raw, quoted)
            elif enclosed and raw == "Ta":
                return
            else:
                self.i += 1
                self.macro(raw)

    def macro(self, name: str) -> None:
        """What the macro ``name`` prints (its arguments read from the tokens after it)."""
        if name in _ENCLOSING:
            opener, closer = _ENCLOSING[name]
            self.add(opener, "open")
            start = len(self.atoms)
            self.run(enclosed=True)
            tail = []
            while len(self.atoms) > start and self.atoms[-1][2]:
                tail.insert(0, self.atoms.pop())
            self.glue = False
            self.add(closer, "close")
            self.atoms.extend(tail)
        elif name in _OPEN or name in _CLOSE or name in ("Eo", "Ec"):  # Eo x, Ec y: x, y
            args = self.args() if name in ("Eo", "Ec") else []
            shown = unescaped(args[0][0]) if args else _OPEN.get(name, _CLOSE.get(name, ""))
            self.add(shown, "open" if name in _OPEN or name == "Eo" else "close")
        elif name in ("Ns", "Ap", "Pf", "Ta", "Sm", "Xo", "Xc"):
            self.joiner(name)
        else:
            self.arguments(name, self.args())

    def joiner(self, name: str) -> None:
        """The macros that join, split or space what is around them."""
        if name == "Ns":
            self.glue = True
        elif name == "Ap":
            self.add("'", "close")
            self.glue = True
        elif name == "Pf" and self.i < len(self.toks):
            self.i += 1
            self.add(unescaped(self.toks[self.i - 1][0]))
            self.glue = True
        elif name == "Ta":
            self.add("\t", "cell")
        elif name == "Sm":
            args = self.args()
            self.spaced = args[0][0] != "off" if args else not self.spaced

    def arguments(self, name: str, args: list[tuple[str, bool]]) -> None:
        """A macro that prints its arguments ``args``: as they are, as flags, or named."""
        words = [unescaped(raw) for raw, quoted in args if quoted or raw not in _CLOSERS | _OPENERS]
        if name in ("Xr", "Fn", "Lk", "St", "Lb", "Ex") or name in _SYSTEMS:
            self.add(_named(name, words, self.name))
            for raw, quoted in args[len(words) if name != "Xr" else min(2, len(words)):]:
                self.word(raw, quoted)
            return
        default = {"Ar": "file ...", "Pa": "~", "Nm": self.name, "Fl": "-"}.get(name, "")
        if not words and default:
            self.add(default)
        for raw, quoted in args:
            if name == "An" and raw in ("-split", "-nosplit"):
                continue
            self.word(raw, quoted, "-{}" if name == "Fl" else "{}")


def _named(name: str, words: list[str], page: str) -> str:
    """What a macro that names something (a page, a function, a link, a system) prints."""
    first, rest = (words[0], words[1:]) if words else ("", [])
    if name == "Xr":
        return f"{first}({rest[0]})" if rest else first
    if name in ("Fn", "Lk"):
        return f"{first}({', '.join(rest)})" if name == "Fn" else " ".join([*rest, f"({first})"])
    if name in ("St", "Lb"):
        return _STANDARDS.get(first, first.lstrip("-")) if name == "St" else f"library “{first}”"
    if name == "Ex":
        return f"The {' '.join(rest) or page} utility exits 0 on success, >0 if an error occurs."
    return f"{first}BSD" if name == "Bx" and words else " ".join([_SYSTEMS[name], *words])


class _Mdoc:
    """An mdoc page read line by line into a :class:`TroffPage`: the lists, displays, item
    label (``.It ... Xo`` to ``.Xc``) and reference open, the NAME section's names."""

    def __init__(self, budget: int) -> None:
        self.page = TroffPage(budget)
        self.name, self.section, self.summary = "", "", ""  # its first .Nm; .Sh; NAME's .Nd
        self.names: list[str] = []  # the NAME section's .Nm names
        self.lists: list[list[str]] = []  # [kind, lead] of each .Bl open
        self.displays: list[bool] = []  # each .Bd open: whether it is literal
        self.label: list[Atom] | None = None  # an .It ... Xo label, to its .Xc
        self.ref: list[str] | None = None  # an .Rs reference's fields
        self.spaced, self.glued = True, False  # .Sm on; the last line's words .Sm off
        self.dl = False  # the code block open is .Dl lines'

    def phrase(self, tokens: list[tuple[str, bool]]) -> list[Atom]:
        """A line's atoms; the first glued to the line before when both are ``.Sm off``."""
        phrase = _Phrase(tokens, self.name, self.spaced)
        phrase.run()
        atoms = phrase.atoms
        if atoms and not self.spaced and self.glued:
            atoms[0] = (atoms[0][0], True, atoms[0][2])
        self.spaced, self.glued = phrase.spaced, not phrase.spaced and bool(atoms)
        return atoms

    def put(self, atoms: list[Atom]) -> None:
        """A line's atoms added to the paragraph (or code block) open."""
        page, text = self.page, _joined(atoms).replace("\t", " ")
        if self.label is not None:
            self.label.extend(atoms)
        elif page.code is not None:
            page.text(text)
        elif atoms and atoms[0][1] and page.para and page.para[-1] != "\n":
            page.para[-1] += " ".join(text.split())
        else:
            page.text(text)

    def line(self, name: str, rest: str) -> None:
        """One line of the page's source: text (``name`` "") or the macro ``name``."""
        if self.dl and name != "Dl":
            self.page.end_code()
            self.dl = False
        if not name:
            self.glued = False
            if not rest.strip() and self.page.code is None and self.label is None:
                self.page.flush()  # a blank line: a paragraph's end
            elif self.page.code is not None and self.label is None:
                self.page.text(unescaped(rest))
            else:
                self.put([(word, False, False) for word in unescaped(rest).split()])
            return
        column = bool(self.lists) and self.lists[-1][0] == "-column"
        tokens = quoted_args(rest.replace("\t", " Ta ") if column else rest)
        if self.label is not None and name != "It":
            return self.label_line(name, tokens)
        if name in _CALLABLE and not (name == "Nm" and self.section in NAME_HEADINGS):
            if name == "Nm" and self.section == "SYNOPSIS" and self.page.para:
                self.page.para.append("\n")
            return self.put(self.phrase([(name, False), *tokens]))
        if name.startswith("%") and self.ref is not None:
            self.ref.append(_joined(self.phrase(tokens)))
        else:
            self.block(name, tokens)

    def label_line(self, name: str, tokens: list[tuple[str, bool]]) -> None:
        """A line of an ``.It ... Xo`` label: its words added, ``.Xc`` its end."""
        if name in _CALLABLE:
            self.put(self.phrase([(name, False), *tokens]))
        if name == "Xc" or ("Xc", False) in tokens:
            label, self.label = self.label or [], None
            self.add_label(label)

    def add_label(self, atoms: list[Atom]) -> None:
        if text := " ".join(_joined(atoms).split()):
            self.page.labels.append(text)

    def block(self, name: str, tokens: list[tuple[str, bool]]) -> None:
        """A macro that is no inline one: a heading, a paragraph's end, a list, a display."""
        page = self.page
        if name in ("Sh", "Ss"):
            self.heading(name, _joined(self.phrase(tokens)))
        elif name in _BREAKS:
            if page.code is not None:
                page.code.append("")
            elif name == "br" and page.para:
                page.para.append("\n")
            else:
                page.flush()
        elif name == "Dt" and tokens:
            words = [unescaped(raw) for raw, _quoted in tokens]
            page.fallback = f"{words[0]}({words[1]})" if len(words) > 1 else words[0]
        elif name == "Nm":  # in the NAME section: the names the title lists
            self.names.extend(unescaped(raw) for raw, quoted in tokens if quoted or raw != ",")
            self.name = self.name or (self.names[0] if self.names else "")
        elif name == "Nd":
            self.summary = " ".join(_joined(self.phrase(tokens)).split())
        elif name in ("Bl", "El", "It"):
            self.listed(name, tokens)
        elif name in ("Bd", "Ed", "Dl", "D1"):
            self.display(name, tokens)
        elif name in ("Rs", "Re"):  # a reference: its fields, ", " between them
            page.flush()
            if name == "Re" and self.ref:
                page.block(markdown_escaped(", ".join(self.ref) + "."))
            self.ref = [] if name == "Rs" else None

    def heading(self, name: str, title: str) -> None:
        """``.Sh``/``.Sh``: the NAME section's title line written, then a new section."""
        self.page.flush()
        if self.section in NAME_HEADINGS and (self.names or self.summary):
            title_line = ", ".join(self.names) + (f" — {self.summary}" if self.summary else "")
            self.page.block(markdown_escaped(title_line.strip(" —")))
            self.names, self.summary = [], ""
        self.lists, self.displays = [], []
        self.page.want = "##" if name == "Sh" else "###"
        self.page.text(title)
        if name == "Sh":
            self.section = " ".join(title.split()).upper()

    def listed(self, name: str, tokens: list[tuple[str, bool]]) -> None:
        """``.Bl`` (a list's start), ``.El`` (its end) and ``.It`` (an item)."""
        page = self.page
        if name == "Bl":
            page.flush()
            kind = next((raw for raw, _q in tokens if raw in _TAG_LISTS or raw in _LEADS
                         or raw == "-column"), "-tag")
            self.lists.append([kind, _LEADS.get(kind, "")])
        elif name == "El":
            page.flush()
            self.lists = self.lists[:-1]
        elif not self.lists or self.lists[-1][0] in _TAG_LISTS:
            if not (page.labels and not page.para and page.code is None):
                page.flush()  # an item with no text of its own: its label goes with the next
            atoms, self.label = self.phrase(tokens), None
            if ("Xo", False) in tokens and ("Xc", False) not in tokens:
                self.label = atoms  # the label goes on to the .Xc line
            else:
                self.add_label(atoms)
        elif self.lists[-1][0] == "-column":
            self.row(self.phrase(tokens))
        else:
            page.flush()
            kind, lead = self.lists[-1]
            page.lead = lead
            if kind == "-enum":
                self.lists[-1][1] = f"{int(lead[:-1]) + 1}."
            self.put(self.phrase(tokens))

    def row(self, atoms: list[Atom]) -> None:
        """A ``.Bl -column`` table's row: a line of its cells, " — " between them."""
        cells = (" ".join(cell.split()) for cell in _joined(atoms).split("\t"))
        self.page.emit_labels()
        self.page.para.extend((["\n"] if self.page.para else [])
                              + [" — ".join(cell for cell in cells if cell)])

    def display(self, name: str, tokens: list[tuple[str, bool]]) -> None:
        """``.Bd``/``.Ed`` (literal displays as code), ``.Dl`` (code), ``.D1`` (a paragraph)."""
        page = self.page
        literal = any(raw in ("-literal", "-unfilled") for raw, _q in tokens)
        if name == "Bd":
            self.displays.append(literal)
            if page.code is None:
                page.flush()
                page.code = [] if literal else None
        elif name == "Ed":  # a literal display's end inside another's: its code goes on
            self.displays = self.displays[:-1]
            if not any(self.displays):
                page.flush()
        elif name == "Dl":
            text = _joined(self.phrase(tokens)).replace("\t", " ")
            if page.code is None:
                page.flush()
                page.code, self.dl = [], True
            page.code.append(text.rstrip())
        else:
            page.flush()
            self.put(self.phrase(tokens))
            page.flush()


def mdoc_markdown(text: str) -> str:
    """The mdoc(7) page ``text`` as Markdown: ``# title`` (the NAME section's ``.Nm`` names,
    ", " between them, " — " and ``.Nd``'s text; else ``name(section)`` from ``.Dt``),
    ``.Sh``/``.Ss`` as ``##``/``###`` headings, ``.Pp`` paragraph breaks, a list item's
    ``.It`` line as a paragraph before its description's, a column list's rows as lines, literal
    displays fenced, inline macros as the words they print; comments and layout left out.

    Example:
        >>> print(mdoc_markdown('.Dd May 7, 2024\\n.Dt QX 1\\n.Os\\n.Sh NAME\\n.Nm qx\\n'
        ...                     '.Nd quill tool\\n.Sh OPTIONS\\n.Bl -tag -width Ds\\n'
        ...                     '.It Fl L Ar port\\nListen on\\n.Ar port ,\\nsee\\n'
        ...                     '.Xr ssh 1 .\\n.El\\n'))
        # qx — quill tool
        <BLANKLINE>
        ## OPTIONS
        <BLANKLINE>
        \\-L port
        <BLANKLINE>
        Listen on port, see ssh(1).
        <BLANKLINE>
    """
    page = _Mdoc(page_budget(text))
    for name, rest in source_lines(text):
        page.line(name, rest)
    page.heading("Sh", "")  # the NAME section's title line, when it is the last section
    return page.page.markdown()
