"""The report's ``## Answer``: a short, cited answer to the topic itself, before the sections
(issue 19, section 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.llm.offline.sentences import prose_sentences
from app.research.answer_rank import asked_entries, candidates, in_order, ranked
from app.research.asked_rows import asked_rows, listing_order
from app.research.citations import (
    Citations,
    claim_key,
    excerpt,
    headings_only,
    items,
    near_copies_out,
    once,
    said,
)
from app.research.contrasts import compare_answer, listing_row
from app.research.definitions import definition_line, definitions, of_asked
from app.research.entry_rows import default_entries, described_entries
from app.research.labels import shown_label
from app.research.neighbours import about_neighbour, asked_names
from app.research.own import (
    alone_asked,
    command_neighbour,
    entry_labelled,
    entry_of,
    option_whole,
    passages_by_ref,
)
from app.research.reference import entry_label, written_names
from app.research.relevance import describe_terms, mentioned, name_terms, needed
from app.research.replies import reply_passage
from app.research.sentence_kinds import fits
from app.research.sentence_subjects import opened_section
from app.research.signposts import stating
from app.research.subject_words import subject_terms
from app.research.text import bullet, clip
from app.research.topics import compare_parts, topic_kind
from app.research.versions import version_label
from workers.sources.entries import entry_led
from workers.sources.query import mentions

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["UNANSWERED", "answer_lines", "entry_answers", "section_answer"]

_LINE = 400
"""The most characters of an answer bullet (as the report's other bullets)."""
_ANSWER_SENTENCES = 2
"""The most sentences the Answer quotes of the findings (the definitions aside)."""


def answer_lines(data: ReportInput, cites: Citations, summary: list[tuple[str, list[str]]],
                  by_ref: dict[str, dict[str, Any]],
                  shown: set[tuple[str, str]] | None = None) -> list[str]:
    """The ``## Answer`` section: a short, cited answer to the topic itself (issue 19).

    A model's summary when there is one; else findings (and, for a limitation question, the
    critic's caveats) that name the topic in the sentence itself: at least
    :func:`app.research.relevance.needed` of its words, one of them a word of what it is about
    (:func:`~app.research.subject_words.subject_terms`), so "the default value of X" is never
    answered by a sentence naming only "default value" (a neighbour's). The
    first sub-question's (it asks the topic itself) come before the others', and within them:
    those of the sub-question's strongest document first
    (:func:`app.research.evidence.topic_strength`: the search ranks it high, the workers quote
    it most, its evidence names most of the topic), then a sentence whose own subject names
    the topic before one about a neighbour
    ("The TEMP database has a default cache size ..."), then one that answers the question's
    kind (:func:`fits`: a definition for "what is", a limitation for "what are the
    limitations of", a default, a reason, a way to do it, a difference), then in rank order
    (each candidate's criteria: :class:`~app.research.answer_rank.AnswerRank`);
    for a kind other than "what", the kind's answer comes before a sentence whose own subject
    names the topic, and after it only one whose own subject is another thing ("SQLite
    supports a limited subset of ALTER TABLE" before "The ALTER TABLE command allows ...");
    else the first sub-question's top passage that names the subject, or its top passage
    under a line saying that none does.

    ``shown`` (updated when given) collects the :func:`~app.research.citations.claim_key` of
    each finding or caveat the Answer quotes: the sections and the Caveats below do not say
    them again."""
    lines = ["## Answer", ""]
    if summary:
        for sentence, refs in summary:
            marks = "".join(f"[{cites.cite(by_ref[r])}]" for r in refs)
            lines.append(f"- {clip(sentence, _LINE)} {marks}")
        return [*lines, ""]
    lines += _reply_line(data, cites)  # a FAQ's "Yes." under the question asked (128, F3)
    kind = topic_kind(data.asked)
    subject = subject_terms(data.asked, data.rows)
    chosen = _chosen(data, kind)
    if chosen:
        passages = passages_by_ref(data)
        chosen = entry_labelled(data, chosen, asked_entries(data))  # "`PS1`: The default is ..."
        for f in chosen:  # a changelog's version heading, when the question asks the version
            line = definition_line(f)
            text, heading, _title = passages.get(str(f.get("ref")), ("", "", ""))
            if label := (version_label(data.asked, line, heading)
                         or opened_section(line, text)):  # "This is ..." under its section
                line = f"{label}: {line}"
            lines.append(bullet(line, f"[{cites.cite(f)}]", _LINE))
        if shown is not None:
            shown.update(claim_key(f) for f in chosen)
        return [*lines, ""]
    return [*lines, _passage_line(data, subject, cites, shown), ""]


def _reply_line(data: ReportInput, cites: Citations) -> list[str]:
    """The Answer's first line when the topic asks yes or no and a retrieved passage of its
    first sub-question is headed by that question and opens with a bare reply
    (:func:`~app.research.replies.reply_passage`): the heading and the reply ("5.1 Is libcurl
    thread-safe? Yes."), cited; else none. The reply is one word, no finding, so the sentences
    after it answered without it."""
    first = data.sub_questions[0] if data.sub_questions else None
    found = reply_passage(data.asked, items(data.rows_of(first), first, "passage")
                          if first else [])
    if found is None:
        return []
    reply, passage = found
    heading = " ".join(str(passage.get("heading") or "").rsplit(" / ", 1)[-1].split())
    return [bullet(f"{heading} {reply}", f"[{cites.cite(passage)}]", _LINE)]


def entry_answers(data: ReportInput, kind: str) -> list[dict[str, Any]]:
    """The reference entries that answer the question itself, best first, each as a finding:
    for a default, the ``Default:`` row of the entry it names
    (:func:`app.research.entry_rows.default_entries`: a tuning page's prose answered while the
    reference page's row was retrieved); for a "what is" question or a bare topic, the
    definition of the symbol it names (:func:`app.research.definitions.definitions`), else a
    reference entry's ``Description:`` row, else a row labelled by the thing asked
    (:func:`app.research.asked_rows.asked_rows`, trial 123, F3); else ``[]``. The Answer leads
    with the first, and :func:`app.research.settling.settle` keeps its document."""
    subject, names, written = (subject_terms(data.asked, data.rows), name_terms(data.asked),
                               written_names(data.asked))
    pairs = [(q, data.rows_of(q)) for q in data.sub_questions]
    if kind == "default":
        return default_entries(pairs, subject, names, needed(subject), written)
    if kind not in ("what", "topic", "compare"):
        return []
    return (of_asked(definitions(pairs, data.asked), asked_entries(data))  # trial 125, F2
            or described_entries(pairs, subject, names, needed(subject), written)
            or asked_rows(pairs, data.asked))


def _chosen(data: ReportInput, kind: str) -> list[dict[str, Any]]:
    """The Answer's findings (see :func:`answer_lines`): the question's own reference entry
    first (:func:`entry_answers`); for a comparison, the sentence contrasting the things and a
    defining sentence of each thing no line names (:func:`~app.research.contrasts.compare_answer`:
    "Send vs reducers" was answered by two sentences on ``Send``, trial 113's add_callback and
    spawn_callback by add_callback's alone); then the ranked findings."""
    found = ranked(data, kind)
    ordered = in_order(found, kind)
    defined = entry_answers(data, kind)
    if defined and kind == "default":
        ordered = _own_defaults(data, defined[0], ordered)
    if kind in ("what", "topic", "compare"):
        by_claim = {claim_key(d): d for d in defined}  # a finding that is one: shown as one
        ordered = [by_claim.get(claim_key(f), f) for f in ordered]
    # each sentence once (:func:`once`): of copies of one manual, the strongest document's,
    # which comes first; a claim a kept one of the same ref holds whole is left out
    if kind != "compare":
        ordered = listing_order(ordered, subject_terms(data.asked, data.rows))  # 123, F3
        return stating(near_copies_out(once([*defined[:1], *ordered])))[:_ANSWER_SENTENCES]
    # the contrast, then each thing's defining sentence (:func:`compare_answer`), from every
    # finding ("... equivalent to add_callback" names one side) but another command's (121, F1)
    found = [by_claim.get(claim_key(f), f) for _o, k, f in candidates(data, kind)
             if k == "finding" and not command_neighbour(data, data.asked, str(f.get("ref")))]
    chosen = compare_answer(once([*ordered, *found]), defined, compare_parts(data.asked),
                            entry_of(data))
    chosen = once(chosen or ordered[:1], text=definition_line)  # two sides' like wording
    rest = [f for f in ordered if not listing_row(str(f["text"]))]  # no counter's row
    return once([*chosen, *rest], text=definition_line)[:max(_ANSWER_SENTENCES, len(chosen))]


def _own_defaults(data: ReportInput, entry: dict[str, Any],
                  ordered: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``ordered`` less the default sentences of entries other than ``entry`` (the asked
    setting's own, :func:`entry_answers`): a setting has one default, and its entry states it.
    Asked HISTSIZE's, HISTFILESIZE's "The shell sets the default value to the value of
    HISTSIZE" stood beside HISTSIZE's "default value to 500" (trial 45, W4)."""
    passages = passages_by_ref(data)

    def label(item: dict[str, Any]) -> str:
        text, heading, title = passages.get(str(item.get("ref")), ("", "", ""))
        found = entry_label({"text": text, "heading": heading, "title": title})
        return "" if found == title else found.casefold()  # a page's title is no entry

    own = label(entry)
    return [f for f in ordered
            if not (fits("default", str(f["text"])) and own and label(f) not in ("", own))]


def _passage_line(data: ReportInput, subject: list[str], cites: Citations,
                  shown: set[tuple[str, str]] | None) -> str:
    """The Answer's line when no finding names the topic: the first sub-question's top
    passage that names the subject, or its top passage under a line saying that none does;
    of the passages that have a prose sentence, when any has (never a code fragment when
    another passage has a sentence). A passage whose sentence naming the
    subject is a neighbouring entry's (:func:`~app.research.neighbours.about_neighbour`) does
    not count as naming it, nor one that does not write an option the question writes
    (:func:`~app.research.own.option_whole`), and a listing that does is no code fragment (Ant's
    ``-keep-going, -k  execute all targets ...``). Its excerpt joins ``shown``: no section
    says it again."""
    first = data.sub_questions[0] if data.sub_questions else None
    found = [p for p in (items(data.rows_of(first), first, "passage") if first else [])
             if not headings_only(p["text"], str(p.get("heading") or ""))]
    written = written_names(data.asked)  # a listing's line for the option asked is no fragment
    passages = [p for p in found if prose_sentences(p["text"]) or (
        not option_whole(written, "") and option_whole(written, p["text"]))] or found
    asked = asked_names(data.asked, (str(p.get("heading") or "") for p in passages),
                        (str(p.get("text") or "") for p in passages))
    naming = [p for p in passages if (not subject or mentions(subject, f"{p['title']} {p['text']}"))
              and option_whole(written, p["text"])]
    alone = alone_asked(data, asked)
    about = [p for p in naming if not about_neighbour(
        excerpt(p["text"], about=subject), p["text"], asked, p.get("heading", ""),
        p.get("title", ""), alone)]
    top = about[0] if about else passages[0] if passages else None
    if top is None:
        return "- No sourced answer was found in the passages retrieved."
    said = excerpt(top["text"], about=subject if about else ())
    if shown is not None:  # the sentence, also as a finding says it whole
        whole = excerpt(top["text"], len(top["text"]) + 1, about=subject if about else ())
        shown.update((" ".join(s.split()).lower(), top["ref"]) for s in (said, whole))
    if about:  # an entry's own line names itself ("request_timeout (float) – ...")
        label = "" if entry_led(said) else f"{shown_label(top)}: "
        return bullet(f"{label}{said}", f"[{cites.cite(top)}]", 2 * _LINE)
    # said so: a passage on another subject is no answer to this one
    none = "names" if not naming else "is about"
    return (f"- _No sentence retrieved {none} {describe_terms(subject)}; the closest "
            f"passage:_ {shown_label(top)}: {said} [{cites.cite(top)}]")


_JUDGED = ("default", "measure")
"""The kinds of question whose answer a report can tell by its words: a default (the
``Default:`` row, "defaults to"), a measure (a number with its unit, a date)."""
UNANSWERED = ("- _No sentence retrieved for this question answers it; what its search found is "
              "shown above._")
"""A section's line when nothing the report shows answers its question and its own evidence
adds nothing (:func:`section_answer`)."""


def section_answer(question: str, rows: Sequence[Mapping[str, Any]],
                   listed: set[tuple[str, str]]) -> tuple[list[dict[str, Any]], bool]:
    """What a section asking ``question`` leads with, and whether the report answers it.

    For a question asking a default or a measure (:data:`_JUDGED`): the ``Default:`` row of the
    entry it names among its own passages (:func:`app.research.entry_rows.default_entries`),
    when no bullet shows it yet (``listed``: the claim keys the report shows), and whether a
    claim the report shows answers it: it fits the kind (:func:`fits`) and names the question's
    subject (:func:`~app.research.subject_words.subject_terms`), or it is the named entry's
    row, shown under the entry's name (``task_acks_late``: "Default: Disabled.", trial 89). Any
    other question: ``([], True)``, as it is not judged.
    Unjudged, a section asking a default was folded as "would repeat the report"
    while nothing in the report said the default.
    """
    kind = topic_kind(question)
    if kind not in _JUDGED:
        return [], True
    subject, names = subject_terms(question, rows), name_terms(question)
    lead: list[dict[str, Any]] = []
    if kind == "default":
        lead = default_entries([(question, rows)], subject, names, needed(subject),
                               written_names(question))[:1]
    answered = any(fits(kind, text) and len(mentioned(subject, text, names)) >= needed(subject)
                   for text, _ref in listed)
    shown = [f for f in lead if said(f, listed)]  # the entry's own row, named by its heading
    return [f for f in lead if f not in shown], answered or bool(shown)

