"""Run notes as people read them: :func:`coalesce_notes` folds the one note per round that
``route`` writes ("round N: re-dispatching K failed task(s)") into one line per stretch of
rounds, so ``--rounds 1000`` with a worker that always fails prints one note, not a thousand;
and a note written the same by many tasks (an MCP tool that failed for each) is shown once, with
its count.

Pure: no I/O, no state. The CLI's summary (:func:`app.runs.summary.summarize_run`) uses it; the
report's Notes section can call it on the same list.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from app.research.rows import ok_items
from app.research.text import clip
from state import ITEM_KINDS

__all__ = ["coalesce_notes", "folded_notes", "too_large", "unknown_kind_notes"]

_ROUND_NOTE = re.compile(r"round (\d+): re-dispatching (\d+) failed task\(s\)")
"""The note the ``route`` node writes each time it sends failed tasks again."""


def coalesce_notes(notes: Iterable[str]) -> list[str]:
    """``notes`` with each run of adjacent round notes for consecutive rounds folded into one.

    A lone round note is kept word for word; two or more become ``"rounds A–B: re-dispatched K
    failed task(s) each"`` (or ``"... J to K failed task(s) a round, T in all"`` when the count
    changed between rounds). Every other note is kept, in its place; one written N times is
    kept once, where it first came, ending ``" (N times)"``.

    Args:
        notes: the run's notes (state ``notes``), oldest first.

    Example:
        >>> for line in coalesce_notes(
        ...         [f"round {n}: re-dispatching 4 failed task(s)" for n in range(2, 1001)]
        ...         + ["4 task(s) still failed after 1000 round(s)"]):
        ...     print(line)
        rounds 2–1000: re-dispatched 4 failed task(s) each
        4 task(s) still failed after 1000 round(s)
        >>> coalesce_notes(["round 2: re-dispatching 1 failed task(s)", "budget spent"])
        ['round 2: re-dispatching 1 failed task(s)', 'budget spent']
        >>> coalesce_notes(["tool x failed", "budget spent", "tool x failed"])
        ['tool x failed (2 times)', 'budget spent']
    """
    out: list[str] = []
    stretch: list[tuple[int, int, str]] = []  # (round, tasks, note) of the current stretch

    def close() -> None:
        if len(stretch) == 1:
            out.append(stretch[0][2])
        elif stretch:
            out.append(_stretch_line([(r, k) for r, k, _ in stretch]))
        stretch.clear()

    for note in notes:
        match = _ROUND_NOTE.fullmatch(note) if isinstance(note, str) else None
        if match is None:
            close()
            out.append(note)
            continue
        round_, tasks = int(match[1]), int(match[2])
        if stretch and round_ != stretch[-1][0] + 1:
            close()
        stretch.append((round_, tasks, note))
    close()
    return _once_each(out)


def _once_each(notes: list[str]) -> list[str]:
    """Each distinct note once, in first-seen order, with its count when repeated."""
    counts: dict[str, int] = {}
    for note in notes:
        counts[note] = counts.get(note, 0) + 1
    return [note if n == 1 else f"{note} ({n} times)" for note, n in counts.items()]


def _stretch_line(rounds: list[tuple[int, int]]) -> str:
    first, last = rounds[0][0], rounds[-1][0]
    counts = [k for _, k in rounds]
    if len(set(counts)) == 1:
        return f"rounds {first}–{last}: re-dispatched {counts[0]} failed task(s) each"
    return (f"rounds {first}–{last}: re-dispatched {min(counts)} to {max(counts)} failed "
            f"task(s) a round, {sum(counts)} in all")


def too_large(corpus_notes: Iterable[str]) -> list[str]:
    """The corpus notes of files skipped as too large, worded to be said before the run (as
    well as in its notes): such a file may hold the answers (HAProxy's 2.6
    MB manual was named only in the last notes, after a report that answered from the rest).

    Example:
        >>> too_large(["a.html: skipped, too large (9 MB > 8 MB)", "b.pdf: skipped, encrypted"])
        ['a.html: skipped, too large (9 MB > 8 MB) (--max-file-bytes raises the limit): what \
it holds is missing from this run']
    """
    return [f"{n} (--max-file-bytes raises the limit): what it holds is missing from this run"
            for n in corpus_notes if "too large" in n]


def unknown_kind_notes(rows: Sequence[dict[str, Any]]) -> list[str]:
    """A note per (worker, kind) of items whose kind the report has no section for.

    Workers cannot produce them (the node wrapper turns such a result into an error envelope),
    but rows written another way (a node of your own, an older database) can: say so, never drop
    them silently.
    """
    found: dict[tuple[str, str], int] = {}
    for row, item in ok_items(rows):
        kind = item.get("kind") if isinstance(item, dict) else None
        if kind not in ITEM_KINDS:
            key = (row["worker"], repr(kind))
            found[key] = found.get(key, 0) + 1
    return [f"{n} item(s) of {worker} have the kind {kind}, which the report has no section "
            f"for ({', '.join(ITEM_KINDS)}): not shown" for (worker, kind), n in found.items()]


def folded_notes(folded: Sequence[str], settled_out: Collection[str]) -> list[str]:
    """The Notes' lines naming the sub-questions the report shows no section for (``folded``),
    each with its reason: those whose documents the report does not cite (``settled_out``:
    it cites stronger ones, as a note above says), then those whose section would repeat the
    report. The second reason alone named "What is a ledger?" whose
    only passage, "A ledger is a book of accounts.", was not cited: the report said nothing of
    a ledger (trial 121, F8).

    Example:
        >>> folded_notes(["What is a ledger?", "How do you run your app?"], {"What is a ledger?"})
        ['Not shown as sections, as the documents their searches found are not cited (see \
above): "What is a ledger?"', 'Not shown as sections, as they would repeat the report: "How do \
you run your app?"']
    """
    left = [q for q in folded if q in settled_out]
    said = [q for q in folded if q not in settled_out]
    reasons = (("the documents their searches found are not cited (see above)", left),
               ("they would repeat the report", said))
    return [f"Not shown as sections, as {why}: " + "; ".join(f"\"{clip(q, 120)}\"" for q in qs)
            for why, qs in reasons if qs]
