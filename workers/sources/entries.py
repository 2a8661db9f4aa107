"""Reference entries labelled by their keyword: a heading written as the keyword and its
arguments (``inter <delay>``), as HAProxy's manual and many configuration references write
them. The index reads such entries as headings (:mod:`workers.sources.htmlpage`), the ranking
counts one the question names as a symbol named (:mod:`workers.sources.ranking`), and the
report keeps a neighbouring entry's sentences out (``app.research.neighbours``).

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["ENTRY_KEYWORD", "SIGNATURE", "entry_keywords", "names_keyword"]

ENTRY_KEYWORD = re.compile(r"([A-Za-z][\w.:-]*(?: [A-Za-z][\w.:-]*){0,3})\s+[<\[{]")
"""A reference entry's heading written as its keyword (up to four words) and arguments
(``inter <delay>``, ``option redispatch <interval>``, ``balance <algorithm> [ <arguments> ]``),
matched at its start; group 1 is the keyword. Several entries sharing one text are joined by
" / " (:mod:`workers.sources.htmlpage`)."""


SIGNATURE = re.compile(r"(?:[A-Z][a-z]+(?: [a-z]+)?:\s+)?(?:new\s+)?"
                       r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(")
"""A reference entry's heading written as a call's signature, with its kind before it or not
(Node.js's ``util.promisify(original)``, ``Static method: Buffer.alloc(size[, fill])``,
``new stream.Writable([options])``); group 1 is the function's name."""


def entry_keywords(heading: str) -> set[str]:
    """The keywords of the entries ``heading`` labels (:data:`ENTRY_KEYWORD`, or a call's
    :data:`SIGNATURE`; several joined by " / "), lower-cased. A plain word is no keyword:
    "Samples" is not, ``samples <n>`` is.

    Example:
        >>> sorted(entry_keywords("inter <delay> / fastinter <delay>")), entry_keywords("Usage")
        (['fastinter', 'inter'], set())
        >>> entry_keywords("option redispatch <interval> / no option redispatch")
        {'option redispatch'}
        >>> entry_keywords("Static method: Buffer.alloc(size[, fill])")
        {'buffer.alloc'}
    """
    return {m[1].lower() for part in heading.split(" / ")
            if (m := ENTRY_KEYWORD.match(part.strip()) or SIGNATURE.match(part.strip()))
            is not None}


def names_keyword(text: str, keywords: Iterable[str]) -> set[str]:
    """The ``keywords`` (lower-case, one or more words) ``text`` writes as whole words.

    Example:
        >>> sorted(names_keyword("What is option redispatch?", {"option redispatch", "inter"}))
        ['option redispatch']
    """
    low = " ".join(text.lower().split())
    return {k for k in keywords if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", low)}
