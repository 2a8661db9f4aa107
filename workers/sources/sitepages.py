"""The pages a Sphinx site makes for itself, beside its manual's: its search page, its general
and module indexes and its page-not-found. They say nothing of what the manual documents, and
a report cited Flask's ``404.html`` ("The page you requested does not exist.") as a finding of
"How do I show my own page when someone visits an address that doesn't exist?" (trial 68, F6).
And the highlighted source its ``viewcode`` extension writes under ``_modules/`` for each module
the manual's API pages document: a third of Celery's passages, whose docstrings, raw reST
(":meth:`~@AsyncResult.get`"), were quoted beside the API page's own copy (trial 89, F9). A
Sphinx build is told by the ``searchindex.js`` it writes at its root. Standard library only.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

from workers.sources.note_groups import named_list

__all__ = ["sphinx_source", "without_site_pages"]

_File = tuple[str, Path, os.stat_result]

_SITE_PAGE = re.compile(r"(?:search|404|sitemap|genindex(?:-[^/]*)?|[a-z]+-modindex)\.html?")
"""A Sphinx or MkDocs site's own pages: ``search.html``, ``404.html`` (sphinx-notfound-page,
MkDocs), ``genindex.html`` and its letters (``genindex-A.html``), ``py-modindex.html``, a
theme's ``sitemap.html`` (Python-Markdown's: a list of links, trial 94, F8)."""

_BUILDS = ("searchindex.js", "search/search_index.json")
"""What a site generator writes at its root: Sphinx's search index, MkDocs'."""


def without_site_pages(found: list[_File], skipped: Counter[str],
                       notes: list[str] | None) -> list[_File]:
    """``found`` (``(ref, path, stat)``) without the pages a Sphinx site makes for itself
    (:data:`_SITE_PAGE`, a ``searchindex.js`` beside them) and its ``viewcode`` pages (any
    ``.html`` below a ``_modules`` folder with a ``searchindex.js`` beside that folder), each
    counted ``site`` and named in a note of their own: ``"search.html, 404.html and 1 more:
    skipped, pages the site's generator made for itself (search, indexes, page not found, site
    map)"``; a site is told by its generator's search index (:data:`_BUILDS`)."""
    builds: dict[Path, bool] = {}

    def built(folder: Path) -> bool:
        if folder not in builds:
            builds[folder] = any((folder / name).is_file() for name in _BUILDS)
        return builds[folder]

    def viewcode(path: Path) -> bool:
        parts = path.parent.parts
        return path.suffix in (".html", ".htm") and any(
            part == "_modules" and built(Path(*parts[:at])) for at, part in enumerate(parts))

    site = [rel for rel, path, _st in found if _SITE_PAGE.fullmatch(path.name)
            and built(path.parent)]
    code = [rel for rel, path, _st in found if viewcode(path)]
    if not site and not code:
        return found
    gone = set(site) | set(code)
    skipped["site"] += len(gone)
    for rels, why in ((site, "pages the site's generator made for itself (search, indexes, "
                             "page not found, site map)"),
                      (code, "the highlighted source of the modules the API pages document "
                             "(Sphinx's viewcode)")):
        if rels and notes is not None:
            notes.append(f"{named_list(rels, 2)}: skipped, {why}")
    return [entry for entry in found if entry[0] not in gone]


MIN_SPHINX_PAGE_BYTES = 2048
"""A page Sphinx wrote is never smaller (its theme alone is more); a smaller one is a redirect
stub or another page."""


def sphinx_source(source: Path, page: Path) -> bool:
    """Whether ``source`` (a file below a ``_sources`` folder) is the source Sphinx copied of
    ``page``: the folder holding ``_sources`` is a Sphinx build (its ``searchindex.js``) and
    ``page`` is one Sphinx wrote (:data:`MIN_SPHINX_PAGE_BYTES` or more). A ``_sources/``
    folder of field notes in no build, and a source whose page is a redirect stub (dropped when
    read), kept their text only so (trial 108, F4, F5)."""
    parts = source.parts
    if "_sources" not in parts:
        return False
    root = Path(*parts[:len(parts) - 1 - parts[::-1].index("_sources")])
    try:
        return (root / "searchindex.js").is_file() and page.stat().st_size >= MIN_SPHINX_PAGE_BYTES
    except OSError:
        return False
