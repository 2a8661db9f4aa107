"""API names as a question spells them: "retry policy" for ``RetryPolicy``, "pending writes" for
``pending_writes``, "Send" for ``Send`` (issue 19).

A symbol's *key* is its own name (the last part of its qualified name) lower-cased with ``_``
removed: ``RetryPolicy`` and ``retry_policy`` both have the key ``retrypolicy``. The index
stores it in a column of its own, as one token, so a search matches it only whole: the question
names the symbol, not a member whose name merely contains a word of it. A question's candidate
keys are its runs of adjacent words joined (:func:`name_keys`), and its single words spelled as
names ("Send", "StateGraph", "add_messages").

This module imports only the standard library (and :mod:`workers.sources.query`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from workers.sources.query import (
    FILLER_WORDS,
    STOPWORDS,
    symbol_name,
    term_matches,
    title_terms,
    word_forms,
)

__all__ = ["MAX_NAME_KEYS", "MAX_NAME_WORDS", "NameKey", "code_words", "kinds_named",
           "letter_options", "name_keys", "named_symbols", "symbol_key", "symbol_name",
           "writes_option", "written_as_code", "written_options"]

MAX_NAME_WORDS = 4
"""The longest run of a question's words joined into one name (``AsyncShallowPostgresSaver``)."""

MAX_NAME_KEYS = 24
"""At most this many candidate names are searched for one question."""

_WORDS = re.compile(r"\w+")
_JOINER = re.compile(r"[\s-]+")
_OPTION_LEAD = re.compile(r"(?:^|\s)[-+]{1,2}$")
_QUOTES = frozenset("'\"`")
_NAME_LEADS = frozenset({"all", "any", "in", "no", "on", "out"})
"""The stopwords that may lead a name of three words or more, the name's first part written
apart (``InMemorySaver``, ``AnyHttpUrl``, ``NoInitField``, ``OnConflictBehavior``); never one
with the word after it spelling a function word ("no body sent" is no ``NoBodySent``: it reads
"nobody sent", :func:`_usable`)."""


def symbol_key(symbol: str) -> str:
    """The key a search matches a symbol's whole name by: its :func:`symbol_name` lower-cased,
    without ``_``; ``""`` for no symbol.

    Example:
        >>> symbol_key("langgraph.types.RetryPolicy"), symbol_key("x.load_pending_writes")
        ('retrypolicy', 'loadpendingwrites')
    """
    return symbol_name(symbol).replace("_", "").lower()


@dataclass(frozen=True)
class NameKey:
    """A name a question may be asking about.

    Attributes:
        key: the name as :func:`symbol_key` spells a symbol's (``"retrypolicy"``).
        spelled: the question's spelling when it is one word with a capital letter (``"Send"``,
            ``"StateGraph"``): a symbol spelled the same is the one asked about, one that only
            shares the key (a method ``send``) is not; ``""`` otherwise.
        phrase: the question's words it joins, separated by spaces (``"retry policy"``).
    """

    key: str
    spelled: str
    phrase: str


def _is_name_word(token: str, coded: bool = False) -> bool:
    """One word the asker spelled as a name: a capital letter or ``_`` inside it, or written as
    code (``coded``: ``Session.expunge``'s ``expunge``, whose entry lost to ``expunge_all``'s,
    trial 69; ``getline()``)."""
    return coded or "_" in token.strip("_") or any(c.isupper() for c in token)


def name_keys(text: str, topic: Collection[str] = ()) -> tuple[NameKey, ...]:
    """The names ``text`` may ask about: each run of 2 to ``MAX_NAME_WORDS`` adjacent words
    joined (parted by spaces or hyphens only; some stopwords may lead a run of three: "in
    memory saver"), and each single word spelled as a name (:func:`_is_name_word`), at most
    ``MAX_NAME_KEYS``, first seen first.

    Args:
        text: a question or topic, any text.
        topic: when given, the words (as :func:`~workers.sources.query.query_terms` gives them) a
            name's words must share a form with (filler words aside): a plan's template words
            ("mechanism behind") never make a name.

    Example:
        >>> [(n.key, n.spelled) for n in name_keys("Is Send a retry policy?", ["send", "retry",
        ...                                                                   "policy"])]
        [('send', 'Send'), ('retrypolicy', '')]
    """
    tokens, joined, coded = _words(text[:4000])
    forms = set().union(*(word_forms(t) for t in topic)) if topic else set()
    out: dict[str, NameKey] = {}
    for i, token in enumerate(tokens):
        for n in range(1, MAX_NAME_WORDS + 1):
            run = tokens[i: i + n]
            if len(run) < n or not all(joined[i + 1: i + n]):
                break
            if not _usable(run, forms if topic else None) and not (
                    n == 1 and coded[i] and token.lower() not in STOPWORDS):
                continue  # a filler word written as code is a name: gzip's --keep
            if n == 1 and not _is_name_word(token, coded[i]):
                continue
            key = "".join(run).replace("_", "").lower()
            spelled = token if n == 1 and any(c.isupper() for c in token) else ""
            if key and key not in out:
                out[key] = NameKey(key, spelled, " ".join(run))
            if len(out) >= MAX_NAME_KEYS:
                return tuple(out.values())
    return tuple(out.values())


def code_words(names: Iterable[NameKey]) -> frozenset[str]:
    """The single words of ``names`` (:func:`name_keys`) written as code, lower-cased: a call
    (``orient()``), an option (``-nosafe``), a member, a quoted word, a word its kind follows
    ("the orient function"), an identifier (``add_messages``); not a word only capitalised
    ("NULL" names NULLs too). Such a word is matched whole, never by its forms: Asymptote's
    "orientation" is not the orient function's word.

    Example:
        >>> sorted(code_words(name_keys("What does the orient function return?")))
        ['orient']
        >>> sorted(code_words(name_keys("Does Send take a NULL or -x?")))
        ['x']
    """
    return frozenset(n.phrase.lower() for n in names if " " not in n.phrase and not n.spelled)


_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z](?:[\w-]*\w)?(?![\w-])")


def written_options(text: str) -> tuple[str, ...]:
    """The command-line options ``text`` writes, with their dashes and as written, in order:
    Ant's ``-keep-going`` (whose line in the manual's listing of options answers it, not a
    sentence saying "keep going", trial 78), gzip's ``--keep``, ssh's ``-L``.

    Example:
        >>> written_options("Does -keep-going imply --keep or '-l'? Not a-b nor - x.")
        ('-keep-going', '--keep', '-l')
    """
    return tuple(dict.fromkeys(_OPTION.findall(text)))


def writes_option(text: str, option: str) -> bool:
    """Whether ``text`` writes ``option`` whole, with one dash or two (``--keep-going`` writes
    Ant's ``-keep-going``; "keep going" does not).

    Example:
        >>> writes_option("use --keep-going, -k", "-keep-going"), writes_option("keep going", "-k")
        (True, False)
    """
    return re.search(rf"(?<![\w-])--?{re.escape(option.lstrip('-'))}(?![\w-])", text) is not None


def letter_options(text: str) -> frozenset[str]:
    """The options of one letter ``text`` writes (:func:`written_options`): ssh's ``-L`` is
    not ``-l`` (rsync's page says "an explicit '-l' option to ssh", and answered "What does
    the -L option of ssh do?", trial 76). The search, the offline model and the report match
    such an option only as written.

    Example:
        >>> sorted(letter_options("the -L option, not '-l' nor a-b or --x"))
        ['-L', '-l']
    """
    return frozenset(o for o in written_options(text) if len(o) == 2)


def written_as_code(text: str) -> frozenset[str]:
    """The words of ``text`` written as code (:func:`_words`), lower-cased: a word a question
    writes so is a name, never a filler word ("What does the --keep option of gzip do?":
    "keep" was dropped from the search, trial 76, F2).

    Example:
        >>> sorted(written_as_code("What does the --keep option do, and getline()?"))
        ['getline', 'keep']
    """
    tokens, _joined, coded = _words(text[:4000])
    return frozenset(t.lower() for t, c in zip(tokens, coded, strict=True) if c)


def _words(text: str) -> tuple[list[str], list[bool], list[bool]]:
    """The words of ``text`` and, for each, whether only spaces or hyphens part it from the one
    before ("in-memory store": a run; "Send, add_messages": two), and whether it is written as
    code: a member of a dotted name (``Session.expunge``), a call (``getline()``, whose
    entry lost to every page that calls it, trial 71), an option (``-quality``, trial 72), a
    word in quotes (Vim's ``'scrolloff'``) or one the word for its kind follows as the question
    ends ("What does the orient function return?", :data:`_KIND_AFTER`)."""
    tokens: list[str] = []
    joined: list[bool] = []
    coded: list[bool] = []
    end = 0
    for match in _WORDS.finditer(text):
        between = text[end: match.start()]
        joined.append(bool(tokens) and _JOINER.fullmatch(between) is not None)
        quote = between[-1:]
        coded.append((bool(tokens) and between == ".") or text.startswith("(", match.end())
                     or _OPTION_LEAD.search(text, max(0, match.start() - 3), match.start())
                     is not None or (quote in _QUOTES and text.startswith(quote, match.end()))
                     or _KIND_NEXT.match(text, match.end()) is not None)
        tokens.append(match.group())
        end = match.end()
    return tokens, joined, coded


def _usable(run: list[str], forms: set[str] | None) -> bool:
    """Whether a run of words can be a name: none but its first is a stopword (and that only in
    a run of three, one of ``_NAME_LEADS`` that does not spell a function word with the word
    after it), its last is no stopword or filler word, and (with ``forms``) each other word is
    one of the topic's or a filler word ("get state history").

    A lead joined to the next word into a function word is that word written apart, not a
    name's first part: "Why is the response's no body sent?" was searched as the name
    ``nobodysent`` ("nobody sent"), the sibling of "no body" searched as ``nobody`` (trial 119,
    F3) left in the names of several words.

    Example:
        >>> _usable(["in", "memory", "saver"], None), _usable(["any", "http", "url"], None)
        (True, True)
        >>> _usable(["no", "body", "sent"], None), _usable(["any", "one", "field"], None)
        (False, False)
    """
    lowered = [t.lower() for t in run]
    if any(t in STOPWORDS for t in lowered[1:]) or lowered[-1] in FILLER_WORDS:
        return False
    if len(run) == 1 and (lowered[0] in STOPWORDS or lowered[0] in FILLER_WORDS):
        return False
    spelled = lowered[0] + lowered[1] if len(run) > 1 else ""  # "no body": "nobody"
    if lowered[0] in STOPWORDS and (len(run) < 3 or lowered[0] not in _NAME_LEADS
                                    or spelled in STOPWORDS or spelled in FILLER_WORDS):
        return False  # "in memory saver" may name InMemorySaver, "is retry policy" nothing
    content = [t for t in lowered if t not in STOPWORDS and t not in FILLER_WORDS]
    return forms is None or all(word_forms(t) & forms for t in content)


def named_symbols(names: Collection[NameKey], terms: Sequence[str],
                  own_names: Iterable[str]) -> dict[str, bool]:
    """Which of ``own_names`` (symbols' own names, as :func:`symbol_name` gives them) the question
    names, each with whether it is spelled as the question spells it with a capital letter.

    A symbol is named when its key is one of ``names``; not when the question spelled that name
    with a capital letter and the symbol otherwise ("Send" does not name a method ``send``), nor
    when another of ``own_names`` has the words of it and more of the question's ``terms``
    ("in-memory store for bytes" names ``InMemoryByteStore``, not ``InMemoryStore``).

    Example:
        >>> named_symbols(name_keys("What is Send?"), ["send"], ["Send", "send", "send_signal"])
        {'Send': True}
        >>> named_symbols(name_keys("What does show servers state do?"), ["servers", "state"],
        ...               ["show servers state"])  # HAProxy's command (trial 79)
        {'show servers state': False}
        >>> q = "in-memory store for bytes"
        >>> named_symbols(name_keys(q), ["memory", "store", "bytes"],
        ...               ["InMemoryStore", "InMemoryByteStore"])
        {}
    """
    keys = {n.key: n.spelled for n in names}
    own = list(dict.fromkeys(own_names))
    covered = {name: term_matches(terms, title_terms(name))[0] for name in own}
    out: dict[str, bool] = {}
    for name in own:
        # an option: "-quality" is "quality"; a keyword of several words, "show servers state";
        # a configuration key, "server.max-keep-alive-idle", by its last part (trial 84)
        key = re.sub(r"[-_ ]", "", name.lstrip("-+").rsplit(".", 1)[-1]).lower()
        if key not in keys or (keys[key] and keys[key] != name):
            continue
        mine = covered[name]
        if any(mine < theirs for theirs in covered.values()):
            continue
        out[name] = bool(keys[key])
    return out


_KIND_TAIL = (r"(?:\(\))?['\"`]?\s+(function|method|option|flag|command|parameter|directive"
              r"|setting|variable|property|attribute|builtin|macro|keyword|filter|router"
              r"|transport|hook|module|class|pragma|statement|clause|operator|tag|element"
              r"|field|event|signal|exception)"
              r"(?=\s+(?:do|does|mean|means|return|returns|work|works)\b|\s*[?.]|\s*$"
              r"|\s+(?:of|in)\s+(?:the\s+|a\s+|an\s+)?[\w'`-])")
_KIND_AFTER = re.compile(r"([\w.:'-]+?)" + _KIND_TAIL, re.IGNORECASE)
_KIND_NEXT = re.compile(_KIND_TAIL, re.IGNORECASE)
"""A name followed by the word for its kind, which ends what is asked: "What does the getline()
function do?", "the -ss option?", or comes before the thing that owns it ("the reloader_type
parameter of run_simple", trial 126, F3); not a compound ("the model_construct method
signatures")."""


def kinds_named(query: str, names: Sequence) -> set[str]:
    """The kind words (:data:`_KIND_AFTER`) that follow a name the question writes (one of
    ``names``, or an option: ``-ss``): what the thing is, which its entry seldom says ("What
    does the getline() function do?": Vim's entry never says "function", and every page that
    calls getline() in a function outranked it, trial 71). They rank as context, not as words
    a passage must have.

    Example:
        >>> q = "What does the getline() function do?"
        >>> sorted(kinds_named(q, name_keys(q)))
        ['function']
        >>> kinds_named("What does the crop tool do?", name_keys("the crop tool"))
        set()
    """
    keys = {n.key for n in names}
    out = set()
    for match in _KIND_AFTER.finditer(query):
        name = match.group(1).strip("'\"`")
        if name.startswith("-") or name.replace("_", "").lower() in keys:
            out.add(match.group(2).lower())
    return out
