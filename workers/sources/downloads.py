"""The files a Sphinx build's pages offer for download (``_downloads/<hash>/NAME``, its
``:download:`` role) when a page of the build shows their text: Sphinx's own manual includes
``example_google.py`` in ``usage/extensions/example_google.html`` and offers it for download,
and both were indexed, each docstring found twice (trial 125, F12). The page is kept: it is
what the manual links to, titled, with the text around the file. A download no page named like
it shows (a data file, an archive's text) stays. Standard library and this package.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from workers.sources.filekinds import HTML_EXTENSIONS, file_kind, inner_name
from workers.sources.left_out import drop_noted
from workers.sources.text import safe_name
from workers.sources.walk import rendered_from

__all__ = ["without_shown_downloads"]

_File = tuple[str, Path, os.stat_result]
_DOWNLOADS = "_downloads"


def _stem(name: str) -> str:
    """``name`` without its type and ``.gz`` suffix (``example_google.py`` and
    ``example_google.html`` share ``example_google``)."""
    return inner_name(name).rpartition(".")[0] or name


def _build_root(ref: str, path: Path) -> Path | None:
    """The folder holding the ``_downloads`` folder ``ref`` lies in, when it is a Sphinx build
    (its ``searchindex.js``); else None."""
    parts = ref.split("/")
    if _DOWNLOADS not in parts[:-1]:
        return None
    up = parts[:-1][::-1].index(_DOWNLOADS) + 1  # _downloads/HASH/NAME: the root is 2 up
    if up >= len(path.parents):
        return None
    root = path.parents[up]
    return root if (root / "searchindex.js").is_file() else None


def without_shown_downloads(found: list[_File], skipped: Counter[str],
                            notes: list[str] | None) -> list[_File]:
    """``found`` (``(ref, path, stat)``) without the files of a Sphinx build's ``_downloads``
    whose text a page of the build named like them shows
    (:func:`~workers.sources.walk.rendered_from`), each counted ``copy`` and named:
    ``"_downloads/1db8/example_google.py: skipped, a download whose text a page shows
    (usage/extensions/example_google.html)"``."""
    pages: dict[str, list[tuple[str, Path]]] = {}
    for ref, path, _st in found:
        if file_kind(path.name) in HTML_EXTENSIONS and _DOWNLOADS not in ref.split("/"):
            pages.setdefault(_stem(path.name), []).append((ref, path))
    gone: dict[str, str] = {}
    for ref, path, _st in found:
        if _stem(path.name) not in pages or _build_root(ref, path) is None:
            continue
        shown = next((page for page, at in pages[_stem(path.name)] if rendered_from(at, path)),
                     None)
        if shown is not None:
            gone[ref] = f"a download whose text a page shows ({safe_name(shown)})"
    return drop_noted(found, gone, skipped, notes, "copy")
