"""What the retrieved items leave unsaid of a topic: its names (:func:`unretrieved_names`),
words (:func:`unretrieved_words`) and names of several words (:func:`unretrieved_phrases`) no
retrieved item mentions, which the report's note names, and the subject they make up
(:func:`unsaid_subject`), which makes the run a near miss. Pure functions on the run's rows;
:func:`app.research.relevance.judge` gives the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.research.rows import ok_items
from app.research.term_stats import TermStats, absent_terms
from app.research.topic_words import item_words, judged_terms, mentioned

__all__ = ["asker_words", "unretrieved_names", "unretrieved_phrases", "unretrieved_words",
           "unsaid_subject"]


def unsaid_subject(terms: Sequence[str], names: Iterable[str], rows: Iterable[Mapping[str, Any]],
                   stats: TermStats | None) -> list[str]:
    """The thing the topic asks about, when no retrieved item names it: its names
    (:func:`~app.research.topic_words.name_terms`) no retrieved item mentions, with the words
    no passage of the corpus uses (:func:`~app.research.term_stats.absent_terms`), when they
    weigh (:meth:`TermStats.weight`) at least as much as the topic's words the items do
    mention; ``[]`` when no name is among them, without statistics or items. A name one
    typing slip from a corpus word (``stats.near``), or two letters swapped from a word an
    item says (:func:`_swaps`: "BNID" beside "BIND"), is a typo, no name the corpus lacks.

    The product a near miss asks about is its heaviest word, and the search answers its
    others: "How do I run JUnit tests with Maven?" over pytest's manual was answered by its
    JUnit XML passages, "How do I configure a Kubernetes ingress controller?" by "Controlling
    warnings" (the manual names Kubernetes in its plugin list only), "create an index on a
    MongoDB collection" by SQLAlchemy's indexes, each under a note that asked whether the
    word was a typo (trial 123, F5; trial 121, F7: "a Jenkins pipeline"). A word a passage
    the search ranked lower holds (a plain word: "sitting", "app") is no name: a paraphrase
    lacks the documents' words by design, and is not warned for them.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [{"kind": "passage",
        ...     "ref": "a#0", "text": "Run the tests with --junitxml for JUnit XML."}]}}]
        >>> stats = TermStats(2705, {"run": 500, "junit": 46, "tests": 1592, "maven": 0})
        >>> unsaid_subject(["run", "junit", "tests", "maven"], {"junit", "maven"}, rows, stats)
        ['maven']
        >>> unsaid_subject(["run", "junit", "tests", "maven"], {"junit"}, rows, stats)
        []
    """
    texts = [item_words(item) for _row, item in ok_items(list(rows)) if item.get("ref")]
    if stats is None or not texts:
        return []
    named = set(names)
    judged = judged_terms(terms, named)
    said = set().union(*(mentioned(judged, text, named) for text in texts))
    absent = set(absent_terms(judged, stats)) - said
    lost = [t for t in judged if t in named and t not in said and t not in stats.near]
    if lost:  # a slip of a word some item says is a typo (the items' words read only then)
        words = _said_words(texts)
        lost = [t for t in lost if not words & _swaps(t)]
    subject = [t for t in judged if t in lost or t in absent]
    unsaid = sum(stats.weight(t) for t in subject)
    if not lost or unsaid < sum(stats.weight(t) for t in judged if t in said):
        return []
    return subject


_WORD = re.compile(r"[^\W_]+")


def _said_words(texts: Iterable[str]) -> set[str]:
    """The distinct words (lower-cased) of ``texts``, gathered one text at a time, so what is
    held is the items' vocabulary, not their running text: joined first, the item texts of a
    1,200-task run made a 6.5 MB string and a list of 261,000 words, 22 MB at once and the
    peak of the run's ``report`` (scripts/bench_scale.py).

    Example:
        >>> sorted(_said_words(["Bind the Port", "bind_address"]))
        ['address', 'bind', 'port', 'the']
    """
    words: set[str] = set()
    for text in texts:
        words.update(_WORD.findall(text.lower()))
    return words


def asker_words(topic: str, names: Iterable[str] = ()) -> frozenset[str]:
    """The words (lower-cased) of the asker's own situation in ``topic``, not of the thing
    asked about: the word after a possessive ("*my app*", "*our* server") and a verb's
    participle ("after *sitting* idle", "*deleted*"), names (``names``) aside. The note on a
    word no passage has names the topic's rare words no passage retrieved too, as the report
    answers without them; these are no such word: "Why does my app lose its MySQL connection
    after sitting idle overnight?" was answered well, under a note that no passage retrieved
    mentions "overnight", "nor "app" or "sitting"" (trial 123, F5).

    Example:
        >>> sorted(asker_words("Why does my app lose its MySQL connection after sitting idle?",
        ...                    {"mysql"}))
        ['app', 'sitting']
        >>> sorted(asker_words("Tomcat JDBC connection pool size"))
        []
    """
    owned = {m.group(1).lower() for m in _POSSESSED.finditer(topic)}
    verbs = {w.lower() for w in _PARTICIPLE.findall(topic)}
    return frozenset((owned | verbs) - set(names))


_POSSESSED = re.compile(r"\b(?:my|our|your|his|her|its|their)\s+([^\W\d_]+)", re.IGNORECASE)
_PARTICIPLE = re.compile(r"\b[^\W\d_]{2,}(?:ing|ed)\b")


def _swaps(word: str) -> set[str]:
    """``word`` with two neighbouring letters swapped, each way: the slip of a short name
    (:func:`~app.research.term_stats.slips` leaves words under six letters alone).

    Example:
        >>> sorted(_swaps("bnid"))
        ['bind', 'bndi', 'nbid']
    """
    return {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)} - {
        word}


def unretrieved_names(terms: Sequence[str], names: Iterable[str],
                      rows: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The names among ``terms`` (:func:`name_terms`: "MATLAB", "GitHub") that no retrieved
    item mentions, when the run retrieved any: the corpus may name the thing somewhere, but
    what the report cites is about its other words. Else "What is the default
    figure size in MATLAB?" over gnuplot's manual (MATLAB in one passage, not retrieved) was
    answered "Its default size will be 5 by 3 inches." (a terminal's) without a word.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "a#0", "text": "The default size is 5 by 3 inches."}]}}]
        >>> unretrieved_names(["default", "size", "matlab"], {"matlab"}, rows)
        ('matlab',)
    """
    texts = [item_words(item) for _row, item in ok_items(list(rows)) if item.get("ref")]
    named = set(names)

    def said(name: str) -> bool:  # a plural names its singular ("RewriteRules")
        forms = {name, name[:-1] if name.endswith("s") else name,
                 name[:-2] if name.endswith("es") else name}
        return any(mentioned([f], text, named | forms) for f in forms for text in texts)

    return tuple(t for t in terms if t in named and texts and not said(t))


def unretrieved_words(terms: Sequence[str], rows: Iterable[Mapping[str, Any]],
                      names: Iterable[str] = ()) -> tuple[str, ...]:
    """The ``terms`` no retrieved item mentions (:func:`mentioned`), when the run retrieved
    any: those the corpus holds in few passages (:meth:`TermStats.rare`) are named beside a
    word it lacks, as the note on it says "the report answers the topic's other words" (trial
    57: "worker_connections in the nginx events block" over Apache's manual named
    "worker_connections" alone, though no passage cited said "nginx", in 1 of 18,000).

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "a#0", "text": "The event MPM serves connections."}]}}]
        >>> unretrieved_words(["nginx", "events", "connections"], rows)
        ('nginx',)
        >>> rows[0]["structured"]["items"][0]["heading"] = "THE NGINX GROUP"
        >>> unretrieved_words(["nginx", "events", "connections"], rows)
        ()
    """
    texts = [item_words(item) for _row, item in ok_items(list(rows)) if item.get("ref")]
    said = set().union(*(mentioned(terms, text, names) for text in texts)) if texts else set()
    return tuple(t for t in terms if texts and t not in said)


def unretrieved_phrases(phrases: Sequence[str], rows: Iterable[Mapping[str, Any]]
                        ) -> tuple[str, ...]:
    """The names of several words (:func:`~app.research.topic_words.name_phrases`: "github
    pages") that no retrieved item writes with their words side by side (a plural or a hyphen
    aside), when the run retrieved any: each word may be there, the name is not.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [{"kind": "passage", "ref": "a#0",
        ...     "text": "Publish the pages of a mirror on GitHub."}]}}]
        >>> unretrieved_phrases(["github pages"], rows), unretrieved_phrases(["a mirror"], rows)
        (('github pages',), ())
        >>> rows[0]["structured"]["items"][0]["text"] = "Each event loop runs a TaskGroup."
        >>> unretrieved_phrases(["event loops", "task groups"], rows)
        ()
        >>> rows[0]["structured"]["items"][0]["text"] = "Paste into Microsoft(R) Word(R) files."
        >>> unretrieved_phrases(["microsoft word"], rows)
        ()
    """
    texts = [f"{item.get('title') or ''} {item.get('text') or ''}"
             for _row, item in ok_items(list(rows)) if item.get("ref")]
    if not texts:
        return ()
    missing = []
    for phrase in phrases:
        # each word in any number (loops, loop), apart, joined as an identifier writes them
        # ("Task Groups": TaskGroup) or trade-marked ("Microsoft(R) Word(R)", trial 90, F5)
        words = [re.escape(re.sub(r"(?:es|s)$", "", w) if len(w) > 3 else w)
                 for w in phrase.split()]
        said = re.compile(r"(?<![^\W_])" + r"\w{0,2}(?:\((?:R|TM)\)|[®™])?[\s._:/-]*".join(words)
                          + r"\w{0,2}(?![^\W_])", re.IGNORECASE)
        if not any(said.search(text) for text in texts):
            missing.append(phrase)
    return tuple(missing)
