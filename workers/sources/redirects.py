"""An HTML page that only sends its reader elsewhere: a redirect stub, not a page to index.

GNU Texinfo writes one small page for each node or anchor a manual renamed or merged ("The node
you are looking for is at Scanning Strings."), with a ``<meta http-equiv="Refresh" content="0;
url=Multiple-Input-Buffers.html#Scanning-Strings">`` in its head: 49 of flex's 222 pages, each
indexed as a passage of that one sentence (trial 101, F8). Sphinx's ``sphinx-reredirects``,
MkDocs' redirects plugin and Jekyll's ``jekyll-redirect-from`` write the same kind of page. The
page it sends to holds the text and is indexed under its own name. Standard library only.
"""

from __future__ import annotations

import re

__all__ = ["MAX_STUB_CHARS", "redirect_of"]

MAX_STUB_CHARS = 400
"""A page that refreshes to another holds at most this much visible text to be a stub (a
sentence or two: "This page has moved to ..."); a longer one is a page that also refreshes."""

_HEAD_CHARS = 32_768
"""The refresh is looked for in the page's first this many characters (its head: Texinfo's
licence comment comes before it, about 2.5 KB)."""

_META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_REFRESH = re.compile(r"""http-equiv\s*=\s*["']?refresh\b""", re.IGNORECASE)
_CONTENT = re.compile(r"""\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_TARGET = re.compile(r"""\s*\d+(?:\.\d*)?\s*[;,]?\s*url\s*=\s*["']?([^"'\s]+)""", re.IGNORECASE)


def redirect_of(source: str, shown: str) -> str | None:
    """Where the HTML page ``source`` sends its reader at once, when it is a redirect stub: a
    ``<meta http-equiv="refresh">`` naming a URL in its head, and at most
    :data:`MAX_STUB_CHARS` of visible text ``shown`` (the page's text as indexed). ``None`` for
    any other page. Never raises.

    Example:
        >>> page = '<head><meta http-equiv="Refresh" content="0; url=Buffers.html#Strings">'
        >>> redirect_of(page, "The node you are looking for is at Scanning Strings.")
        'Buffers.html#Strings'
        >>> redirect_of(page, "x " * 300) is None
        True
    """
    if len(shown.strip()) > MAX_STUB_CHARS:
        return None
    head = source[:_HEAD_CHARS]
    end = head.lower().find("</head")
    for tag in _META.findall(head if end < 0 else head[:end]):
        if _REFRESH.search(tag) and (content := _CONTENT.search(tag)):
            value = next(group for group in content.groups() if group is not None)
            if target := _TARGET.match(value):
                return target[1]
    return None
