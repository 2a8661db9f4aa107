"""A page titled by what is asked shows its lead (issue 19: "a definition ranks before side
facts"): the passages of a man page that repeat its command's name most are its synopsis and
examples; the sentence that says what the command is sits in its description, which names it
less often. Else "git worktree" was answered from git-config(1), while
git-worktree(1)'s "Manage multiple working trees attached to the same repository." was never
read.

This module imports only the standard library.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from typing import ContextManager

from workers.sources.base import Passage
from workers.sources.query import SearchQuery, term_matches

__all__ = ["CALLED", "COPULA", "DOES", "JUDGED_AS", "LEAD_SEQ", "defines", "is_lead",
           "lead_passage", "names_in_prose", "section_openings", "titled_by", "with_leads"]

LEAD_SEQ = 8
"""How far into a document its lead is looked for (passages ``#0`` to ``#7``)."""

_SENTENCE = re.compile(r"[a-z](?:(?!\n\n)[^.!?]){40,}[.!?](?:\s|$)")
"""Prose: a run of 40 or more characters from a lower-case letter to a full stop, within one
paragraph (a table of contents, "5.1.1. The bm25() function" paragraph after paragraph, ran
from one title's words to the next title's number: SQLite's fts5.html)."""


COPULA = re.compile(r"(?:^|(?<=[.!?:]\s)|(?<=\n))[ \t]*(?:(?:an?|the)\s+)?"
                    r"((?:[\w'-]+[ \t]+){0,5}?[\w'-]+)\s+(?:is|are)\s+(?:an?|the|one)\s",
                    re.IGNORECASE)
"""A sentence that says what its subject is: "Massif is a heap profiler.", "A generated column
is a special column ...", "Frobbed columns are the ..." (the subject after its article)."""

JUDGED_AS = (r"(?:(?:very|really|particularly|especially)\s+)?(?:good|great|better|best|"
             r"convenient|handy|nice|easy|easier|simple|useful|natural|safe|bad|poor|ideal|"
             r"perfect|recommended|preferred|typical)\s+(?:place|spot|location|way|idea|choice|"
             r"time|practice|fit|candidate|option|thing|tool|starting\s+point)s?\b")
"""A predicate after "is a" judging its subject as a place or a way to do something ("is a
good place to store common data"): it says what the thing is good for, not what it is
(Flask's appcontext.html, trial 121, F2)."""
_JUDGED = re.compile(JUDGED_AS, re.IGNORECASE)


DOES = re.compile(
    r"\W*(?:the\s+)?((?:[\w'-]+\s+){0,3}?[\w'-]+?)(?:\s+(?:feature|module|option|command|"
    r"function|tool|directive|program|utility|extension|library|class|method|setting|"
    r"parameter|variable|filter|plugin))?\s+(?!(?:was|has|does|is)\b)"
    r"(?:[a-z]+[^s\W]s|is\s+used)\s", re.IGNORECASE)
"""A sentence that says what its subject does, its kind aside: "The suEXEC feature provides
users ... the ability to run CGI ..." (Apache's suexec.html: "What is suEXEC?" was answered by
configure.html's "The following options are used to fine tune the behavior of suexec.", trial
110, F1), "Massif measures how much heap memory ..."; not "was", "has" or "does". Matched at a
sentence's start (:func:`app.llm.offline.relevance.defines_asked`)."""


CALLED = re.compile(r"\b(?:called|known\s+as|referred\s+to\s+as|termed)\s+(?:an?\s+|the\s+)?"
                    r"[\"'\u201c\u2018]?((?:[\w'-]+[ \t]+){0,5}?[\w'-]+)[\"'\u201d\u2019]?"
                    r"[ \t]*(?=[.,;:)!?]|$)", re.IGNORECASE | re.MULTILINE)
"""A sentence that names what it has described, the name last: "This is called backscatter
mail.", "a method known as address masquerading", "is referred to as X" (Postfix's
BACKSCATTER_README: "What is backscatter mail?" never retrieved it, trial 114, F1)."""


def defines(query: SearchQuery, text: str, called: bool = True) -> bool:
    """Whether a sentence of ``text`` says what the query's words are (:data:`COPULA`): its
    subject names every core word of ``query`` and at most one word more; or, when ``called``,
    it names what it described by them (:data:`CALLED`: "This is called backscatter mail.").
    "To use this tool, you must specify --tool=massif" names Massif; "Massif is a heap
    profiler." defines it. ``called`` is False for a passage on another subject when a page is
    about the words asked: there "The script run before pruning is called snapshot." is a
    naming remark (a hook's), not what a snapshot is (trial 119, F5).

    Example:
        >>> from workers.sources.query import search_query
        >>> defines(search_query("What is Massif?"), "Overview\\n\\nMassif is a heap profiler.")
        True
        >>> defines(search_query("What is Massif?"), "Run Massif. The tool is a profiler.")
        False
        >>> defines(search_query("What is backscatter mail?"),
        ...         "Sites are flooded with bounces. This is called backscatter mail. With ...")
        True
        >>> defines(search_query("What is a snapshot?"),
        ...         "The script run before pruning is called snapshot.", called=False)
        False

    Nor does "is a good place to" (:data:`JUDGED_AS`): Flask's "The application context is a
    good place to store common data ..." (its "Storing Data" section) counted as the page's
    definition, so its opening, "The application context keeps track of the application-level
    data ...", never took a found passage's place (:func:`with_leads`; trial 121, F2):

        >>> defines(search_query("What is the application context?"),
        ...         "The application context is a good place to store common data.")
        False
    """
    for match in (*COPULA.finditer(text), *(CALLED.finditer(text) if called else ())):
        if match.re is COPULA and _JUDGED.match(text, match.end()):
            continue  # "X is a good place to ...": what X is good for
        subject = match[1].split()
        if len(subject) <= len(query.terms) + 1 and titled_by(query, match[1]):
            return True
    return False


def titled_by(query: SearchQuery, title: str) -> bool:
    """Whether ``title`` names every core word of ``query`` (``git-worktree(1)`` for "git
    worktree"): the document is about what is asked."""
    found, _pairs = term_matches(query.terms, title)
    return bool(query.terms) and len(found) == len(query.terms)


def is_lead(text: str) -> bool:
    """Whether a passage's text holds prose (a sentence of 40 characters or more), not only a
    heading, a name line or a synopsis."""
    return _SENTENCE.search(text) is not None


def with_leads(query: SearchQuery, found: list[Passage],
               lead_of: Callable[[str], Passage | None]) -> list[Passage]:
    """``found`` with the lead (:func:`lead_passage`, from ``lead_of(doc_id)``) of each document
    whose title names the query (:func:`titled_by`) in place of that document's last passage
    found, when it has two or more and none of its first :data:`LEAD_SEQ` passages found is
    prose, or its lead names the query in a sentence (:func:`names_in_prose`: PostgreSQL's
    "Generated Columns" page was found by its two passages of restrictions, which repeat
    "generated column" most, and never by its definition), or it :func:`defines` the query and
    none found does (Valgrind's "Massif is a heap profiler." lost to "To use this tool, you must
    specify --tool=massif", trial 107, R1): another document's passages are never displaced.
    The lead takes the place's score, so scores never increase down the list."""
    out = list(found)
    for doc_id in dict.fromkeys(p.doc_id for p in found):
        mine = [p for p in out if p.doc_id == doc_id]
        if len(mine) < 2 or not titled_by(query, mine[0].title):
            continue
        prose = any(is_lead(p.text) and _early(p) for p in mine)
        lead = lead_of(doc_id)
        if lead is None or any(p.ref == lead.ref for p in mine):
            continue
        defined = any(defines(query, p.text) for p in mine)
        if defined and not defines(query, lead.text) or prose and not (
                names_in_prose(query, lead.text) or not defined and defines(query, lead.text)):
            continue
        at = out.index(mine[-1])
        out[at] = Passage(lead.ref, lead.doc_id, lead.title, lead.source, lead.text,
                          score=mine[-1].score)
    return out


def names_in_prose(query: SearchQuery, text: str) -> bool:
    """Whether a sentence of ``text`` (:data:`_SENTENCE`) names every core word of ``query``:
    the opening of a page titled by what is asked, when it says what that is ("A generated
    column is a special column that is always computed from other columns"), not a syntax
    diagram's text."""
    return any(titled_by(query, m.group(0)) for m in _SENTENCE.finditer(text))


def _early(passage: Passage) -> bool:
    split = Passage.split_ref(passage.ref)
    return split is not None and int(split[1]) < LEAD_SEQ


def lead_passage(connection: Callable[[], ContextManager[sqlite3.Connection]],
                 doc_id: str, query: SearchQuery | None = None) -> Passage | None:
    """The first of a document's first :data:`LEAD_SEQ` passages that :func:`defines` the
    ``query``, else the first that :func:`is_lead`, or None, read from a corpus index
    (``connection()``: a context manager giving a connection to it, as
    :class:`workers.sources.Corpus` lends one)."""
    with connection() as con:
        rows = con.execute("SELECT ref, doc_id, title, source, text FROM passages WHERE "
                           "doc_id = ? AND seq < ? ORDER BY seq", (doc_id, LEAD_SEQ)).fetchall()
    prose = [Passage(*row) for row in rows if is_lead(row[4])]
    return next((p for p in prose if query is not None and defines(query, p.text)),
                prose[0] if prose else None)

SECTION_SHARE = 0.8
"""The least share of its section's best score a section's opening passage has to rank first
of its section (:func:`section_openings`)."""


def section_openings(rows: Sequence[Sequence], scored: Sequence[tuple[float, int]]
                      ) -> dict[int, float]:
    """The search candidates (indexes of ``rows``, as :func:`~workers.sources.ranking.ranked`
    takes them) that open their section (the first line of the text is its heading), scoring
    at least :data:`SECTION_SHARE` of a later passage of it, with that passage's score: the
    opening says what the section is about, the later passage goes on (an example, an
    exception). Postfix's "Address masquerading is a method to hide hosts ..." ranked below
    the section's "is disabled by default" and its examples, Click's "By default, a group or
    multi command is not invoked unless a subcommand is passed" below "And how it works in
    practice: ...", each cut by the two passages a document gives (trial 114, F1).

    Of the candidates of one document that open with the same heading, the first in the
    document (its passage number) is the opening, the best of them itself too: a later one
    repeats the heading over what goes on after a list of members (Sphinx's class entry and
    its rubrics "These methods can be overridden ...", "Attributes"), and such repeats, each
    raised to the class's score, ranked above "This is the base class for all builders."
    (trial 125, leftover 4)."""
    best: dict[tuple[str, str], float] = {}
    first: dict[tuple[str, str], tuple[int, int]] = {}  # the earliest opening: (seq, index)
    for score, i in scored:
        if heading := str(rows[i][9]).strip():
            key = (str(rows[i][1]), heading)
            best[key] = max(best.get(key, score), score)
            if str(rows[i][4]).lstrip().split("\n", 1)[0].strip() == heading:
                first[key] = min(first.get(key, (_seq(rows[i][0]), i)), (_seq(rows[i][0]), i))
    own = {i: score for score, i in scored}
    return {i: best[key] for key, (_seq_no, i) in first.items()
            if own[i] >= SECTION_SHARE * best[key]}


def _seq(ref: object) -> int:
    """A passage's number in its document, from its ref (``"doc#12"``: 12; -1 when none)."""
    tail = str(ref).rpartition("#")[2]
    return int(tail) if tail.isdigit() else -1
