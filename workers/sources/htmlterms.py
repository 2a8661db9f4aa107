"""The terms of an HTML page's definition lists (``<dt>``), readied for the text stylesheet of
:mod:`workers.sources.htmlpage`: each marked with what follows it (:func:`mark_next`), and a
Sphinx API entry of a class's member written with its class (:func:`members_with_their_class`).

Sphinx writes a method as
``replace([url, method, ...])`` inside its class's block, its class only in the entry's ``id``
(``scrapy.http.Request.replace``). Read alone, Scrapy's ``Request.replace`` and
``Response.replace`` were one name, and "What does Request.replace do?" was answered with
"Returns a Response object ..." (trial 89, F4). As its class's member (``Request.replace(...)``)
the entry is named as a question writes it, as Node.js's manual heads ``fs.mkdir(...)``.

This module imports the standard library only; it reads lxml's elements (:mod:`workers.sources.
htmlpage`'s tree) through their own methods.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["cut_term", "groff_terms", "mark_next", "members_with_their_class"]

_CLASS = re.compile(r"[A-Z]\w*")
"""An id's part that names a class: a capital first (``Request``; ``http`` is a module)."""


def _token(element: Any, name: str) -> bool:
    return name in (element.get("class") or "").split()


def members_with_their_class(root: Any) -> None:
    """Write each Sphinx member entry's class before its name, in place: a ``<dt id="a.B.m">``
    whose name element (class ``descname``) says ``m`` and which has no ``descclassname``
    (Sphinx's prefix, written for module-level names) reads ``B.m``. An id whose part before
    the name is not a class's (:data:`_CLASS`) is left as it is (a module's function), and so
    is a name already qualified where the reader sees it (:func:`_qualified`).

    Args:
        root: an lxml HTML document, changed in place.
    """
    for term in root.iter("dt"):
        parts = (term.get("id") or "").split(".")
        if len(parts) < 2 or not _CLASS.fullmatch(parts[-2]):
            continue
        names = [e for e in term.iter() if isinstance(e.tag, str) and _token(e, "descname")]
        if len(names) != 1 or _qualified(names[0]) or any(
                _token(e, "descclassname") for e in term.iter() if isinstance(e.tag, str)):
            continue
        if "".join(names[0].itertext()).strip() == parts[-1]:
            names[0].text = f"{parts[-2]}.{names[0].text or ''}"


def _qualified(name: Any) -> bool:
    """Whether the text written before a member's name element ends with a dot: its class is
    shown already, whatever element holds it. SQLAlchemy's theme links it, ``<a><code>
    sqlalchemy.orm.SessionEvents.</code></a>`` before ``after_commit``, no ``descclassname``,
    and the entry read "method sqlalchemy.orm.SessionEvents.SessionEvents.after_commit(session)"
    in a report (trial 123, F6). Only the name's preceding siblings are read: a path to the
    text before it (``preceding::text()``) walks the whole page for each entry.

    Example:
        >>> from lxml import html
        >>> term = html.fromstring('<dt><em>method </em><a><code>a.B.</code></a>'
        ...                        '<span class="descname">m</span>()</dt>')
        >>> _qualified(term.find("span")), _qualified(term.find("em"))
        (True, False)
    """
    before = [f"{''.join(e.itertext()) if isinstance(e.tag, str) else ''}{e.tail or ''}"
              for e in name.itersiblings(preceding=True)]
    parent = name.getparent()
    text = "".join([parent.text or "" if parent is not None else "", *reversed(before)])
    return text.rstrip().endswith(".")


def mark_next(root: Any) -> None:
    """Write on each ``<dt>`` what its next element is (``data-research-next``), and on each
    ``<dl>`` holding an anchored term (its own ``id``, or an ``<a>`` with a ``name`` or ``id``
    inside it) or a term whose description holds a list of its own (:func:`_holds_lists`)
    ``data-research-entries``, for the stylesheet's term templates. Asked in XPath
    per term, each was O(n) in the list's length, O(n²) a list (SQLite's requirements.html,
    one ``<dl>`` of 6,954 children): ``dt[following-sibling::*[1][self::dd]]`` walked every
    following sibling (2.5 s of the page's 2.7), and ``dl[dt[@id or .//a[@name]]]/dt`` looked
    through every term of the list and its links (7 s of 7.3, from 012936a until this)."""
    for term in root.iter("dt"):
        following = term.getnext()
        while following is not None and not isinstance(following.tag, str):
            following = following.getnext()
        term.set("data-research-next", following.tag if following is not None else "")
        listed = term.getparent()
        if (listed is not None and listed.tag == "dl" and listed.get("data-research-entries")
                is None and (_anchored(term) or _holds_lists(term))):
            listed.set("data-research-entries", "")


def _holds_lists(term: Any) -> bool:
    """Whether a ``<dt>``'s description holds a definition list of its own, its list in no
    other's description: a manual's list of commands, each with its options (bash.html's
    builtins, man2html's one ``<dl>`` under SHELL BUILTIN COMMANDS)."""
    description = term.getnext()
    while description is not None and not isinstance(description.tag, str):
        description = description.getnext()
    if description is None or description.tag != "dd" or description.find(".//dl") is None:
        return False
    return not any(parent.tag == "dd" for parent in term.iterancestors())


def _anchored(term: Any) -> bool:
    """Whether a ``<dt>`` is an entry's anchor, by its own ``id`` or by a named anchor inside it
    (Postfix's ``<dt><b><a name="smtpd_helo_required">...</a> (default: no)</b></dt>``: read as
    one list of terms, a passage ran across entries under the page's heading, and
    ``smtpd_hard_error_limit``'s sentences answered for ``smtpd_helo_required``, trial 85, F1)."""
    return term.get("id") is not None or any(
        link.get("name") is not None or link.get("id") is not None for link in term.iter("a"))


def cut_term(before: str) -> bool:
    """Whether the term ending ``before`` is five words or more ending on a lower-case word: a
    docstring's sentence whose wrapped line's indent made it a definition list ("(True, 20),
    means the task should be run now, and the next" | "time to check is in 20 seconds.",
    Celery's reference), written on, not as "the next: time to check" (trial 89, F10)."""
    words = before[before.rfind("\n") + 1:].split()
    return len(words) >= 5 and words[-1].isalpha() and words[-1].islower()


_MARGIN = re.compile(r"margin-left:\s*(\d+(?:\.\d+)?)%")
_ENDS_SENTENCE = re.compile(r"[.!?][\"')\]]*\s*$")
_GOES_ON = re.compile(r"(?:[:;]|\b(?:a|an|the|that|which|to|of|for|with|and|or|but|as|by|from|in|"
                      r"on|at|into|than|is|are|was|be|reads|says))\s*$", re.IGNORECASE)
"""A line that stops mid-sentence, its sentence going on in the indented block after it: prose
("Note that" / "the daemon never stops", "writes its log to" / "/var/log/tapir.log", "reads:"
/ a licence), never a term (trial 100, F5)."""


def groff_terms(root: Any) -> None:
    """Make groff's tagged paragraphs definition lists, in place: ``man -Thtml`` writes an
    option and its description (troff's ``.TP``) as two ``<p>``, the second indented further
    (``margin-left:11%`` then ``22%``); read as two paragraphs, a passage could end between
    them, and the next was labelled by the description ("always make simple backups: input
    files are in Java .properties syntax", gettext's msgmerge page, trial 99, R1). As a
    ``<dt>`` and its ``<dd>`` they are one line, "--previous: keep previous msgids of
    translated messages", as a man page's options are elsewhere. Only on a page groff made
    (its ``<meta name="generator">``); a term is a short line that ends no sentence and does not
    stop mid-one (:data:`_GOES_ON`).

    Args:
        root: an lxml HTML document, changed in place.
    """
    made_by = root.find(".//meta[@name='generator']")
    if made_by is None or "groff" not in (made_by.get("content") or ""):
        return
    for term in list(root.iter("p")):
        desc = term.getnext()
        if desc is None or desc.tag != "p" or term.getparent() is None:
            continue
        outer = _MARGIN.search(term.get("style") or "")
        inner = _MARGIN.search(desc.get("style") or "")
        text = " ".join("".join(term.itertext()).split())
        if (outer is None or inner is None or float(inner.group(1)) <= float(outer.group(1))
                or not text or len(text) > 100 or _ENDS_SENTENCE.search(text)
                or _GOES_ON.search(text)):
            continue
        pair = term.makeelement("dl", {})
        term.addprevious(pair)
        pair.tail, term.tail = term.tail, None
        term.tag, desc_tail = "dt", desc.tail
        pair.append(term)
        desc.tag = "dd"
        pair.append(desc)
        desc.tail, pair.tail = None, f"{desc_tail or ''}{pair.tail or ''}"
