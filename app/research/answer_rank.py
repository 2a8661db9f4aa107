"""Which findings the report's ``## Answer`` weighs and in what order (issue 19, section 3):
each candidate that names the topic gets a named sort key (:class:`AnswerRank`), read by its
criteria's names by the Answer's order (:func:`in_order`) and by a how-to's code
(:func:`~app.research.code_answers.beside_code`), never by position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from app.llm.offline.lists import lead_in
from app.llm.offline.relevance import defines_asked
from app.llm.offline.words import stems
from app.research.answer_names import unnamed
from app.research.answer_shapes import (
    answers_kind,
    denies,
    goes_after,
    says_what_to_do,
    unnamed_default,
)
from app.research.caveat_shapes import against
from app.research.caveats import asked_harm
from app.research.citations import claim_key, items
from app.research.code_answers import beside_code, shows_how
from app.research.definitions import DEFINES
from app.research.evidence import document_of, topic_strength, whole_sayers
from app.research.neighbours import asked_names, description_of, speaks_of_its_entry
from app.research.own import entry_labelled, entry_of, names_subject, neighbours, passages_by_ref
from app.research.reference import says_default, written_names
from app.research.relevance import name_terms, topic_terms
from app.research.sentence_kinds import (
    asked_label,
    conditioned,
    defining,
    fits,
    genus,
    headed_by,
    names_another,
    predicated,
)
from app.research.sentence_subjects import section_subject, subject_of
from app.research.signposts import stating
from app.research.subject_words import question_terms, subject_terms
from workers.sources.query import mentions

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["AnswerRank", "asked_entries", "candidates", "in_order", "ranked"]


class AnswerRank(NamedTuple):
    """A candidate finding's sort key in the Answer (:func:`ranked`): its criteria in order of
    precedence, the lower value first. A criterion one kind of question does not weigh stays at
    its default, the same for every candidate.

    Attributes:
        order: the sub-question's place in the plan (0, the topic itself, first).
        late: 0 a "no" on the subject of a yes/no question (asked why not to do a thing, the
            advice against it, trial 121, F5); 1 any other; 2 a sentence that goes after those
            that answer (:func:`~app.research.answer_shapes.goes_after`: a warning, a lead-in
            ending in a colon, a history row, one pointing back).
        unnamed: a question of a kind other than "what" (nor a comparison): it names none of
            the names the question writes that set the candidates apart
            (:func:`~app.research.answer_names.unnamed`, trial 125, F2).
        neighbour: its own subject is another thing than the topic ("The TEMP database has a
            default cache size ..."); of a "what" question, any sentence whose subject does not
            name the topic.
        unfit: of a "what" question, not a sentence that fits the kind and is about the topic;
            of another, 0 code that shows how (:func:`~app.research.code_answers.shows_how`),
            1 a sentence that fits the kind, 2 another, one more for a default asked that it
            only names.
        undefined: a "what is" question: it does not say what the thing asked is or does
            (:func:`~app.llm.offline.relevance.defines_asked`, trial 110, F1).
        unwhole: a "what" question: another candidate names the whole topic by itself, and
            this one does not (:func:`~app.research.evidence.whole_sayers`, trial 125, F3; under
            the section of a thing the topic names, naming the rest of it, trial 125, leftover 1).
        weaker: its document is weaker than the strongest of its sub-question's candidates
            (:func:`~app.research.evidence.topic_strength`).
        no_advice: a "how" question: neither code nor a sentence saying what to do.
        default_unstated: a default asked: the sentence only names it ("sets the default
            TimeoutSec= value", systemd's, trial 87; "rather slow by design", trial 124, M3-F1).
        conditioned: a default asked: stated under a condition ("In sh emulation, ...").
        unwritten: the question writes a name (an identifier, an option) the sentence's own
            subject does not.
        unheaded: a "what" question: its subject is not headed by the topic, or names another
            thing ("menu is the map ...", trial 86).
        no_genus: a "what" question: it does not name the kind of thing its subject is ("A
            partial index is an index built over ...").
        off_topic: a question of another kind: its own subject does not name the topic.
        position: its place among the candidates (plan order, then the evidence's rank).

    Example:
        >>> sorted([AnswerRank(order=0, late=2), AnswerRank(order=0, late=1, unfit=2)])[0].late
        1
    """

    order: int = 0
    late: int = 1
    unnamed: bool = False
    neighbour: bool = False
    unfit: int | bool = False
    undefined: bool = False
    unwhole: bool = False
    weaker: bool = False
    no_advice: bool = False
    default_unstated: bool = False
    conditioned: bool = False
    unwritten: bool = False
    unheaded: bool = False
    no_genus: bool = False
    off_topic: bool = False
    position: int = 0


def candidates(data: ReportInput, kind: str) -> list[tuple[int, str, dict[str, Any]]]:
    """``(order, kind, item)`` for each finding of each sub-question in plan order, and its
    caveats too for a limitation question (they are its answer) or, of another, those naming
    the harm or limit it asks about (:func:`~app.research.caveats.asked_harm`) or denying what
    a yes/no question asks (:func:`~app.research.answer_shapes.denies`), each claim once."""
    out: list[tuple[int, str, dict[str, Any]]] = []
    seen: set[tuple[str, str]] = set()
    for order, question in enumerate(data.sub_questions):
        for item_kind in ("caveat", "finding"):
            # rows_of has the question's rows already: items need not read them again
            for item in items(data.rows_of(question), None, item_kind):  # type: ignore[arg-type]
                if item_kind == "caveat" and kind != "limitation" and not asked_harm(
                        data.asked, str(item["text"])) and not denies(data.asked, item["text"]):
                    continue
                if claim_key(item) not in seen:
                    seen.add(claim_key(item))
                    out.append((order, item_kind, item))
    return out


def asked_entries(data: ReportInput) -> set[str]:
    """The entries the question names (:func:`~app.research.neighbours.asked_names`)."""
    passages = passages_by_ref(data)
    return asked_names(data.asked, (heading for _t, heading, _ti in passages.values()),
                       (text for text, _h, _ti in passages.values()))


def in_order(ranks: list[tuple[AnswerRank, dict[str, Any]]], kind: str) -> list[dict[str, Any]]:
    """The answer's candidate findings (:func:`ranked`'s, of a question of ``kind``) in order:
    by sub-question; within one, those of its strongest document
    (:func:`app.research.evidence.topic_strength`) first; then by the rest of their rank; a
    signpost (:func:`~app.research.signposts.stating`) only when there is nothing else ("For
    tricky behavior, see case and character ranges." was the second of two bullets, trial
    104, R4).
    Of a kind other than "what", "topic" and "compare", a sentence that answers the kind, not
    a warning, comes before the strongest document's others ("How do I shrink the database
    file": "However, the database file does not shrink." led), after one naming a name that
    sets the candidates apart when it names none (``unnamed``, trial 125, F2). Of a "what is"
    question or a bare topic, a definition whose own subject is the topic does
    (else "What is a bare repository?" led with a side fact of the strongest page, the
    glossary's entry second), then, of a "what is" question, any sentence saying what the
    thing asked is or does (not ``undefined``: "The suEXEC feature provides users ...
    the ability to run CGI ..." after
    configure.html's "The following options are used to fine tune the behavior of suexec.",
    its page quoted most, trial 110, F1); then one naming the whole topic by itself
    (not ``unwhole``, trial 125, F3)."""

    def key(pair: tuple[AnswerRank, dict[str, Any]]) -> tuple:
        rank, _finding = pair
        lead: tuple = ()
        if kind not in ("what", "topic", "compare"):  # naming no name setting them apart: after
            lead = (rank.late, rank.unnamed, rank.unfit)
        elif kind in ("what", "topic"):
            lead = (rank.late, rank.neighbour or rank.unfit, rank.undefined)
        return (rank.order, *lead, rank.unwhole, rank.weaker, rank)  # the rank: its rest

    return stating([finding for _, finding in sorted(ranks, key=key)])


def ranked(data: ReportInput, kind: str) -> list[tuple[AnswerRank, dict[str, Any]]]:
    """The Answer's candidate findings that name the topic, each with its rank (see
    :func:`app.research.answer.answer_lines` for the order)."""
    terms, subject = question_terms(data.asked, data.rows), subject_terms(data.asked, data.rows)
    passages, asked = passages_by_ref(data), asked_entries(data)
    written = written_names(data.asked)
    out: list[tuple[AnswerRank, dict[str, Any]]] = []
    for position, (order, _item_kind, finding) in enumerate(candidates(data, kind)):
        quote = str(finding["text"])
        text = lead_in(quote)  # a list's quote: judged by its lead-in
        passage, heading, title = passages.get(str(finding.get("ref")), ("", "", ""))
        shows = shows_how(kind, quote, text, heading, subject)  # "... like this:" and its code
        if not (shows or names_subject(terms, subject, asked, text, passage, heading, written)):
            continue  # "a default" is not X's
        if neighbours(data, data.asked, text, str(finding.get("ref")), asked):
            continue  # ServerLimit's "this directive ... MaxRequestWorkers"
        # the sentence's own subject names the topic: "The default cache size is -2000",
        # not "The TEMP database has a default cache size of 0 pages" (a neighbour's)
        described = description_of(passage, text, asked, heading)  # its entry's opening
        own = described or section_subject(subject_of(text), text, passage) or asked_label(
            text, asked) or (  # a label; "is"; "This is ..." opening its section: the section's
            predicated(text, subject) if kind in ("what", "topic") else "")
        another = names_another(own, asked)  # "The --dont-clean-words option ..."
        about = 0 if another else len(mentions(subject, own)) if terms else 0
        about = about or int(bool(terms) and speaks_of_its_entry(own))  # "This option ..."
        answers = answers_kind(kind, own, text, data.asked)  # "The only difference is ..."
        about = about or int(answers or shows)
        fit = answers or shows or fits(kind, text) or (kind in ("what", "topic") and (
            bool(described) or defining(text, subject, data.asked)))
        # a default with no subject goes after unless the Answer shows it under its entry's
        # name ("`PS4`: Default is '+%N:%i> '", trial 115, F9)
        after = goes_after(data.asked, kind, quote, text,  # "This is ..." opening its document
                           (str(finding.get("ref")), passage)) or (
            unnamed_default(text, data.asked)
            and DEFINES not in entry_labelled(data, [finding], asked)[0])
        # a yes/no question's "no" on its subject first or, asked why not to do a thing, the
        # advice against it (trial 121, F5); a sentence that goes after, last
        no = denies(data.asked, text) and bool(about or against(data.asked, text))
        rank = AnswerRank(order=order, late=0 if no else 1 + after, position=position,
                          unwritten=bool(written) and not (written & written_names(own)))
        if kind in ("what", "topic"):  # a definition helps once the subject is its own;
            # of "What does ip_hash do in an upstream block?", ip_hash's sentence before the
            # block's (not the file's intro on upstream blocks); then one that names the kind
            # of thing its subject is ("A partial index is an index built over ...")
            rank = rank._replace(neighbour=not about, unfit=not (fit and about),
                                 unheaded=bool(another or not headed_by(own, subject)),
                                 no_genus=not genus(text, own))
        else:  # the kind's answer leads unless the sentence is about a neighbour ("The
            # default line cap ... may be changed" for the default miter limit); its code
            # first, then "The solution is" before its strongest document (P4)
            unstated = kind == "default" and not says_default(text)
            rank = rank._replace(neighbour=bool(own) and not about,
                                 unfit=0 if shows else 1 + (not fit) + unstated,
                                 no_advice=kind == "how" and not (
                                     shows or says_what_to_do(text, own)),
                                 default_unstated=unstated,
                                 conditioned=kind == "default" and conditioned(text),
                                 off_topic=not about)
        out.append((rank, finding))
    return _set_apart(data, kind, beside_code(kind, out))  # the code, and what to do, first (P4)


def _set_apart(data: ReportInput, kind: str, ranks: list[tuple[AnswerRank, dict[str, Any]]]
               ) -> list[tuple[AnswerRank, dict[str, Any]]]:
    """``ranks`` with the criteria that weigh each candidate against the others: ``unnamed``
    (a kind other than "what", "topic" and "compare"), ``undefined`` and ``unwhole`` (a "what"
    question; a sentence under the section of a thing the topic names may say it whole,
    :func:`~app.research.evidence.whole_sayers`) and ``weaker`` (see :class:`AnswerRank`)."""
    strong = topic_strength(data.rows, topic_terms(data.asked), name_terms(data.asked),
                            subject_terms(data.asked, data.rows))
    fitted, what = kind not in ("what", "topic", "compare"), kind == "what"
    names = sorted({n.lower() for n in name_terms(data.asked)})
    apart = unnamed(names, ranks, entry_of(data)) if fitted else set()
    asked = stems(data.asked) if what else frozenset()
    sections = {ref: heading for ref, (_t, heading, _ti) in passages_by_ref(data).items()}
    lifted = {id(f) for f in whole_sayers([f for _r, f in ranks], strong,
                                          topic_terms(data.asked) if what else (), (), sections)}
    best: dict[int, float] = {}
    for rank, finding in ranks:
        best[rank.order] = max(best.get(rank.order, 0.0), strong.get(document_of(finding), 0.0))
    return [(rank._replace(
        unnamed=id(finding) in apart,
        undefined=bool(asked) and not defines_asked(str(finding["text"]), asked),
        unwhole=bool(lifted) and id(finding) not in lifted,
        weaker=strong.get(document_of(finding), 0.0) < best[rank.order]), finding)
        for rank, finding in ranks]
