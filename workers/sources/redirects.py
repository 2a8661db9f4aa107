"""An HTML page that only sends its reader elsewhere: a redirect stub, not a page to index.

GNU Texinfo writes one small page for each node or anchor a manual renamed or merged ("The node
you are looking for is at Scanning Strings."), with a ``<meta http-equiv="Refresh" content="0;
url=Multiple-Input-Buffers.html#Scanning-Strings">`` in its head: 49 of flex's 222 pages, each
indexed as a passage of that one sentence (trial 101, F8). Sphinx's ``sphinx-reredirects``,
MkDocs' redirects plugin and Jekyll's ``jekyll-redirect-from`` write the same kind of page. The
page it sends to holds the text and is indexed under its own name. A page that sends its reader
out of the folder (a web page, a download) is a stub only when its text says nothing but that
(:func:`only_notice`): a download page's checksum and release key were skipped with it (trial
113, F3). Standard library only.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DELAY_SECONDS", "MAX_STUB_CHARS", "folder_page", "only_notice", "redirect_of"]

MAX_STUB_CHARS = 400
"""A page that refreshes to another holds at most this much visible text to be a stub (a
sentence or two: "This page has moved to ..."); a longer one is a page that also refreshes."""

_HEAD_CHARS = 32_768
"""The refresh is looked for in the page's first this many characters (its head: Texinfo's
licence comment comes before it, about 2.5 KB)."""

MAX_DELAY_SECONDS = 3
"""A refresh this soon sends the reader on at once; a later one reloads a page that is read
meanwhile (a status page's ``content="300; url=status.html"``: trial 103, F1)."""

_META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_HIDDEN = re.compile(r"<!--.*?(?:-->|$)|<(script|noscript|template)\b.*?(?:</\1\s*>|$)",
                     re.IGNORECASE | re.DOTALL)
"""What holds a tag that is no tag of the page: a comment, a script's string, ``<noscript>``."""
_HEAD_END = re.compile(r"</head\b|<body\b", re.IGNORECASE)
_REFRESH = re.compile(r"""http-equiv\s*=\s*["']?refresh\b""", re.IGNORECASE)
_CONTENT = re.compile(r"""\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_TARGET = re.compile(r"""\s*(\d+(?:\.\d*)?)\s*[;,]?\s*url\s*=\s*["']?([^"'\s]+)""",
                     re.IGNORECASE)


_SCHEME = re.compile(r"(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
_PAGE_SUFFIXES = (".html", ".htm", ".xhtml")
_NOTICE = re.compile(r"\b(?:moved|redirect\w*|relocated|forwarded|you are looking for|new (?:home|"
                     r"location|address)|now (?:lives |found |hosted )?at|click here|update your "
                     r"bookmarks?)\b", re.IGNORECASE)
"""What a sentence of a stub says: that the page moved, where it is now, to follow a link."""
_SENTENCE_END = re.compile(r"(?<=[.!?\u2026])\s+|\n+")


def folder_page(target: str) -> bool:
    """Whether a redirect's ``target`` is a page of the folder: a link without a scheme or host
    to an HTML page or a folder's index, not a web page, a download or an image.

    Example:
        >>> [folder_page(t) for t in ("Buffers.html#Strings", "../guide/", "/new-url/",
        ...  "https://example.org/a.html", "//cdn.example.org/", "quillsync-2.0.tar.gz")]
        [True, True, True, False, False, False]
    """
    if _SCHEME.match(target):
        return False
    last = re.split(r"[?#]", target, maxsplit=1)[0].rsplit("/", 1)[-1].lower()
    return last.endswith(_PAGE_SUFFIXES) or "." not in last


def only_notice(shown: str) -> bool:
    """Whether a page's text ``shown`` says nothing but that the page moved or sends its reader
    on: each of its sentences says so ("This page has moved to ...", "Redirecting...", "Click
    here if you are not redirected."), or it has none.

    Example:
        >>> only_notice("Redirecting\u2026 Click here if you are not redirected."), only_notice(
        ...     "Your download starts in 3 seconds. Its SHA-256 checksum is 9f2c4e1a7b.")
        (True, False)
    """
    return all(_NOTICE.search(part) for part in _SENTENCE_END.split(shown) if part.strip())


def redirect_of(source: str, shown: str, name: str = "") -> str | None:
    """Where the HTML page ``source`` (its file named ``name``) sends its reader at once, when
    it is a redirect stub: a ``<meta http-equiv="refresh">`` of its head, at most
    :data:`MAX_DELAY_SECONDS` away, naming another page of the folder (:func:`folder_page`) or
    sending out of it with a text that says only that (:func:`only_notice`), and at most
    :data:`MAX_STUB_CHARS` of visible text ``shown`` (the page's text as indexed). ``None`` for
    any other page: one that reloads itself, whose refresh is in a comment, a script or the body
    (a page with no ``</head>`` or ``<body>`` is read as having no head), or a download page that
    says what it sends (trial 113, F3). Never raises.

    Example:
        >>> page = '<head><meta http-equiv="Refresh" content="0; url=Buffers.html#Strings">'
        >>> redirect_of(page + "</head>", "The node you are looking for is at Scanning Strings.")
        'Buffers.html#Strings'
        >>> redirect_of(page + "</head>", "x " * 300), redirect_of(page, "Moved.")
        (None, None)
        >>> redirect_of('<head><meta http-equiv="refresh" content="300; url=status.html"></head>',
        ...             "The nightly build runs at 02:00.", "status.html")
    """
    if len(shown.strip()) > MAX_STUB_CHARS:
        return None
    head = _HIDDEN.sub(" ", source[:_HEAD_CHARS])
    if (end := _HEAD_END.search(head)) is None:
        return None
    for tag in _META.findall(head[:end.start()]):
        if _REFRESH.search(tag) and (content := _CONTENT.search(tag)):
            value = next(group for group in content.groups() if group is not None)
            target = _TARGET.match(value)
            if (target and float(target[1]) <= MAX_DELAY_SECONDS
                    and target[2].split("#", 1)[0] not in ("", name)
                    and (folder_page(target[2]) or only_notice(shown))):
                return target[2]
    return None
