"""The report: markdown built from the persisted rows, with numbered citations.

The report reads the results database, not graph state: once ``persist`` has run, state holds no
payloads. Every bullet ends in a citation number, each number resolves to one corpus passage in the
Sources list, and each source is listed once.

It is honest about what it lacks (see :mod:`app.research.relevance`): when nothing retrieved
mentions the
topic it says so at the top, and no section presents those passages as findings; a worker that
failed is "unavailable (worker failed)", never "nothing found"; "answered by the findings above"
only when that question's own findings were listed above.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.research.notes import coalesce_notes
from app.research.relevance import Relevance, judge
from app.research.rows import ok_items
from app.research.text import clip
from app.runs.ids import default_thread_id, sha8
from state import ITEM_KINDS, ItemKind
from workers.sources import Passage

__all__ = ["ReportInput", "render_markdown", "report_filename", "report_path", "write_report"]

_LINE = 400
"""The most characters of a bullet's text (a claim, a summary sentence, a note)."""


@dataclass
class ReportInput:
    """What the report is made of.

    Attributes:
        topic, as_of, model_label, thread_id: the run's identity.
        sub_questions: in plan order; findings are grouped under them.
        rows: the results-database rows of this run (``structured`` decoded).
        notes: run notes (budget spent, rounds used, ...).
        summary: optional model-written synthesis: ``[(sentence, [ref, ...])]``; every ref must
            be one of the rows' refs (unknown ones are dropped by :func:`render_markdown`).
    """

    topic: str
    as_of: str
    model_label: str
    thread_id: str
    sub_questions: list[str]
    rows: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    summary: list[tuple[str, list[str]]] = field(default_factory=list)
    relevance: Relevance | None = None
    """The relevance verdict on ``rows`` (:func:`app.research.relevance.judge`), when the caller
    judged them already (the ``report`` node keeps it in state); None: judged here."""


class _Citations:
    """Numbers sources in first-cited order; each ref (each URL, for web pages) gets one
    number."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.sources: list[dict[str, Any]] = []

    def cite(self, item: dict[str, Any]) -> int:
        key = _key(item)
        if key not in self.numbers:
            self.numbers[key] = len(self.numbers) + 1
            self.sources.append(item)
        return self.numbers[key]


def _key(item: dict[str, Any]) -> str:
    """The Sources entry an item is cited under (a web page's URL, else its ref)."""
    passage = Passage.from_dict({**item, "text": item.get("text") or "-"})
    return passage.citation_key if passage else item["ref"]


def _excerpt(text: str, limit: int = 220) -> str:
    """The first sentence of a passage (or its start), for a passage bullet; markdown heading
    lines are left out (the bullet already shows the title)."""
    body = re.sub(r"^\s*#{1,6}\s.*$", "", text, flags=re.MULTILINE)
    flat = " ".join((body if body.strip() else text).split())
    match = re.match(r"(.{30,}?[.!?])(\s|$)", flat)
    return clip(match.group(1) if match else flat, limit)


def _marks(cites: _Citations, items: list[dict[str, Any]]) -> str:
    return "".join(f"[{n}]" for n in sorted({cites.cite(i) for i in items}))


def _claim_key(item: dict[str, Any]) -> tuple[str, str]:
    return " ".join(str(item.get("text", "")).split()).lower(), item["ref"]


def _unknown_kinds(rows: Sequence[dict[str, Any]]) -> list[str]:
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


def _items(rows: Sequence[dict[str, Any]], task_key: str | None, kind: ItemKind) -> list[dict]:
    out, seen = [], set()
    for _row, item in ok_items(rows, task_key):
        if item.get("kind") != kind or not item.get("ref"):
            continue
        key = _claim_key(item)
        if key in seen:
            continue
        seen.add(key)
        out.append(item)
    return out


def _failed_workers(errors: Sequence[dict[str, Any]], question: str | None) -> str:
    """``"`analyst`, `critic`"``: the workers with an error row (for ``question``, or any)."""
    names = sorted({r["worker"] for r in errors if question is None or r["task_key"] == question})
    return ", ".join(f"`{n}`" for n in names)


def render_markdown(data: ReportInput) -> str:
    """Render the report.

    Claims are bullets ending in ``[n]``; a bullet in italics (``- _..._ [n][m]``) is the report
    speaking about its own sections, not a claim.

    Layout: title and run facts; an optional summary; a section per sub-question with findings
    (bullets ending in ``[n]``) and the top passages; a Caveats section; a Failures section when
    any worker ended in error; Notes; the numbered Sources list.
    """
    cites = _Citations()
    # what a summary sentence may cite: the items of finished rows, as every section shows
    by_ref = {item["ref"]: item for _row, item in ok_items(data.rows) if item.get("ref")}
    known_refs = set(by_ref)
    errors = [r for r in data.rows if r["status"] == "error"]
    workers = sorted({r["worker"] for r in data.rows})
    lines = [
        f"# Research report: {clip(data.topic, 200)}",
        "",
        f"- As of: {data.as_of}",
        f"- Model: {data.model_label}",
        f"- Thread: `{data.thread_id}`",
        f"- Workers: {', '.join(workers) or 'none'}; envelopes: {len(data.rows)}; "
        f"errors: {len(errors)}",
        "",
    ]
    relevance = data.relevance or judge(data.topic, data.rows)
    wanted, warnings = relevance.wanted, relevance.warnings
    if warnings:
        lines += [
            f"> **The sources say nothing about \"{clip(data.topic, 200)}\".** No retrieved "
            f"passage mentions {wanted}, so no finding is shown below.",
            "",
        ]
    summary = [
        (sentence, [ref for ref in refs if ref in known_refs]) for sentence, refs in data.summary
    ]
    # unsourced claims are dropped; a summary of unrelated passages is not shown at all
    summary = [(s, refs) for s, refs in summary if refs] if not warnings else []
    if summary:
        lines += ["## Summary", ""]
        for sentence, refs in summary:
            marks = "".join(f"[{cites.cite(by_ref[r])}]" for r in refs)
            lines.append(f"- {clip(sentence, _LINE)} {marks}")
        lines.append("")

    listed: set[tuple[str, str]] = set()  # each claim is shown once, where it first appears
    for number, question in enumerate(data.sub_questions, 1):
        lines += [f"## {number}. {clip(question, 300)}", ""]
        all_findings = _items(data.rows, question, "finding")
        all_passages = _items(data.rows, question, "passage")
        failed = _failed_workers(errors, question)
        if warnings and (all_findings or all_passages):
            lines += [f"- No passage retrieved for this question mentions {wanted}"
                      "; none is shown as a finding.", ""]
            continue
        findings = [f for f in all_findings if _claim_key(f) not in listed]
        listed.update(_claim_key(f) for f in findings)
        if findings:
            lines += ["Findings:", ""]
            lines += [f"- {clip(f['text'], _LINE)} [{cites.cite(f)}]" for f in findings]
            lines.append("")
        # passages not already cited by a finding (above or in this section)
        passages = [p for p in all_passages if _key(p) not in cites.numbers][:3]
        if passages:
            lines += ["Top passages:", ""]
            lines += [f"- {p['title']}: {_excerpt(p['text'])} [{cites.cite(p)}]" for p in passages]
            lines.append("")
        if not findings and not passages:
            if all_findings:  # this question's own findings, all listed under an earlier one
                marks = _marks(cites, all_findings)
                lines += [f"- _Answered by the findings above._ {marks}", ""]
            elif all_passages:  # its passages were all cited above already
                marks = _marks(cites, all_passages)
                lines += [f"- _Its top passages are the ones cited above._ {marks}", ""]
            elif failed:
                lines += [f"- Unavailable (worker failed: {failed}); see Failures.", ""]
            else:
                lines += ["- No sourced answer was found in the corpus.", ""]

    # The caveats section is the "watch out" list: every caveat, even one quoted above.
    caveats = _items(data.rows, None, "caveat")
    lines += ["## Caveats", ""]
    if caveats and warnings:
        lines.append(f"- No caveat retrieved mentions {wanted}; none is listed.")
    elif caveats:
        lines += [f"- {clip(c['text'], _LINE)} [{cites.cite(c)}]" for c in caveats]
    elif errors:
        failed = _failed_workers(errors, None)
        lines.append(f"- Unavailable (worker failed: {failed}): no caveats came back; "
                     "see Failures.")
    else:
        lines.append("- No caveats were found in the corpus.")
    lines.append("")

    if errors:
        lines += ["## Failures", ""]
        lines += [
            f"- `{r['worker']}` on \"{clip(r['task_key'], 120)}\": {r['error']}"
            for r in errors
        ]
        lines.append("")
    notes = coalesce_notes(data.notes) + _unknown_kinds(data.rows)  # one line per stretch of rounds
    if notes:
        lines += ["## Notes", ""]
        lines += [f"- {clip(n, _LINE)}" for n in notes]
        lines.append("")

    lines += ["## Sources", ""]
    for number, item in enumerate(cites.sources, 1):
        passage = Passage.from_dict({**item, "text": item.get("text") or "-"})
        lines.append(f"{number}. {passage.citation() if passage else item['ref']}")
    if not cites.sources:
        lines.append("No sources were cited.")
    return "\n".join(lines).rstrip() + "\n"


def report_filename(topic: str, as_of: str, thread_id: str | None = None) -> str:
    """The report's file name: ``<thread_id>.md``, so the file says which thread it is
    (``threads``, ``inspect`` and the run's first line print the same id), whatever the topic's
    length (the default id cuts the topic's slug at 40 characters; the name used to cut it at 60).

    ``thread_id`` None means the topic's default thread (:func:`app.runs.ids.default_thread_id`). A
    thread id that is not a plain name of ASCII letters, digits, ``-`` and ``_`` (``--thread-id``
    takes any printable text without spaces: ``../x``, ``.hidden``, ``a/b``) gets the slug of its
    ``[a-z0-9]`` runs and ``-t<hash8 of the id>``, so the name has no path separators or leading
    dot and two ids never share a file (on a case-insensitive file system, two hand-made ids
    differing only in case would: the app's own ids are lowercase but for ``--fresh``'s ``T``).

    Example:
        >>> report_filename("Send", "2026-11-30") == default_thread_id("Send", "2026-11-30") + ".md"
        True
        >>> report_filename("Send", "2026-11-30", "mine")
        'mine.md'
        >>> report_filename("Send", "2026-11-30", "../mine") == f"mine-t{sha8('../mine')}.md"
        True
    """
    name = thread_id or default_thread_id(topic, as_of)
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,199}", name):
        return f"{name}.md"
    slug = "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:60].strip("-") or "thread"
    return f"{slug}-t{sha8(name)}.md"


def report_path(out: str | None, data_dir: str | Path, name: str) -> Path:
    """Where a run's report lands: the one owner of that decision (the ``report`` node writes
    there; the CLI checks beforehand that it can).

    Args:
        out: the ``report_out`` setting (``--out``): None for ``<data_dir>/reports/<name>``; an
            existing folder, or any path ending in ``/`` (created if missing), for
            ``<out>/<name>``; else the report file itself.
        data_dir: the run's data dir.
        name: the report's file name (:func:`report_filename`).
    """
    if not out:
        return Path(data_dir) / "reports" / name
    if out.endswith(("/", "\\")) or Path(out).is_dir():
        return Path(out) / name
    return Path(out)


def write_report(markdown: str, path: Path) -> Path:
    """Write ``markdown`` to ``path`` atomically (temp file, then rename); return the path.

    Raises:
        OSError: the report cannot be written; its ``filename`` is ``path`` (not the temp
            file's), and its ``errno`` the cause's (a full disk is still told as one).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(markdown, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, f"cannot write the report: {exc.strerror}", str(path)) from exc
    return path
