"""The contract every source keeps: :class:`Source` (search, read, resolve a citation) and the
:class:`Passage` it returns, which owns the citation reference format.

A *source* is anything the workers can search and cite: the package-docs index, a folder of the
user's documents, web search. The workers and the agent tools see only this protocol, so a new
source is a new class with these three methods (see docs/extending.md, "Add a source").

A passage's ``ref`` is ``"<doc_id>#<n>"``: the document it comes from and the passage's position
in it (from 0), e.g. ``"langgraph.types.RetryPolicy#0"``, ``"pydoc:for#1"``, ``"docs/guide.md#2"``,
``"report.pdf:p3#0"`` (page 3 of a PDF) or ``"https://example.com/page#0"`` (a web page). Only
:meth:`Passage.make_ref` builds refs and only :meth:`Passage.split_ref` takes them apart.

This module imports only the standard library.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "CorpusError", "Document", "IndexVanished", "NoText", "Passage", "RawDoc", "Source",
    "code_span", "group_by_document", "inert_markdown", "link_destination",
]


class CorpusError(Exception):
    """A source cannot be opened or used; the message is one line, fit to print to a user."""


class NoText(CorpusError):
    """The inputs of a source yielded no passage at all."""


class IndexVanished(Exception):
    """The data dir, or the corpus index being built in it, was deleted while the index was
    built: not bad input (not a :class:`CorpusError`), a run that could not go on (the CLI
    exits 1, as when the data dir vanishes mid-run); the message is one line naming it."""


_WEB_SOURCE = re.compile(r"^https?://", re.IGNORECASE)


@dataclass(frozen=True)
class Passage:
    """One searchable, citable chunk of a document.

    Attributes:
        ref: stable citation id of this passage, ``"<doc_id>#<n>"`` (see :meth:`make_ref`).
        doc_id: the document: a qualified Python name, ``"pydoc:<topic>"``, a relative path or a
            URL.
        title: human title, e.g. ``"langgraph.types.RetryPolicy"``, a file name or a page title.
        source: where the text came from, e.g.
            ``"langgraph 1.2.24 docstring: langgraph.types.RetryPolicy"``, ``"docs/guide.md"``,
            ``"report.pdf, page 3"`` or the page's URL.
        text: the passage text.
        score: relevance from a search (higher is better); 0.0 otherwise.
        heading: the heading of the document's section the passage is cut from (an HTML
            ``h1``-``h3``, a PDF outline entry, a symbol's name), "" when none or not read.

    Example:
        >>> p = Passage(Passage.make_ref("docs/a.md", 2), "docs/a.md", "a.md", "docs/a.md", "x")
        >>> p.ref, Passage.split_ref(p.ref), p.citation()
        ('docs/a.md#2', ('docs/a.md', '2'), '`docs/a.md#2`: docs/a.md')
    """

    ref: str
    doc_id: str
    title: str
    source: str
    text: str
    score: float = 0.0
    heading: str = ""

    @staticmethod
    def make_ref(doc_id: str, seq: int | str) -> str:
        """The ref of passage ``seq`` (an int, or a label such as ``"p3"``) of ``doc_id``."""
        return f"{doc_id}#{seq}"

    @staticmethod
    def split_ref(ref: str) -> tuple[str, str] | None:
        """``(doc_id, seq)`` of a ref (``seq`` as written after the last ``#``), or None when
        ``ref`` has no ``#``. A doc_id may itself hold ``#`` (a URL with a fragment)."""
        doc_id, sep, seq = str(ref).strip().rpartition("#")
        return (doc_id, seq) if sep and doc_id and seq else None

    @property
    def is_web(self) -> bool:
        """True for a web page's passage (its ``source`` is its URL)."""
        return bool(_WEB_SOURCE.match(self.source))

    @property
    def citation_key(self) -> str:
        """What a report numbers its sources by: the URL for a web page (one entry per page,
        whichever of its passages are cited), the ref otherwise."""
        return self.doc_id if self.is_web else self.ref

    @property
    def document_key(self) -> str:
        """The document this passage belongs to, without the ``#<n>`` passage suffix: what a
        report cites once for all the passages it uses from one document (issue 19). Equal to
        ``doc_id`` (a URL for a web page)."""
        return self.doc_id

    def document_citation(self) -> str:
        """The Sources entry of this passage's *document* (markdown): ``[Title](URL)`` for a web
        page; ``"`doc_id`: Title"`` for a file of a folder titled other than by its name (the
        source, its path, is the ``doc_id`` already shown: never "`cors.md`:
        cors.md"), e.g. ``"`html/lang.html`: SQL As Understood By SQLite"``; else
        ``"`doc_id`: source"`` (the title added when the source lacks it). A file of a folder
        titled by its name is its path alone: rsyslog's Sphinx download ``_downloads/<hash>/
        rsyslog-example.conf`` was shown a second time, hash and all, as its title (trial 118).

        Example:
            >>> Passage("a/b.conf#1", "a/b.conf", "b.conf", "a/b.conf", "").document_citation()
            '`a/b.conf`'
        """
        if self.is_web:
            return self.citation()
        name = self.doc_id.rsplit("/", 1)[-1]
        if self.source == self.doc_id and self.title.strip() in ("", self.doc_id, name):
            return code_span(self.doc_id)
        if self.source == self.doc_id:
            title = " ".join(self.title.split()).replace("`", "\\`")
            return f"{code_span(self.doc_id)}: {inert_markdown(title)}"
        return f"{code_span(self.doc_id)}: {inert_markdown(self._where())}"

    def _where(self) -> str:
        """Where the passage comes from, as markdown text: a backtick escaped (a file name's
        backticks would otherwise open code spans of their own)."""
        where = self.source if self.title and self.title in self.source else (
            f"{self.title} ({self.source})")
        return where.replace("`", "\\`")

    def citation(self) -> str:
        """The text of this passage's entry in a report's Sources list (markdown).

        A web page is cited by title and URL (``[Title](https://...)``); anything else by its ref
        and where it comes from (``"`ref`: source"``, the title added when the source lacks it).
        """
        if self.is_web:
            title = " ".join(self.title.split()).replace("]", ")").replace("\\", "\\\\")
            title = title or self.source
            return f"[{inert_markdown(title)}]({link_destination(self.source)})"
        return f"{code_span(self.ref)}: {self._where()}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape the tools return and the results database stores:
        ``{"ref", "title", "source", "text", "score"}`` (score rounded to 3 decimals)."""
        return {
            "ref": self.ref,
            "title": self.title,
            "source": self.source,
            "text": self.text,
            "score": round(self.score, 3),
        }

    @classmethod
    def from_dict(cls, obj: Any) -> Passage | None:
        """The passage a :meth:`to_dict` (or a report item) describes, or None when ``obj`` is no
        mapping, carries an ``"error"``, or lacks a non-empty ``ref`` or ``text``. Missing
        titles and sources become ``""``; a missing or non-numeric score 0.0."""
        if not isinstance(obj, Mapping) or "error" in obj:
            return None
        ref, text = obj.get("ref"), obj.get("text")
        if not isinstance(ref, str) or not ref.strip() or not isinstance(text, str):
            return None
        if not text.strip():
            return None
        split = cls.split_ref(ref)
        score = obj.get("score")
        return cls(
            ref=ref,
            doc_id=split[0] if split else ref,
            title=str(obj.get("title") or ""),
            source=str(obj.get("source") or ""),
            text=text,
            score=float(score) if isinstance(score, int | float) else 0.0,
        )


def code_span(text: str) -> str:
    """``text`` as a markdown code span that survives the backticks it holds (CommonMark 6.1):
    a fence one backtick longer than its longest run of backticks, and a space inside each end
    when it starts or ends with a backtick (CommonMark strips one space at each end).

    Example:
        >>> code_span("docs/a.md#0"), code_span("odd`name.md#0"), code_span("`x`")
        ('`docs/a.md#0`', '``odd`name.md#0``', '`` `x` ``')
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_CODE_SPANS = re.compile(r"(?<!`)(`+)(?!`)(?:.*?[^`])??\1(?!`)", re.DOTALL)
"""A code span as CommonMark reads it: a backtick run closed by the next run of the same
length (CommonMark 6.1); a run left unclosed is literal backticks, and what follows it is text."""
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_TYPE_TAG = re.compile(r"<[A-Za-z][\w.|\[\]-]{0,40}>")
"""A tag of one word and no attributes, as API references write a type (Node.js's
``<string>``, ``<integer>``): shown as code, it reads as written in the report's text too
(``&lt;string>`` there was noise in every line of a Node.js report)."""


def inert_markdown(text: str) -> str:
    r"""``text`` (markdown a page, a search service or a model wrote) with nothing a markdown
    viewer would run or follow: outside code spans, a tag of one word and no attributes
    (``<string>``) becomes a code span, any other ``<`` that opens an HTML tag, a comment or an
    autolink becomes ``&lt;`` (shown as ``<``), and a link's or an image's ``](`` becomes
    ``]\(`` (shown as it is). A search result's snippet held ``<script>`` and ``[x](javascript:
    ...)``, and a planner's sub-question ``<img onerror=...>``, copied into the report.

    Example:
        >>> inert_markdown("<script>x</script> [a](javascript:y) `<b>` and 1 < 2")
        '`<script>`x&lt;/script> [a]\\(javascript:y) `<b>` and 1 < 2'
        >>> inert_markdown("data <any> a chunk; <img src=x onerror=y>")
        'data `<any>` a chunk; &lt;img src=x onerror=y>'
        >>> inert_markdown("`a.md#1` pop [<stash>]"), inert_markdown("a ` run, [<stash>]")
        ('`a.md#1` pop [`<stash>`]', 'a ` run, [``<stash>``]')
        >>> print(inert_markdown("- Run: `x`\n- For relationship <relationship>, it is."))
        - Run: `x`
        - For relationship `<relationship>`, it is.
        >>> print(inert_markdown("- Run: `x`\n- A ` left open, <stash>"))
        - Run: `x`
        - A ` left open, ``<stash>``
    """
    # block by block: a code span never reaches past its paragraph, list item or heading
    starts = [0, *(m.end() for m in _BLOCK_START.finditer(text))]
    return "".join(_inert_block(text[a:b])
                   for a, b in zip(starts, [*starts[1:], len(text)], strict=True))


def _inert_block(block: str) -> str:
    """One block of :func:`inert_markdown`'s text made inert. A tag shown as code is fenced by
    a backtick run of a length no run left unclosed in the block has: none can close it or be
    closed by it (CommonMark 6.1). A closed span's own runs are not counted (counted, a
    report's code spans fenced every ``<stash>`` in two: trial 121, F11)."""
    spans = list(_CODE_SPANS.finditer(block))
    pieces = [block[a:b] for a, b in zip([0] + [s.end() for s in spans],
                                         [s.start() for s in spans] + [len(block)], strict=True)]
    runs = {len(run) for piece in pieces for run in _BACKTICKS.findall(piece)}
    fence = "`" * next(n for n in range(1, len(runs) + 2) if n not in runs)
    out = [_inert(pieces[0], fence)]
    for span, piece in zip(spans, pieces[1:], strict=True):
        out += [span.group(0), _inert(piece, fence)]
    return "".join(out)


def _inert(text: str, fence: str) -> str:
    pieces = _TYPE_TAG.split(text)  # text, tag, text, ...: the tags shown as code
    tags = [f"{fence}{tag}{fence}" for tag in _TYPE_TAG.findall(text)]
    pieces = [_TAG_START.sub("&lt;", piece).replace("](", "]\\(") for piece in pieces]
    return "".join(p + (tags[i] if i < len(tags) else "") for i, p in enumerate(pieces))


_BLOCK_START = re.compile(r"\n(?=[ \t]*\n| {0,3}(?:[-+*][ \t]+\S|#{1,6}(?:[ \t]|$)))",
                          re.MULTILINE)
"""Where a block starts that no code span before it reaches into: after a blank line, at a
list item (``- ...``: one interrupts a paragraph) or a heading. A report's Answer is a list:
one fence for the whole body, two backticks once any line held one, showed SQLAlchemy's
"For relationship <relationship>" as "For relationship ``<relationship>``" (trial 123, F10);
and a backtick on each side of a blank line was read as one code span, a tag between them
left as it was."""


_BACKTICKS = re.compile(r"`+")


def link_destination(url: str) -> str:
    """``url`` as a markdown link's destination: its spaces, parentheses, angle brackets,
    square brackets, quotes and backslashes percent-encoded, so that nothing in it closes the
    link ("https://example.org/a) [click me](javascript:alert(1)" made a second link).

    Example:
        >>> link_destination("https://example.org/a) [x](javascript:y)")
        'https://example.org/a%29%20%5Bx%5D%28javascript:y%29'
    """
    return urllib.parse.quote(url, safe=":/?#@!$&'*+,;=%~-._")


def group_by_document(passages: Sequence[Passage]) -> list[tuple[str, list[Passage]]]:
    """``(document_key, passages)`` in the order each document first appears, its passages in
    their given order: how a report cites one document once with its passages under it.

    Example:
        >>> ps = [Passage(f"{d}#{n}", d, d, d, "x") for d, n in (("a", 1), ("b", 0), ("a", 0))]
        >>> [(key, [p.ref for p in group]) for key, group in group_by_document(ps)]
        [('a', ['a#1', 'a#0']), ('b', ['b#0'])]
    """
    groups: dict[str, list[Passage]] = {}
    for passage in passages:
        groups.setdefault(passage.document_key, []).append(passage)
    return list(groups.items())


@dataclass(frozen=True)
class Document:
    """A whole document as returned by :meth:`Source.read`: its passages joined by blank lines
    (possibly cut to ``max_chars``, in which case the cut is marked with ``[…]``)."""

    doc_id: str
    title: str
    source: str
    text: str


@dataclass(frozen=True)
class RawDoc:
    """One document a harvester (package docs, a folder's files) yields for indexing; the index
    build cuts it into passages with :func:`workers.sources.chunks.chunk_text`."""

    doc_id: str
    title: str
    source: str
    text: str
    symbol: str = ""
    """The qualified name of the API symbol it documents (``langgraph.types.RetryPolicy``), or
    ``""``: search matches the symbol's own name in a column of its own."""
    sections: tuple[tuple[str, str], ...] = ()
    """``(heading, text)`` pairs when the document has headings (an HTML page's ``h1``-``h3``,
    a PDF page's outline entries, a Python file's qualified names): each section is cut into
    passages of its own and its heading is indexed in the ``heading`` column. Empty: ``text``
    is one section without a heading."""
    link_share: float = 0.0
    """The share of the document's text that is link text (an HTML page's ``<a>``, see
    :class:`workers.sources.htmlpage.HtmlPage`): search ranks a page made of links (an index, a
    site map) below the pages it links to."""
    section_symbols: bool = False
    """The section headings are the qualified names of the symbols their sections document (a
    Python file's ``Roster.rotate``): each section's symbol is matched by its own name, as
    ``symbol`` is for the whole document."""
    plain_text: bool = False
    """Read as plain text (a ``.txt``, a configuration file, a file without a type): a text
    without navigation, so a paragraph of it that other documents hold too (a changelog's entry
    in another package's copy) is its content, never stripped as boilerplate
    (:mod:`workers.sources.boilerplate`)."""
    kind: str = ""
    """What kind of page it is, when search ranks the kind apart: a catalogue of other projects
    (:data:`workers.sources.catalogues.CATALOGUE`), else ``""``."""


@runtime_checkable
class Source(Protocol):
    """What the workers and the agent tools need from a source.

    Implementations: :class:`workers.sources.corpus.Corpus` (package docs or a folder, indexed
    with SQLite FTS5). Every method is safe to call from several threads at once.
    """

    @property
    def description(self) -> str:
        """One line naming the source, shown in tool descriptions and run summaries."""
        ...

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list[Passage]:
        """The ``k`` passages that best match ``query`` (any text), best first; ``[]`` when
        nothing matches. Never raises for odd input. ``focus`` is the run's topic: a source
        that can should rank the topic's own words above the rest of the query (the plan's
        template words around it); one that cannot ignores it."""
        ...

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> Document | None:
        """The document a passage ref or a doc_id belongs to (about ``max_chars`` characters
        around the passage), or None when the source has no such document."""
        ...

    def passage(self, ref: str) -> Passage | None:
        """The passage a citation names, or None: how a worker checks a claim's ``ref``."""
        ...
