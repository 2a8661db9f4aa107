"""HTML pages as text: the visible text, the ``<title>`` and the sections under its headings,
read with lxml's HTML parser (libxml2: fast and lenient; issue 19 asked for a well-kept parser
and >= 10 MB/s of HTML through the index build).

A data table's rows become sentences under their headings (:mod:`.htmltables`), a two-column
table of labels and values one field a line (``Version: 2.1.``, :mod:`.htmlfields`), and each
item of a "See also" box opens "See also: " (:mod:`.htmlseealso`).

This module imports the standard library, lxml and other modules of ``workers.sources``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from workers.sources.contents_lines import without_contents_lines
from workers.sources.entries import ENTRY_KEYWORD
from workers.sources.htmlfields import field_tables
from workers.sources.htmlfurniture import drop_all, page_furniture, tab_labels
from workers.sources.htmlnav import class_token, link_share
from workers.sources.htmlseealso import see_also_labelled
from workers.sources.htmlsource import page_source
from workers.sources.htmltables import BLOCK as _BLOCK
from workers.sources.htmltables import tables_as_sentences
from workers.sources.htmlterms import cut_term, groff_terms, mark_next, members_with_their_class
from workers.sources.linkpages import page_sections, without_page_refs
from workers.sources.manpre import man_marked
from workers.sources.preformatted import (
    LONG_PRE_LINES,
    fenced,
    opening_prose,
    pre_blocks,
    prose_lines,
    reads_as_prose,
)

__all__ = ["CUT", "MAX_DEPTH", "HtmlPage", "html_page", "html_to_text"]

_HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "nav", "textarea",
                     "select"})
"""Elements whose text is no part of the page's prose: code, the head, a navigation bar
("Home | Census | Herons" was a report's top passage) and a form's fields (a
``<textarea>``'s default text, a ``<select>``'s options)."""
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""Every heading level cuts a section: Node.js's manual heads each function by an ``h4``
(``fs.mkdir(path[, options], callback)``); cut at ``h1``-``h3`` only, ``fs.html`` was 295
passages under 10 headings, each running across entries, so "the default X" never found an
entry's own ``Default:`` line."""
_ENTRY_CLASSES = ("keyword", "directive")
"""Class names of a ``<div>`` that labels a reference entry as a heading would: HAProxy's
``<div class="keyword">`` (its 700 keywords have no ``<h*>``, so one passage ran across
several entries and ``fall``'s "This value defaults to 3" answered for ``inter``) and
nginx's ``<div class="directive">``. Read as a heading, each entry is its own
passage under its own label (:mod:`app.research.neighbours` then keeps a neighbour's default
out). So is a ``<dt>`` with an ``id``, the anchor of an entry (DocBook's variablelist:
PostgreSQL's ``shared_buffers (integer)``; Sphinx's API entries), and every term of a list
holding one (Zsh's builtins: Texinfo anchors ``autoload`` and ``read`` but not ``setopt``, and
the 98 passages after ``read`` were labelled ``read [...]``, ``setopt``'s "Set the options for
the shell." kept out of its Answer as a neighbour's, trial 72, F2); a ``<dt>`` of another
list stays joined to its description ("--amend: Replace ...")."""
_ENTRIES_LIST = "dl[@data-research-entries]"
"""XPath: a definition list one of whose terms is an entry's anchor (marked by
:func:`workers.sources.htmlterms.mark_next`)."""

@dataclass(frozen=True)
class HtmlPage:
    """What :func:`html_page` reads from an HTML document.

    Attributes:
        title: the ``<title>``, else the first heading (trial 121, F11), else ``""``.
        sections: ``(heading, text)`` in page order: the text before the first heading
            under heading ``""``, then one section per heading (its text starts with the heading
            itself); text paragraphs are separated by blank lines. Entry headings written as a
            keyword and its arguments with no text between them label one section, joined by
            " / " (HAProxy's ``inter <delay>``, ``fastinter <delay>`` and ``downinter <delay>``
            share one description).
        link_share: the share (0..1) of the page's visible characters (whitespace left out)
            that are link text (``<a>``): near 1 for an index, a site map or a list of links.
        link_page: a page of links to other pages, its prose alone kept (:mod:`.linkpages`).
    """

    title: str
    sections: tuple[tuple[str, str], ...]
    link_share: float = 0.0
    cut: bool = False
    """The page nests elements deeper than libxml2 reads (:data:`MAX_DEPTH`): its text past
    that depth is not in :attr:`sections`."""
    link_page: bool = False

    @property
    def text(self) -> str:
        """The visible text of the whole page, one paragraph per block element."""
        return "\n\n".join(text for _heading, text in self.sections if text)


_HEAD, _TAIL, _BREAK = "\ue001", "\ue002", "\ue003"  # private-use: lxml refuses controls
_LINK, _LINK_END = "\ue004", "\ue005"  # around the text of an <a>
_TERM, _TERMS = "\ue006", "\ue007"  # after a <dt>: its <dd> follows; another <dt> follows
_ENTRY = "\ue008"  # opens the heading of a reference entry (:data:`_ENTRY_CLASSES`)
_LEVELS = "\ue011\ue012\ue013\ue014\ue015\ue016"  # open an h1 ... h6 (after _HEAD)
_ENTRIES, _ENTRIES_END = "\ue00b", "\ue00c"  # around a list of entries (``dl`` of ``dt id``)
_PRE, _PRE_END = "\ue009", "\ue00a"  # around the text of a <pre>, its lines kept
_LINE = "\ue00d"  # a <br>: a line's end inside its paragraph; two in a row end the paragraph
_PRE_SPLIT = re.compile(f"{_PRE}(.*?){_PRE_END}", re.DOTALL)
_MAN_MARKS = {"heading": f"{_HEAD}{_LEVELS[1]}\0{_TAIL}", "entries": f"{_HEAD}{_ENTRIES}{_TAIL}",
              "end": f"{_HEAD}{_ENTRIES_END}{_TAIL}", "entry": f"{_HEAD}{_ENTRY}\0{_TAIL}",
              "prose": f"{_BREAK}\0{_BREAK}", "code": f"{_PRE}\0{_PRE_END}"}  # man_marked's
_LEADING_BREAKS = re.compile(f"[\\s{_BREAK}{_LINE}]+")
_LINE_RUN = re.compile(f"{_LINE}{{2,}}")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
"""A blank line of a ``<pre>`` of prose: a paragraph's end (HAProxy's starter guide's nine steps
were cut anywhere: a passage opened "rules to these connections; - decide which ...", trial 79)."""
_BLANK = re.compile(f"[\\s{_BREAK}{_TAIL}{_LINE}]*")
"""A body with no text, only blanks and marks (a fullmatch stops at the first letter)."""

_SPACED = (f" {_BREAK}", f"{_BREAK} ")


def _paragraphs(text: str) -> str:
    """The text's paragraphs (one per block element), a ``<pre>``'s as a fenced code block; an
    admonition's title alone on its paragraph labels the one after it (:data:`_ADMONITION`)."""
    if _PRE not in text:
        return _ADMONITION.sub(r"\1: ", _prose(text))
    pieces = _PRE_SPLIT.split(text)  # prose, <pre>, prose, ...
    return _ADMONITION.sub(r"\1: ", "\n\n".join(filter(None, (
        _pre(p) if i % 2 else _prose(p) for i, p in enumerate(pieces)))))


_ADMONITION = re.compile(r"(?m)^(Warning|Caution|Danger|Important|Attention|Note|Tip|Hint)"
                         r"\n\n(?=[^\n`])")
"""An admonition's title on a paragraph of its own (Sphinx's ``admonition-title``, DocBook's
``<th>Caution</th>``), before its text: "Caution: The direct alteration of owner or mode ...",
as a Markdown page writes it, so a reader knows the text for a warning (the Debian Reference's
caution was a finding beside "No limitations or warnings were found", trial 82, F10)."""


def _pre(text: str) -> str:
    """A ``<pre>``'s paragraphs: prose laid out by hand, else code, judged block by block
    (:func:`~.preformatted.pre_blocks`; a short one: :func:`~.preformatted.opening_prose`)."""
    if reads_as_prose(text):  # its blank lines part its paragraphs, as they do in a text file
        return _prose(_BREAK.join(_BLANK_LINE.split(prose_lines(text))))
    lines = _pre_lines(text)
    blocks = pre_blocks(lines)
    if lines.count("\n") <= LONG_PRE_LINES:  # a short one: its opening prose, then its code
        blocks = opening_prose(lines, blocks)
    return "\n\n".join(_prose(block) if prose else fenced(block) for prose, block in blocks)


def _prose(text: str) -> str:
    # collapse every run of whitespace (C speed): a piece between breaks then has at most one
    # blank at each end, which the two replaces remove; no Python loop over the pieces
    flat = " ".join(text.split()).replace(_SPACED[0], _BREAK).replace(_SPACED[1], _BREAK)
    if _LINE in flat:
        flat = _lines(flat)
    return "\n\n".join(filter(None, flat.split(_BREAK)))


def _lines(flat: str) -> str:
    """A paragraph's ``<br>`` marks (:data:`_LINE`) as line ends, two or more in a row as a
    paragraph's end, one at a paragraph's edge as nothing: a README written with a ``<br>`` per
    line (DocBook's ``literallayout``) was a paragraph per line, its sentences cut at each
    ("This release supports X86/Linux, AMD64/Linux, ARM32/Linux, ARM64/Linux,": trial 61, F3).
    """
    flat = _LINE_RUN.sub(_BREAK, flat.replace(f" {_LINE}", _LINE).replace(f"{_LINE} ", _LINE))
    flat = flat.replace(f"{_BREAK}{_LINE}", _BREAK).replace(f"{_LINE}{_BREAK}", _BREAK)
    return flat.strip(_LINE).replace(_LINE, "\n")


def _pre_lines(text: str) -> str:
    """A ``<pre>``'s text, its markers read as line ends."""
    return text.replace(_BREAK, "\n").replace(_LINE, "\n").replace(_TAIL, "\n").replace(_HEAD, "")


def html_page(source: str | bytes, to_here: Callable[[str], bool] | None = None) -> HtmlPage:
    """The title and the sections (cut at its ``h1``-``h6``) of an HTML document, parsed with
    lxml's HTML parser (libxml2: fast, and lenient with broken markup). Scripts, styles,
    templates, the ``<head>``, ``<nav>`` bars, form fields (:data:`_HIDDEN`) and page
    furniture (icons, menus, permalinks, tables of contents, navigation bars, a manual's node
    headers and indexes: :func:`workers.sources.htmlfurniture.page_furniture`) are left out;
    each block element is a paragraph. Never raises for bad markup: a document lxml cannot
    read gives an empty page.

    The work is done in C: the marker characters are blanked in the source bytes, an XSLT
    stylesheet (libxslt, :func:`stylesheet_source`) writes the text of the root element with
    markers around the block elements, the headings and the links (``<a>``: how much of the text
    is link text, :attr:`HtmlPage.link_share`) and nothing for the hidden ones, and the text is cut
    at the markers: no Python loop over the elements (issue 19: >= 10 MB/s of HTML). Source of
    the idea: lxml's "XSLT" and "Parsing HTML" docs (``str(result)`` of a text output).

    Thread-safe and parallel: a thread's own parser and stylesheet; lxml frees the GIL as it
    parses and transforms (the lxml FAQ). ``to_here``: links to the folder's files (linkpages)."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    data = _MARK_BYTES.sub(b" ", data) if _MARK_BYTES.search(data) else data
    data = _CLOSING.sub(b" ", data)  # text after </body>, </html>: the body's (as browsers show)
    try:
        parser, stylesheet = _thread_tools()
        root = lxml_html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError):
        return HtmlPage("", ())
    cut = any("Excessive depth" in e.message for e in parser.error_log)
    title_el = root.find(".//title")  # the head's: the first in document order
    title = " ".join((title_el.text or "").split()) if title_el is not None else ""
    # before the tables are read: an index's letter bar is a table of links (its text, the
    # tail after it, stays)
    markup = page_source(data)  # what the markup may hold: tests that find nothing go unasked
    tab_labels(root, markup)  # before the furniture: a tab's label moves into its panel
    see_also_labelled(root, markup)  # each item of a "See also" box: "See also: ..."
    drop_all(page_furniture(root, markup))
    field_tables(root, _HIDDEN)  # before tables: a table of fields has no heading row
    tables_as_sentences(root)
    members_with_their_class(root)
    groff_terms(root)
    mark_next(root)
    text = _terms_joined(str(stylesheet(root)))
    links = _LINKED.findall(text)
    text = text.replace(_LINK, "").replace(_LINK_END, "")
    if _PRE in text and "NAME" in text:  # a man page groff wrote in a <pre>: its sections
        text = _PRE_SPLIT.sub(lambda pre: man_marked(pre[1], _MAN_MARKS) or pre[0], text)
    text = without_page_refs(text)  # latex2html's "see gprintf (p. [*])": trial 65, F7
    sections = without_contents_lines(_sections(text), links)  # groff's "NAME / SYNOPSIS"
    kept = tuple((h, t) for h, t in sections if t or h)
    body = "".join(t for _h, t in kept)
    share = link_share(links, body)  # once: for may_list_pages and for the HtmlPage
    kept, paged = page_sections(root, to_here, kept, links, body, share)  # a page of links
    first = re.search(f"{_HEAD}[{_LEVELS}]([^{_TAIL}]+)", text)  # "<title></title>": h1-h6
    title = title or " ".join(re.sub(f"[{_BREAK}{_LINE}{_ENTRY}]", " ", first[1]).split()
                              if first else "")
    return HtmlPage(title, kept, share, cut, paged)


def _sections(text: str) -> list[tuple[str, str]]:
    """The ``(heading, text)`` sections of a page's marked text (:attr:`HtmlPage.sections`;
    the text after a list of entries goes under the heading the list was in, or under its last
    entry when that entry had no text of its own: Django's reference writes each ``<dt>`` with
    an empty ``<dd>`` and the description after the list, and the entry was glued to the next
    heading, "select_related(*fields) / prefetch_related()", over that one's text; trial 60,
    A2); a list right after another was in that one's heading, not in its last entry (a
    Sphinx rubric after psycopg2's ``setinputsizes`` was labelled ``mogrify``, trial 102, F1).
    A heading with no text of its own is the first line of the section under the next,
    deeper heading or the text after a list it holds, as a reader sees it: a manual's chapter
    whose text was its menu ("4 Relational databases" over "4.1 Why use a database?") was a
    passage of its heading alone, quoted as an answer."""
    first, *rest = text.split(_HEAD)
    sections = [("", _paragraphs(first.replace(_TAIL, _BREAK)))]
    bare = [0]  # per section: the level of its heading if it holds headings alone, else 0
    held = ""  # headings with no text of their own yet: they label the next section too
    outer: list[str] = []  # the heading each open list of entries was in
    closed: str | None = None  # the heading a list just closed was in: the next one's too
    for chunk in rest:
        head_text, _sep, body = chunk.partition(_TAIL)
        if head_text in (_ENTRIES, _ENTRIES_END):  # libpq's note after a list of status codes
            if head_text == _ENTRIES:
                outer.append(held or (sections[-1][0] if closed is None else closed))
            heading = outer.pop() if head_text == _ENTRIES_END and outer else sections[-1][0]
            closed = heading if head_text == _ENTRIES_END else None  # (rubric after a list)
            if not _BLANK.fullmatch(body):
                if head_text == _ENTRIES_END and held:  # an entry whose text follows its list
                    heading, held = held, ""  # (Sphinx's <dd></dd>: Django's reference)
                text = _paragraphs(f"{heading}{_BREAK}{body}")
                if bare[-1]:  # the heading the list was in, alone: this text is its section's
                    text = f"{sections.pop()[1]}\n\n{text}".strip()
                    bare.pop()
                sections.append((heading, text))
                bare.append(0)
            continue
        level = _LEVELS.find(head_text[0]) + 1 if head_text else 0
        head_text = head_text[1:] if level else head_text
        entry = head_text.startswith(_ENTRY) or ENTRY_KEYWORD.match(head_text.strip())
        heading = " ".join(head_text.replace(_BREAK, " ").replace(_LINE, " ")
                           .replace(_ENTRY, "").split())
        if entry and _BLANK.fullmatch(body):
            held = f"{held} / {heading}" if held else heading
            continue
        closed = None
        if held:  # "inter <delay>", "fastinter <delay>", "downinter <delay>": one entry
            heading, held, level = f"{held} / {heading}" if heading else held, "", 0
        own = not _BLANK.fullmatch(body)
        body = _paragraphs(f"{heading}{_BREAK}{body.replace(_TAIL, _BREAK)}")
        if level and not entry and 0 < bare[-1] < level:  # the headings above, then this one
            body = f"{sections.pop()[1]}\n\n{body}".strip()
            bare.pop()
        sections.append((heading, body))
        bare.append(level if level and not entry and not own else 0)
    if held:
        sections.append((held, held))
    return sections


def _terms_joined(text: str) -> str:
    """A definition list's term (``<dt>``) and the first paragraph of its description
    (``<dd>``) as one line, ``"--amend: Replace the tip of the current branch ..."``, terms of
    one description joined by commas (``"-a, --all: Tell the command ..."``): a man page's
    options and commands, a glossary, an API reference (Sphinx's ``<dl class="py">``). As
    paragraphs of their own, a report quoted "Cleanup unnecessary files and optimize the
    local repository." without the ``git-gc(1)`` it describes."""
    if _TERM not in text and _TERMS not in text:
        return text
    return _joined_at(_joined_at(text, _TERMS, ", "), _TERM, ": ", colon=True)


def _joined_at(text: str, mark: str, joint: str, colon: bool = False) -> str:
    """``text`` with each ``mark`` and the blanks and breaks around it written ``joint`` (and a
    ``colon`` before it, when asked). Cut at the marks with ``str.split``: as a regular
    expression that starts with blanks (``\\s*:?\\s*<mark>``), every character of the page was
    a place to try, 0.16 s of sqlite3-doc's 1.7 s of page reading."""
    pieces = text.split(mark)
    for i in range(len(pieces) - 1):
        before = pieces[i].rstrip()
        if colon and before.endswith(":"):
            before = before[:-1].rstrip()
        pieces[i] = before
        if leading := _LEADING_BREAKS.match(pieces[i + 1]):
            pieces[i + 1] = pieces[i + 1][leading.end():]
        if colon and pieces[i + 1][:1].islower() and cut_term(before):
            pieces[i] += " "  # a sentence docutils cut into a term and its description
        if colon and (typed := _TYPE_ALONE.match(pieces[i + 1])):
            pieces[i + 1] = f"{typed.group(1)} {pieces[i + 1][typed.end():]}"
    return "".join(p + ("" if p.endswith(" ") else joint) for p in pieces[:-1]) + pieces[-1]


_TYPE_ALONE = re.compile(f"(\\([^(){_BREAK}{_LINE}\\n]{{1,30}}\\))[\\s{_BREAK}{_LINE}]+"
                         f"(?=[^\\s{_HEAD}{_BREAK}{_LINE}])")
"""A description whose first paragraph is only its value's type in brackets (Texinfo's
``<dd><p><i>(boolean)</i></p><p>Disable use of ...``): the type and the next paragraph are one
line, "dont-use-other-dicts: (boolean) Disable use of ...", as its neighbours' "extra-dicts:
(list) Extra dictionaries to use." are; apart, the entry said nothing (Aspell, trial 95, F1)."""

_LINKED = re.compile(f"{_LINK}([^{_LINK}{_LINK_END}]*){_LINK_END}")


def stylesheet_source() -> str:
    """The XSLT that writes a page's text with the markers (see :func:`html_page`). Its match
    patterns test only the matched element and what it holds: libxslt evaluates a pattern per
    candidate element, so a predicate on a parent or on siblings costs each element its whole
    list, O(n²) in a long one (``tests/workers/sources/test_html_linear.py``)."""
    blocks = "|".join(sorted(_BLOCK - _HEADINGS - {"br"}))
    levels = "\n".join(f'<xsl:template match="h{n}">{_HEAD}{mark}<xsl:apply-templates/>{_TAIL}'
                       "</xsl:template>" for n, mark in enumerate(_LEVELS, 1))
    return f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="UTF-8"/>
<xsl:template match="/"><xsl:apply-templates select="*[1]"/></xsl:template>
<xsl:template match="{'|'.join(sorted(_HIDDEN))}"/>
{levels}
<xsl:template match="div[{class_token(*_ENTRY_CLASSES, as_written=True)}]" priority="1">\
{_HEAD}{_ENTRY}<xsl:apply-templates/>{_TAIL}</xsl:template>
<xsl:template match="a">{_LINK}<xsl:apply-templates/>{_LINK_END}</xsl:template>
<xsl:template match="sup[not(.//a)][normalize-space(.) != ''][translate(normalize-space(.), \
'0123456789+-−', '') = '']">^<xsl:apply-templates/></xsl:template>
<xsl:template match="pre" priority="1">{_BREAK}{_PRE}<xsl:apply-templates/>{_PRE_END}\
{_BREAK}</xsl:template>
<xsl:template match="{blocks}">{_BREAK}<xsl:apply-templates/>{_BREAK}</xsl:template>
<xsl:template match="br">{_LINE}</xsl:template>
<xsl:template match="{_ENTRIES_LIST}" priority="1">{_HEAD}{_ENTRIES}{_TAIL}\
<xsl:apply-templates/>{_HEAD}{_ENTRIES_END}{_TAIL}</xsl:template>
<xsl:template match="{_ENTRIES_LIST}/dt[@data-research-next='dd' or @data-research-next='dt']" \
priority="2">\
{_HEAD}{_ENTRY}<xsl:apply-templates/>{_TAIL}</xsl:template>
<xsl:template match="dt[@data-research-next='dd']">{_BREAK}\
<xsl:apply-templates/>{_TERM}</xsl:template>
<xsl:template match="dt">{_BREAK}<xsl:apply-templates/>{_BREAK}</xsl:template>
<xsl:template match="dt[@data-research-next='dt']" priority="1">{_BREAK}\
<xsl:apply-templates/>{_TERMS}</xsl:template>
</xsl:stylesheet>"""


_MARK_BYTES = re.compile(
    "|".join(c for c in (_HEAD, _TAIL, _BREAK, _LINE, _LINK, _LINK_END, _TERM, _TERMS, _ENTRY, _PRE,
                         _PRE_END, _ENTRIES, _ENTRIES_END, *_LEVELS)
             ).encode("utf-8"))
_LOCAL = threading.local()
_CLOSING = re.compile(rb"</(?:body|html)\s*>", re.IGNORECASE)
MAX_DEPTH = 2048
"""How deep libxml2 reads nested elements with ``huge_tree`` (old hand-written pages leave
``<font>`` or ``<div>`` open: 256 without it cut a page of 600 such lines at line 254)."""
CUT = (f"cut where its elements nest deeper than {MAX_DEPTH}; the text past that depth is not "
       "indexed")
"""The corpus note on a page that is :attr:`HtmlPage.cut` (after its path)."""


def _thread_tools() -> tuple[lxml_html.HTMLParser, etree.XSLT]:
    """This thread's HTML parser and text stylesheet (an lxml parser serves one thread at a
    time: threads sharing one would take turns)."""
    tools = getattr(_LOCAL, "tools", None)
    if tools is None:
        parser = lxml_html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                                      no_network=True, huge_tree=True)
        tools = _LOCAL.tools = (parser, etree.XSLT(etree.XML(stylesheet_source().encode())))
    return tools


def html_to_text(source: str | bytes) -> str:
    """Visible text of an HTML document (tags, scripts and styles removed), one paragraph per
    block element (see :func:`html_page`)."""
    return html_page(source).text
