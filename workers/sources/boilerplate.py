"""Text repeated across a folder's pages (navigation bars, headers, footers) found and stripped
before the index is built (issue 19: "Prev Up Home Next" was indexed on every page of a manual,
and a fifth of the cited passages held it).

A paragraph is boilerplate when, word for word (outer blanks aside), it appears in at least
``REPEAT_SHARE`` of the folder's documents and in at least ``MIN_REPEATS`` of them, and it is
short (``MAX_BOILERPLATE_CHARS``): a page's own text is not copied onto a twentieth of the
other pages, its navigation is. It is stripped only where furniture sits (:func:`_edges`): the
page's opening and closing runs of such paragraphs, or a place above its first heading that
many pages share; between the page's own paragraphs it is a row of content pages share (a
reference entry's "Default: false", trial 117, F1). Code is not navigation: a fenced code
block is never stripped. Headings are kept (they are indexed as headings), so a section titled
"See also" on every page still reads as one. An option's entry (a line opening with ``-x`` or
``--long``) and the description after it are content that a suite's man pages share, never
navigation.

A sentence of prose among a page's text is no navigation either: a warning every page of a
manual repeats under its heading ("Warning: the quill server protocol is not encrypted. Never
expose port 8730 to the internet; ...") was stripped from all of them, and from the one page it
was the whole text of, which was then skipped as navigation: the warning was in no passage
(trial 119, F1). Such a paragraph (:func:`_prose`, with text of the page's own after it on most
of its pages: a footer's "This document was generated ... using texi2any." has none) is kept
once, in the page it is most of the text of (:func:`_kept_once`), and stripped from the rest.

Navigation is what a site generator or a page layout repeats: HTML pages, PDF pages' running
heads. A plain-text file (a ``.txt``, a configuration file, a file without a type:
:attr:`~workers.sources.base.RawDoc.plain_text`) has none, and what it shares with other files
is content: a changelog's entries, in the copy of each package or version (the
entries of a ``changelog.Debian.gz`` four packages install were stripped from all four, and its
CVE entries were in no passage). Its paragraphs are neither counted nor stripped.

A file of which nothing would be left keeps its first document (:func:`keep_each_file`);
headings alone are nothing (the version lines kept each copy of a changelog from
this, and five copies of a NEWS file were indexed as their headings). An HTML page whose every
paragraph is navigation that pages indexed carry too is skipped instead: what its generator
wrote there was furniture (Zsh's Texinfo index pages, their index tables left out, were
indexed as "[ << ] [ < ] [ Up ] ... [Index] [ ? ]", and noted in every report, trial 115, F4).

This module imports only the standard library and the sources' own text helpers.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Set
from dataclasses import replace

from workers.sources.base import RawDoc
from workers.sources.chunks import PARA_SPLIT
from workers.sources.documents import file_of
from workers.sources.fences import split_fences
from workers.sources.filekinds import HTML_EXTENSIONS, file_kind
from workers.sources.text import safe_name

__all__ = [
    "MAX_BOILERPLATE_CHARS",
    "NAVIGATION_ONLY",
    "MIN_REPEATS",
    "REPEAT_SHARE",
    "keep_each_file",
    "repeated_paragraphs",
    "strip_repeated",
]

MIN_REPEATS = 4
"""A paragraph must appear in at least this many documents to be boilerplate."""

REPEAT_SHARE = 0.05
"""... and in at least this share of the documents."""

MAX_BOILERPLATE_CHARS = 300
"""Longer paragraphs are never boilerplate (navigation and footers are short)."""

MIN_SENTENCE_WORDS = 8
"""A paragraph of this many words at least, with a sentence's end, is prose, not a menu."""

_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")

NAVIGATION_ONLY = "nothing but the navigation the pages indexed carry too"
"""The note on an HTML page skipped so (after its path and "skipped, ")."""



def _paragraphs(text: str) -> list[tuple[bool, str]]:
    """``(is_code, paragraph)`` of ``text``, stripped: a fenced code block is one paragraph,
    blank lines and all, and never boilerplate (a console fence's last line and its
    closing fence, the same on a fifth of FastAPI's pages, were stripped, and 22 passages were
    left with a fence that never closed)."""
    return [(fenced, p.strip()) for fenced, segment in split_fences(text)
            for p in ((segment,) if fenced else PARA_SPLIT.split(segment))]


def _sections(doc: RawDoc) -> tuple[tuple[str, str], ...]:
    return doc.sections or (("", doc.text),)


Parsed = tuple[tuple[str, list[tuple[bool, str]]], ...]
"""A document's ``(heading, paragraphs)`` per section (:func:`_paragraphs`)."""


def _parsed(doc: RawDoc) -> Parsed:
    """``doc``'s sections, each cut into paragraphs once: the rule reads them five times
    (Git's manual: 0.66 s of a 2.8 s build when each read cut them again)."""
    return () if doc.plain_text else tuple((h, _paragraphs(t)) for h, t in _sections(doc))


_OPTION = r"--?[A-Za-z0-9](?:[\w-]*\w)?"
"""A command-line option as written (``-V``, ``--properties-input``; ``-Index-`` is none)."""
_OPTION_LINE = re.compile(rf"^{_OPTION}(?=[=,\s\[]|$)", re.MULTILINE)
"""A line that opens with a command-line option (``-P, --properties-input``): an option's
entry, which man pages of one suite share word for word (gettext's 26 pages: ``-V,
--version``, ``Input file syntax: -P, --properties-input``), and content, never navigation."""


def _entry(paragraph: str) -> bool:
    return _OPTION_LINE.search(paragraph) is not None


_OPTION_ALONE = re.compile(rf"(?:[^\n]*\n)?(?:{_OPTION}(?:[= ][^\s,]+)?(?:,\s*|\s+|$))+")
"""A paragraph that is an option's forms and nothing else (``-V, --version``, after a group's
label line), its description the paragraph after it; ``--help: display this help`` holds its
own, and the paragraph after it is not its (a footer's, trial 100, F7)."""


def repeated_paragraphs(docs: Iterable[RawDoc]) -> set[str]:
    """The boilerplate paragraphs of ``docs`` (stripped), by the rule above."""
    return _repeated([_parsed(doc) for doc in docs])


def _repeated(parsed: list[Parsed]) -> set[str]:
    """:func:`repeated_paragraphs` of the documents ``parsed``."""
    counts: Counter[str] = Counter()
    for sections in parsed:
        counts.update({p for _h, paragraphs in sections for code, p in paragraphs
                       if p and len(p) <= MAX_BOILERPLATE_CHARS and not code and not _entry(p)})
    return {p for p, n in counts.items() if n >= _need(len(parsed))}


def _need(docs: int) -> int:
    """How many of ``docs`` documents a paragraph repeats in to be boilerplate."""
    return max(MIN_REPEATS, math.ceil(REPEAT_SHARE * docs))


def _prose(paragraph: str) -> bool:
    """Whether ``paragraph`` is a sentence of prose (:data:`MIN_SENTENCE_WORDS`), not a menu.

    Example:
        >>> _prose("Warning: the server is not encrypted. Never expose its port.")
        True
        >>> _prose("Home | Download | Docs | Support | Search | License | About | FAQ")
        False
    """
    return (len(paragraph.split()) >= MIN_SENTENCE_WORDS
            and _SENTENCE_END.search(paragraph) is not None)


def _kept_once(docs: list[RawDoc], parsed: list[Parsed], boiler: set[str]) -> dict[str, int]:
    """The paragraphs of ``boiler`` that are text of ``docs`` (:func:`_prose`, and followed by
    text of a page's own, not a heading nor boilerplate, on more than half of the pages that
    hold them), each with the index of the one document that keeps it: the shortest of them,
    whose text it is most of (trial 119, F1)."""
    holders: dict[str, list[int]] = {}
    followed: Counter[str] = Counter()
    for n, sections in enumerate(parsed):
        heads = {h for h, _ps in sections}
        here: dict[str, bool] = {}
        own_after = False
        for code, p in reversed([par for _h, paragraphs in sections for par in paragraphs]):
            if not p or p in heads:
                continue
            if not code and p in boiler:
                if _prose(p):
                    here[p] = here.get(p, False) or own_after
            else:
                own_after = True
        for p, after in here.items():
            holders.setdefault(p, []).append(n)
            followed[p] += after
    return {p: min(ns, key=lambda n: (len(docs[n].text), n)) for p, ns in holders.items()
            if 2 * followed[p] > len(ns)}


_ROW = re.compile(r"[\w .()/-]{1,30}:\s+[^\s:][^\n:]{0,60}|[a-z][\w.-]{0,40}"
                  r"|[^\n]{0,40}\bdefault:\s[^\n]{0,160}", re.IGNORECASE)
"""A reference entry's row that pages share: a field ("Default: false", "Type: boolean",
"Return type: Any"), an entry's name alone ("timeout") or a parameter's line with its default
("binary — default: off; mandatory: no"). Only such a repeated paragraph is content between a
page's own paragraphs (:func:`_edges`); a "Back to top" link between sections, a "Was this page
helpful? Yes No" box or a banner before a per-page "Last updated" line are furniture wherever
they sit (trial 120, F1)."""


def _row(paragraph: str) -> bool:
    """Whether a repeated ``paragraph`` is a reference entry's row (:data:`_ROW`).

    Example:
        >>> _row("Default: false"), _row("timeout"), _row("binary — default: off; mandatory: no")
        (True, True, True)
        >>> _row("Back to top"), _row("Was this page helpful? Yes No"), _row("Prev | Up | Next")
        (False, False, False)
    """
    return _ROW.fullmatch(paragraph.strip()) is not None


def strip_repeated(docs: Iterable[RawDoc]) -> list[RawDoc]:
    """``docs`` with their boilerplate paragraphs removed (headings kept; a plain-text document
    as it is). Reads them all first (two passes); a document left blank, or with nothing but
    its headings, is dropped; a sentence of prose repeated is kept in one (:func:`_kept_once`).
    Deterministic: same input, same output."""
    docs = list(docs)
    parsed = [_parsed(doc) for doc in docs]
    boiler = _repeated(parsed)
    if not boiler:
        return docs
    once = _kept_once(docs, parsed, boiler)
    out, fixed = [], _fixed(parsed, boiler, _need(len(docs)))
    for n, doc in enumerate(docs):
        if doc.plain_text:
            out.append(doc)
            continue
        sections, edge = [], _edges(parsed[n], boiler, fixed)
        for s, (heading, paragraphs) in enumerate(parsed[n]):
            # an option's description goes with its entry: "display this help and exit"
            kept = [p for i, (code, p) in enumerate(paragraphs)
                    if code or p not in boiler or ((s, i) not in edge and _row(p))
                    or p == heading or once.get(p) == n
                    or (i and _OPTION_ALONE.fullmatch(paragraphs[i - 1][1]) is not None)]
            body = "\n\n".join(kept).strip()
            if body or heading:
                sections.append((heading, body))
        text = "\n\n".join(t for _h, t in sections if t)
        if any(t and t != h for h, t in sections):
            out.append(replace(doc, text=text, sections=tuple(sections) if doc.sections else ()))
    return out


def _places(sections: Parsed) -> list[tuple[tuple[int, int], bool, str, str]]:
    """``((section, paragraph), is_code, paragraph, heading)`` of a document's paragraphs."""
    return [((s, i), code, p, heading) for s, (heading, paragraphs) in enumerate(sections)
            for i, (code, p) in enumerate(paragraphs) if p]


def _fixed(parsed: list[Parsed], boiler: set[str], need: int) -> set[tuple[str, int]]:
    """``(paragraph, place)`` of the boilerplate that many pages hold at the same place, counted
    from the page's start (``0``, ``1``, ...) or end (``-1``, ``-2``, ...), at least ``need``
    times: a layout's furniture amid a page's own text (SQLite's "► Table Of Contents", after
    each page's title), where a row of content shared falls at places of its own."""
    counts: Counter[tuple[str, int]] = Counter()
    for sections in parsed:
        places = _places(sections)
        counts.update({(p, k - n) for n in (0, len(places))
                       for k, (_place, _code, p, _h) in enumerate(places) if p in boiler})
    return {key for key, n in counts.items() if n >= need}


def _edges(sections: Parsed, boiler: set[str],
           fixed: Set[tuple[str, int]] = frozenset()) -> set[tuple[int, int]]:
    """The places ``(section, paragraph)`` of ``doc``'s boilerplate that sit where furniture
    sits: the run of repeated paragraphs (headings amid them) that opens the page, the run
    that closes it, and, above the page's first heading, a place where many pages hold the
    same one (``fixed``, of :func:`_fixed`; under a heading, pages of one layout, a parameter
    each, hold their rows at the same place too). A repeated paragraph elsewhere is a row of its
    content that other pages share: Exim's option entries ("timeout", "Use: main", "Type:
    boolean", "Default: false") were stripped as navigation, 296 "Default: unset" and 183
    "Type: boolean" rows of its spec were in no passage, and a default could not be given
    (trial 117, F1); so would a Sphinx field's "bool" or a table's "Default: off".

    Example:
        >>> doc = RawDoc("p", "", "", "\\n\\n".join(["Prev Next", "limit", "Default: false",
        ...                                         "Sets it.", "Prev Next"]))
        >>> sorted(_edges(_parsed(doc), {"Prev Next", "Default: false"}))
        [(0, 0), (0, 4)]
        >>> doc = replace(doc, sections=(("", doc.text), ("Limits", "Limits\\n\\nNone.")))
        >>> sorted(_edges(_parsed(doc), {"Prev Next", "Default: false"}, {("Default: false", 2)}))
        [(0, 0), (0, 2)]
    """
    places = _places(sections)
    opening = len(sections) > 1 and not sections[0][0]  # text above the first heading
    edge = {place for k, (place, code, p, _h) in enumerate(places) if opening and not place[0]
            and not code and ((p, k) in fixed or (p, k - len(places)) in fixed)}
    for run in (places, places[::-1]):
        for place, code, p, heading in run:
            if code or (p not in boiler and p != heading):
                break
            if p in boiler:
                edge.add(place)
    return edge


def keep_each_file(read: list[RawDoc], kept: list[RawDoc], rels: set[str],
                   notes: list[str]) -> list[RawDoc]:
    """``kept`` (what :func:`strip_repeated` left of ``read``), with the first document of each
    file of which nothing was left put back as it was read, and named in ``notes``
    (``rels``: the folder's ref paths). A file's text is never all boilerplate: when every
    paragraph of it repeats elsewhere (a PDF of one page repeated, a copy of another file), it
    is that file's content (such a folder was refused as "the folder is empty", and a PDF
    repeating its one page beside a note was dropped, the note saying its text repeated
    "in other documents"). A page of one part is "indexed as it is" (Valgrind's contents pages
    read "from its first page or part", trial 107, R6). An HTML page whose paragraphs are all
    in pages that keep text is their navigation, and skipped (:func:`_navigation_only`)."""
    left = {file_of(doc.doc_id, rels) for doc in kept}
    first: dict[str, RawDoc] = {}
    parts: Counter[str] = Counter()
    for doc in read:
        first.setdefault(file_of(doc.doc_id, rels), doc)
        parts[file_of(doc.doc_id, rels)] += 1
    back = [doc for rel, doc in first.items() if rel not in left]
    nav = _navigation_only(back, read, left, rels)
    for rel in (file_of(doc.doc_id, rels) for doc in back):
        notes.append(f"{safe_name(rel)}: skipped, {NAVIGATION_ONLY}" if rel in nav else
                     f"{safe_name(rel)}: all its text repeats across the folder's documents: "
                     + ("indexed once, from its first page" if parts[rel] > 1
                        else "indexed as it is"))
    return kept + [doc for doc in back if file_of(doc.doc_id, rels) not in nav]


def _navigation_only(back: list[RawDoc], read: list[RawDoc], left: set[str],
                     rels: set[str]) -> set[str]:
    """The HTML files of ``back`` (nothing of them left) whose every paragraph but their
    headings is in a document of a file that keeps text (``left``): navigation around the text
    of other pages, not text of their own. A folder of pages alike (nothing left of any) keeps
    them all."""
    pages = [doc for doc in back if not doc.plain_text
             and file_kind(file_of(doc.doc_id, rels)) in HTML_EXTENSIONS]
    if not pages or not left:
        return set()
    carried = {p for doc in read if file_of(doc.doc_id, rels) in left
               for _h, text in _sections(doc) for code, p in _paragraphs(text)
               if not code and len(p) <= MAX_BOILERPLATE_CHARS}
    return {file_of(doc.doc_id, rels) for doc in pages
            if all(p in carried or p == heading for heading, text in _sections(doc)
                   for _code, p in _paragraphs(text) if p)}
