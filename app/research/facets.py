"""The facets of a topic (issue 19, section 1): the sub-questions after the first, each asking
a distinct part of the topic and searching something the others do not.

Two sources of facets, in the order :func:`app.research.plan.offline_plan` takes them:

* the topic's own parts: the two things a comparison names, the phrases of a subject made of
  several (:func:`phrase_facets`);
* what the corpus holds about the topic: the distinct documents a first search of the corpus for
  the topic finds (:func:`first_search`) that are parts of the best one (its members) or its
  class, beyond those the first sub-question's own search reaches (:func:`document_facets`), each
  asked about by name, so its task reads evidence the first task does not.

No facet wraps the whole topic in a template ("How do you use X?", "What is needed to X?"):
a run's searches are focused on the topic's words (:func:`workers.sources.query.search_query`),
so such a facet searched the first question's words again and its section was folded or
repeated the first. With no distinct facet the plan is shorter.

Deterministic: the same topic over the same corpus gives the same facets in every process.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.research.asked_actions import asked_action
from app.research.facet_phrases import (
    CLAUSE_VERB,
    POINTS_OUT,
    asks_a_thing,
    cut_from_complement,
    names_a_thing,
)
from app.research.phrasing import second_person, shape
from app.research.topics import main_question

__all__ = ["FIRST_SEARCH_K", "document_facets", "finds_more", "first_search", "part_of",
           "phrase_facets", "reached_refs", "searched", "split_phrases", "with_article"]

FIRST_SEARCH_K = 12
"""Passages the plan's first search of the corpus returns (:func:`first_search`)."""
_FACETS_PER_DOCUMENT = 2
"""The most sub-questions drawn from the documents the first search found."""


def first_search(source: Any, topic: str, k: int = FIRST_SEARCH_K) -> list[Any]:
    """What the corpus holds about ``topic``: the passages a search for the topic itself
    returns, best first (no relevance floor: :func:`document_facets` judges each document).

    Args:
        source: a :class:`workers.sources.Source` (the run's corpus).
        topic: the research topic.
        k: passages to return.

    Returns ``[]`` when the source cannot be searched (a closed or broken index): the plan then
    takes its facets from the topic alone; the workers report the source's error themselves.
    """
    from workers.sources import CorpusError

    try:
        return list(source.search(topic, k=k))
    except CorpusError:
        return []


def searched(question: str, topic: str) -> frozenset[str]:
    """The words a worker's search for ``question`` ranks by, focused on ``topic``
    (:func:`workers.sources.query.search_query`)."""
    from workers.sources.query import search_query

    parsed = search_query(question, focus=topic)
    return frozenset(parsed.terms) if parsed else frozenset()


def _name(passage: Any) -> str:
    """What a facet calls a document: its symbol's last part or its page title."""
    title = " ".join(str(passage.title or passage.doc_id).split())
    if re.fullmatch(r"[\w.:]+", title) and "." in title:
        parts = title.split(".")
        tail = [p for p in parts if p[:1].isupper()] or parts[-1:]
        return "`" + ".".join(parts[parts.index(tail[0]):]) + "`"
    return f"\u201c{title}\u201d" if not title.startswith("`") else title


def _twin(name: str) -> str:
    """A name with an async twin's leading "a" dropped from its last part (``aget_tuple``)."""
    head, dot, last = name.strip("`").rpartition(".")
    return f"{head}{dot}{last[1:] if last.startswith('a') and len(last) > 3 else last}".lower()


def _on_topic(passage: Any, topic: str) -> bool:
    """Whether a found passage mentions the topic as a retrieved item must to count
    (:func:`app.research.relevance.on_topic`): a document found by one common word is no facet
    of the topic."""
    from app.research.relevance import name_terms, on_topic, topic_terms

    item = {"title": passage.title, "text": passage.text}
    return on_topic(item, topic_terms(topic), name_terms(topic))


def reached_refs(source: Any, question: str, topic: str, k: int) -> frozenset[str]:
    """The passages (refs) a worker's search for ``question`` returns (``k``: the run's
    ``search_k``, focused on ``topic``, as :mod:`workers.docs_search` searches); none when the
    source cannot be searched."""
    from workers.sources import CorpusError

    try:
        return frozenset(p.ref for p in source.search(question, k=k, focus=topic))
    except CorpusError:
        return frozenset()


def finds_more(source: Any, question: str, topic: str, reached: frozenset[str], k: int
               ) -> bool:
    """Whether the search of facet ``question`` finds a passage beyond the first task's
    (``reached``: :func:`reached_refs`) whose text mentions the facet's words, so its section
    holds findings of its own. "What are uninstalled programs?" of Libtool's "How do I run gdb
    on uninstalled programs?" found the passage the first task had taken, under its heading
    "Wrapper executables for uninstalled programs", and one on the wrapper's debug mode: its
    section held only "When executing in debug mode, diagnostic information will be printed
    to stderr..." (trial 113, new users on Libtool). A facet whose search fails is kept (the
    workers report the error)."""
    from app.research.relevance import name_terms, on_topic, topic_terms
    from workers.sources import CorpusError

    try:
        passages = source.search(question, k=k, focus=topic)
    except CorpusError:
        return True
    terms, names = topic_terms(question), name_terms(question)
    return any(p.ref not in reached and on_topic({"title": "", "text": p.text}, terms, names)
               for p in passages)


def part_of(doc_id: str, best: str) -> bool:
    """Whether document ``doc_id`` is a part of the ``best`` one (a member of its class or
    module: ``langgraph.types.RetryPolicy.__init__`` of ``langgraph.types.RetryPolicy``) or the
    class the best one is a member of: the same document, seen closer or wider."""
    if doc_id.startswith(best + "."):
        return True
    return best.startswith(doc_id + ".") and doc_id.rsplit(".", 1)[-1][:1].isupper()


def document_facets(topic: str, found: Sequence[Any], seen: set[frozenset[str]],
                    reached: int = 1) -> list[str]:
    """A question per distinct document of ``found`` that is a part of the best one or its
    class (:func:`part_of`) and that the first sub-question's search does not reach ("What is
    `RetryPolicy.__init__`?"), in rank order, at most :data:`_FACETS_PER_DOCUMENT`.

    Why parts of the best document only: a facet on any other document the search found
    divides the work too, but its section then cites pages beside the answer: on the default
    eval the share of cited sources on target fell from 0.67 to 0.30 with them, and to 0.58
    with the best document's sibling members. A document is also left out when it is
    among those of the first ``reached`` passages (the first task reads them: a facet on them
    repeats its findings), when it does not mention the topic (:func:`_on_topic`), when it is
    the async twin of one taken, or when its question would search the words of an earlier one
    (``seen``, the searched word sets so far; updated).

    Args:
        topic: the research topic.
        found: the first search's passages, best first (:func:`first_search`).
        seen: the word sets the plan's questions search so far.
        reached: how many of ``found`` the first sub-question's search returns (the run's
            ``search_k``); its top document is always taken as reached.
    """
    if not found:
        return []
    best = found[0].document_key
    reached_docs = {p.document_key for p in found[:max(reached, 1)]}
    names: list[str] = []
    out: list[str] = []
    for passage in found:
        key = passage.document_key
        if key in reached_docs or not part_of(key, best) or len(names) >= _FACETS_PER_DOCUMENT:
            continue
        name = _name(passage)
        if name in names or _twin(name) in {_twin(n) for n in names}:
            continue  # sync/async twins: get_tuple, aget_tuple
        question = f"What is {name}?" if name.startswith("`") else f"What does {name} cover?"
        terms = searched(question, topic)
        if terms and terms not in seen and _on_topic(passage, topic):
            names.append(name)
            seen.add(terms)
            out.append(question)
    return out


_BREAK_WORDS = (r"after|before|with|without|in|into|from|for|of|on|when|while|during|across|"
                r"between|through|by|inside|within|using")
_PHRASE_BREAK = re.compile(rf"\s+({_BREAK_WORDS})\s+", re.IGNORECASE)
_LEADING_BREAK = re.compile(rf"^(?:(?:{_BREAK_WORDS})\s+)+", re.IGNORECASE)
"""Prepositions left at a phrase's start by two in a row ("from inside an XPath expression"
asked "What is inside an XPath expression?", trial 98, F8)."""
_RELATIONAL = re.compile(
    r"\b(?:number|length|size|count|amount|total|limit|maximum|minimum|default|value|type|"
    r"kind|sort|version|name|part|rest|end|order|difference|meaning|purpose|unit|range|width|"
    r"height|depth|level|rate|speed|duration|format|location|position)s?$", re.IGNORECASE)
"""A phrase ending in a noun that names a measure or an attribute of what follows it ("the
maximum number *of* attached databases", "the default page size *for* new files"): it means
nothing alone, so it is not split from its complement."""


_ARTICLE = re.compile(r"^what\s+(?:is|are|does|do)\s+(?P<article>an?|the)\s+", re.IGNORECASE)


def with_article(topic: str, bare: str) -> str:
    """The subject ``bare`` of ``topic`` with the article the question's wrapper took from it
    ("What is *the* default baselevel of the toc extension?"): its first phrase is asked with
    it, "What is the default baselevel?", not "What is default baselevel?" (trial 113, new
    users on Python-Markdown). A subject the topic does not open with is as it is.

    Example:
        >>> with_article("What is the default baselevel of the toc extension?",
        ...              "default baselevel of the toc extension")
        'the default baselevel of the toc extension'
        >>> with_article("What is the default value of HostnameLookups?", "HostnameLookups")
        'HostnameLookups'
    """
    text = " ".join(topic.split())
    match = _ARTICLE.match(text)
    if match and text[match.end():].lower().startswith(bare.lower()):
        return f"{match.group('article').lower()} {bare}"
    return bare


def split_phrases(subject: str) -> list[str]:
    """The phrases of ``subject``, split at its prepositions, a measure or attribute and its
    complement kept together (:data:`_RELATIONAL`): "What is maximum number?" and "What are
    new database files?" were facets of two questions about limits and defaults, each
    searching words every page has.

    Example:
        >>> split_phrases("retry policy of a graph node")
        ['retry policy', 'a graph node']
        >>> split_phrases("the maximum number of attached databases")
        ['the maximum number of attached databases']
        >>> split_phrases("call my own function from inside an XPath expression")
        ['call my own function', 'an XPath expression']
    """
    parts = _PHRASE_BREAK.split(subject)
    out = [parts[0].strip()]
    for word, phrase in zip(parts[1::2], parts[2::2], strict=True):
        if word.lower() in ("of", "for") and _RELATIONAL.search(out[-1]):
            out[-1] = f"{out[-1]} {word} {phrase.strip()}"
        else:
            out.append(_LEADING_BREAK.sub("", phrase.strip()))
    return out


_ACTION_AFTER = re.compile(r"\b(?:without|by|before|after|while|when|upon|instead\s+of)\s+$",
                           re.IGNORECASE)


def _an_action(phrase: str, subject: str) -> bool:
    """Whether ``phrase`` of ``subject`` opens with a verb's gerund after a preposition that
    takes an action (:data:`_ACTION_AFTER`: "without *dropping connections*", "by *adding a
    header*"): a thing done, no thing to ask "What are ...?" about; "pending writes", whose
    "pend" is no verb, is a name."""
    from app.research.phrasing import _base_of_gerund

    at = subject.find(phrase)
    return (at > 0 and _ACTION_AFTER.search(subject[:at]) is not None
            and _base_of_gerund(phrase.split()[0]) is not None)


_ASKING = ("how", "what", "why", "when", "where", "which", "who", "whom", "whose")
"""A phrase opening with one of these is a question of its own, asked as it is."""


def phrase_facets(kind: str, subject: str) -> list[str]:
    """A question per phrase of a subject made of several ("retry policy of a graph node":
    "What is retry policy?", "What is a graph node?"): each searches a part of the topic's
    words, so the tasks divide the work.

    A phrase is asked about only when it carries enough of the subject's content words to stay
    on topic (:func:`_carries_the_topic`): a fragment such as "tool arguments" of "Annotation
    for injecting persistent store into tool arguments" searches words the whole corpus has,
    and its task cites whatever shares them (the default eval's on-target share fell from 0.61
    to 0.50 when every phrase was asked about). A phrase that names no thing is not asked
    about either (:func:`~app.research.facet_phrases.names_a_thing`), nor the first phrase of
    a why-question's subject, the clause it asks the reason of ("Why does quillsync use so much
    bandwidth on a shared link?" planned "What is quillsync use so much bandwidth?", trial
    116, F13).

    Example:
        >>> phrase_facets("why", "quillsync use so much bandwidth on a shared link")
        ['What is a shared link?']
    """
    from workers.sources.query import content_terms

    # a phrase is asked about without an aside after its comma: "What are another website,
    # like the Python docs?" was a facet of Sphinx's intersphinx question (trial 81, F5)
    # nor an action a preposition takes: "What are dropping connections?" of "... without
    # dropping connections" (trial 127, F8)
    phrases = [p.split(",", 1)[0].strip() for p in split_phrases(subject)]
    actions = {p for p in phrases if _an_action(p, subject)}
    words = [set(content_terms(p)) for p in phrases]
    topic = set().union(*words) if words else set()
    phrases = [p for p, w in zip(phrases, words, strict=True) if _carries_the_topic(w, topic)]
    if len(phrases) < 2:
        return []
    out = []
    for n, phrase in enumerate(phrases[:3]):
        first = phrase.split()[0].lower()
        verb = n == 0 and kind == "how" and first not in (
            "a", "an", "the", "my", "your", *_ASKING)  # "How do you How hot ...?" (trial 52)
        if verb and (action := asked_action(phrase)) != phrase:  # not "How do you Can you
            subject = subject.replace(phrase, action or phrase, 1)  # write ...?" (trial 121)
            phrase, verb = action or phrase, action is not None
        if phrase in actions or POINTS_OUT.search(phrase) or (n == 0 and kind == "why"):
            continue  # "sending them to the browser"; a why-question's clause, "quillsync use
            # so much bandwidth"
        if n == 0 and (not verb or shape(phrase) != "verb") and CLAUSE_VERB.search(phrase):
            phrase, verb = CLAUSE_VERB.sub("", phrase), False  # a clause's subject
        if verb:
            if not cut_from_complement(phrase, subject):
                out.append(f"How do you {second_person(phrase)}?")
        elif names_a_thing(phrase) and asks_a_thing(phrase, asked := main_question(phrase)):
            out.append(asked)
    return out


def _carries_the_topic(words: set[str], topic: set[str]) -> bool:
    """Whether a phrase's content ``words`` stay on the ``topic``'s: at least two of them, and
    at least half of the topic's, the share a passage must mention to be judged on topic
    (:func:`app.research.relevance.needed`): a question searching fewer finds passages that
    are on topic only by chance."""
    return len(words) >= 2 and 2 * len(words & topic) >= len(topic)
