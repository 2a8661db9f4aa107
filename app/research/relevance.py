"""Honest relevance: does anything the run retrieved talk about the topic at all?

bm25 ranks whatever shares a word with the query, and a sub-question says more than its topic
(an LLM plan's "What is the *mechanism* behind ...?"), so a topic the sources know nothing about
("zebra marmalade") still retrieves passages: the ones that say "mechanism". This module judges
the *retrieved items* against the *topic's own* content words, as the user wrote them:

* :func:`topic_terms`: the topic's searchable words (the sources' parser,
  :func:`workers.sources.query_terms`), each once;
* :func:`on_topic`: an item (passage, finding, caveat) mentions them, in its text or its title
  (:func:`mentioned`: plurals and word stems count, but a name such as "Windows" matches only
  itself, never "window"): one word of a one- or two-word topic, two of a longer one
  (:func:`needed`: "sourdough starter hydration" is not covered by a passage that says
  "starter" and nothing else; a paraphrased question is not asked for half its words);
* :func:`unknown_terms`: with the corpus's statistics (:class:`TermStats`, read by
  :func:`corpus_stats`), the words no passage uses, when they carry half the topic's weight
  (inverse document frequency): a near miss ("replace a cracked window pane" over SQLite's
  manual) shares common words with the corpus, but its distinctive words are in none of it;
  one such word alone, when a retrieved item names every other word of the topic, is a typo
  or a foreign word: it is named (``Relevance.missing``) and the rest answered; so are words
  the corpus lacks that weigh too little to warn ("Tomcat *JDBC* connection pool size");
* :func:`~app.research.unsaid.unsaid_subject`: the topic's names no retrieved item mentions,
  with its words the corpus lacks, when they weigh as much as the words the items do mention:
  the product a near miss asks about ("JUnit tests with *Maven*" over pytest's manual); and
  a word the corpus holds in a passage or two that the items say only apart from the word it
  modifies in the topic, with that word (:func:`~app.research.unsaid.said_apart`: "*dark*
  mode" over Sphinx's manual, which says "pygments_dark_style" and "this mode"), or only in
  a script, beside none of the topic's other words ("login shell ... with *chsh*");
* :func:`relevance_warnings`: ``no_relevant_sources`` when the run has results and none of them
  is on topic, or the topic's weight is in words the corpus never uses, or in its subject no
  retrieved item names. The report says so
  at its top and shows no finding from them; the ``--json`` summary lists it under
  ``warnings``. The exit code does not change: it is a finding about the
  sources, not a failure.

The word functions (:func:`topic_terms`, :func:`name_terms`, :func:`judged_terms`,
:func:`needed`, :func:`mentioned`, :func:`describe_terms`) live in
:mod:`app.research.topic_words` and are re-exported here.

A topic in another language than the sources gets the warning by the same rule (its words are
in none of the passages). Ranking (which passages come first) is not decided here: this only
tells whether any of them is about the topic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.research.missing_words import missing_note, where_missing, written_slip
from app.research.rows import ok_items
from app.research.term_stats import (
    TermStats,
    absent_terms,
    asked_only,
    slips,
    unknown_terms,
    weights,
)
from app.research.topic_words import (  # re-exported: the words a verdict is made of
    coded_terms,
    describe_terms,
    hindering_verbs,
    item_words,
    judged_terms,
    mentioned,
    name_phrases,
    name_terms,
    needed,
    retrieved_texts,
    topic_terms,
)
from app.research.unreached import unreached_sources
from app.research.unsaid import (  # re-exported: what the retrieved items leave unsaid
    asker_words,
    describe_unsaid,
    said_apart,
    unretrieved_names,
    unretrieved_phrases,
    unretrieved_words,
    unsaid_subject,
)
from workers.sources.query import identifier_in, identifier_parts
from workers.sources.symbols import VERSION

__all__ = ["DROPPED_AT_REVIEW", "NO_RELEVANT_SOURCES", "Relevance", "RunWarning", "TermStats",
           "WORDS_NOT_FOUND", "corpus_stats", "describe_terms", "judge", "judged_terms",
           "mentioned", "missing_note", "name_terms", "needed", "on_topic", "relevance_warnings",
           "spelled_out", "topic_terms", "unknown_terms", "unretrieved_names",
           "unretrieved_words", "weights"]

NO_RELEVANT_SOURCES = "no_relevant_sources"
"""Warning code: no retrieved passage mentions any of the topic's own content words."""
DROPPED_AT_REVIEW = "dropped_at_review"
"""Warning code: a reviewer dropped every result of the run (``app.research.outcome.dropped_all``):
the run is ``ok``, and its report has no finding."""
WORDS_NOT_FOUND = "words_not_found"
"""Warning code: some of the topic's words are in no passage retrieved (``Relevance.missing``),
and the report answers the others; its first line names them (else a question
about matplotlib over gnuplot's manual said so only in the report, and a script reading
``--json`` saw a clean run)."""


@dataclass(frozen=True)
class RunWarning:
    """A warning about a finished run (``--json``: ``{"code": ..., "message": ...}``)."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The JSON shape of the summary's ``warnings`` list."""
        return {"code": self.code, "message": self.message}


def corpus_stats(corpus: Any, topic: str) -> TermStats | None:
    """The :class:`TermStats` of ``topic``'s words in ``corpus`` (a
    :class:`workers.sources.Corpus`: its ``term_frequencies`` and ``passage_count``, one
    read-only count per word), or None when the source has none or cannot be read. The
    topic's names of two words (:func:`name_phrases`) are counted as phrases ("the SQL IN
    operator" of psycopg2's manual was "sql in (a typo ...?)", trial 102, F3). A word no
    passage has is counted with its typing slips (``near``), and a slip a passage writes as
    such, not only its stem, is searched for (``typos``: :func:`written_slip`, trial 126)."""
    count = getattr(corpus, "passage_count", None)
    frequencies = getattr(corpus, "term_frequencies", None)
    terms = coded_terms(topic_terms(topic), topic)  # the words judge weighs
    if not callable(count) or not callable(frequencies) or not terms:
        return None
    try:
        # an identifier's words too: one the corpus lacks is judged by them (spelled_out); a
        # name of two words too ("SQL IN"), as a phrase: one the corpus has is said to be so
        counts = dict(frequencies([*terms, *identifier_parts(terms), *name_phrases(topic)]))
        slipped = {t: found for t in terms if not counts.get(t)
                   and (found := {w: n for w, n in frequencies(slips(t)).items() if n > 0})}
        near = {t: max(found, key=found.__getitem__) for t, found in slipped.items()}
        typos = {t: w for t, found in slipped.items() if (w := written_slip(corpus, found))}
        return TermStats(int(count()), counts, near, typos)  # and a typo's word (slips)
    except Exception:  # noqa: BLE001 - statistics are optional: a closed or unreadable index
        return None


def on_topic(item: Mapping[str, Any], terms: Sequence[str], names: Iterable[str] = ()) -> bool:
    """Whether an item's text or title mentions (:func:`mentioned`) :func:`needed` of
    ``terms`` (of their :func:`judged_terms`), or writes a version number of them (``3.1.2``,
    :data:`~workers.sources.symbols.VERSION`); True when there are none: without content words
    there is nothing to judge by.

    Args:
        item: a result item: ``{"text", "title", ...}``.
        terms: the topic's words (:func:`topic_terms`).
        names: those of them written as names (:func:`name_terms`): matched on their own form.
    """
    if not terms:
        return True
    judged = judged_terms(terms, names)
    found = mentioned(judged, item_words(item), names)
    # a version number names one release: its entry need not repeat the project's name
    # ("Version 3.1.2 / Released 2022-04-28", Jinja's change log; trial 117, F3)
    return len(found) >= needed(judged) or any(VERSION.fullmatch(t) for t in found)


@dataclass(frozen=True)
class Relevance:
    """The relevance verdict on a run's rows (:func:`judge`).

    Attributes:
        wanted: what an item must mention to be on topic, for a sentence: ``'"zebra" or
            "marmalade"'`` (:func:`describe_terms`).
        warnings: ``[RunWarning("no_relevant_sources", ...)]`` when the run has at least one
            finished row and no retrieved item is :func:`on_topic`, else ``[]``.
        unreached: the sources that could not be reached
            (:func:`app.research.unreached.unreached_sources`): the verdict is on the others.
    """

    wanted: str
    warnings: list[RunWarning]
    unreached: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    """The topic's words no passage of the corpus contains, when the report answers the rest
    (:func:`judge`): a typo ("pendng"), a word of another language, or a thing the corpus
    lacks but that weighs too little to warn ("JDBC" beside "Tomcat connection pool size");
    else its names no retrieved item mentions (:func:`unretrieved_names`); the report names
    them."""
    in_corpus: tuple[str, ...] = ()
    """Those of :attr:`missing` some passage of the corpus has all the same (a name the search
    ranked low): no typo, and nothing the sources lack (:func:`missing_note`)."""
    absent: tuple[str, ...] = ()
    """Those of :attr:`missing` the corpus's statistics count in no passage (none without
    statistics: then it is not known)."""
    near: tuple[tuple[str, str], ...] = ()
    """Those of :attr:`absent` one typing slip from a word the corpus has, with that word
    (``("pendng", "pending")``): likely typos."""

    def note(self, asked: str = "") -> str:
        """The note naming :attr:`missing` (:func:`missing_note`), each word as ``asked``
        writes it; "" when none is."""
        if not self.missing:
            return ""
        return missing_note(self.missing, self.in_corpus, asked, absent=self.absent,
                            near=dict(self.near))

    @property
    def sources(self) -> str:
        """Who the verdict is about: "the sources", or "the sources reached" when some were
        not (a source that was not reached said nothing, it did not say "nothing")."""
        return "the sources reached" if self.unreached else "the sources"

    @property
    def not_reached(self) -> str:
        """``"; not reached: A; B"`` naming the sources not reached, or ""."""
        return f"; not reached: {'; '.join(self.unreached)}" if self.unreached else ""


def judge(topic: str, rows: Iterable[Mapping[str, Any]], stats: TermStats | None = None,
          *, tools_failed: Iterable[str] = ()) -> Relevance:
    """Judge the retrieved items of ``rows`` against ``topic``'s own words, once: the report
    takes both its banner's wording and the verdict from here.

    Args:
        topic: the research topic as the user gave it.
        rows: the run's results-database rows (``structured`` decoded), as the report reads them.
        stats: how common the topic's words are in the corpus searched (:class:`TermStats`):
            with them, a topic whose weight is mostly in words the corpus never uses is
            warned whatever was retrieved (:func:`unknown_terms`); None: only the retrieved
            items are judged.
        tools_failed: the operator's tools that gave no answer (the run's notes:
            :func:`app.research.unreached.unreached_tools`), named as not reached like a web
            search that failed (:func:`app.research.unreached.unreached_sources`).
    """
    rows = list(rows)
    unreached = tuple(dict.fromkeys([*unreached_sources(rows), *tools_failed]))
    terms = asked_only(spelled_out(coded_terms(topic_terms(topic), topic), stats, rows), stats)
    terms = [t for t in terms if t not in hindering_verbs(topic)] or terms  # "stop X from Y-ing"
    # a release the corpus never names ("Python 3.8" beside "3.9 or later": trial 120, F3)
    unnamed = {t for t in absent_terms(terms, stats) if VERSION.fullmatch(t)}
    terms = [t for t in terms if t not in unnamed]
    names = name_terms(topic)
    # the thing asked about, named by no retrieved item, is the topic (trial 123, F5)
    subject = unsaid_subject(terms, names, rows, stats, topic)
    unknown = subject or unknown_terms(terms, stats)
    missing = () if subject else _one_missing(terms, unknown, rows, names, stats)
    if missing:  # judged by the rest, the missing word named
        terms, unknown = [t for t in terms if t not in missing], []
    elif not unknown:  # too light to warn, but said: "Tomcat *JDBC* pool size"
        missing = tuple(absent_terms(terms, stats)) or unretrieved_names(terms, names, rows)
    if not unknown:  # and a name of two words the passages never write ("GitHub Pages")
        missing += tuple(p for p in unretrieved_phrases(name_phrases(topic), rows)
                         if not set(p.split()) & set(missing))
    if missing and stats is not None:  # the note says the report answers the other words
        own = asker_words(topic, names)  # but not those of the asker's situation: "my app"
        missing += tuple(t for t in unretrieved_words(judged_terms(terms, names), rows, names)
                         if t not in missing and t not in own and stats.rare(t))
    judged = judged_terms(terms, names)
    wanted = (_unsaid_wanted(topic, subject, judged, names, rows, stats) if subject
              else describe_terms(unknown, asked=topic) if unknown
              else describe_terms(judged, needed(judged), topic))
    said = (missing, *where_missing(missing, stats))  # in the corpus, in none, near a word
    if not terms or not any(r.get("status") == "ok" for r in rows):
        return Relevance(wanted, [], unreached, *said)
    if not unknown and any(on_topic(item, terms, names) for _row, item in ok_items(rows)
                           if item.get("ref")):
        return Relevance(wanted, [], unreached, *said)
    shown = " ".join(str(topic).split())[:200]
    verdict = Relevance(wanted, [], unreached)
    return Relevance(wanted, [RunWarning(
        NO_RELEVANT_SOURCES,
        f"{verdict.sources} say nothing about \"{shown}\": no retrieved passage mentions "
        f"{wanted}{verdict.not_reached}",
    )], unreached)


def _unsaid_wanted(topic: str, subject: Sequence[str], judged: Sequence[str],
                   names: Iterable[str], rows: Sequence[Mapping[str, Any]],
                   stats: TermStats | None) -> str:
    """What the warning says no retrieved passage mentions of the ``subject`` no item names
    (:func:`unsaid_subject`): a word said only in passing, beside the words it was not said
    with (:func:`~app.research.unsaid.describe_unsaid`)."""
    texts = retrieved_texts(rows)
    apart = said_apart(judged, names, texts, stats, topic) if stats is not None else {}
    # the words of it no item says, when some are: "threading", not the "module" it modifies
    unsaid = [t for t in subject if not any(mentioned([t], text, names) for text in texts)]
    return describe_unsaid(unsaid or subject, apart, topic)


def spelled_out(terms: Sequence[str], stats: TermStats | None,
                rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """``terms`` with each identifier the corpus does not have as written replaced by its
    words (``checkpointer_pending_writes``: checkpointer, pending, writes; else the
    snake_case form of a topic the corpus answers was warned as unknown), when a
    retrieved item says two of its words side by side ("pending writes"): another
    framework's name is no phrase of the corpus (Django's ``post_save``
    was read as "post" and "save", both in FastAPI's docs, and the near miss was answered).
    Not had: in no passage by ``stats``, or, without them, in no retrieved item."""
    texts = [text.lower() for text in retrieved_texts(rows)]
    out: list[str] = []
    for term in terms:
        absent = (stats.frequencies.get(term, 0) == 0 if stats is not None
                  else not any(identifier_in(term, text) for text in texts))
        if "_" in term.strip("_") and absent and _phrased(term, texts):
            out += [p for p in identifier_parts([term]) if p not in out and p not in terms]
        else:
            out.append(term)
    return out


def _phrased(identifier: str, texts: Sequence[str]) -> bool:
    """Whether one of ``texts`` (lowercase) has two consecutive words of ``identifier`` side
    by side, inflected or not ("pending writes" for ``checkpointer_pending_writes``)."""
    parts = [re.escape(p) for p in identifier.lower().split("_") if p]
    pairs = [re.compile(rf"\b{a}\w{{0,3}}[\s\-]+{b}\w{{0,3}}\b")
             for a, b in zip(parts, parts[1:], strict=False)]
    return any(pair.search(text) for pair in pairs for text in texts)


def _one_missing(terms: Sequence[str], unknown: Sequence[str], rows: Sequence[Mapping[str, Any]],
                 names: Iterable[str], stats: TermStats | None = None) -> tuple[str, ...]:
    """``(word,)`` when ``unknown`` (:func:`unknown_terms`) is that one word of a topic of more
    than one, and a retrieved item mentions every other word of it: a typo ("checkpointer
    *pendng* writes") or a word of another language ("Checkpointer *funktioniert*") is named,
    and the topic answered by the rest. Two unknown words still make a near miss ("a cracked
    window pane"), as does an unknown name beside one other word (:func:`name_terms`: "How
    tall is Mount *Kilimanjaro*?"); beside two or more that one item names together, the name
    is named like any word ("graceful restart in *Kubernetes*"), unless it weighs as much as
    the words the items do say (:func:`unsaid_subject`, told first: "JUnit tests with *Maven*",
    trial 123, F5); ``()`` otherwise. The rest is
    its words an item is judged by (:func:`judged_terms`, trial 116, F10). Nor is it named
    beside words of the whole corpus alone (:meth:`TermStats.common`: "DNS over *QUIC* in
    BIND", trial 118, F9), unless a typing slip from a word of it (``stats.near``: trial 120)."""
    rest = judged_terms([t for t in terms if t not in unknown], names)
    if len(unknown) != 1 or not rest or (unknown[0] in set(names) and len(rest) < 2):
        return ()  # a name the corpus lacks beside one word ("Mount *Kilimanjaro*") is the topic
    if stats is not None and all(map(stats.common, rest)) and unknown[0] not in stats.near:
        return ()  # beside "dns", "bind", "configure" only, "quic" is the topic (no typo)
    named = any(len(mentioned(rest, item_words(item), names)) == len(rest)
                for _row, item in ok_items(rows) if item.get("ref"))
    return tuple(unknown) if named else ()


def relevance_warnings(topic: str, rows: Iterable[Mapping[str, Any]],
                       stats: TermStats | None = None) -> list[RunWarning]:
    """The warnings of :func:`judge`: ``[RunWarning("no_relevant_sources", ...)]`` when the run
    has at least one finished row and no retrieved item is :func:`on_topic`, else ``[]``.

    Args:
        topic: the research topic as the user gave it.
        rows: the run's results-database rows (``structured`` decoded), as the report reads them.
        stats: as :func:`judge` takes them.
    """
    return judge(topic, rows, stats).warnings
