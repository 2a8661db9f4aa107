"""Query parsing shared by every source and by the offline model: one stopword list, the words of
a text, a safe FTS5 query, and the searchable words of a title.

This module imports only the standard library (and the sources' own word modules, which do too);
the FTS5 clauses it builds are :mod:`workers.sources.fts_clauses`'.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from workers.sources.compound_forms import joined_terms
from workers.sources.contractions import without_contractions
from workers.sources.fts_clauses import (
    fts_asked_headings,
    fts_heading_phrases,
    fts_names,
    fts_or,
    quoted,
    spelled_terms,
)
from workers.sources.inflections import word_forms
from workers.sources.stopwords import FILLER_WORDS, STOPWORDS
from workers.sources.symbols import identifier_in, symbol_name, symbol_terms, title_terms, words_of

__all__ = ["MAX_QUERY_TOKENS", "WORD_MEMOS", "SearchQuery",
           "content_terms", "distinct_terms", "identifier_in", "identifier_parts", "mentions",
           "query_terms", "query_to_fts", "search_query", "shares_form", "spelled_terms",
           "symbol_name", "symbol_terms", "term_matches", "title_terms", "word_forms"]

MAX_QUERY_TOKENS = 32
"""At most this many distinct query tokens are OR-ed into one FTS5 query."""

_MARKED = re.compile(r"\[([A-Za-z])\]|`(\w)`|(?<=[A-Za-z]/)(\d)(?!\w)"
                     r"|(?:^|(?<=[\s(\"']))-([A-Za-z])(?![\w-])"
                     r"|\b(?i:the)\s+([A-Za-z])\s+(?=(?i:filter|flag|option|command|key|switch|"
                     r"modifier|register|parameter|argument|variable)s?\b)")
"""A one-character word the question marks as a name: a flag or option letter in brackets or
backticks ("the RewriteRule [L] flag"; a digit in brackets is a footnote's mark, "[1]"), an
option of one letter ("the -L option of ssh", trial 76), a version's digit after a slash
("HTTP/2"), a letter named by the kind of thing it is ("the n filter": Mako's section on it
was never retrieved, trial 92, F2): searched, as no other one-character word is (trial 57,
Q2: "[L]" and "HTTP/2" lost to "flags" and "http", and the flags page's introduction
answered)."""


def query_terms(text: str, limit: int = MAX_QUERY_TOKENS) -> list[str]:
    """The searchable words of any text, lower-cased, in first-seen order, at most ``limit``.

    Word tokens (``\\w+``, "3.1.2" one: :func:`~workers.sources.symbols.words_of`) minus
    stopwords, one-character tokens (unless :data:`_MARKED`) and duplicates, of the text in
    Unicode's compatibility form (NFKC): full-width ``ｃｈｅｃｋｐｏｉｎｔｅｒ`` is the word
    ``checkpointer``. An English contraction's tail is no word ("I've" is not "ve", "you're"
    not "re": :func:`~workers.sources.contractions.without_contractions`).

    Example:
        >>> query_terms("What is the mechanism behind Send and reducers?")
        ['mechanism', 'behind', 'send', 'reducers']
        >>> query_terms("ｃｈｅｃｋｐｏｉｎｔｅｒ")
        ['checkpointer']
        >>> query_terms("Every variable I've made with the re module")
        ['variable', 'made', 're', 'module']
        >>> query_terms("What does the n filter do?"), query_terms("Is a filter a function?")
        (['n', 'filter'], ['filter', 'function'])
    """
    seen: dict[str, None] = {}
    marked = {m.group(m.lastindex or 0).lower() for m in _MARKED.finditer(text)}
    # before NFKC (it makes ´ a space and an accent) and after (it makes ＇ an apostrophe)
    text = without_contractions(unicodedata.normalize("NFKC", without_contractions(text.lower())))
    for token in words_of(text):
        if ((len(token) < 2 and token not in marked) or token in STOPWORDS
                or not any(c.isalnum() for c in token)):
            continue
        seen.setdefault(token, None)
        if len(seen) >= limit:
            break
    return list(seen)


def query_to_fts(query: str) -> str | None:
    """Turn any user text into a safe FTS5 query, or None when nothing searchable is left.

    The words are those of :func:`query_terms` (at most ``MAX_QUERY_TOKENS``). Each is quoted as
    an FTS5 string (so ``AND``/``NEAR``/``*``/``:``/quotes are plain words) and they are OR-ed, so
    bm25 ranks passages by how many (and how rare) query words they contain. A word's other
    spellings (:func:`~workers.sources.fts_clauses.spelled_terms`) are OR-ed with it.
    """
    terms = query_terms(query)
    if not terms:
        return None
    return fts_or(terms)


_TEXT_WORDS = re.compile(r"\w+")
_TEXT_PARTS = re.compile(r"[^\W_]+")  # an identifier's parts, split at "_" as FTS5 does
def mentions(terms: Iterable[str], text: str,
             forms_of: Callable[[str], frozenset[str]] = word_forms) -> set[str]:
    """The ``terms`` (as :func:`query_terms` gives them) that ``text`` mentions: a word of the
    text shares a form with the term (see :func:`word_forms`, or ``forms_of``: an ``-e``
    verb's forms too, :func:`~workers.sources.inflections.verb_forms`). Case-insensitive,
    deterministic.

    Example:
        >>> sorted(mentions(["checkpointer", "pending", "zebra"], "Checkpoints save pending data"))
        ['checkpointer', 'pending']
        >>> sorted(mentions(["put_writes", "pending"], "put_writes saves load_pending_writes"))
        ['pending', 'put_writes']
        >>> sorted(mentions(["retry", "policy", "retrypolicy"], "Pass a `RetryPolicy`."))
        ['policy', 'retry', 'retrypolicy']
        >>> from workers.sources.inflections import verb_forms
        >>> said = "Disabled or enabled, it is used once, then closed."
        >>> sorted(mentions(["disable", "enable", "use", "close"], said, verb_forms))
        ['close', 'disable', 'enable', 'use']
        >>> sorted(mentions(["disable", "enable", "use", "close"], said))
        []
    """
    terms = tuple(terms)
    lowered = text.lower()
    forms: set[str] = set()
    # whole words and an identifier's parts: a term ``load_pending_writes`` and a term
    # ``pending`` are both mentioned by ``load_pending_writes``, "retry" by ``RetryPolicy``
    words = set(_TEXT_WORDS.findall(lowered)) | set(_TEXT_PARTS.findall(lowered))
    words |= joined_terms(terms, lowered, words)  # "time-out" mentions "timeout" (compound_forms)
    for word in words | {p for w in set(_TEXT_PARTS.findall(text)) for p in _camel_parts(w)}:
        forms |= forms_of(word)
    return {term for term in terms
            if forms_of(term) & forms or identifier_in(term, lowered)}


def distinct_terms(terms: Iterable[str]) -> list[str]:
    """``terms`` without the ones that share a form (:func:`word_forms`) with an earlier one: a
    question that says "sheets" and then "sheet" asks about one word, not two.

    Example:
        >>> distinct_terms(["letter", "sheets", "size", "sheet", "colour", "color"])
        ['letter', 'sheets', 'size', 'colour']
    """
    out: list[str] = []
    for term in terms:
        if not shares_form(term, out):
            out.append(term)
    return out


def shares_form(term: str, words: Iterable[str]) -> bool:
    """Whether ``term`` shares a form (:func:`word_forms`) with one of ``words``."""
    forms = word_forms(term)
    return any(forms & word_forms(w) for w in words)


def content_terms(text: str, limit: int = MAX_QUERY_TOKENS) -> list[str]:
    """The content words of a question: :func:`query_terms` without ``FILLER_WORDS`` (all of
    them when nothing else is left), so "How does X work?" searches for X, not for "work";
    but those the question writes as code (``--keep``, a filler word as a word, is gzip's
    option; :func:`workers.sources.names.written_as_code`), wherever the question is read:
    the run's topic, a search's focus, kept "keep" and "going" of Ant's ``-keep-going`` only
    in the sub-question, so the search looked for "option" alone (trial 78, F1).

    Example:
        >>> content_terms("How do I see what a checkpointer is going to store?")
        ['checkpointer', 'store']
        >>> content_terms("What does the -keep-going option do?")
        ['keep', 'going', 'option']
    """
    from workers.sources.names import written_as_code  # names builds on these words

    keep = written_as_code(text)
    terms = distinct_terms(query_terms(text, limit))
    return [t for t in terms if t not in FILLER_WORDS or t in keep] or terms


@dataclass(frozen=True)
class SearchQuery:
    """What a search looks for (see :func:`search_query`).

    Attributes:
        terms: the core words, in the question's order; any of them matches.
        context: the focus's other words: they only raise a passage's rank.
        fts: the FTS5 query, the core words OR-ed (each quoted: no input is FTS5 syntax), then
            the names of several words it may ask, by the ``namekey`` column's key each.
        names: those names (:class:`~workers.sources.names.NameKey`).
        options: the command-line options the question writes, dashes kept (``-keep-going``:
            :func:`~workers.sources.names.written_options`).
        qualified: the dotted names the question writes, lower-cased (``attrs.evolve``).
        entry_terms: the terms that may name a reference entry, when not all of them may (a
            question asking how to do a task: :func:`~workers.sources.asking.entry_words`).
        said: how the question asks, its core and filler words (none for a task; those the
            ``focus`` has), and ``question`` itself: :mod:`workers.sources.asked_headings`.
        joined: words joined, each with the terms it stands for ("relay host": relayhost).
        defining: it (or its focus) asks what a thing is (:func:`~.asking.asks_what`).
    """

    terms: tuple[str, ...]
    context: tuple[str, ...]
    fts: str
    names: tuple = ()
    options: tuple[str, ...] = ()
    qualified: tuple[str, ...] = ()
    entry_terms: tuple[str, ...] | None = None
    said: tuple[str, ...] = ()
    question: str = ""
    joined: tuple[tuple[str, tuple[int, ...]], ...] = ()
    defining: bool = False

    @property
    def entry_words(self) -> tuple[str, ...]:
        """The terms that may name a reference entry (:attr:`entry_terms`, else all)."""
        return self.terms if self.entry_terms is None else self.entry_terms


def search_query(query: str, focus: str | None = None) -> SearchQuery | None:
    """The words a search ranks by, or None when nothing searchable is left (issue 19: no word
    is required, so a filler word never decides what matches).

    The *core* words are the question's content words (:func:`content_terms`) that the ``focus``
    (the run's topic) also has, counting inflections (:func:`word_forms`): the words a plan
    wraps around the topic ("What is the mechanism behind ...?") are not core. Without a focus,
    or when the question shares no word with it, every content word is core. The question is
    never split at "and", "or" or commas: it is one bag of words, ranked as one. Runs of the
    core words side by side may name an API symbol ("retry policy": ``RetryPolicy``, see
    :func:`~workers.sources.names.name_keys`): they are searched as its name too.

    Example:
        >>> q = search_query("What are the caveats of Send?", focus="Send and reducers")
        >>> q.terms, q.context, q.fts
        (('send',), ('reducers',), '"send"')
        >>> search_query("What is retry policy?").fts
        '"retry" OR "policy" OR "retrypolicy" OR namekey : "retrypolicy"'
    """
    from workers.sources.asking import asks_task, asks_what, entry_words
    from workers.sources.joined import joined_words
    from workers.sources.names import kinds_named, name_keys, written_options  # on these words

    words = content_terms(query)
    if not words:
        return None
    topic = content_terms(focus) if focus else []
    core = [w for w in words if shares_form(w, topic)] or words
    context = [t for t in topic if not shares_form(t, core)]
    parts = identifier_parts(core)
    context += [p for p in parts if not shares_form(p, context)]
    names = name_keys(query, core)
    if kinds := kinds_named(query, names):  # "the getline() function": its kind, context
        core = [w for w in core if w not in kinds] or core
        context += [k for k in kinds if k not in context]
        # and no name ends with it: "reloader_type parameter" searched as a name put a note
        # writing that phrase above the parameter's own row (trial 126, F3)
        names = tuple(n for n in names if n.phrase.split()[-1].lower() not in kinds)
    task, focus_words = asks_task(query), query_terms(focus or "")  # how it asks: no kind
    said = [w for w in distinct_terms(query_terms(query)) if (w in core or (  # ("clause"), no
        w in FILLER_WORDS and not task)) and (not topic or shares_form(w, focus_words))]
    joined = joined_words(query, core)  # "relay host": Postfix's relayhost (trial 114, F7)
    return SearchQuery(tuple(core), tuple(context),
                       fts_or(core) + "".join(f" OR {fts_or([p])}" for p in parts)
                       + "".join(f" OR {quoted(j)}" for j, _ in joined)
                       + fts_names(names) + fts_heading_phrases(query, core)
                       + fts_asked_headings(said, core), names,
                       written_options(query),
                       tuple(dict.fromkeys(q.lower() for q in _QUALIFIED.findall(query))),
                       tuple(entry_words(query, core)) if task else None,
                       tuple(said), query, joined,
                       asks_what(query) or bool(focus and asks_what(focus)))


_QUALIFIED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b")  # attrs.evolve, core.autocrlf


def identifier_parts(terms: Sequence[str]) -> list[str]:
    """The words of the identifiers among ``terms`` that are not ``terms`` themselves: a search
    finds and ranks passages by them too, so an identifier the corpus does not have verbatim
    still finds what its words name.

    Example:
        >>> identifier_parts(["checkpointer_pending_writes", "pending"])
        ['checkpointer', 'writes']
    """
    out: list[str] = []
    for term in terms:
        if "_" in term.strip("_"):
            out += [p for p in query_terms(term.replace("_", " "))
                    if not shares_form(p, [*terms, *out])]
    return out


_HAY_WORDS = re.compile(r"[^\W_]+")


class _Hits(dict[str, int]):
    """Word -> the index of the term it matches (-1: none), filled as words are met; ``index``
    maps each form of each term to the term's index (the first term of a shared form)."""

    def __init__(self, terms: tuple[str, ...]) -> None:
        super().__init__()
        self.index: dict[str, int] = {}
        for i, term in enumerate(terms):
            for form in word_forms(term.lower()):
                self.index.setdefault(form, i)


WORD_MEMOS = 16
"""How many queries' word memos are kept (:func:`_word_hits`). A memo pays off within one search
(its ~200 candidates ranked against the same terms) and for a query searched again soon; it
holds every distinct word of those candidates (~80 KB), so 256 of them took about 20 MB once a
run had searched 256 different questions, the largest memory a run's tasks grew beyond a bare
LangGraph graph's (issue 21, item 13). 16 is four times the default ``--max-concurrency``."""


@lru_cache(maxsize=WORD_MEMOS)
def _word_hits(terms: tuple[str, ...]) -> _Hits:
    """The word memo of one query's terms: a search ranks ~200 candidates against the same
    terms, and its passages repeat their words, so each word's forms are looked up once
    (this was 40 % of a warm run's research CPU; issue 21, item 12). Two threads filling one
    memo at once write the same value. The last :data:`WORD_MEMOS` queries' are kept."""
    return _Hits(terms)


def _hit(index: dict[str, int], word: str) -> int:
    for form in word_forms(word):
        if form in index:
            return index[form]
    return -1


def term_matches(terms: Sequence[str], text: str) -> tuple[set[int], int]:
    """Which ``terms`` (indexes) a text mentions (a word sharing a form with the term, see
    :func:`word_forms`; identifiers split at ``_`` as FTS5 splits them), and how many pairs of
    consecutive terms it has side by side in that order (a phrase of the question's words).
    Unlike :func:`mentions`, CamelCase words stay whole ("PostScript" is no "script").

    Example:
        >>> term_matches(["retry", "policy", "zebra"], "Set the retry_policy of a node.")
        ({0, 1}, 1)
    """
    hits = _word_hits(tuple(terms))
    found: set[int] = set()
    pairs: set[int] = set()
    last = -2
    lowered = text.lower()
    found.update(i for i, term in enumerate(terms) if identifier_in(term, lowered))
    hay = _HAY_WORDS.findall(lowered)
    for word in [*hay, *joined_terms(terms, lowered, set(hay))]:  # "time-out" too
        hit = hits.get(word)
        if hit is None:
            hit = hits[word] = _hit(hits.index, word)
        if hit >= 0:
            found.add(hit)
            if last >= 0 and hit == last + 1:
                pairs.add(hit)
        last = hit
    return found, len(pairs)


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def _camel_parts(word: str) -> list[str]:
    """The lower-cased parts of a CamelCase word (``RetryPolicy``: retry, policy, each of three
    letters or more); ``[]`` for a word that is not one (``STATE``, ``Zürich``, ``LaTeX``)."""
    parts = _CAMEL.findall(word) if word.isascii() and not word[1:].islower() else []
    if len(parts) < 2 or any(len(p) < 3 for p in parts):  # "LaTeX" is no "la te x"
        return []
    return [p.lower() for p in parts]
