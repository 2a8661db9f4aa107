"""The site's name a folder's page titles share, dropped from each title before indexing.

Site generators write the site's name after each page's own title: Sphinx's "API — Jinja
Documentation (3.1.x)", "Module Name — rsyslog 8.2302.0 documentation", MkDocs' "Setup - My
Project", Django's "QuerySet API reference | Django documentation | Django". A report labels a
passage by its page's title when it has no heading of its own, and the label read "API — Jinja
Documentation (3.1.x): Some decorators are available ..." (trials 81 and 85); the name says
nothing of the page, and every page says it.

A suffix after a separator (:data:`SEPARATORS`) is the site's name when at least
:data:`SITE_SHARE` of the folder's titled files, and :data:`MIN_FILES` of them, end with it;
the longest such suffix is dropped. A title that is nothing but the name (the site's index page)
keeps it. Files, not documents, are counted: a PDF's pages share its one title, which names
that PDF, not a site; and only files titled by their text: a script, a change log or an example
without a title is called by its file name (``astat.py``), no title a site gave it, and the
seventeen example scripts beside python-pexpect-doc's twelve Sphinx pages ("FAQ — Pexpect 4.8
documentation") kept the site's name on every page (trial 127, F2).

This module imports only the standard library and the sources' own helpers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import PurePosixPath

from workers.sources.base import RawDoc
from workers.sources.documents import file_of

__all__ = ["MIN_FILES", "SEPARATORS", "SITE_SHARE", "site_name", "without_site_name"]

SEPARATORS = re.compile(r"\s+(?:[—–|·»]|-|::)\s+")
"""What parts a page's own title from the site's name: a dash (em, en or hyphen between
spaces), a bar, a middle dot, a guillemet, a double colon."""

SITE_SHARE = 0.6
"""The share of the folder's titled files whose titles must end with a suffix for it to be the
site's name."""

MIN_FILES = 3
"""... and how many of them at least."""


def _suffixes(title: str) -> list[str]:
    """The suffixes of ``title`` after each separator, longest first."""
    return [title[m.end():] for m in SEPARATORS.finditer(title) if title[m.end():].strip()]


def _named_by_file(title: str, rel: str) -> bool:
    """Whether ``title`` is only the name of its file ``rel`` (with or without its type): the
    title a document without one of its own is given."""
    name = PurePosixPath(rel).name
    return title.strip() in {name, name.partition(".")[0]}


def site_name(titles: Iterable[str]) -> str:
    """The suffix most ``titles`` (one per file) share after a separator, or ``""``.

    Example:
        >>> site_name(["API — Jinja Docs", "Templates — Jinja Docs", "FAQ — Jinja Docs",
        ...            "Jinja Docs"])
        'Jinja Docs'
        >>> site_name(["Intro — Guide", "Setup - Tools", "FAQ"])
        ''
    """
    titles = [t for t in titles if t.strip()]
    counts = Counter(s for t in titles for s in dict.fromkeys(_suffixes(t)))
    needed = max(MIN_FILES, SITE_SHARE * len(titles))
    shared = [s for s, n in counts.items() if n >= needed]
    return max(shared, key=lambda s: (len(s), s)) if shared else ""


def without_site_name(docs: list[RawDoc], rels: set[str]) -> list[RawDoc]:
    """``docs`` with the site's name (:func:`site_name` of their files' titles; ``rels``: the
    folder's ref paths) dropped from the end of each title that has more before it.

    Example:
        >>> docs = [RawDoc(f"{n}.html", f"{n} — Frob 2.1 documentation", n, "x")
        ...         for n in ("API", "FAQ", "Tricks")]
        >>> [d.title for d in without_site_name(docs, {d.doc_id for d in docs})]
        ['API', 'FAQ', 'Tricks']
    """
    titles: dict[str, str] = {}
    for doc in docs:
        rel = file_of(doc.doc_id, rels)
        if not _named_by_file(doc.title, rel):
            titles.setdefault(rel, doc.title)
    name = site_name(titles.values())
    if not name:
        return docs
    tail = re.compile(rf"{SEPARATORS.pattern}{re.escape(name)}$")
    out = []
    for doc in docs:
        own = tail.sub("", doc.title)
        out.append(replace(doc, title=own) if own.strip() and own != doc.title else doc)
    return out
