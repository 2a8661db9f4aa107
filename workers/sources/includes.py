"""AsciiDoc fragments that a page includes: ``include::diff-options.txt[]`` in ``git-log.txt``
puts the fragment's text into ``git-log.html``, so the fragment alone is that page's text again,
in raw markup. git-doc ships 53 such fragments beside its pages; searched, they were cited in
place of the page ("'%Cred':: switch color to red ... linkgit:git-config[1]" from
``pretty-formats.txt`` for a question git-log.html answers; trial 53, A3). A file that the
source of a page indexed includes, directly or through another fragment, is skipped too, and
named with that page.

A fragment no page source includes is kept (Git's ``technical/*.txt`` are documents of their
own). Standard library and :mod:`workers.sources.filekinds` only.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from pathlib import Path
from typing import Any

from workers.sources.filekinds import head_bytes
from workers.sources.left_out import drop_noted
from workers.sources.text import safe_name

__all__ = ["MAX_SOURCE_BYTES", "included_refs", "without_included"]

MAX_SOURCE_BYTES = 1 << 20
"""How much of a page's source is read for its ``include::`` lines."""

_INCLUDE = re.compile(rb"^include::([^\[\n{}]+)\[([^\]\n]*)\]", re.MULTILINE)
"""An AsciiDoc include directive at a line's start; a target written with an attribute
(``{build_dir}/x.txt``) is not followed."""
_PART = re.compile(rb"\b(?:lines|tags?)\s*=")
"""An include of part of a file (``[lines=1..4]``, ``[tag=setup]``): the rest is in no page
(trial 56: a file included in part was left out whole)."""
_FRAGMENT_SUFFIXES = (".txt", ".adoc", ".asciidoc", ".asc")
"""What a fragment is written in; a page (``.html``) or any other file a source names is kept
(trial 56: a source including its own page left the page out)."""


def included_refs(ref: str, text: bytes) -> list[str]:
    """The refs (folder-relative POSIX paths) that the source ``ref`` includes, resolved from
    its own folder as AsciiDoc resolves them.

    Example:
        >>> included_refs("git-log.txt", b"= git-log\\n\\ninclude::pretty-formats.txt[]\\n")
        ['pretty-formats.txt']
        >>> included_refs("config/a.txt", b"include::../b.txt[]\\ninclude::{x}/c.txt[]\\n")
        ['b.txt']
        >>> included_refs("a.txt", b"include::b.txt[lines=1..4]\\ninclude::a.html[]\\n")
        []
    """
    base = posixpath.dirname(ref)
    found = []
    for target, attributes in _INCLUDE.findall(text):
        name = target.decode("utf-8", "replace").strip()
        joined = posixpath.normpath(posixpath.join(base, name))
        if (name and not joined.startswith("../") and not _PART.search(attributes)
                and joined.lower().endswith(_FRAGMENT_SUFFIXES) and joined != ref):
            found.append(joined)
    return found


def without_included(found: list[tuple[str, Path, Any]], sources: list[tuple[str, Path, str]],
                     skipped: Counter[str], notes: list[str] | None
                     ) -> list[tuple[str, Path, Any]]:
    """``found`` (``(ref, path, stat)``) without the files that ``sources`` include: the
    ``(ref, path, page)`` of the page sources left out because their ``page`` is indexed
    (``walk.rendered_once``). Each is counted ``included`` and named, e.g.
    ``"pretty-formats.txt: skipped, included in a page indexed (git-log.html)"``."""
    paths = {ref: path for ref, path, _st in found}
    dropped: dict[str, str] = {}
    queue = list(sources)
    while queue:
        ref, path, page = queue.pop(0)
        text = head_bytes(path, MAX_SOURCE_BYTES)
        for target in included_refs(ref, text or b""):
            if target in paths and target not in dropped:
                dropped[target] = page
                queue.append((target, paths[target], page))  # a fragment's own fragments
    return drop_noted(found, {ref: f"included in a page indexed ({safe_name(page)})"
                              for ref, page in sorted(dropped.items())},
                      skipped, notes, "included")
