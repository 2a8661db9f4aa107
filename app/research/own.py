"""Which sentences are a question's own: those naming what it asks about (its subject's words:
:mod:`app.research.subject_words`), not only the words of its kind ("default value") nor a
neighbouring entry's (issue 19, section 3: "a sentence is only used for a subject the sentence
itself names"). The Answer and every section judge alike."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.llm.offline.headings import heading_of
from app.research.answer_shapes import says_what_to_do, solution_part
from app.research.caveat_subjects import on_subject
from app.research.citations import items
from app.research.definitions import DEFINES, LEANS, plain_name
from app.research.neighbours import (
    about_neighbour,
    asked_names,
    compound_neighbour,
    entry_names,
    entry_of_asked,
    other_command,
    page_titles,
    sentence_entry,
)
from app.research.reference import written_names
from app.research.relevance import name_terms, needed
from app.research.sentence_subjects import opened_section, subject_of
from app.research.subject_words import question_terms, subject_terms
from workers.sources.asking import asks_task
from workers.sources.query import mentions

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["caveat_own", "command_neighbour", "entry_labelled", "entry_of", "entry_own",
           "names_subject", "neighbours", "option_whole", "passages_by_ref", "subject_own"]

def names_subject(terms: Sequence[str], subject: Sequence[str], asked: set[str], text: str,
                  passage: str = "", heading: str = "", written: Collection[str] = ()) -> bool:
    """Whether the sentence ``text`` names a question: at least
    :func:`~app.research.relevance.needed` of its ``terms``
    (:func:`~app.research.subject_words.question_terms`), one of them a word of its
    ``subject`` (:func:`~app.research.subject_words.subject_terms`). A sentence of the keyword
    entry the question names (``asked``: :func:`~app.research.neighbours.asked_names`), a word
    of its subject, names it: "the delay defaults to 2000 ms" under ``inter``, "globstar: If
    set, ..." for "the globstar shell option" (trial 125, F2). A dotted name asked
    (``gc.auto``, a configuration key) is named only whole: "When using git gc --auto ..." is
    ``gc.writeCommitGraph``'s. A sentence that
    writes an identifier the question writes (``written``: its
    :func:`~app.research.reference.written_names`) names it, whatever context the question adds
    ("ip_hash ensures ..." for "What does ip_hash do in an upstream block?"). No ``terms``: all do.

    Example:
        >>> names_subject(["default", "dotfactor"], ["dotfactor"], set(),
        ...               "The default value is displayed after prompt.")
        False
    """
    if not terms:
        return True
    named = _named(asked, text, passage, heading)
    if not _whole(asked, named) or not option_whole(written, named):
        return False
    own = " ".join((entry_names(label := sentence_entry(passage, text, heading)) | {label}) & asked)
    return bool(set(written) & written_names(named) or mentions(subject, own)) or (
        len(mentions(terms, named)) >= needed(terms) and bool(mentions(subject, named)))


def _whole(asked: set[str], named: str) -> bool:
    """Whether ``named`` writes a dotted name of ``asked`` whole, if it asks one."""
    dotted = {name for name in asked if "." in name.strip(".")}
    return not dotted or bool(dotted & written_names(named))  # "git gc --auto": not gc.auto


def option_whole(written: Collection[str], named: str) -> bool:
    """Whether ``named`` writes the options the question writes (``written``) that only their
    own writing names, when it asks one: an option of several words, with one dash or two (a
    task's "note errors but keep going" names the words of Ant's ``-keep-going``, not the
    option, trial 78), or of one letter, as written (rsync's "an explicit '-l' option to ssh"
    is not ssh's ``-L``, trial 76).

    Example:
        >>> option_whole({"-keep-going"}, "Use --keep-going to go on."), option_whole(
        ...     {"-keep-going"}, "It will keep going."), option_whole({"-L"}, "Give '-l'.")
        (True, False, False)
    """
    flags = {n for n in written if n[:1] == "-" and (len(n) == 2 or "-" in n.lstrip("-"))}
    if not flags:
        return True
    own = written_names(named)
    return any(f in own if len(f) == 2 else f.lstrip("-") in {n.lstrip("-") for n in own}
               for f in flags)


def _named(asked: set[str], text: str, passage: str, heading: str) -> str:
    """``text`` with the names of the asked entry it is a sentence of (:func:`names_subject`),
    or, a solution's part ("SOLUTION: Delete the lock file ..."), with its section's heading,
    the problem it solves ("Error: database is locked", trial 119, F12), or, a sentence opening
    its section with a bare pronoun ("This is a text based file ..."), with the section's title
    (:func:`~app.research.sentence_subjects.opened_section`, trial 128, F6)."""
    entry = sentence_entry(passage, text, heading)  # an option's label writes its names
    solved = (heading_of(passage, text) or heading) if solution_part(text) else ""
    opened = opened_section(text, passage)
    return f"{' '.join(entry_names(entry) & asked)} {solved} {opened} {text}"


def passages_by_ref(data: ReportInput) -> dict[str, tuple[str, str, str]]:
    """The text, section heading and title of each passage the workers returned, by ref (read
    once per report: :meth:`~app.research.report.ReportInput.memo`)."""
    return data.memo("passages_by_ref", _by_ref)


def entry_of(data: ReportInput) -> Callable[[dict[str, Any]], str]:
    """The label of the entry or section a finding's sentence lies in (its passage's
    :func:`~app.research.neighbours.sentence_entry`; a passage's heading path, "Transfer modes /
    mirror / archive", stands for its first section only, trial 116, F2); the finding's own
    heading when its passage was not returned or does not hold the sentence."""
    passages = passages_by_ref(data)

    def label(item: dict[str, Any]) -> str:
        own = str(item.get("heading") or "")
        text, heading, _title = passages.get(str(item.get("ref")), ("", own, ""))
        return sentence_entry(text, " ".join(str(item.get("text", "")).split()),
                              heading.split(" / ")[0]) or own.split(" / ")[0]
    return label


def entry_labelled(data: ReportInput, found: Iterable[dict[str, Any]],
                   asked: Collection[str]) -> list[dict[str, Any]]:
    """``found``, each sentence that says whose it is only by its place carrying its entry's
    name under :data:`~app.research.definitions.DEFINES` (the Answer shows it under that name,
    :func:`~app.research.definitions.definition_line`): one leaning on "it"
    (:data:`~app.research.definitions.LEANS`: "How do I drain a server before maintenance?" led
    with "Use it before taking a server down ...", trial 116, F12), and one of an entry asked
    (``asked``, lower-cased: :func:`~app.research.neighbours.asked_names`) that does not name it
    (the PS1 entry's "The default is ‘%m%# ’.", trial 115, F1). The entry is the sentence's own
    (:func:`entry_of`); an item already naming its symbol is kept as it is."""
    label = entry_of(data)
    return [item if item.get(DEFINES) or not (name := _place_name(
        label(item), " ".join(str(item.get("text", "")).split()), asked))
        else {**item, DEFINES: name} for item in found]


def _place_name(entry: str, text: str, asked: Collection[str]) -> str:
    """The name :func:`entry_labelled` shows ``text`` under, as ``entry``'s label writes it; ""
    when none is wanted.

    Example:
        >>> _place_name("PS1 <S>", "The default is ‘%m%# ’.", {"ps1"})
        'PS1'
        >>> _place_name("PS1 <S>", "PS1 is the prompt.", {"ps1"})
        ''
        >>> _place_name("drain", "Use it before maintenance.", [])
        'drain'
        >>> _place_name("What is the difference between the main_queue and a ruleset queue?",
        ...             "A queue on a ruleset replaces the main queue.", {"main_queue"})
        ''

    A question (a FAQ's heading) is no entry's label: its sentences answer it, not define a
    name it writes ("`main_queue`: A queue on a ruleset tied to an input replaces the main
    queue ...", trial 118, F7).
    """
    if entry.rstrip("¶#§ \t").endswith("?"):
        return ""
    names = entry_names(entry)  # not a signature's arguments (trial 117, F2)
    if LEANS.match(text):
        ordered = sorted(names) or ([entry] if re.fullmatch(r"[A-Za-z_][\w.-]*", entry) else [])
        return ordered[0] if ordered else ""
    names &= {name.lower() for name in asked}
    if not names or any(re.search(rf"(?<!\w){re.escape(name.rsplit('.', 1)[-1])}(?!\w)", text,
                                  re.IGNORECASE) for name in names):
        return ""  # named, or by its last part: "promisify() assumes ..." of util.promisify
    return next((word for word in re.findall(r"[\w.-]+", entry) if word.lower() in names), "")


def _by_ref(rows: list[dict[str, Any]]) -> dict[str, tuple[str, str, str]]:
    return {str(p["ref"]): (str(p.get("text") or ""), str(p.get("heading") or ""),
                            str(p.get("title") or ""))
            for p in items(rows, None, "passage")}


def _asked(question: str, passages: Mapping[str, tuple[str, str, str]]) -> set[str]:
    return asked_names(question, (heading for _t, heading, _ti in passages.values()),
                       (text for text, _h, _ti in passages.values()))


def neighbours(data: ReportInput, question: str, text: str, ref: str,
               asked: set[str] | None = None) -> bool:
    """Whether the sentence ``text`` (of the passage ``ref``) is a neighbouring entry's for
    ``question``: by the entry's label (:func:`~app.research.neighbours.about_neighbour`;
    ``asked``: the question's :func:`~app.research.neighbours.asked_names`, computed when None)
    or by its section, a one-word heading holding the one asked
    (:func:`~app.research.neighbours.compound_neighbour`: ``Isosamples`` for ``samples``)."""
    passages = passages_by_ref(data)
    passage, heading, title = passages.get(ref, ("", "", ""))
    asked = _asked(question, passages) if asked is None else asked
    if does_the_task(question, text, asked):  # web_auth's "To require a password ..."
        return False
    return (about_neighbour(text, passage, asked, heading, title, alone_asked(data, asked))
            or compound_neighbour(heading, question, data.memo("one_word_headings", _one_word))
            or command_neighbour(data, question, ref))


def alone_asked(data: ReportInput, asked: set[str]) -> bool:
    """Whether no retrieved passage has an entry of a name ``asked``
    (:func:`~app.research.neighbours.entry_of_asked`; made once per report and names)."""
    passages = passages_by_ref(data)
    return not data.memo(f"entry_of_asked {sorted(asked)}", lambda _rows: entry_of_asked(
        ((text, heading) for text, heading, _ti in passages.values()), asked))


def command_neighbour(data: ReportInput, question: str, ref: str) -> bool:
    """Whether ``ref`` is a passage of the man page of another command than the one
    ``question`` names (:func:`~app.research.neighbours.other_command`, trial 121, F1)."""
    title = passages_by_ref(data).get(ref, ("", "", ""))[2]
    return other_command(question, ref, title, data.memo("page_titles", page_titles))


def does_the_task(question: str, text: str, asked: Collection[str]) -> bool:
    """Whether ``text`` answers ``question``, a how-to (:func:`~workers.sources.asking.asks_task`),
    in its own words, whichever entry it sits in: it says what to do
    (:func:`~app.research.sentence_kinds.says_what_to_do`) and names every word of the
    question's subject (:func:`~app.research.subject_words.subject_terms`), one of them beyond
    the entries ``asked``.
    Asked "How do I set the password for the web interface?", web_auth's "To require a password
    for the web interface, set web_auth = on ..." was dropped as a neighbour of ``password``'s
    entry (the SSH password), which alone answered (trial 119, F4).

    Example:
        >>> does_the_task("How do I set the password for the web interface?",
        ...               "To require a password for the web interface, set web_auth = on.",
        ...               {"password"})
        True
        >>> does_the_task("How do I set the password for the web interface?",
        ...               "The SSH password used when no key is set.", {"password"})
        False
    """
    if not asks_task(question):
        return False
    subject = subject_terms(question)
    own = {word for name in asked for word in re.findall(r"[a-z0-9]+", name.lower())}
    return (any(term not in own for term in subject)
            and len(mentions(subject, text)) == len(set(subject))
            and says_what_to_do(text, subject_of(text)))


def _one_word(rows: list[dict[str, Any]]) -> frozenset[str]:
    """The one-word section headings of the rows' passages (read once per report: a check per
    finding walked every passage, O(findings x passages) in a report of thousands)."""
    return frozenset(h.strip() for _t, h, _ti in _by_ref(rows).values()
                     if h and " " not in h.strip())


def entry_own(data: ReportInput, findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``findings`` less a neighbouring entry's (:func:`neighbours`): a section's too, not only
    the Answer's (``fall``'s "defaults to 3" for ``inter``)."""
    asked = _asked(data.asked, passages_by_ref(data))
    return [f for f in findings
            if not neighbours(data, data.asked, str(f["text"]), str(f.get("ref")), asked)]


def caveat_own(data: ReportInput, caveats: Iterable[dict[str, Any]],
               cited: Collection[str] = ()) -> list[dict[str, Any]]:
    """``caveats`` less a neighbouring entry's (:func:`entry_own`), another subject's (trial 123,
    F9: :func:`~app.research.caveat_subjects.on_subject`, a side one if its document is not
    ``cited``) and, asked about a name, those writing other names and none asked ("What does
    yyless do?" had flex's "First, yymore() depends on ...", trial 101, F7); not one writing no
    name ("This option cannot be used twice.") nor the asked entry's (trial 103, F5)."""
    passages = passages_by_ref(data)
    kept = on_subject(entry_own(data, caveats), question_terms(data.asked, data.rows),
                      subject_terms(data.asked, data.rows), passages, cited, name_terms(data.asked))
    asked = _asked(data.asked, passages) | ({plain} if (plain := plain_name(data.asked)) else set())
    wanted = {n.lstrip("-").lower() for n in asked}
    if not wanted:
        return kept

    def others_only(text: str, ref: str) -> bool:
        names = {n.lstrip("-").lower() for n in written_names(text)}
        names |= {m.lower() for m in _CALLED.findall(text)}
        heading = passages.get(ref, ("", "", ""))[1]
        return (bool(names) and not names & wanted and not mentions(wanted, text)
                and not mentions(wanted, heading))

    return [c for c in kept if not others_only(str(c["text"]), str(c.get("ref")))]


_CALLED = re.compile(r"\b([A-Za-z_][\w.]*)\(\)")
"""A function named by its call with no arguments, in prose ("yymore() depends on ...")."""


def subject_own(data: ReportInput, question: str,
                findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``findings`` (or passages, named by their title and heading too) less those that name
    ``question``'s words but none of its subject's
    (:func:`~app.research.subject_words.subject_terms`): picked for the words of its kind alone,
    they are about another thing. A section asking "What is the default value of dotfactor?"
    listed "The default value (initially default) is displayed after prompt." and three more
    defaults of other things under the Answer's one sentence on ``dotfactor`` (a new user's
    check on Asymptote's manual, 2026-12-04); a dotted name is named whole ("See gc.pruneExpire
    ..." is not on ``gc.auto``). A sentence naming none of its words is context its passage gave
    ("Each holds three copper envelopes."): kept, as the sections always kept it; the Answer is
    stricter (:func:`names_subject`)."""
    rows = data.rows_of(question)
    terms, subject = question_terms(question, rows), subject_terms(question, rows)
    passages = passages_by_ref(data)
    asked = _asked(question, passages)
    out = []
    for item in findings:
        passage, heading, title = passages.get(str(item.get("ref")), ("", "", ""))
        text = str(item["text"])
        if item.get("kind") == "passage":  # named by its page or section, too
            text = f"{title} {heading} {text}"
        named = _named(asked, text, passage, heading)
        if not mentions(terms, named) or (mentions(subject, named) and _whole(asked, named)):
            out.append(item)
    return out
