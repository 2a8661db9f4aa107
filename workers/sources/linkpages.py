"""Pages made of links to the folder's other pages (a table of contents, an index, a list of
headings that are links): found as the share of a page's text that is the text of its links to
other pages, and passed over (trial 115, F4).

Zsh's ``FAQ.html`` is the FAQ's table of contents: indexed as 69 passages that were its
headings ("1.7: I don't have root access: how do I make zsh my login shell?"), it was cited as
the Answer to that very question, above the page that answers it; gnuplot's latex2html
``node1.html`` (its contents) and ``node649.html`` (its Index: "angles , animate ... ARGV , ,")
were indexed too. Such a page names every topic and answers none: its links lead to the pages
that do. Standard library and lxml (the page's tree).

Only the links to pages the folder has count (:func:`in_folder`): a release's notes whose items
are links ("The bandwidth limit can now be changed while a sync is running", to ``sync.html``,
``config.html``, ``net.html`` ... of which one was in the folder) were skipped as "a page of
links to the folder's other pages ...: those pages are indexed", and the changes were in no
passage (trial 119, F2). Its items are its own text when their pages are not there to read.

A landing page that offers the folder's document in several formats and says little else is
passed over too (:func:`landing_page`): the Debian Reference's ``index.html`` links to its HTML
chapters, its text and its PDF ("HTML (multi files), UTF-8 plain text (gzipped), PDF") above
four sentences on the files' encoding and how to read them, and was indexed and could be cited
(trial 124, FA3). A page of prose with a link to its PDF, and an index page of many links to
pages of one kind, are not such a page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from urllib.parse import unquote

from lxml import etree

from workers.sources.filekinds import HTML_EXTENSIONS, MARKDOWN_EXTENSIONS, file_kind
from workers.sources.htmlnav import link_share

__all__ = ["LINK_PAGE", "LINK_PAGE_SHARE", "MAX_LANDING_WORDS", "MIN_PAGE_LINKS",
           "MIN_PROSE_WORDS", "in_folder", "landing_page", "may_list_pages", "of_pages",
           "page_link_texts", "page_sections", "without_page_refs"]

LINK_PAGE_SHARE = 0.7
"""A page whose visible text (spaces aside) is at least this share the text of its links to
other pages is a page of links. Zsh's FAQ contents, with its title, author, date and a
paragraph of introduction, is 0.78; gnuplot's "Set-show" (246 links under its prose) 0.83."""

MIN_PAGE_LINKS = 8
"""... and it has at least this many such links: a short page with a link or two ("Moved: see
guide.html") is a page, whatever its share."""

MIN_PROSE_WORDS = 8
"""A page of links keeps its paragraphs that are not links (gnuplot's "Set-show" opens with
what ``set`` does) when one of them has this many words at least; with none (a list's labels,
"Subsections", a date), the page is passed over."""

MAX_LANDING_WORDS = 80
"""A page offering the folder's document in several formats (:func:`landing_page`) is passed
over when its words but its links' are at most this many: the Debian Reference's landing page
has 62 (its title, a label, four sentences on reading the files); a page that says what the
document is about in a paragraph or more has more, and is kept."""

LINK_PAGE = ("a page of links to the folder's other pages (a table of contents or an index): "
             "those pages are indexed")
"""The note on a page passed over as a page of links (after its path and "skipped, ")."""

_TO_PAGES = etree.XPath(
    "//body//a[@href][not(starts-with(@href, '#'))][not(contains(@href, ':'))]"
    "[not(ancestor::nav or ancestor::noscript or ancestor::template)]")
"""The links to another page by a relative address (not ``#here``, ``mailto:`` nor
``https:``), outside the elements whose text a page does not show as prose."""

_MARK_CHARS = frozenset(" \t\n,;:.|()[]*•·-")
"""What stands between a list's links: blanks, separators, brackets, bullets."""


_PAGE_REF = re.compile(r" ?\(p\.\s*\)")
"""A printed manual's page reference left empty by its icon's removal (latex2html's
``(p.&nbsp;<a><img alt="[*]" src="crossref.png"></a>)``)."""


def without_page_refs(text: str) -> str:
    """``text`` without latex2html's empty page references ("see gprintf (p. [*])", its
    ``[*]`` an icon: trial 65, F7), a link to another page that is no text.

    Example:
        >>> without_page_refs("See gprintf (p. ) for the formats.")
        'See gprintf for the formats.'
    """
    return _PAGE_REF.sub("", text) if "(p." in text else text


def page_link_texts(root: etree._Element,
                    to_here: Callable[[str], bool] | None = None) -> list[str]:
    """The text of each link of ``root`` (a parsed page, its furniture removed) to another
    page by a relative address; with ``to_here``, of those whose address it takes for a file
    the folder has (:func:`in_folder`)."""
    return ["".join(a.itertext()) for a in _TO_PAGES(root)
            if to_here is None or to_here(a.get("href", ""))]


def in_folder(rel: str, rels: Collection[str]) -> Callable[[str], bool]:
    """Whether a link's address on page ``rel`` leads to one of the folder's files ``rels``
    (ref paths), its ``#part`` and ``?query`` aside; a ``.gz`` copy of that file counts, a
    folder's address its ``index.html`` (MkDocs' ``../sync/``), and an address from the site's
    root a file whose path it ends with (``/docs/sync.html``: the folder's place on the site is
    unknown; trial 120, F5).

    Example:
        >>> here = in_folder("doc/changes.html", {"doc/changes.html", "doc/sync.html", "a.html",
        ...                                       "doc/net/index.html"})
        >>> here("sync.html#bwlimit"), here("../a.html"), here("net.html"), here("#top")
        (True, True, False, False)
        >>> here("net/"), here("/site/doc/sync.html"), here("/site/doc/gone.html")
        (True, True, False)
    """
    base = posixpath.dirname(rel)
    known: dict[str, bool] = {}  # by address: an index page links to a page at many anchors

    def to_here(href: str) -> bool:
        address = href.split("#", 1)[0].split("?", 1)[0]
        if address not in known:
            known[address] = leads_here(unquote(address))
        return known[address]

    def leads_here(path: str) -> bool:
        if not path:  # this page itself
            return False
        if path.startswith("/"):  # from the site's root: any tail of it
            parts = path.strip("/").split("/")
            tails = ["/".join(parts[i:]) for i in range(len(parts))]
        else:
            tails = [posixpath.normpath(posixpath.join(base, path))]
        return any(t != rel and any(f in rels for f in (t, t + ".gz", f"{t}/index.html"))
                   for t in tails)

    return to_here


def page_sections(root: etree._Element, to_here: Callable[[str], bool] | None,
                  sections: tuple[tuple[str, str], ...], links: list[str], body: str,
                  share: float | None = None) -> tuple[tuple[tuple[str, str], ...], bool]:
    """``(sections, is_link_page)`` of a page (``root``, parsed; its ``sections``, its
    ``links``' texts, its text ``body``; ``share``: its :func:`link_share`, if known): a page
    of links keeps its prose alone (:func:`of_pages`), a landing page nothing
    (:func:`landing_page`), any other page its ``sections``."""
    if may_list_pages(links, body, share):
        return of_pages(sections, page_link_texts(root, to_here), body)
    return ((), True) if landing_page(root, to_here, links, body) else (sections, False)


def landing_page(root: etree._Element, to_here: Callable[[str], bool] | None,
                 links: list[str], body: str) -> bool:
    """Whether a page (``root``, parsed; ``links``: its link texts; ``body``: its text) is a
    landing page that offers the folder's files in several formats and says little else: fewer
    than :data:`MIN_PAGE_LINKS` links, two or more of them to the folder's files
    (``to_here``: :func:`in_folder`) of two kinds or more, one of them no page (a PDF, a
    text), and at most :data:`MAX_LANDING_WORDS` words but its links' (trial 124, FA3).

    Example:
        >>> page = etree.fromstring("<html><body><p>Read it as <a href='m/index.html'>HTML</a>"
        ...     " or <a href='m.pdf'>PDF</a>.</p></body></html>")
        >>> here = in_folder("index.html", {"m/index.html", "m.pdf"})
        >>> landing_page(page, here, ["HTML", "PDF"], "Read it as HTML or PDF.")
        True
        >>> landing_page(page, here, ["HTML", "PDF"], "Read it as HTML or PDF. " + "Prose. " * 81)
        False
    """
    if to_here is None or not 2 <= len(links) < MIN_PAGE_LINKS or (
            len(body.split()) - len(" ".join(links).split()) > MAX_LANDING_WORDS):
        return False
    kinds = {file_kind(posixpath.basename(unquote(href.split("#", 1)[0].split("?", 1)[0])))
             for a in _TO_PAGES(root) if to_here(href := a.get("href", ""))}
    return len(kinds) >= 2 and bool(kinds - {*HTML_EXTENSIONS, *MARKDOWN_EXTENSIONS, ".rst"})


def _links_only(links: list[str]) -> Callable[[str], bool]:
    """Whether a paragraph (its blanks collapsed) is made of the texts ``links`` and separators
    (:data:`_MARK_CHARS`) alone, read from its start: a separator where there is one, else the
    longest text that fits, never given back. Done by slices and set lookups, one per length
    of text: as one regular expression of an index page's thousands of texts, compiling it
    took most of a link page's reading (sqlite3-doc: 27 such pages, 2 s of a profiled build).

    Example:
        >>> only = _links_only(["Send", "Send API", "Command"])
        >>> only("Send API, Command (Send)"), only("Send APIs"), only("")
        (True, False, True)
    """
    texts = {" ".join(t.split()) for t in links if t.strip()}
    by_length = [(n, {t for t in texts if len(t) == n})
                 for n in sorted({len(t) for t in texts}, reverse=True)]

    def only(paragraph: str) -> bool:
        at, end = 0, len(paragraph)
        while at < end:
            if paragraph[at] in _MARK_CHARS:
                at += 1
                continue
            step = next((n for n, same in by_length if paragraph[at:at + n] in same), 0)
            if not step:
                return False
            at += step
        return True

    return only


def may_list_pages(links: list[str], body: str, share: float | None = None) -> bool:
    """Whether a page may be a page of links (:func:`of_pages`), by all its links (``links``,
    in-page ones too) and its text ``body``: its links to other pages are some of them, so no
    more and holding no more of its text. When all of them are too few or hold too little,
    :func:`of_pages` has nothing to do, and its links to pages need not be looked up
    (:func:`page_link_texts`: sqlite3-doc's 67,716 links, a tenth of its page reading).

    Example:
        >>> may_list_pages(["Intro"] * 8, "Intro" * 9), may_list_pages(["Intro"] * 7, "Intro" * 7)
        (True, False)
    """
    share = link_share(links, body) if share is None else share  # (the caller's, if known)
    return len(links) >= MIN_PAGE_LINKS and share >= LINK_PAGE_SHARE


def of_pages(sections: tuple[tuple[str, str], ...], links: list[str],
             body: str) -> tuple[tuple[tuple[str, str], ...], bool]:
    """``(sections, is_link_page)``: a page's ``sections`` as they are when it is no page of
    links (its ``links`` to other pages are under :data:`MIN_PAGE_LINKS`, or their text under
    :data:`LINK_PAGE_SHARE` of its text, ``body``); else without their paragraphs that are
    links alone (and separators), and none at all when no paragraph of prose is left
    (:data:`MIN_PROSE_WORDS`).

    Example:
        >>> toc = (("1.1: What is it?", "1.1: What is it?\\n\\n,"),)
        >>> of_pages(toc, ["1.1: What is it?"] * 8, "1.1: What is it?" * 8)
        ((), True)
        >>> of_pages(toc, ["1.1: What is it?"] * 8, "1.1: What is it?" * 20) == (toc, False)
        True
        >>> of_pages((("", "Set-show\\n\\nThe set command can be used to set lots of options."),
        ...           ("", "Angles")), ["Angles"] * 8, "Angles" * 10)
        ((('', 'Set-show\\n\\nThe set command can be used to set lots of options.'),), True)
    """
    if len(links) < MIN_PAGE_LINKS or link_share(links, body) < LINK_PAGE_SHARE:
        return sections, False
    linked, kept = _links_only(links), []
    for heading, text in sections:
        paragraphs = [p for p in text.split("\n\n") if not linked(" ".join(p.split()))]
        if [p for p in paragraphs if p.strip() != heading.strip()]:
            kept.append((heading, "\n\n".join(paragraphs)))
    if not any(len(p.split()) >= MIN_PROSE_WORDS for _h, t in kept for p in t.split("\n\n")):
        return (), True
    return tuple(kept), True
