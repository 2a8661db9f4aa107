"""An HTML page's furniture: the elements left out of its text before it is read (icons, menus,
permalinks, tables of contents, navigation bars, footnote marks), found by XPath 1.0 on the
parsed page (issue 19: page navigation was a fifth of the passages a report cited).

The tests are asked in a few paths of their own, each walking the page once, and their elements
are put together in Python (:func:`page_furniture`). Two shapes are avoided, both measured on
libxml2: asking every element a long list of questions (``//*[self::h1 or self::h2 ... or
@role = ...]``: 1.4 of the 2.7 s that parsed sqlite3-doc's 21.6 MB) and a union or a step to a
parent whose results are many (libxml2 merges node sets with an O(n·m) duplicate check: two sets
of 20,000 elements took 0.9 s, 40,000 took 3.6 s). A path starts from what few elements have
(an attribute: ``@class[...]``; an in-page link) and returns elements whose parent is the
furniture when that is the cheaper question; :func:`page_furniture` takes the parents.

A test that needs a word in the markup (``role``, ``aria-hidden``, ``<li``, ``sidebar``...) is
asked only of a page whose bytes hold it (:mod:`workers.sources.htmlsource`).

This module imports the standard library, lxml, :mod:`workers.sources.htmlnav` and
:mod:`workers.sources.htmlsource`.
"""

from __future__ import annotations

import string
import threading
from typing import Any

from lxml import etree

from workers.sources.htmlnav import (
    BAR_LINK_SHARE,
    BARS,
    FOOTNOTE_HOLDER,
    FOOTNOTE_LINK,
    FURNITURE_CLASS,
    FURNITURE_ROLE,
    IN_PAGE_LINK,
    TEXINFO_FURNITURE,
    TEXINFO_PAGE,
    class_token,
)
from workers.sources.htmlsource import in_page_links, may_hold

__all__ = ["drop_all", "page_furniture", "tab_labels"]

_NAV_CLASSES = ("nav", "navigation", "navheader", "navfooter", "navbar", "navpath", "topnav",
                "subnav", "bottomnav", "breadcrumb", "breadcrumbs", "nav-panel")
"""Class names of navigation bars written as ``<div>``: LaTeX2HTML's ``navigation`` panel
("Next: Macros Up: Set-show Previous: Locale Index" was a report's top passage), DocBook's
``navheader``/``navfooter`` and its ``<table class="nav">`` (Valgrind's manual: "Valgrind
Technical Documentation << Valgrind Frequently Asked Questions >>" was an Answer, trial 61,
F2; also Bootstrap's ``nav`` menus), Doxygen's and old Javadoc's, Texinfo 7's ``nav-panel`` (its
links' ``rel`` finds it too: :mod:`workers.sources.htmlnav`). An element with
``role="navigation"`` (Sphinx's bars) is left out too, as ``<nav>`` is; never the page's
``<body>``, ``<main>`` or ``<article>``, nor an element holding a heading (a bar has none; a
``<body class="navigation">`` left the page with no text)."""

_CONSENT = ("contains(translate(., 'COKIENST', 'cokienst'), 'cookie') or "
            "contains(translate(., 'COKIENST', 'cokienst'), 'consent')")
"""Of a ``class`` attribute, that its element is a site's cookie or consent banner
("cookie-banner", "cc-consent"): the same prose on every page, kept once as a page's text
and cited as what a question found (trial 120, F1); never the page's ``<body>`` or
``<main>`` (``<body class="has-cookie-banner">``)."""

_NOT_PAGE = ("not(self::html or self::body or self::main or self::article) and "
             "not(.//h1 or .//h2 or .//h3 or .//h4)")
_LOWER = f"translate(normalize-space(.), '{string.ascii_uppercase}', '{string.ascii_lowercase}')"
_NAV_CLASS = ("(contains(., 'av') or contains(., 'AV') or contains(., 'rumb')) and ("
              + " or ".join(f"contains(concat(' ', {_LOWER}, ' '), ' {c} ')" for c in _NAV_CLASSES)
              + f") and ../self::*[{_NOT_PAGE}]")
"""Of a ``class`` attribute, that its element is a navigation bar (a class token of
:data:`_NAV_CLASSES`, any case). A class without "nav" or "crumb" fails at the first test."""

_HIDDEN_CLASS = class_token("dropdown-menu", "headerlink", "indextable", "toc", "viewcode-link",
                            of=".", as_written=True)
"""Of a ``class`` attribute (its tokens as written), that its element is a Bootstrap
``dropdown-menu`` (a menu: HAProxy's manual has one inside every keyword it mentions, "This
keyword is available in sections : ...", which cut ``"maxconn"`` off its own sentence in 305 of
2,236 passages), a heading's permalink (Sphinx's ``headerlink``), Sphinx's link to an entry's
source code (``viewcode-link``: "class LiveServerTestCase[source]" labelled a passage, trial 62,
F7), a table of contents (DocBook's ``class="toc"``) or Sphinx's general and module indexes
(``<table class="indextable genindextable">``: Flask's 42 passages of "url_value_preprocessor()
(flask.Blueprint method)", trial 68)."""

_TITLED = (".//h1[normalize-space() != normalize-space(a[@href])] or "
           ".//h2[normalize-space() != normalize-space(a[@href])]")
"""Of a block, that it holds a page's title: an ``h1`` or ``h2`` that is more than a link (an
anchor, ``<a name="top">``, is no link: trial 100, F8, a page's title was dropped with it). A
heading that is only a link home is the project's logo (Alabaster's sidebar opens with
``<h1 class="logo"><a href="index.html">cairocffi</a></h1>``: it kept the whole sidebar,
"Navigation: cairo versions Basic usage" was quoted in two reports, trial 96, F8)."""
_HOME = ("@href != '' and translate(@href, './', '') = '' or contains(@href, 'index.html') and "
         "substring-after(@href, 'index.html') = '' and "
         "translate(substring-before(@href, 'index.html'), './', '') = ''")
_LOGO = ("/descendant::a[@href][../self::h1 or ../self::h2][normalize-space(.) = "
         f"normalize-space(..)][{_HOME}][/descendant::*[self::h1 or self::h2]"
         "[normalize-space() != normalize-space(a[@href])]]")
"""A link whose parent, an ``h1`` or ``h2``, is that link alone up to the site's home (its
``href`` dots and slashes alone, ``../``, or those and ``index.html``), on a page whose title
is another ``h1`` or ``h2``: the site's logo, not a heading. SQLAlchemy's banner, ``<h1><a
href="../index.html">SQLAlchemy 1.4 Documentation</a></h1>`` before each page's own ``<h1>``,
was passage #0 of 138 pages, the heading alone (trial 123, F11). A page whose one title is a
link home keeps it, and a heading linking down (a blog's ``<h2><a href="posts/x/index.html">``,
a list of its posts) is a title."""
_LANDMARK = f"not(self::html or self::body or self::main or self::article) and not({_TITLED})"
"""Of an element ``role="navigation"`` (declared a navigation landmark), that it is no page:
it may hold its own headings below ``h2`` (Sphinx's sidebar, "Table of Contents", "Previous
topic", "Next topic", "Quick search": 3,590 of Django's 17,747 passages, trial 62, F2) and a
logo (:data:`_TITLED`)."""

_TOPIC_CONTENTS = (f"({class_token('topic', of='.')}) and "
                   f"({class_token('contents', of='.')})")
"""Of a ``class`` attribute, that its element is docutils' table of contents, its title with
it (``<div class="contents local topic">``: "Contents" alone was left of it, trial 63)."""

_MATH_PLACEHOLDER = ("(. = 'MATH' and contains(.., '#') and "
                     "translate(normalize-space(..), '0123456789#', '') = '')")
"""Of a ``class`` attribute, that its element is a formula latex2html left unrendered, its
placeholder in its place (gnuplot's ``where <SPAN CLASS="MATH">4#4</SPAN>axes<SPAN
CLASS="MATH">5#5</SPAN> may be``, for "<axes>": "4#4axes5#5" was an Answer's, trial 65, F6)."""

_NO_CATEGORY = "((. = 'category' or . = 'category-def') and normalize-space(..) = ':')"
"""Of a ``class`` attribute, that its element is the empty category of a Texinfo definition
(``<span class="category">: </span>`` before ``fzero (fun, x0)``: ": fzero (fun, x0)" labelled
Octave's entries, and ": inputParser.Parameters: Return ..." was an Answer's, trial 68, F2)."""

_BY_ATTRIBUTE = (
    f"/descendant::*/@class[string-length() > 2 and ({FURNITURE_CLASS} or {_HIDDEN_CLASS} or "
    f"({_NAV_CLASS}) or ({_TOPIC_CONTENTS}) or {_MATH_PLACEHOLDER} or {_NO_CATEGORY})]",
    f"/descendant::*/@role[{FURNITURE_ROLE} or (. = 'navigation' and ../self::*[{_LANDMARK}])]",
    "/descendant::*/@id[. = 'toc' or . = 'TOC']",
    f"/descendant::*/@class[string-length() > 5 and ({_CONSENT}) and ../self::*[{_NOT_PAGE}]]",
    "/descendant::*/@aria-hidden[. = 'true']")
"""The attributes whose elements are furniture: those above, an element ``aria-hidden`` (an
icon), a table of contents by its id (``id="toc"``) and a cookie banner (:data:`_CONSENT`).
Not ``hidden`` or ``display:none``: a
page shows such text when its reader asks (SQLite's syntax diagrams, an FAQ's folded
answers). A path of its own for each attribute, walking the attributes, not asking each
element for four (sqlite3-doc: 0.14 s against 0.24); a class of one or two characters
(Pygments' ``n``, ``s2``: two in three of Django's 541,533 classes) is no token here."""

_LINKS = (f"{IN_PAGE_LINK}[({FOOTNOTE_LINK}) or ({FOOTNOTE_HOLDER}) or "
          "(string-length(normalize-space(.)) = 1 and contains('#¶§', normalize-space(.)))]")
"""In-page links that are furniture, or whose parent is (:data:`_HOLDER` tells which): a
footnote's mark, and a heading's permalink mark (a link to its own anchor reading "#", "¶" or
"§": Node.js's ``mark`` ended every heading "Callback API#")."""
_HOLDER = f"boolean({FOOTNOTE_HOLDER})"
"""Of a link :data:`_LINKS` found, that its parent is the furniture (asked of those links
alone: the page's links are walked once)."""

_CONTENTS_LIST = ("not(ancestor::li) and count(li) > 1 and not(li[not(a[starts-with(@href, "
                  "'#')] or p/a[starts-with(@href, '#')])]) and "
                  "not(li[text()[normalize-space(.) != '']] or li/p[text()[normalize-space(.) "
                  "!= '']]) and not(li/*[not(self::a or self::ul or self::ol or "
                  "self::p[not(*[not(self::a)])])])")
_CONTENTS = f"//li[1][../self::ul[{_CONTENTS_LIST}] or ../self::ol[{_CONTENTS_LIST}]]"
"""The first item of each list that is a page's table of contents (the list is its parent):
every item a link into the page and nothing else (docutils 0.17 and later wrap it in a ``<p>``:
CMake's "Contents Overview Commands Variables ..." opened its module pages, trial 63), a
sub-list aside, two items or more. A glossary's items link their term, then say what it is:
Node.js's 456 contents passages were quoted as answers, "Cloning an IntervalHistogram:
Measuring the duration of async operations". "Two items or more" is ``count(li) > 1``: written
``li[2]``, libxslt matched it per element at the cost of its siblings when it was a
stylesheet's template (SQLite's requirements.html)."""

_NAV_ID = ("/descendant::*/@id[string-length() > 6 and ("
           "contains(translate(., 'SIDEBRNVGATO', 'sidebrnvgato'), 'sidebar') "
           "or contains(translate(., 'SIDEBRNVGATO', 'sidebrnvgato'), 'navigation'))]"
           " | /descendant::*/@class[string-length() > 6 and "
           "contains(translate(., 'SIDEBR', 'sidebr'), 'sidebar')]")
"""The ids that may name a navigation block of a page's theme (Mako's ``docs-sidebar``,
``docs-narrow-top-navigation``: "Previous: Inheritance", "Next: The Unicode Chapter" and the
manual's chapter list were a passage, its Top passage, trial 92, F3), and the classes that may
name its sidebar (``sidebar``, ``sphinxsidebar``, ``md-sidebar``) when it links into the page
itself (``href="#..."``: a sidebar expanded under the current page interleaves that page's
sections with the other pages' titles, so no run of it repeats across the folder, and
"Scheduling Configuration Hooks Install Server" was quoted as a Top passage, trial 120, F2):
furniture when its links are most of its text (:func:`_bar`) and it holds no page's title
(:data:`_TITLED`: a header block holding the title stays). A docutils ``sidebar`` directive
is prose, no bar, and a box of links to other pages beside the text (SQLite's "Executive
Summary", ``class="rightsidebar"``: "Max DB size: 281 terabytes") no expanded menu: they
stay."""

_LINK_BOX = ("//table[tr/th or thead/tr/th][count(.//tr[td]) <= 2][.//td]"
             "[not(.//td[not(ul or ol)])][not(.//li[not(.//a)])]")
"""A small table of lists of links under headings: Apache's "Related Modules / Related
Directives" box, beside each section ("core — Related Directives: DocumentRoot ServerAlias
ServerName <VirtualHost>" opened a page's passage and was a Finding, trial 110, F8); furniture
when its cells are links (:func:`_bar`) to other pages under "Related ..." (:func:`_related`)."""

_LOCAL = threading.local()


def _paths() -> tuple[list[etree.XPath], etree.XPath, etree.XPath, etree.XPath, etree.XPath,
                      etree.XPath, etree.XPath, etree.XPath, etree.XPath]:
    """This thread's compiled paths (an XPath evaluator serves one thread at a time): those
    whose results' parents are furniture, the links and their holder test, the texinfo
    furniture and test, the bars' links, the navigation ids, the title test and the boxes of
    links."""
    paths = getattr(_LOCAL, "paths", None)
    if paths is None:
        paths = _LOCAL.paths = (
            [etree.XPath(path) for path in (*_BY_ATTRIBUTE, _CONTENTS, _LOGO)],
            etree.XPath(_LINKS), etree.XPath(_HOLDER), etree.XPath(TEXINFO_FURNITURE),
            etree.XPath(TEXINFO_PAGE), etree.XPath(BARS), etree.XPath(_NAV_ID),
            etree.XPath(f"boolean({_TITLED})"), etree.XPath(_LINK_BOX))
    return paths


_OF_PARENTS_WORDS: tuple[tuple[bytes, ...], ...] = (
    (), (b"role",), (b"toc",), (b"cookie", b"consent"), (b"aria-hidden",), (b"<li",),
    (b"<h1", b"<h2"))
"""Per path of :data:`_BY_ATTRIBUTE`, :data:`_CONTENTS` and :data:`_LOGO`, the words one of
which a page's markup holds when the path finds anything (the contents list also needs an
in-page link). None for the classes: one of their two dozen names is on nearly every page
("nav", "toc", "label"), and searching the bytes for each cost what it spared."""


def page_furniture(root: Any, source: bytes | None = None) -> list[Any]:
    """The furniture elements of a parsed page (``root``: an lxml HTML element), each once, to
    be dropped before the page's text is read. Never raises for a page lxml parsed.
    ``source``: the page's bytes (:func:`~workers.sources.htmlsource.page_source`), which
    spare the tests that cannot find anything in them."""
    of_parents, links, holder, texinfo, is_texinfo, bars, nav_ids, titled, boxes = _paths()
    linked = in_page_links(source)
    asked = [may_hold(source, *words) for words in _OF_PARENTS_WORDS]
    asked[5] = asked[5] and linked  # _CONTENTS: items that link into the page
    found = [node.getparent() for path, ask in zip(of_parents, asked, strict=True) if ask
             for node in path(root)]
    if linked:
        found += [link.getparent() if holder(link) else link for link in links(root)]
    if is_texinfo(root):
        found += texinfo(root)
    found += filter(_bar, (link.getparent() for link in bars(root)))
    if may_hold(source, b"sidebar", b"navigation"):
        found += [block for block, named in ((a.getparent(), a.attrname) for a in nav_ids(root))
                  if _bar(block) and block.tag not in ("html", "body", "main", "article")
                  and not titled(block) and (named == "id" or _links_in_page(block))]
    if may_hold(source, b"<th"):
        found += [box for box in boxes(root)
                  if all(_bar(cell) for cell in box.iter("td")) and _related(box)]
    return list(dict.fromkeys(found))  # one element found twice is dropped once


def _related(box: Any) -> bool:
    """Whether a table of links (:data:`_LINK_BOX`) is a box of links to other pages: each of
    its header cells says "Related ..." or "See also" (Apache's "Related Modules"), and each of
    its links leads to a page (:func:`_to_page`), none to a file. A table whose header names
    things and whose links are files is the page's content: a download page's "Linux | macOS |
    Windows" table of packages was dropped, and "Which package do I download for Windows on
    ARM?" was told the sources say nothing (trial 116, F4).

    Example:
        >>> from lxml import html
        >>> box = '<table><tr><th>{}</th></tr><tr><td><ul><li><a href="{}">x</a></li></ul></td>'
        >>> [_related(html.fromstring(box.format(h, a) + "</tr></table>")) for h, a in (
        ...     ("Related Directives", "core.html#dr"), ("Windows", "q-2.0-arm64.msi"),
        ...     ("Related Modules", "q-2.0-arm64.msi"), ("Windows", "win.html"))]
        [True, False, False, False]
    """
    heads = [" ".join("".join(th.itertext()).split()).lower() for th in box.iter("th")]
    return (bool(heads) and all(h.startswith(_RELATED_HEADS) for h in heads)
            and all(_to_page(a.get("href") or "") for a in box.iter("a")))


_RELATED_HEADS = ("related", "see also")
_PAGE_SUFFIXES = frozenset({"", "htm", "html", "xhtml", "shtml", "php", "asp", "aspx", "jsp"})


def _to_page(href: str) -> bool:
    """Whether a link leads to a page (``core.html#dr``, ``#top``, ``/docs/``, ``?page=2``), not
    to a file to download (``quillsync-2.0-arm64.msi``, ``q.tar.gz``).

    Example:
        >>> [_to_page(h) for h in ("core.html#dr", "#top", "/docs/", "a.deb", "q.tar.gz?x=1")]
        [True, True, True, False, False]
    """
    path = href.split("#", 1)[0].split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return path.rsplit(".", 1)[-1].lower() in _PAGE_SUFFIXES if "." in path else True


def _links_in_page(element: Any) -> bool:
    """Whether ``element`` links into its own page (an ``href`` starting ``#``): a sidebar
    expanded under the current page lists its sections so."""
    return any((a.get("href") or "").startswith("#") for a in element.iter("a"))


def _bar(element: Any) -> bool:
    """Whether a block :data:`~workers.sources.htmlnav.BARS` found is a bar: its links are
    at least :data:`~workers.sources.htmlnav.BAR_LINK_SHARE` of its visible characters."""
    def chars(text: str) -> int:
        return len("".join(text.split()))

    total = chars("".join(element.itertext()))
    links = sum(chars("".join(a.itertext())) for a in element.iter("a"))
    return total > 0 and links >= BAR_LINK_SHARE * total


def drop_all(elements: list[Any]) -> None:
    """Remove ``elements`` (of one parsed page) from their tree with their children, each one's
    tail text kept where it was, as lxml's ``drop_tree`` does one at a time: the tails are
    joined to the previous kept node (or the parent's text) once per parent. One at a time,
    30,000 footnote marks in one paragraph took 25 s (each drop appended the paragraph's text
    so far to a longer copy of it, O(n²); trial 61, F1)."""
    by_parent: dict[Any, set[Any]] = {}
    for element in elements:
        parent = element.getparent()
        if parent is not None:
            by_parent.setdefault(parent, set()).add(element)
    for parent, dropped in by_parent.items():
        kept: Any = None  # the last node kept before the ones dropped (None: the parent)
        tails: list[str] = []
        for child in list(parent):
            if child not in dropped:
                _attach(parent, kept, tails)
                kept, tails = child, []
                continue
            if child.tail:
                tails.append(child.tail)
            parent.remove(child)
        _attach(parent, kept, tails)


def _attach(parent: Any, kept: Any, tails: list[str]) -> None:
    """Join ``tails`` to ``kept``'s tail, or to ``parent``'s text when no node is kept."""
    if not tails:
        return
    if kept is None:
        parent.text = "".join([parent.text or "", *tails])
    else:
        kept.tail = "".join([kept.tail or "", *tails])


_TAB_LABEL_CLASSES = ("sd-tab-label", "tab-label")
"""Class names of a tab's label written just before its panel (sphinx-design's ``<label
class="sd-tab-label">Bash</label><div class="sd-tab-content">``)."""


def tab_labels(root: Any, source: bytes | None = None) -> None:
    """Each tab's label (``role="tab"``) as the first paragraph of the panel it shows (the
    element ``aria-labelledby`` it), in place, and the row of tabs left out; a label with no
    panel, or one written before its panel (:data:`_TAB_LABEL_CLASSES`), is a paragraph of its
    own. sphinx-tabs writes its buttons in one row above the panels, inline: Click's
    shell-completion page read "BashZshFish Add this to ~/.bashrc:" (trial 114, F12a).

    Example:
        >>> from lxml import html
        >>> page = html.fromstring('<div><div role="tablist"><button role="tab" id="t0">Bash'
        ...     '</button><button role="tab" id="t1">Zsh</button></div><div role="tabpanel" '
        ...     'aria-labelledby="t0"><p>Add this to ~/.bashrc:</p></div></div>')
        >>> tab_labels(page)
        >>> [" ".join(p.text_content().split()) for p in page.iter("p")]
        ['Zsh', 'Bash', 'Add this to ~/.bashrc:']
    """
    if may_hold(source, b"tab-label"):  # (``source``: as page_furniture's)
        for label in root.xpath(f"//label[{class_token(*_TAB_LABEL_CLASSES, as_written=True)}]"):
            label.tag = "p"
    rows = root.xpath("//*[@role='tablist']") if may_hold(source, b"tablist") else []
    if not rows:
        return
    panels = {panel.get("aria-labelledby"): panel
              for panel in root.xpath("//*[@role='tabpanel'][@aria-labelledby]")}
    for row in rows:
        for tab in row.xpath(".//*[@role='tab']"):
            panel = panels.get(tab.get("id"))
            words = " ".join("".join(tab.itertext()).split())
            if panel is None or not words:
                tab.tag = "p"  # a paragraph of its own: a word apart from its neighbours
                continue
            first = panel.makeelement("p", {})
            first.text = words
            panel.insert(0, first)
            first.tail, panel.text = panel.text, None
            tab.drop_tree()
