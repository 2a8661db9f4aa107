"""The pages a Sphinx site makes for itself, beside its manual's: its search page, its general
and module indexes and its page-not-found. They say nothing of what the manual documents, and
a report cited Flask's ``404.html`` ("The page you requested does not exist.") as a finding of
"How do I show my own page when someone visits an address that doesn't exist?" (trial 68, F6).
A Sphinx build is told by the ``searchindex.js`` it writes beside them. Standard library only.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

__all__ = ["without_site_pages"]

_File = tuple[str, Path, os.stat_result]

_SITE_PAGE = re.compile(r"(?:search|404|genindex(?:-[^/]*)?|[a-z]+-modindex)\.html?")
"""A Sphinx site's own pages: ``search.html``, ``404.html`` (sphinx-notfound-page),
``genindex.html`` and its letters (``genindex-A.html``), ``py-modindex.html``."""


def without_site_pages(found: list[_File], skipped: Counter[str],
                       notes: list[str] | None) -> list[_File]:
    """``found`` (``(ref, path, stat)``) without the pages a Sphinx site makes for itself
    (:data:`_SITE_PAGE`, a ``searchindex.js`` beside them), each counted ``site`` and named in
    one note: ``"search.html, 404.html and 1 more: skipped, pages of the Sphinx site itself
    (search, indexes, page not found)"``."""
    builds: dict[Path, bool] = {}

    def built(folder: Path) -> bool:
        if folder not in builds:
            builds[folder] = (folder / "searchindex.js").is_file()
        return builds[folder]

    left = [entry for entry in found
            if not (_SITE_PAGE.fullmatch(entry[1].name) and built(entry[1].parent))]
    if len(left) == len(found):
        return found
    kept = {rel for rel, _path, _st in left}
    gone = [rel for rel, _path, _st in found if rel not in kept]
    skipped["site"] += len(gone)
    if notes is not None:
        more = f" and {len(gone) - 2} more" if len(gone) > 2 else ""
        notes.append(f"{', '.join(gone[:2])}{more}: skipped, pages of the Sphinx site itself "
                     "(search, indexes, page not found)")
    return left
