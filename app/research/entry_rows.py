"""Which reference entry answers the question: the ``Default:`` or ``Description:`` row of
the entry the question names, among the run's own passages, as a finding citing its passage
(rows read by :mod:`app.research.reference`; ``tests/app/test_reference_entries.py``).

Pure: reads the rows it is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from app.research.citations import items
from app.research.definitions import DEFINES
from app.research.reference import (
    TERM,
    default_rows,
    description_rows,
    names_entry,
    written_names,
)
from workers.sources.entries import entry_keywords

__all__ = ["default_entries", "described_entries"]


def described_entries(rows_by_question: Sequence[tuple[str, Sequence[dict[str, Any]]]],
                      subject: Sequence[str], names: Iterable[str] = (), least: int = 1,
                      asked: Collection[str] = ()) -> list[dict[str, Any]]:
    """The ``Description:`` rows (:func:`description_rows`) of the entries the question names,
    chosen as :func:`default_entries` chooses ``Default:`` rows: a "what does X do" question's
    definition, when X is a reference entry rather than a documented symbol (asked
    what the FallbackResource directive does, the Answer gave a side fact from the entry's
    third passage while its ``Description:`` row was retrieved)."""
    found = default_entries(rows_by_question, subject, names, least, asked, description_rows,
                            named_in_row=False)
    # shown under the entry's name, the row's own label is noise ("`X Directive`: Description:")
    return [{**item, "text": _DESCRIPTION_FIELD.sub("", str(item["text"]), count=1)}
            if item.get(DEFINES) else item for item in found]


_DESCRIPTION_FIELD = re.compile(r"^\s*description\s*:\s*", re.IGNORECASE)


def _owner(passage: dict[str, Any]) -> set[str]:
    """The names of the entry a passage's section heads (its keyword or the function its
    signature names: ``fs.mkdir(path[, options], callback)``), lower-cased: an option row
    in it (``mode {string|integer} ... Default: 0o777.``) is that function's, though it does not
    name it."""
    return entry_keywords(str(passage.get("heading") or ""))


def _with_owners(names: set[str]) -> set[str]:
    """``names`` and, for each dotted one, its last part: ``server.keepAliveTimeout`` is the
    ``keepAliveTimeout`` a question asks about (Node.js's manual heads a property by its owner
    and name).

    Example:
        >>> sorted(_with_owners({"server.keepalivetimeout", "jit"}))
        ['jit', 'keepalivetimeout', 'server.keepalivetimeout']
    """
    return names | {n.rsplit(".", 1)[1] for n in names if "." in n.strip(".")}


def default_entries(rows_by_question: Sequence[tuple[str, Sequence[dict[str, Any]]]],
                    subject: Sequence[str], names: Iterable[str] = (),
                    least: int = 1, asked: Collection[str] = (),
                    rows_of: Callable[[str], list[tuple[str, str]]] | None = None,
                    named_in_row: bool = True) -> list[dict[str, Any]]:
    """The ``Default:`` rows (:func:`default_rows`) of the rows' passages whose entry the
    question names, each as a finding item citing its passage, in the order the rows
    (sub-questions in plan order, passages in rank order) give them, one per entry.

    An entry is named when :func:`names_entry` finds, in its heading and its row, every one of
    ``names`` (the question's words written as names) among the ``subject`` words and at least
    ``least`` of them; when the question writes identifiers (``asked``: its
    :func:`written_names`), an entry labelled by identifiers is named only by one of them:
    asked the default of ``gc.auto``, ``gc.writeCommitGraph``'s row names "git gc --auto" and
    is another setting's default; an entry labelled by an identifier the question writes is
    named by it (``merge.conflictStyle``, whose words do not split as the subject's). An item
    whose row does not name its entry (``Default: 5`` under ``Timeout
    Directive``) carries the entry's heading under
    :data:`~app.research.definitions.DEFINES`: the report shows it under that name
    (:func:`~app.research.definitions.definition_line`).

    Args:
        rows_by_question: ``(sub-question, its rows)`` pairs, in plan order.
        subject: the words of what the question asks the default of.
        names: those of them written as names; least: how many must name the entry.
        asked: the identifiers the question writes (lower-cased, as :func:`written_names`).
        rows_of: the field rows of a passage's text (default :func:`default_rows`).
        named_in_row: the row's own words may name the entry (``Default: KeepAliveTimeout
            5``); False: only its heading or name does (a description's words are the
            answer's, not the entry's name).
    """
    rows_of = rows_of or default_rows
    if not subject:
        return []
    wanted = set(names) & set(subject)
    out: dict[str, dict[str, Any]] = {}
    for _question, rows in rows_by_question:
        for passage in items(list(rows), None, "passage"):
            owner = _owner(passage) & set(asked)  # the function whose entry it lies in
            for entry, row in rows_of(_with_heading(passage)):
                labels = _with_owners(written_names(entry))
                if asked and labels and not labels & set(asked):
                    continue  # another identifier's entry
                found = _named(entry, row, labels & set(asked), subject, named_in_row)
                if found and not labels and owner:
                    # an option of the function asked: fs.mkdir()'s mode names fs.mkdir too
                    found |= wanted | names_entry(subject, " ".join(owner))
                key = entry.casefold() or row.casefold()
                if len(found) < max(least, 1) or not wanted <= found or key in out:
                    continue
                item = {**passage, "kind": "finding", "text": row}
                by_name = labels & set(asked)  # asked by its identifier: the row writes it
                if entry and not (by_name & written_names(row) if by_name
                                  else names_entry(list(found), row)):
                    item[DEFINES] = entry
                out[key] = item
    return list(out.values())


def _named(entry: str, row: str, by_name: set[str], subject: Sequence[str],
           named_in_row: bool) -> set[str]:
    """The ``subject`` words that name the entry of ``row`` (see :func:`default_entries`):
    all of them for an entry asked by its identifier (``by_name``), however its words split
    ("merge.conflictStyle" for the subject words merge, conflictstyle); else those of its
    heading and, unless the entry is one word, of its row: an entry of one word is what its
    row is about, and a row naming another (HISTFILESIZE's "default value to the value of
    HISTSIZE") is no answer for that one."""
    if by_name:
        return set(subject)
    own = named_in_row and not TERM.fullmatch(entry)
    return names_entry(subject, f"{entry} {row}" if own else entry)


def _with_heading(passage: dict[str, Any]) -> str:
    """A passage's text, opened by its section's heading when that is an entry's (an
    identifier, or one word: :data:`TERM`) and the text does not open with it: a later passage
    of PostgreSQL's ``listen_addresses (string)`` said "The default value is localhost", and no
    Answer read it as the entry's."""
    text, heading = str(passage.get("text") or ""), str(passage.get("heading") or "").strip()
    if not heading or text.lstrip().startswith(heading) or not (
            written_names(heading) or TERM.fullmatch(heading)):
        return text
    return f"{heading}\n\n{text}"
