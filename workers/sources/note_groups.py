"""A folder corpus's notes as people read them: many files skipped (or read) for the same reason
are one line, with the count and the first few names, not one line each.

One note a file, the Debian Apache manual (14 language folders whose untranslated pages are
links to ``en/``) printed 1,857 ``"da/bind.html: skipped, the same file as en/bind.html (a link
to it), indexed once"`` notes, 200 of them shown, on every run and in every report. The folder
walk and the build keep writing one note per file (the index stores them all); this module
groups them where they are read (:attr:`workers.sources.Corpus.notes`). Per kind:

* **A link to a file indexed under another path** (:data:`LINK_EXAMPLES` shown), **a copy of
  a file indexed** (the same content: 13 ``libxcb*`` packages install one changelog), **the
  source of a page indexed** or a file it includes (a Sphinx site's 218
  ``_sources/*.rst.txt`` named in a 1 KB line, trial 79), **a page that only redirects to
  another** (flex's 49 Texinfo stubs, trial 101), **a page of links** (a table of contents,
  an index) or **of navigation alone** (Zsh's seven Texinfo index pages, one line each in
  every report, trial 115, F4) and **a link, to a file or a folder,
  leading out of the folder** (read from elsewhere: ``LINK_EXAMPLES`` too): nothing is lost,
  the run only says what it did, so a few examples and the count do.
* **Every other per-file note** (skipped as too large, binary, unreadable, without text,
  encrypted, not a regular file, the app's own report or run log; a hidden folder passed over;
  a file read as Windows-1252): the file's text is not in the index (or read otherwise), so each
  is named while they are few. More than :data:`NAMED` with one reason are one line naming the
  first ``NAMED`` and counting the rest, in the shape of the hidden files' note:
  ``"a.bin, b.bin ... and 290 more: skipped, binary (not text)"``. The full list stays in the
  index's ``notes`` meta entry.

Pure: standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["LINK_EXAMPLES", "MAX_NOTES", "NAMED", "capped_notes", "grouped_notes", "one_line_each",
           "named_list", "shown_count", "shown_notes"]

NAMED = 10
"""Files named in the line of a reason more than this many files share (each named below it)."""

LINK_EXAMPLES = 3
"""Examples shown in the line of links to files indexed elsewhere (more links than this)."""

MAX_NOTES = 200
"""At most this many note lines are shown (:func:`shown_notes`); the rest are counted in a last
line. The index keeps them all, since grouping needs each file's note."""

_SAME_FILE = re.compile(r"skipped, the same file as (?P<to>.+) \(a link to it\), indexed once")
_COPY = re.compile(r"skipped, a (?:compressed )?copy of (?P<to>.+), indexed once")
_OUTSIDE = re.compile(r"a link to (?P<to>.+), outside the folder: indexed")
_OUT_DIR = re.compile(r"a link to (?P<to>.+), outside the folder: followed")
_SOURCE = re.compile(r"skipped, the source of a page indexed \((?P<to>.+)\)")
_INCLUDED = re.compile(r"skipped, included in a page indexed \((?P<to>.+)\)")
_REDIRECT = re.compile(r"skipped, a page that only redirects to (?P<to>.+)")
_LINK_PAGE = re.compile(r"skipped, a page of links to the folder's other pages \(a table of "
                        r"contents or an index\): those pages are indexed(?P<to>)")
_NAVIGATION = re.compile(r"skipped, nothing but the navigation the pages indexed carry too"
                         r"(?P<to>)")
_DETAIL = re.compile(r"(?P<why>.+?) \((?P<detail>[^()]*)\)")
"""A reason whose last words in parentheses differ from file to file: ``too large (50 MB >
2 MB)``, ``unreadable (Permission denied)``."""

_LINK_LINES = {
    "same": "{n} files skipped, links to files indexed under another path, each indexed once "
            "there ({examples})",
    "copy": "{n} files skipped, copies of files indexed (the same content), each indexed once "
            "there ({examples})",
    "outside": "{n} files are links leading out of the folder, indexed ({examples})",
    "out_dir": "{n} folders are links leading out of the folder, followed ({examples})",
    "source": "{n} files skipped, the sources of pages indexed ({examples})",
    "included": "{n} files skipped, included in pages indexed ({examples})",
    "redirect": "{n} files skipped, pages that only redirect to another ({examples})",
    "link_page": "{n} files skipped, pages of links to the folder's other pages (tables of "
                 "contents, indexes), those pages indexed ({examples})",
    "navigation": "{n} files skipped, nothing but the navigation the pages indexed carry too "
                  "({examples})",
}


def shown_notes(notes: Iterable[str]) -> list[str]:
    """A corpus's stored notes as shown: :func:`grouped_notes`, then :func:`capped_notes`."""
    return capped_notes(grouped_notes(one_line_each(notes)))


def one_line_each(notes: Iterable[str]) -> list[str]:
    """The notes, one line each (whitespace collapsed), blank ones left out."""
    return [" ".join(n.split()) for n in notes if n.strip()]


def capped_notes(notes: Iterable[str], limit: int = MAX_NOTES) -> list[str]:
    """The notes, one line each, at most ``limit`` of them plus a line counting the rest: a
    backstop for notes of many kinds, each kind under its group's limit."""
    lines = one_line_each(notes)
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"... and {len(lines) - limit} more notes"]


def grouped_notes(notes: Iterable[str]) -> list[str]:
    """``notes`` (one line each, ``"PATH: WHY"`` for a file) with the notes of one reason
    grouped once there are more of them than the module's limits; every other line is kept, in
    its place, and a group's line takes its first note's place.

    Example:
        >>> grouped_notes([f"l{i}.md: skipped, the same file as t{i}.md (a link to it), "
        ...                "indexed once" for i in range(5)] + ["x.pdf: skipped, encrypted"])
        ... # doctest: +NORMALIZE_WHITESPACE
        ['5 files skipped, links to files indexed under another path, each indexed once there
          (l0.md -> t0.md, l1.md -> t1.md, l2.md -> t2.md and 2 more)',
         'x.pdf: skipped, encrypted']
    """
    lines = list(notes)
    groups: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
    for i, line in enumerate(lines):
        path, sep, why = line.partition(": ")
        if not sep or not path or path.endswith(" more"):  # not one file's note
            continue
        kind, detail = _kind(why)
        groups.setdefault(kind, []).append((i, path, detail))
    out: dict[int, str | None] = {}
    for (kind, why), members in groups.items():
        limit = NAMED if kind == "why" else LINK_EXAMPLES
        if len(members) <= limit:
            continue
        for i, _path, _detail in members:
            out[i] = None
        out[members[0][0]] = _group_line(kind, why, members, limit)
    return [out.get(i, line) for i, line in enumerate(lines) if out.get(i, line) is not None]


def _kind(why: str) -> tuple[tuple[str, str], str]:
    """``((kind, reason), detail)`` of one file's note: the link kinds by their target, every
    other reason by its words less a last parenthesis (the detail shown by the file's name)."""
    for kind, pattern in (("same", _SAME_FILE), ("copy", _COPY), ("outside", _OUTSIDE),
                          ("out_dir", _OUT_DIR), ("source", _SOURCE),
                          ("included", _INCLUDED), ("redirect", _REDIRECT),
                          ("link_page", _LINK_PAGE), ("navigation", _NAVIGATION)):
        if match := pattern.fullmatch(why):
            return (kind, ""), match["to"]
    match = _DETAIL.fullmatch(why)
    return (("why", match["why"]), match["detail"]) if match else (("why", why), "")


def shown_count(n: int, shown: int) -> int:
    """How many of ``n`` names a note shows when it shows ``shown`` and counts the rest: all of
    them when one more is left, as "and 1 more" names no fewer words than the name (trial 111,
    F12: "404.html, search.html and 1 more" never named the third).

    Example:
        >>> shown_count(3, 2), shown_count(4, 2), shown_count(2, 2)
        (3, 2, 2)
    """
    return n if n == shown + 1 else shown


def named_list(names: list[str], shown: int) -> str:
    """``names`` for a note: the first ``shown`` (:func:`shown_count`), then how many more.

    Example:
        >>> named_list(["a", "b", "c"], 2), named_list(["a", "b", "c", "d"], 2)
        ('a, b, c', 'a, b and 2 more')
    """
    shown = shown_count(len(names), shown)
    more = f" and {len(names) - shown:,} more" if len(names) > shown else ""
    return f"{', '.join(names[:shown])}{more}"


def _group_line(kind: str, why: str, members: list[tuple[int, str, str]], limit: int) -> str:
    """The one line of ``members`` noted for one reason: up to ``limit`` named, then how many
    more; one more is named too ("404.html, search.html and 1 more" never named the third,
    trial 111, F12)."""
    limit = shown_count(len(members), limit)
    more = len(members) - limit
    tail = f" and {more:,} more" if more > 0 else ""
    if kind != "why":
        examples = ", ".join(f"{path} -> {to}" if to else path
                             for _i, path, to in members[:limit]) + tail
        return _LINK_LINES[kind].format(n=f"{len(members):,}", examples=examples)
    details = {detail for _i, _path, detail in members}
    if len(details) == 1:  # the same for all ("binary (not text)"): said once, after the why
        (detail,) = details
        names = ", ".join(path for _i, path, _d in members[:limit])
        return f"{names}{tail}: {why}" + (f" ({detail})" if detail else "")
    names = ", ".join(f"{path} ({d})" if d else path for _i, path, d in members[:limit])
    return f"{names}{tail}: {why}"
