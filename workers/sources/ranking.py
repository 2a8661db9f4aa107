"""How a search orders its candidates (issue 19): FTS5's bm25 picks them, these boosts put the
passage that answers first: more of the question's words, the words as a phrase, the words in
the title or heading, the symbol the question names; and what a page's kind keeps of its score
(:mod:`workers.sources.rank_factors`: a page of links, of code alone, a change log; and
:mod:`workers.sources.catalogues`: a catalogue of other projects).

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from workers.sources.asked_headings import asked_heading_factor
from workers.sources.catalogues import catalogue_factor
from workers.sources.commands import COMMAND_BOOST, asks_command, command_name, commands_named
from workers.sources.entries import SIGNATURE, opened_entry, signatures_held, without_arguments
from workers.sources.entry_match import (
    entry_named,
    holds_named_entry,
    holds_spelled_entry,
    opens_named_entry,
)
from workers.sources.joined import joined_in
from workers.sources.leads import defines, section_openings, titled_by
from workers.sources.names import code_words, named_symbols
from workers.sources.query import SearchQuery, term_matches
from workers.sources.rank_factors import (
    CHANGE_LOG_FACTOR,
    CODE_FACTOR,
    LINK_SHARE_FREE,
    change_log_factor,
    code_factor,
    link_factor,
)

__all__ = ["ANSWER_BOOST", "CHANGE_LOG_FACTOR", "CODE_FACTOR", "COVERAGE_FLOOR", "COVERAGE_POWER",
           "EXACT_NAME_BOOST", "LINK_SHARE_FREE", "asked_words", "candidate_score",
           "candidates_named", "change_log_factor", "code_factor", "exact_names", "link_factor",
           "lists_option", "named_words", "own_name", "rank_score", "ranked"]

COVERAGE_POWER = 2.0
COVERAGE_FLOOR = 0.25
"""The least share of its bm25 a passage keeps for its coverage (see :func:`rank_score`)."""


ANSWER_BOOST = 0.5
"""How much a passage defining what a "What is X?" question asks raises it
(:func:`~workers.sources.leads.defines`: "Address masquerading is a method to hide ..." was
cut by the two a document gives, trial 114, F1)."""

EXACT_NAME_BOOST = 1.0
"""How much a title naming the question's identifiers exactly, or a symbol named as the question
spells it with a capital letter ("Send"), raises a passage: up to x2."""

_WHOLE_WORDS = re.compile(r"\w+")


def exact_names(terms: Sequence[str], title: str) -> float:
    """The share of the identifier terms (those with ``_``, such as ``add_messages``) that
    ``title`` has as whole words; 0.0 when the query has none.

    Words are matched by their forms and FTS5 splits identifiers at ``_``, so without this
    ``add_message`` ranks with ``add_messages`` (a new user asked about the second and got the
    first cited first).

    Example:
        >>> exact_names(["add_messages", "state"], "add_messages")
        1.0
        >>> exact_names(["add_messages"], "add_message")
        0.0
    """
    idents = [t for t in terms if "_" in t.strip("_")]
    if not idents:
        return 0.0
    words = set(_WHOLE_WORDS.findall(title.lower()))
    return sum(t.lower() in words for t in idents) / len(idents)


def named_words(query: SearchQuery) -> frozenset[int]:
    """The indexes of the query's terms the question writes as code
    (:func:`~workers.sources.names.code_words`): a passage has such a term only as that whole
    word. Matched by its forms, Asymptote's "orientation" was the orient function's word, and
    its page-orientation passage ranked above ``real orient(pair a, pair b, pair c)``.

    Example:
        >>> from workers.sources.query import search_query
        >>> sorted(named_words(search_query("What does the orient function return?")))
        [0]
    """
    single = code_words(query.names) | _letter_options(query)
    return frozenset(i for i, t in enumerate(query.terms) if t in single)


def _letter_options(query: SearchQuery) -> frozenset[str]:
    """The options of one letter the question writes (``-L``), lower-cased as its terms are:
    an option of one letter is matched as written, case and dash (ssh's ``-L`` is not
    ``-l``, which rsync's page says of ssh, trial 76)."""
    return frozenset(n.key for n in query.names if len(n.key) == 1 and n.spelled)


def _whole_words(found: set[int], terms: Sequence[str], named: frozenset[int],
                 text: str, letters: Sequence[str] = ()) -> set[int]:
    """``found`` (indexes of ``terms`` a text matched by their forms) less the ``named`` terms
    the text does not have as whole words, an option of one letter (in ``letters``, as the
    question spells it: ``"L"``) as written with its dash."""
    if not named & found:
        return found
    words = set(_WHOLE_WORDS.findall(text.lower()))
    spelled = {letter.lower(): letter for letter in letters}
    return {i for i in found if i not in named or (
        re.search(rf"(?<![\w-])-{spelled[terms[i]]}(?!\w)", text) is not None
        if terms[i] in spelled else terms[i] in words)}


def rank_score(query: SearchQuery, bm25: float, text: str, title: str,
               spelled: bool = False) -> float:
    """A passage's score: its bm25 (negated, so higher is better) times boosts for

    * coverage: the share ``c`` of the query's words it has (text, title or heading; a word
      the question writes as a name only whole, :func:`named_words`) gives
      ``COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * c**2``, so one rare word repeated never beats
      a passage with every word;
    * phrase: up to x1.5 as the words stand side by side in the question's order;
    * title or heading: up to x1.5 as the words are in the document's title, the symbol's name
      or the passage's section heading;
    * the focus's other words (``query.context``): up to x1.25;
    * identifiers named exactly in the title, symbol name or heading (:func:`exact_names`), or
      the symbol named as the question spells it with a capital letter (``spelled``): up to x2.

    Args:
        query: the parsed query (:func:`~workers.sources.query.search_query`).
        bm25: FTS5's ``-bm25`` of the passage (> 0).
        text: the passage text; ``title``: its title words, symbol name and heading.
        spelled: the question names the passage's symbol spelled as it is ("Send" for
            ``Send``, not for a method ``send``: :func:`~workers.sources.names.named_symbols`).
    """
    terms, named = query.terms, named_words(query)
    in_text, pairs = term_matches(terms, text)
    in_title, title_pairs = term_matches(terms, title)
    letters = [n.spelled for n in query.names if len(n.key) == 1 and n.spelled]
    in_text = _whole_words(in_text, terms, named, text, letters)
    in_title = _whole_words(in_title, terms, named, title, letters)
    # a word the question writes apart, run together: "relay host" in relayhost (trial 114, F7)
    (joined_text, joined_pairs), (joined_title, joined_title_pairs) = (
        joined_in(query.joined, text), joined_in(query.joined, title))
    in_text, in_title = in_text | joined_text, in_title | joined_title
    pairs, title_pairs = pairs + joined_pairs, title_pairs + joined_title_pairs
    n = len(terms)
    coverage = len(in_text | in_title) / n
    score = bm25 * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage**COVERAGE_POWER)
    if n > 1:
        score *= 1 + 0.5 * max(pairs, title_pairs) / (n - 1)
    score *= 1 + 0.5 * len(in_title) / n
    score *= 1 + EXACT_NAME_BOOST * max(exact_names(terms, title), float(spelled))
    if query.context:
        found, _ = term_matches(query.context, f"{title} {text}")
        score *= 1 + 0.25 * len(found) / len(query.context)
    return score


def own_name(name: str) -> str:
    """The symbol's own name from its index ``name`` column (the name, then its words)."""
    return name.split(" ", 1)[0]


def asked_words(query: SearchQuery) -> list[str]:
    """The words an entry's heading is matched against (:func:`entry_named`): the query's
    terms, and the names of several words it may ask, stopwords and all (HAProxy's ``show
    servers state [<backend>]``: "show" is a stopword, no term, trial 79); of a question
    asking how to do a task, only the words it writes as names
    (:attr:`~workers.sources.query.SearchQuery.entry_terms`)."""
    if query.entry_terms is not None:  # a task's plain words name no entry (trial 112, F1)
        return list(query.entry_terms)
    return [*query.terms, *(n.phrase for n in query.names if " " in n.phrase)]


def candidates_named(query: SearchQuery, names: Sequence[str]) -> dict[str, bool]:
    """The symbols among the candidates' ``names`` (their index ``name`` column) the question
    names (:func:`~workers.sources.names.named_symbols`): ``own name -> spelled as the question
    spells it with a capital letter``."""
    if not query.names:
        return {}
    return named_symbols(query.names, query.terms, (own_name(n) for n in names if n))


def candidate_score(query: SearchQuery, row: Sequence, named: Mapping[str, bool],
                    path: str = "", opens: bool = False, called: bool = True) -> float:
    """A search candidate's score: :func:`rank_score` times its page's :func:`link_factor` and
    its :func:`code_factor`.

    Args:
        query: the parsed query (:func:`~workers.sources.query.search_query`).
        row: ``(text, bm25, bm25 without the name key, title words, symbol name, heading,
            link share)`` of the passage, each ``bm25`` as FTS5's ``bm25()`` gives it
            (negative: lower is better). The first counts the symbol's name key: it is used
            when the question names the symbol (``named``, :func:`candidates_named`).
        named: the candidates' symbols the question names.
        path: the document's title: a qualified name (``langgraph.types.Send.__init__``) counts
            as spelled as the question spells it when a part of it is (a member of ``Send``).
        opens: the passage opens the entry of a function the question names
            (:func:`~workers.sources.entries.opened_entry`): it counts as spelled so too (Vim's
            ``getline({lnum} [, {end}])`` entry ranked below the pages that call it).
        called: "This is called X." counts as defining X (:func:`~workers.sources.leads.defines`):
            False on a page about something else when a candidate's title or heading is X
            (:func:`ranked`, trial 119, F5).
    """
    text, bm25, plain, terms, name, heading, links = row
    title = f"{terms} {name} {without_arguments(heading)}"  # not its arguments (117, F2)
    own = own_name(name)
    asked = own in named
    spelled = (opens or (asked and named[own]) or any(named.get(part) for part in path.split("."))
               or entry_named(heading, asked_words(query))
               or holds_named_entry(text, query.entry_words))
    listed = lists_option(text, query.options)  # a listing's line is the option's entry
    score = rank_score(query, -float(bm25 if asked else plain), text, title, spelled or listed)
    if holds_spelled_entry(text, query):  # its definition, above its uses (trial 115, F2a)
        score *= 1 + EXACT_NAME_BOOST
    # "Known limitations" (trial 115, F2b), not another page's "Known issues" (trial 119, F6)
    score *= asked_heading_factor(heading, path, text, query.question, query.said, query.terms)
    if query.defining and defines(query, text, called):  # "This is called X." (114, F1)
        score *= 1 + ANSWER_BOOST
    if query.qualified and (entry := SIGNATURE.match(heading.strip())) and (
            entry[1].lower() in query.qualified):  # its own entry, not an alias's (trial 84)
        score *= 1 + EXACT_NAME_BOOST
    return score * link_factor(links) * (1.0 if listed else code_factor(text))


def lists_option(text: str, options: Sequence[str]) -> bool:
    """Whether a line of ``text`` opens with one of the ``options`` a question writes
    (:func:`~workers.sources.names.written_options`), as written: a usage listing's line for
    it (Ant's manual lists ``-keep-going, -k  execute all targets that do not depend on
    failed target(s)`` in a ``<pre>``, and a task's "note errors ... but keep going" answered
    "What does the -keep-going option do?", trial 78). Such a passage ranks as the option's
    entry, code or not.

    Example:
        >>> lists_option("```\\n  -keep-going, -k   execute all targets\\n```", ["-keep-going"])
        True
        >>> lists_option("note errors but keep going", ["-keep-going"]), lists_option(
        ...     "  -l <file>  log to file", ["-L"])
        (False, False)
    """
    return any(re.search(rf"(?m)^[ \t]*{re.escape(option)}(?![\w-])", text)
               for option in options)


def ranked(query: SearchQuery, rows: Sequence[Sequence]) -> list[tuple[float, Sequence]]:
    """The search candidates ``rows`` with their :func:`candidate_score` (times a change log's
    :func:`change_log_factor` and a catalogue's
    :func:`~workers.sources.catalogues.catalogue_factor`), best first (ties in
    FTS5's order); the summary passage (``#0``) of a symbol the question names
    (:func:`candidates_named`) scores its document's best, and comes first of it; so does the
    passage that opens the reference entry of a function it names
    (:func:`~workers.sources.entries.opened_entry`: Django's ``prefetch_related(*lookups)``,
    whose first sentence says what it does, ranked below two later passages of its entry).

    Args:
        query: the parsed query (:func:`~workers.sources.query.search_query`).
        rows: ``(ref, doc_id, title, source, text, bm25, bm25 without the name key, title
            words, symbol name, heading, link share, page kind)`` each.
    """
    named = candidates_named(query, [r[8] for r in rows])
    opened = [opened_entry(str(r[4]), str(r[9])) if query.names else "" for r in rows]
    held = [signatures_held(str(r[4])) if query.names else set() for r in rows]
    entries = named_symbols(query.names, query.terms,
                            {*filter(None, opened), *(n for h in held for n in h)})
    # "X is called T" names T where T's own page is no candidate; beside a page titled or
    # headed T it is a naming remark ("The script run before pruning is called snapshot.",
    # a hook's, outranked Snapshots' own opening, trial 119, F5)
    about = [titled_by(query, f"{r[2]} {r[9]}") for r in rows]
    # the man page of the command asked, not another's option sharing a word (trial 121, F1)
    commands = commands_named(query.question, [(str(r[1]), str(r[2])) for r in rows])
    scored = [(candidate_score(query, r[4:11], named, r[2],
                               opened[i] in entries or bool(held[i] & entries.keys()),
                               about[i] or not any(about))
               * change_log_factor(str(r[1]), query.terms, str(r[2]), query.question)
               * catalogue_factor(str(r[11]) if len(r) > 11 else "", query.question, str(r[4]))
               * (1 + COMMAND_BOOST * (r[1] in commands)), i)
              for i, r in enumerate(rows)]
    summary = [(bool(r[8]) and own_name(r[8]) in named and str(r[0]).endswith("#0"))
               or (r[1] in commands and str(r[0]).endswith("#0")  # its NAME line: what it is
                   and asks_command(query.terms, command_name(str(r[1]), str(r[2]))))
               or opened[i] in entries
               or opens_named_entry(str(r[4]), str(r[9]), asked_words(query))
               for i, r in enumerate(rows)]
    best: dict[str, float] = {}
    for score, i in scored:
        best[rows[i][1]] = max(best.get(rows[i][1], score), score)
    # a named symbol's summary passage (its docstring's first: what it is) stands for its
    # document: "What is StateGraph?" found StateGraph's example code and its context_schema
    # note, its two passages allowed, and never "A graph whose nodes communicate by reading and
    # writing to a shared state."
    # several such passages of one document keep their own order ("attrs.evolve(inst, ...)"
    # before "attr.evolve()", its alias, and "evolve(**changes)", a method: FTS5's order put
    # both first, and the entry asked was cut by the per-document cap, trial 84, F3)
    own = dict((i, score) for score, i in scored)
    scored = [(best[rows[i][1]] if summary[i] else score, i) for score, i in scored]
    opening = section_openings(rows, scored)
    scored = [(opening.get(i, score), i) for score, i in scored]
    scored.sort(key=lambda item: (-item[0], not summary[item[1]], item[1] not in opening,
                                  -own[item[1]], item[1]))
    return [(score, rows[i]) for score, i in scored]

