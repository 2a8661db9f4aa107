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
rules are line rules, linear in the page. A display that holds only a few field rows (mutt's
``Type: number``, ``Default: 5`` after a variable's ``.TP`` label) is no code: its rows are
short paragraphs of their own, as a manual's ``Default:`` line is. mdoc(7) pages
(``.Dd``/``.Dt``: BSD's) are not man(7) pages: :mod:`workers.sources.mdocpage` reads them.
What both read (escapes, source lines, the page built) is :mod:`workers.sources.troffpage`'s.

This module imports only the standard library.
"""

from __future__ import annotations

import re

from workers.sources.troffpage import (
    NAME_HEADINGS,
    STRING_CHARS,
    TroffPage,
    markdown_escaped,
    page_budget,
    request_args,
    source_lines,
    unescaped,
)

__all__ = ["is_man_page", "man_markdown", "so_target", "unescaped"]

_HEAD_LINES = 200
"""How many requests a man page's ``.TH`` may come after (comments, blank lines, macro
definitions and conditionals not counted): pod2man's preamble of string and macro definitions
takes up to 105 lines before it (OpenSSL's section 7), Tcl's 270 (``re_syntax.3tcl``), most of
them inside ``.de`` blocks."""
_DASH = re.compile(r"[ \t]+(?:\\-|\\\(em|\\\[em\]|\\\(en|-{1,2})[ \t]+")
"""The dash of a NAME line between its names and what they are (``ls \\- list``)."""
_FONT_MACROS = {"B": " ", "I": " ", "SM": " ", "SB": " ", "BR": "", "BI": "", "IB": "",
                "IR": "", "RB": "", "RI": "", "UL": "", "SY": " "}
"""Macros whose arguments are text, and what joins them (the alternating fonts: nothing)."""
_BREAKS = frozenset({"PP", "LP", "P", "sp", "HP", "YS", "SE", "TH", "bp"})
_CODE_OPEN = frozenset({"nf", "EX", "CS", "DS", "Vb"})
_CODE_CLOSE = frozenset({"fi", "EE", "CE", "DE", "Ve", "TE"})
_FIELD_ROW = re.compile(r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,2}:[ \t]+\S.{0,180}")
"""A display's line that is a field and its value (``Type: number``, ``Default: 5``)."""
_FIELD_ROWS = 6
"""How many field rows a display that is no code holds at most."""


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
        >>> is_man_page('.\\\\" only\\n.\\\\" comments\\n.\\\\" here\\n')
        True
    """
    requests = []
    for name, rest in source_lines(text[:64 * 1024]):
        if name == "TH":
            return True
        if (not name and rest.strip()) or len(requests) >= _HEAD_LINES:
            return _mostly_requests(text)  # text before any .TH, or none among the first
        if name:
            requests.append((name, rest))
    if len(requests) == 1 and requests[0][0] == "so" and bool(requests[0][1].strip()):
        return True
    return _mostly_requests(text)


_MAN_LINE = re.compile(r"^(?:[.'][ \t]*(?:\\[\"#]|(?:TH|SH|SS|TP|TQ|IP|PP|LP|P|HP|B|I|BR|BI|IB|"
                       r"IR|RB|RI|SM|SB|nf|fi|br|sp|RS|RE|in|ft|ds|de|ig|if|ie|el|so|EX|EE|UR|UE|"
                       r"ad|na|nh|hy|ne|ti|ta|ce)\b)|\\\")")
"""A line of a man page's source: a comment (``.\\"``, ``\\"``) or a man(7) request."""


def _mostly_requests(text: str) -> bool:
    """Whether at least half of the first 200 lines of ``text`` with anything on them are man
    page requests or comments (:data:`_MAN_LINE`): troff source however it begins, a page of
    comments only (no text, then) or of ``.B`` lines; read as plain text, their markup was a
    report's Answer (trial 77, F4)."""
    lines = [line for line in text[:64 * 1024].split("\n")[:400] if line.strip()][:200]
    return len(lines) >= 3 and 2 * sum(bool(_MAN_LINE.match(line)) for line in lines) >= len(lines)


def so_target(text: str) -> str:
    """The page a man page that is only a ``.so`` link reads (``man1/systemd.1``), else "".

    Example:
        >>> so_target(".so man1/systemd.1\\n"), so_target(".TH LS 1\\n")
        ('man1/systemd.1', '')
    """
    requests = [(name, rest) for name, rest in source_lines(text[:4096]) if name or rest.strip()]
    if len(requests) == 1 and requests[0][0] == "so":
        return requests[0][1].strip()
    return ""


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
    page = TroffPage(page_budget(text))
    dashed = False
    for name, rest in source_lines(text):
        if not dashed and page.sections[-1][0].upper() in NAME_HEADINGS:
            rest, dashed = _DASH.subn(r" \\(em ", rest, count=1)
        if page.table and not name:  # a tbl table's options and format, to its line's "."
            page.table = not rest.rstrip().endswith(".")
        elif not name:
            if not rest.strip() and page.code is None:
                page.flush()  # a blank line: a paragraph's end
            elif page.code is not None or rest.strip():
                page.text(unescaped(rest, page.strings))
        elif name == "ds" and len(words := rest.split(None, 1)) == 2:
            page.strings[words[0]] = unescaped(words[1].removeprefix('"'),
                                               page.strings)[:STRING_CHARS]
        elif name in ("TS", "T&"):  # a table: its rows as lines of code
            if name == "TS":
                page.flush()
            page.code, page.table = [] if page.code is None else page.code, True
        else:
            _request(page, name, request_args(rest))
    return page.markdown()


def _request(page: TroffPage, name: str, args: list[str]) -> None:
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
        _end_display(page)
    elif name in ("QW", "PQ", "QR", "MT") and (name != "MT" or not words):
        page.text(_quoted(name, words))
    elif name in ("UR", "MT"):
        page.link = (words[0] if words else "", len(page.para))
    elif name in ("UE", "ME") and page.link is not None:
        _link_end(page, "".join(words))


def _end_display(page: TroffPage) -> None:
    """Ends an ``.nf``/``.EX`` display: fenced code, or, when its every line is a field row
    (:data:`_FIELD_ROWS` at most: mutt's ``Type: number``, ``Default: 5``), those rows as
    paragraphs of their own, as a manual's ``Default: 50M`` line reads."""
    rows = [line.strip() for line in page.code or () if line.strip()]
    if page.table is not None or not 0 < len(rows) <= _FIELD_ROWS or not all(
            _FIELD_ROW.fullmatch(row) for row in rows):
        page.end_code()
        return
    page.code = None
    for row in rows:
        page.block(markdown_escaped(" ".join(row.split())))


def _label(page: TroffPage, name: str, words: list[str]) -> None:
    """The label of an ``.IP`` (a bullet leads its paragraph instead), of Tcl's ``.AP type
    name in/out`` (``Tcl_Interp *interp (in)``), or groff's synopsis ``.OP -b ibs``."""
    if name == "OP":
        page.para.append(f"[{' '.join(words)}]")
    elif name == "AP" and words:
        typed = " ".join(words[:2]) + (f" ({words[2]})" if len(words) > 2 else "")
        page.block(markdown_escaped(typed))
    elif words and words[0].strip() in ("•", "-", "*", "·", "o", "+", "—", "–"):
        page.lead = "•"
    elif words and words[0].strip():
        page.block(markdown_escaped(" ".join(words[0].split())))


def _quoted(name: str, words: list[str]) -> str:
    """Tcl's quoting macros: ``.QW word ?after?`` “word”after, ``.PQ`` the same in parentheses,
    ``.QR`` a quoted range, ``.MT`` an empty string “”."""
    words = [*words, "", "", ""]
    if name == "QW":
        return f"“{words[0]}”{words[1]}"
    if name == "PQ":
        return f"(“{words[0]}”{words[1]}){words[2]}"
    return f"“{words[0]}”-“{words[1]}”{words[2]}" if name == "QR" else "“”"


def _link_end(page: TroffPage, after: str) -> None:
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
