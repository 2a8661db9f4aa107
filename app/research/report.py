"""The report: markdown built from the persisted rows, with numbered citations.

The report reads the results database, not graph state: once ``persist`` has run, state holds no
payloads. It opens with a short, cited answer to the topic (``## Answer``), then a section per
sub-question from that question's own evidence. Every bullet ends in a citation number; each
number resolves to one *document* in the Sources list, which lists the cited passages under it,
and each document is listed once (issue 19).

It is honest about what it lacks (see :mod:`app.research.relevance`): when nothing retrieved
mentions the topic it says so at the top, and no section presents those passages as findings; a
worker that failed is "unavailable (worker failed)", never "nothing found".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.llm.offline.sentences import prose_sentences
from app.research.answer import UNANSWERED, answer_lines, section_answer
from app.research.api_entries import entries_out
from app.research.caveat_section import caveat_lines
from app.research.caveats import ASKS_CAUTION, caution_claims, cautionary
from app.research.citations import Citations as _Citations
from app.research.citations import claim_key as _claim_key
from app.research.citations import excerpt as _excerpt
from app.research.citations import headings_only, within
from app.research.citations import items as _items
from app.research.citations import once as _once
from app.research.definitions import definition_line
from app.research.evidence import document_of, retrieval, used_documents
from app.research.facet_sections import facet_answered, facet_findings
from app.research.labels import shown_label
from app.research.notes import folded_notes
from app.research.own import caveat_own, entry_own, subject_own
from app.research.reference import unlabelled
from app.research.relevance import Relevance, judge
from app.research.report_files import report_filename, report_path, write_report
from app.research.report_frame import closing_lines, dropped_report, header_lines
from app.research.rows import ok_items
from app.research.settling import settle, trim_side_documents
from app.research.signposts import pointers_out, stated
from app.research.subject_words import subject_terms
from app.research.text import bullet, clip, visible_text, wording
from workers.sources.base import inert_markdown

__all__ = ["ReportInput", "render_markdown", "report_filename", "report_path", "write_report"]

_LINE = 400
"""The most characters of a bullet's text (a claim, a summary sentence; a note's line is twice
as long: :mod:`app.research.report_frame`)."""


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
    """The relevance verdict on ``rows`` (:func:`app.research.relevance.judge` of
    :attr:`asked`), when the caller judged them already (the ``report`` node keeps it in
    state); None: judged here."""
    planned: list[str] | None = None
    """The sub-questions the planner wrote (state's ``planned``); None when unknown."""
    settled_out: tuple[str, ...] = ()
    """The sub-questions whose every item went with the documents the report does not cite
    (:func:`app.research.settling.settle`): their evidence is another source on what the
    cited one answers."""
    dropped: int = 0
    """How many results a reviewer dropped when they were all of the run's
    (:func:`app.research.outcome.dropped_all`): the report says so instead of "no sourced answer
    was found in the corpus"; 0 otherwise."""
    _memo: dict[str, tuple[tuple[int, int], Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    @property
    def replaced(self) -> bool:
        """Whether the plan that ran is not the planner's: replaced at review or by an edit."""
        return bool(self.planned) and list(self.planned or []) != list(self.sub_questions)

    @property
    def asked(self) -> str:
        """What the report answers: the topic, or the sub-questions of a plan that replaced
        the planner's (a reviewer who asks other questions gets them answered, and judged,
        not the topic they replaced)."""
        return " ".join(self.sub_questions) if self.replaced else self.topic

    def memo(self, name: str, build: Callable[[list[dict[str, Any]]], Any]) -> Any:
        """``build(rows)``, made once per ``rows`` (again if it is replaced): walking every row
        for each sub-question made a report of 4,000 sub-questions over 12,000 rows
        O(questions x rows) (issue 21, item 13)."""
        key = (id(self.rows), len(self.rows))
        if name not in self._memo or self._memo[name][0] != key:
            self._memo[name] = (key, build(self.rows))
        return self._memo[name][1]

    def rows_of(self, task_key: str) -> list[dict[str, Any]]:
        """The rows of one sub-question, in row order (grouped once: :meth:`memo`)."""
        return self.memo("groups", _grouped).get(task_key, [])


def _grouped(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row.get("task_key"), []).append(row)
    return groups


def _failed_workers(errors: Sequence[dict[str, Any]], question: str | None) -> str:
    """``"`analyst`, `critic`"``: the workers with an error row (for ``question``, or any)."""
    names = sorted({r["worker"] for r in errors if question is None or r["task_key"] == question})
    return ", ".join(f"`{n}`" for n in names)


_SIDE_HIT = 0.6
"""A passage whose document no worker quoted is shown only when its document scores at least
this share of the sub-question's best (:func:`app.research.evidence.retrieval`)."""


def _admitted(items: list[dict[str, Any]], shares: dict[str, float], cites: _Citations,
              later: bool) -> list[dict[str, Any]]:
    """The ``items`` a section may cite: all in the first section (it asks the topic itself);
    in a later one (a facet of the topic), those of documents the report cites already, or of
    the document its own search ranks first (``shares`` 1.0; unscored documents are not
    judged). A facet's search is focused on the topic and finds its pages again; the new
    pages it adds below its best one were side pages (issue 19: on SQLite's and Asymptote's
    manuals, 27 sources were added so, 2 of them gold and neither the report's only one)."""
    if not later:
        return items
    return [i for i in items
            if document_of(i) in cites.numbers or shares.get(document_of(i), 1.0) >= 1.0]


def _passages(rows: list[dict[str, Any]], question: str, shares: dict[str, float],
              cites: _Citations, quoted: set[str], later: bool, shown: set[str],
              about: Sequence[str]) -> list[dict[str, Any]]:
    """A section's top passages, in rank order: those no bullet cites yet, whose excerpt is no
    claim the report ``shown`` elsewhere, and the section may cite (:func:`_admitted`). A
    document no finding or caveat of the run was drawn from (``quoted``) is a lead the readers
    of the passages did not quote: its passage is listed only when it scores at least
    :data:`_SIDE_HIT` of the sub-question's best, and a report cites one such lead at most,
    the Answer's included (any number when no worker quoted anything: its passages are all
    the report has). A side hit that shares a few of the question's words is another
    source to read and seldom the one that answers (issue 19: leaving the other leads out lost
    no gold page of SQLite's, Asymptote's or the package docs' questions)."""
    found = [p for p in _items(rows, question, "passage")
             if p["ref"] not in cites.passages
             and not headings_only(p["text"], str(p.get("heading") or ""))
             and not within(wording(_excerpt_claim(p, about)), shown)
             and (document_of(p) in quoted or shares.get(document_of(p), 1.0) >= _SIDE_HIT)]
    found = _once(found, cited=cites.numbers, text=lambda p: _excerpt(p["text"], about=about))
    lead = next((doc for doc in cites.numbers if doc not in quoted), None)
    out = []
    for passage in _admitted(found, shares, cites, later):
        doc = document_of(passage)
        if quoted and doc not in quoted and doc not in cites.numbers:  # a lead
            lead = lead or doc
            if doc != lead:
                continue
        out.append(passage)
    return out


def _excerpt_claim(passage: dict[str, Any], about: Sequence[str] = ()) -> str:
    """A passage bullet's excerpt as a claim (:func:`app.research.citations.claim_key`)."""
    return _claim_key({**passage, "text": _excerpt(passage["text"], about=about)})[0]


def _section_lines(data: ReportInput, question: str, cites: _Citations,
                   listed: set[tuple[str, str]], failed: str, quoted: set[str],
                   later: bool, cautions: set[str]) -> list[str] | None:
    """A sub-question's section, from its own evidence: its findings that name it, not shown
    above (nor a neighbouring entry's: :func:`~app.research.own.subject_own`,
    :func:`~app.research.own.entry_own`), then its passages no bullet cites; a later
    section cites no new side page (:func:`_admitted`). A question asking for caveats shows
    its cautionary claims; no section repeats the Caveats' ``cautions``. None when its search
    found something, but nothing the report does not show elsewhere: a facet whose search finds
    the topic's passages again repeated the first section's best finding, and a limitations
    section the Caveats (issue 19); unless none of it answers a question asking a default, a
    measure (:func:`section_answer`) or, later, what a thing is (:func:`facet_answered`)."""
    shares = retrieval(rows := data.rows_of(question))
    lead, answered = section_answer(question, rows, listed)  # a Default: row, asked for one
    named = subject_own(data, question, stated(_items(rows, question, "finding")))
    own = entry_own(data, _admitted([*lead, *named], shares, cites, later))
    above = False
    if later:  # a facet asking what one thing is: what names or defines it
        own, above = facet_findings(question, rows, own, listed)
    if ASKS_CAUTION.search(question):  # answered by its caveats
        caveats = _admitted(_items(rows, question, "caveat"), shares, cites, later)
        own = cautionary([*caveats, *own], cautions, cites.numbers) or own
    findings = [f for f in _once(own, listed, cites.numbers)  # a copy: another's sentence
                if wording(_claim_key(f)[0]) not in cautions]
    listed.update(_claim_key(f) for f in findings)
    lines: list[str] = []
    if findings:
        lines += ["Findings:", ""]
        lines += [bullet(definition_line(f), f"[{cites.cite(f)}]", _LINE) for f in findings]
        lines.append("")
    shown = {wording(text) for text, _ref in listed} | cautions
    about = subject_terms(question, rows)
    passages = entry_own(data, subject_own(
        data, question, _passages(rows, question, shares, cites, quoted, later, shown, about)))
    if above:  # its answer is above: a passage of code is no other answer ("Examples: ```")
        passages = [p for p in passages if prose_sentences(p["text"])]
    passages = pointers_out(passages, lambda p: _excerpt(unlabelled(p), about=about),
                            bool(findings or listed))[:3]
    if passages:  # each shown by its sentence naming the most of the question's subject
        lines += ["Top passages:", ""]
        lines += [bullet(f"{shown_label(p)}: {_excerpt(unlabelled(p), about=about)}",
                         f"[{cites.cite(p)}]", 2 * _LINE) for p in passages]  # clipped
        lines.append("")
        listed.update((_excerpt_claim(p, about), p["ref"]) for p in passages)
    if lines:
        return lines
    if later and question not in data.settled_out:  # its documents cited: is it answered?
        answered = answered and facet_answered(question, rows, listed)  # trial 121, F8
    if above and answered:  # its answer is quoted above: folded into the Notes, no section
        return None
    if failed:
        return [f"- Unavailable (worker failed: {failed}); see Failures.", ""]
    if not answered:  # said elsewhere, but none of it answers this question
        return [UNANSWERED, ""]
    if question in data.settled_out or any(_items(rows, question, kind)
                                           for kind in ("finding", "passage")):
        return None  # found, and said elsewhere; "no sourced answer" only when none was
    return ["- No sourced answer was found in the passages retrieved.", ""]


def _sections(data: ReportInput, cites: _Citations, errors: list[dict[str, Any]],
              relevance: Relevance, cautions: set[str], answered: set[tuple[str, str]],
              answer: Sequence[str] = ()) -> tuple[list[str], list[str]]:
    """The sub-questions' sections, numbered as shown, and the sub-questions not shown: those
    that found nothing the report does not show elsewhere (:func:`_section_lines`; the Answer's
    claims, ``answered``, included), or whose section would say what one above says, the
    Answer's lines (``answer``) included ("No passage retrieved for this question mentions ..."
    under each sub-question of an off-topic run, "No sourced answer was found" under it); not
    the line that none of it answers its question, said of that question alone (trial 121)."""
    listed = set(answered)  # each claim is shown once, where it first appears
    quoted = used_documents(data.rows)
    lines: list[str] = []
    folded: list[str] = []
    said: set[tuple[str, ...]] = {tuple(answer)} if answer else set()
    for index, question in enumerate(data.sub_questions):
        rows = data.rows_of(question)
        if relevance.warnings and (_items(rows, question, "finding")
                                   or _items(rows, question, "passage")):
            body: list[str] | None = [
                f"- No passage retrieved for this question mentions {relevance.wanted}"
                "; none is shown as a finding.", ""]
        else:
            body = _section_lines(data, question, cites, listed,
                                  _failed_workers(errors, question), quoted, later=index > 0,
                                  cautions=cautions)
        if body is None or (tuple(body) in said and body[0] != UNANSWERED):  # nothing new, or
            folded.append(question)  # a line said already (not that none of it answers it)
            continue
        said.add(tuple(body))
        lines += [f"## {index + 1 - len(folded)}. {clip(question, 300)}", "", *body]
    return lines, folded


def render_markdown(data: ReportInput) -> str:
    """Render the report.

    Claims are bullets ending in ``[n]``; a bullet in italics (``- _..._ [n][m]``) is the report
    speaking about its own sections, not a claim.

    Layout (issue 19): title and run facts; ``## Answer``, a short cited answer to the topic
    itself (the model's summary when there is one); a section per sub-question answering it
    from its own findings and top passages, none repeating a claim said above, the Answer's
    included (one that found nothing new is named in the Notes, never repeated: with the
    topic alone as plan, its one section shows what the Answer did not); a Caveats section
    (limitations and warnings, none repeating a finding nor the Answer);
    a Failures section when any worker ended in error; Notes; the numbered Sources list, one
    entry per document with its cited passages under it.

    Control characters but newline and tab are escaped (:func:`visible_text`): a passage's ANSI
    or OSC escape sequence (a corpus file's ``\\x1b]0;TITLE\\x07``) would run in a
    terminal showing the file. Above the Sources (whose entries escape their own titles and
    URLs), no text can open an HTML tag or a link (:func:`workers.sources.base.inert_markdown`):
    a search result's snippet or a planner's question is not the report's markup.
    """
    text = dropped_report(data) if data.dropped and not data.rows else _render(data)
    body, sources, cited = text.partition("\n## Sources\n")  # its links: citations' own
    return visible_text(inert_markdown(body) + sources + cited)


def _render(data: ReportInput) -> str:
    """The report's markdown (:func:`render_markdown`), its text as the rows and notes hold it."""
    cites = _Citations()
    errors = [r for r in data.rows if r["status"] == "error"]
    relevance = data.relevance or judge(data.asked, data.rows)
    wanted, warnings = relevance.wanted, relevance.warnings
    lines = header_lines(data, errors)
    answered: set[tuple[str, str]] = set()  # the Answer's claims: said once, there
    answer: list[str] = []
    if warnings:
        unreached = (f" Not reached (see Notes): {'; '.join(relevance.unreached)}."
                     if relevance.unreached else "")
        lines += [f"> **{relevance.sources.capitalize()} say nothing about "
                  f"\"{clip(data.asked, 200)}\".** No retrieved passage mentions {wanted}, so no "
                  f"finding is shown below.{unreached}", ""]
    else:
        if relevance.missing:  # one word the corpus lacks: named, the rest answered
            note = relevance.note(data.asked)
            lines += [f"> {note[:1].upper()}{note[1:]}.", ""]  # its names as written (125, F5)
        data = settle(entries_out(data), relevance)  # no API entry off its question (L1)
        # what a summary sentence may cite: the items of finished rows, as every section shows;
        # unsourced claims are dropped; a summary of unrelated passages is not shown at all
        by_ref = {item["ref"]: item for _row, item in ok_items(data.rows) if item.get("ref")}
        summary = [(s, [r for r in refs if r in by_ref]) for s, refs in data.summary]
        answer = answer_lines(data, cites, [(s, r) for s, r in summary if r], by_ref, answered)
        lines += answer
        data = trim_side_documents(data, set(cites.numbers))
    cautions = set() if warnings else caution_claims(data.rows)  # not repeated as findings
    sections, folded = _sections(data, cites, errors, relevance, cautions, answered,
                                 answer[2:] if not warnings else ())
    lines += sections
    lines += caveat_lines(data.rows, cites, _failed_workers(errors, None), wanted, bool(warnings),
                          cautions, answered, lambda f: caveat_own(data, f, cites.numbers))
    # the topic's own question is what the Answer answers: named, it read as dropped
    folded = folded if data.replaced else [q for q in folded if q != data.sub_questions[0]]
    data = dataclasses.replace(data, notes=[*data.notes, *folded_notes(folded, data.settled_out)])
    lines += closing_lines(data, errors)
    lines += ["## Sources", ""]
    lines += cites.lines() or ["No sources were cited."]
    return "\n".join(lines).rstrip() + "\n"
