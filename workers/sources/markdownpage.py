"""Markdown files read as Markdown: the title, the sections under ``h1``-``h3`` and the text a
reader sees, parsed with ``markdown-it-py`` (CommonMark, with GitHub's tables), the sibling of
:mod:`workers.sources.htmlpage` (issue 19: titles and headings indexed as fields).

In FastAPI's docs, read as plain text, a heading's attribute
list (``Lifespan Events { #lifespan-events }``) labelled the report's passages, every source
was titled by its file name, raw inline HTML (``<abbr title="...">ISBN</abbr>``) reached the
report cut inside an attribute, and relative links (``[Behind a Proxy](behind-a-proxy.md)``)
were copied into it, leading nowhere. Here a link is its text (its URL is left out, as an HTML
page's ``href`` is), inline HTML is its text, an HTML block is read as an HTML page's text (a
table's rows as sentences), a pipe table's rows are sentences under their headings
(:mod:`workers.sources.tables`), a code block stays a fenced block, and the markup of MkDocs
and its extensions is left out: YAML front matter (its ``title:`` is the title), admonitions
(``/// note | Title`` ... ``///``, ``!!! note``, ``??? note``, content tabs ``=== "Tab"``: their
bodies are kept), snippet includes (``{* ../src/x.py hl[3] *}``, ``--8<--``), mkdocstrings'
``::: module.name``, attribute lists (``{ #id .class }``) and template tags (``{% ... %}``).

This module imports the standard library, ``markdown-it-py``, PyYAML and
:mod:`workers.sources.tables` (and :mod:`workers.sources.htmlpage`, lxml, for a file with HTML
blocks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

from workers.sources.base import code_span
from workers.sources.chunks import MAX_PASSAGE_CHARS
from workers.sources.tables import html_tables, markdown_tables, table_lines

__all__ = ["MarkdownPage", "front_matter", "markdown_page", "without_mkdocs_markup"]


@dataclass(frozen=True)
class MarkdownPage:
    """What :func:`markdown_page` reads from a Markdown file.

    Attributes:
        title: the front matter's ``title:``, else the first ``h1``'s text, else ``""``.
        sections: ``(heading, text)`` in file order: the text before the first ``h1``-``h3``
            under heading ``""``, then one section per such heading, its text starting with
            the heading's line (``"## Origin"``), consecutive sections that fit one passage
            together made one (their headings joined by " / ", :func:`_packed`); blocks are
            separated by blank lines.
    """

    title: str
    sections: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        """The text of the whole file, its sections joined by blank lines."""
        return "\n\n".join(text for _heading, text in self.sections if text)


_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_PARSER.normalizeLink = _PARSER.normalizeLinkText = str  # URLs are left out: not encoded
_DEEPEST = _PARSER.options["maxNesting"] - 1
"""A block opened at this level may hold text ``markdown-it`` drops (its ``maxNesting``)."""
Node = tuple[Token, list["Node"]]
"""A block token and the nodes nested in it (none for a token that opens nothing)."""
_FRONT = re.compile(r"\A(?:\ufeff)?---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_ATTR_LIST = re.compile(
    r"[ \t]*\{:?[ \t]*(?:[#.][\w:-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s}]+))"
    r"(?:[ \t]+(?:[#.][\w:-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s}]+)))*[ \t]*\}[ \t]*$",
    re.MULTILINE)
"""An attribute list at a line's end (Python-Markdown's ``attr_list``: ``{ #id .class k=v }``,
``{: .class }``): markup, never text."""
_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_TEMPLATE = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.DOTALL)
"""A Jinja statement or comment (``{% for sponsor in sponsors %}``: MkDocs' macros plugin)."""
_SPACES = re.compile(r"(`+)(?:.*?)\1|[ \t]{2,}", re.DOTALL)
"""A code span (kept as it is) or a run of blanks (one space: where an image or a tag was)."""


def front_matter(source: str) -> tuple[str, str]:
    """``(text, title)``: ``source`` without its YAML front matter (a ``---`` line at its very
    start, YAML, then ``---`` or ``...``) and the front matter's ``title`` (``""`` without
    one). A block there that is not a YAML mapping is no front matter: the text is kept.

    Example:
        >>> front_matter("---\\ntitle: Rate limits\\ntags: [a]\\n---\\n# Limits\\n")
        ('# Limits\\n', 'Rate limits')
    """
    import yaml  # PyYAML

    match = _FRONT.match(source)
    if match is None:
        return source, ""
    try:
        meta = yaml.safe_load(match.group(1) or "") if match.group(1) else {}
    except yaml.YAMLError:
        return source, ""
    if not isinstance(meta, dict):
        return source, ""
    title = meta.get("title")
    return source[match.end():], " ".join(str(title).split()) if title is not None else ""


def markdown_page(source: str) -> MarkdownPage:
    """The title and the sections (cut at ``h1``-``h3``) of a Markdown text, as the module
    docstring describes. Never raises for odd markup: anything CommonMark does not read as
    markup is text. A file nested as deep as ``markdown-it`` reads (20 levels of quotes and
    lists: it drops what is deeper, text and all) is read as its plain text, tables as
    sentences (as before Markdown was parsed), so nothing of it is lost.

    Example:
        >>> page = markdown_page("# CORS { #cors }\\n\\nSee [Proxies](proxy.md).\\n\\n"
        ...                      "## Origin\\n\\nAn <abbr title='x'>origin</abbr>.")
        >>> page.title, page.sections
        ('CORS', (('CORS / Origin', '# CORS\\n\\nSee Proxies.\\n\\n## Origin\\n\\nAn origin.'),))
    """
    text, title = front_matter(source)
    tokens = _PARSER.parse(html_tables(without_mkdocs_markup(text)))
    if any(t.nesting == 1 and t.level >= _DEEPEST for t in tokens):
        return MarkdownPage(title, (("", markdown_tables(text).strip()),))  # text, not lost
    sections: list[tuple[str, list[str]]] = [("", [])]
    for node in _nodes(tokens):
        if node[0].type == "heading_open" and node[0].tag in ("h1", "h2", "h3"):
            heading = " ".join(_inline(_first(node), plain=True).split())
            title = title or (heading if node[0].tag == "h1" else "")
            sections.append((heading, [line] if (line := _block(node)) else []))
            continue
        if block := _block(node).strip("\n"):
            sections[-1][1].append(block)
    kept = [(heading, "\n\n".join(blocks)) for heading, blocks in sections if blocks]
    return MarkdownPage(title, _packed(kept))


def _packed(sections: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """``sections`` with each run of consecutive ones that fit one passage together
    (:data:`~workers.sources.chunks.MAX_PASSAGE_CHARS`) made one section, headed by their
    headings joined by " / " (all of them indexed as the passage's heading): a passage still
    starts at a heading, but a page of short sections is not cut into passages of a paragraph
    each, of which a search returns only two per document (``MAX_PER_DOCUMENT``): on a page of
    four short sections, the one of its caveats was never found (measured with the tests' small
    corpus: the report's caveats went)."""
    out: list[tuple[str, str]] = []
    for heading, text in sections:
        if out and len(out[-1][1]) + 2 + len(text) <= MAX_PASSAGE_CHARS:
            above, joined = out[-1]
            out[-1] = (" / ".join(h for h in (above, heading) if h), f"{joined}\n\n{text}")
        else:
            out.append((heading, text))
    return tuple(out)


def _nodes(tokens: list[Token]) -> list[Node]:
    """The block tokens of a parse as a tree: ``(open token, nested nodes)`` per block (a
    flat walk: ``markdown_it.tree.SyntaxTreeNode`` also makes a node of every inline token,
    a sixth of the parse's time)."""
    root: list[Node] = []
    stack = [root]
    for token in tokens:
        if token.nesting == 1:
            stack[-1].append((token, []))
            stack.append(stack[-1][-1][1])
        elif token.nesting == -1:
            if len(stack) > 1:
                stack.pop()
        else:
            stack[-1].append((token, []))
    return root


def _first(node: Node) -> Token | None:
    """The first token nested in ``node`` (a heading's, a paragraph's or a cell's inline)."""
    return node[1][0][0] if node[1] else None


def _inline(token: Token | None, plain: bool = False) -> str:
    """The text of an inline token: links and inline HTML as their text, images and
    emphasis marks left out, code spans kept (``plain``: without their backticks), a soft
    line break a space, runs of blanks outside code spans one; a trailing attribute list is
    dropped."""
    out: list[str] = []
    for child in (token.children or []) if token is not None else []:
        kind = child.type
        if kind == "text":
            out.append(_TEMPLATE.sub("", child.content) if "{" in child.content else child.content)
        elif kind == "code_inline":
            out.append(child.content if plain else code_span(child.content))
        elif kind == "softbreak" or (kind == "hardbreak" and plain):
            out.append(" ")
        elif kind == "hardbreak" or (kind == "html_inline" and _BREAK_TAG.fullmatch(
                child.content.strip())):
            out.append(" " if plain else "\n")
    text = _SPACES.sub(lambda m: m.group(0) if m.group(1) else " ", "".join(out))
    return _ATTR_LIST.sub("", text).strip()


def _block(node: Node, indent: str = "") -> str:
    """The text of one block node (a heading, a paragraph, a list, a code block, a table, a
    quote, an HTML block), its lines indented by ``indent`` after the first (a list item's)."""
    token, children = node
    kind = token.type
    if kind == "heading_open":  # "## Origin" ("" for a heading of no text)
        return f"{'#' * int(token.tag[1])} {text}" if (text := _inline(_first(node))) else ""
    if kind == "paragraph_open":
        return _inline(_first(node))
    if kind in ("fence", "code_block"):
        return _fenced(token, indent)
    if kind in ("bullet_list_open", "ordered_list_open"):
        return _list(node, indent)
    if kind == "table_open":
        return "\n".join(_table(node))
    if kind == "blockquote_open":
        return "\n\n".join(b for child in children if (b := _block(child, indent)))
    if kind == "html_block":
        return _html(token.content)
    return ""  # hr, and markup of no text


def _fenced(token: Token, indent: str) -> str:
    """A fenced or indented code block as a fenced block (its info string kept), fenced with
    more backticks than any run of them in the code."""
    code = token.content.rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=2)
    mark = token.markup if token.type == "fence" and token.markup[0] == "~" else (
        "`" * max(3, longest + 1))
    lines = [f"{mark}{token.info.strip()}", *code.split("\n"), mark]
    return f"\n{indent}".join(lines)


def _list(node: Node, indent: str) -> str:
    """A list, one item a line (``- item``, ``3. item``); an item's further blocks and nested
    lists on lines indented under it."""
    lines = []
    ordered = node[0].type == "ordered_list_open"
    start = int(node[0].attrGet("start") or 1) if ordered else 1
    for number, (item, children) in enumerate(node[1], start):
        mark = f"{number}{item.markup or '.'} " if ordered else "- "
        inner = indent + " " * len(mark)
        blocks = [b for child in children if (b := _block(child, inner))]
        lines.append(mark + f"\n{inner}".join(blocks) if blocks else mark.rstrip())
    return f"\n{indent}".join(lines)


def _table(node: Node) -> list[str]:
    """A pipe table's body rows as sentences under its heading row."""
    rows = [[_inline(_first(cell)) for cell in row[1]] for part in node[1] for row in part[1]]
    return table_lines(rows[1:], rows[0]) if len(rows) > 1 else table_lines(rows)


def _html(block: str) -> str:
    """An HTML block's visible text (tags, comments and scripts left out: an HTML page's text,
    :func:`workers.sources.htmlpage.html_to_text`)."""
    if not _TAG.sub("", block).strip():
        return ""  # only tags: <div class="termy">, </div>, <img ...>, a comment
    from workers.sources.htmlpage import html_to_text  # lxml: only for a file with HTML

    return html_to_text(block)


_BLOCK_MARK = re.compile(r"^[ \t]*/{3,}(?:[ \t]+[\w-]+(?:[ \t]*\|.*)?)?[ \t]*$")
"""A pymdownx ``blocks`` line: ``/// note | Title``, ``//// tab | Python``, ``///``."""
_INDENTED_MARK = re.compile(r"^(?P<indent>[ \t]*)(?:!!!|\?\?\?\+?|===\+?)[ \t]+\S.*$")
"""An admonition (``!!! note "Title"``, collapsible ``??? tip``) or content tab (``=== "Tab"``)
whose body is the lines indented under it."""
_INCLUDE = re.compile(r"^[ \t]*(?:\{\*.*\*\}|-{2,}8<-{2,}.*|:::[ \t]+\S+)[ \t]*$")
"""A snippet include (FastAPI's ``{* ../src/x.py hl[3] *}``, pymdownx's ``--8<-- "x.md"``) or
an mkdocstrings ``::: package.name`` line."""
_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def without_mkdocs_markup(text: str) -> str:
    """``text`` with the MkDocs markup lines blanked (see the module docstring): admonition and
    block markers, includes (and a ``--8<--`` block's file list, and the indented options
    under a marker or a ``:::`` line); an ``!!!``/``???``/``===`` body is dedented by four
    spaces, so it reads as text, not as an indented code block. Lines inside fenced code are
    kept as they are."""
    out: list[str] = []
    bodies: list[int] = []  # the indent of each open !!!/???/=== body
    fence, options, snippets = "", False, False
    for line in text.split("\n"):
        flat = line.expandtabs(4)
        width = len(flat) - len(flat.lstrip())
        while bodies and flat.strip() and width < bodies[-1]:
            bodies.pop()
        if bodies and flat.strip():
            line = flat[min(4 * len(bodies), width):]
        if fence:
            fence = "" if line.strip() and set(line.strip()) == {fence[0]} and len(
                line.strip()) >= len(fence) else fence
            out.append(line)
            continue
        if options and flat.strip() and width >= 4 + (4 * len(bodies)):
            out.append("")
            continue
        options = False
        stripped = line.strip()
        if snippets or stripped == "--8<--":
            snippets = snippets != (stripped == "--8<--")
            out.append("")
            continue
        if _BLOCK_MARK.match(line) or _INCLUDE.match(line):
            options = stripped.startswith(("/", ":::"))  # YAML options may follow, indented
            out.append("")
            continue
        if mark := _INDENTED_MARK.match(line):
            bodies.append(len(mark["indent"].expandtabs(4)) + 4)
            out.append("")
            continue
        if opened := _FENCE_OPEN.match(line):
            fence = opened.group(1)
        out.append(line)
    return "\n".join(out)
