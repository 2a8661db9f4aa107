"""The topic's own words, as relevance and the Answer judge a passage by them: which words
(:func:`topic_terms`, :func:`judged_terms`), which of them are names (:func:`name_terms`), how
many one item must mention (:func:`needed`), which it does (:func:`mentioned`), and how a
sentence names them (:func:`describe_terms`). Pure functions on text; the verdict built on them
is :mod:`app.research.relevance`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.research.rows import ok_items
from app.research.topics import ASKED_MEASURE
from workers.sources.names import (
    code_words,
    letter_options,
    name_keys,
    writes_option,
    written_options,
)
from workers.sources.query import (
    distinct_terms,
    mentions,
    query_terms,
    shares_form,
    title_terms,
)
from workers.sources.stopwords import FILLER_WORDS, MANNER_WORDS

__all__ = ["coded_terms", "describe_terms", "hindering_verbs", "item_words", "judged_terms",
           "mentioned", "name_phrases", "name_terms", "needed", "one_verb", "topic_terms"]


def topic_terms(topic: str) -> list[str]:
    """The topic's own content words: its searchable words, each once however it is inflected or
    spelled (:func:`~workers.sources.query.distinct_terms`: a word the corpus never uses
    weighed twice when the question said "sheets" and "sheet"). Words an offline plan once
    wrapped around a topic ("settings", "change", "use") count when the user wrote them: left
    out, "personal default settings" was judged by "personal" and "run" and warned (issue 19).
    The retrieved items are judged against these, never against a sub-question's words.

    The word of a measure asked for ("how *long*", "how *far*":
    :data:`app.research.topics.ASKED_MEASURE`) is not the topic's: the answer states the
    measure, not the word (else "How long do drone batteries need to charge?"
    was warned because no passage says "long").

    Example:
        >>> topic_terms("Where do I put personal default settings so every run picks them up?")
        ['put', 'personal', 'default', 'settings', 'run', 'picks']
        >>> topic_terms("How long do drone batteries charge? A long flight.")
        ['drone', 'batteries', 'charge', 'flight']
    """
    asked = {m.group(1).lower() for m in ASKED_MEASURE.finditer(topic)}
    return one_verb(distinct_terms([t for t in query_terms(topic) if t not in asked]))


def coded_terms(terms: Sequence[str], topic: str) -> list[str]:
    """``terms`` (:func:`topic_terms`) with each word ``topic`` writes as code
    (:func:`~workers.sources.names.code_words`: "the *threading* module", ``orient()``) in
    place of the plain word of its forms that :func:`topic_terms` kept for both: a code word
    is matched whole (:func:`mentioned`), and a passage saying the plain word does not name
    it. "How do I spawn threads in Python's threading module?" over pexpect's manual was
    judged by "threads", which its Common problems page says ("you cannot spawn a child from
    a different thread"), and answered with no warning (trial 127, F4).

    Example:
        >>> coded_terms(["spawn", "threads", "module"], "spawn threads in the threading module")
        ['spawn', 'threading', 'module']
        >>> coded_terms(["spawn", "threads"], "spawn threads with threading")
        ['spawn', 'threads']
    """
    out = list(terms)
    coded = code_words(name_keys(topic))
    for word in (w for w in query_terms(topic) if w in coded and w not in out):
        plain = [i for i, t in enumerate(out) if t not in coded
                 and (shares_form(word, [t]) or one_verb([t, word]) == [t])]  # log, logging
        if plain:
            out[plain[0]] = word
    return out


def one_verb(terms: Sequence[str]) -> list[str]:
    """``terms`` without a word that is another of them, a verb of three letters, with its
    final consonant doubled and a suffix ("setting" beside "set", "running" beside "run"): "How
    do I set the bandwidth setting?" was judged by "set" and "setting" as two words, one item
    was asked for two of them, and the question was warned (trial 116, F10). Only the topic's
    words: a search that matched "run" for "running" ranked SQLite's page on window functions
    lower for "a running total".

    Example:
        >>> one_verb(["set", "bandwidth", "setting"]), one_verb(["running", "total"])
        (['set', 'bandwidth'], ['running', 'total'])
    """
    short = {t for t in terms if len(t) == 3}
    return [t for t in terms if not ((m := _DOUBLED.fullmatch(t)) and m.group(1) in short)]


_DOUBLED = re.compile(r"([^aeiou][aeiou]([bdgmnprt]))\2(?:ings?|ed|ers?)")


def name_terms(topic: str) -> frozenset[str]:
    """The topic's words written as names (lower-cased): with a capital after their first letter
    ("SQLite", "FTS5", "RetryPolicy") or capitalized other than at a sentence's start ("on
    *Windows*"; not in a title-cased topic, where every word is); a word in capitals
    ("REST") is there in capitals too, for :func:`mentioned`; the words written as code
    (:func:`~workers.sources.names.code_words`: ``orient()``, ``-nosafe``, "the orient
    function"); an option of one letter, as its letter and as written (``l`` and ``-L``,
    :func:`~workers.sources.names.letter_options`); and an option of several words as written
    (``-keep-going``). A name is matched on its own
    surface form only, never on a word it looks like an inflection of: "Windows" is not
    "window" (issue 19).

    Example:
        >>> sorted(name_terms("Why does SQLite lock on Windows? Locks are rare."))
        ['sqlite', 'windows']
        >>> sorted(name_terms("Django REST framework"))
        ['REST', 'rest']
        >>> sorted(name_terms("Configuring Window Functions In SQLite"))
        ['sqlite']
    """
    inner: set[str] = set()
    capital: set[str] = set()
    later = 0
    for match in _WORD.finditer(topic):
        word = match.group()
        if len(word) < 2 or not word[0].isalpha():
            continue
        if any(c.isupper() for c in word[1:]):
            inner.add(word.lower())
            continue
        before = topic[: match.start()].rstrip()
        if before and before[-1] not in _SENTENCE_ENDS:
            later += 1
            if word[0].isupper():
                capital.add(word.lower())
    title_cased = later > 1 and len(capital) * 2 > later
    # a word in capitals is matched in capitals too (mentioned): trial 60's "Django REST
    # framework ModelSerializer" was answered from "the rest of Django's documentation"
    upper = {w for w in _WORD.findall(topic) if len(w) > 1 and w.isalpha() and w.isupper()}
    if _in_capitals(topic):  # "SEND AND REDUCERS": its case names nothing (trial 83, F5)
        inner, capital, upper = set(), set(), set()
    coded = code_words(name_keys(topic))  # "the orient function" is no "orientation"
    # an option of one letter ("-L") is matched as written, as a word in capitals is
    letters = letter_options(topic)
    coded |= {option[1].lower() for option in letters}
    # so is an option of several words ("-keep-going"): its words, prose's "keep going", are not
    joined = {o.lower() for o in written_options(topic) if "-" in o.lstrip("-")}
    return frozenset((inner if title_cased else inner | capital) | upper | coded | letters
                     | joined)


def _in_capitals(topic: str) -> bool:
    """Whether ``topic`` is written in capitals, words of it at least (more than 80% of its
    letters): "SEND AND REDUCERS" was warned as saying nothing, each word a name matched only
    in capitals, where "send and reducers" was answered (trial 83, F5).

    Example:
        >>> _in_capitals("SEND AND REDUCERS"), _in_capitals("Django REST framework")
        (True, False)
    """
    letters = [c for c in topic if c.isalpha()]
    return len(topic.split()) > 1 and sum(c.isupper() for c in letters) > 0.8 * len(letters)


def name_phrases(topic: str) -> tuple[str, ...]:
    """The names of two words or more the topic writes (lower-cased): :func:`name_terms` side
    by side, with a space or a hyphen between ("GitHub Pages", "Visual Studio Code"). Each word
    may be in the corpus while the name is not: "How do I turn on GitHub Pages?" over Git's
    manual, which mentions GitHub and pages apart, was answered without a word (trial 53, A5).

    Example:
        >>> name_phrases("How do I turn on GitHub Pages for my Git repository?")
        ('github pages',)
        >>> name_phrases("Why does SQLite lock on Windows?")
        ()
        >>> name_phrases("What does the check_local_user router option do?")  # trial 88
        ()
    """
    names = name_terms(topic)
    phrases: list[str] = []
    run: list[str] = []
    last_end = -1
    for match in _WORD.finditer(topic):
        word = match.group()
        joined = last_end >= 0 and topic[last_end:match.start()] in (" ", "-")
        if "_" in word.strip("_"):  # an identifier is a whole name: "check_local_user router"
            word = ""               # asks for its router option, not a name of two words
        if word.lower() in names and (joined or not run):
            run.append(word.lower())
        else:
            if len(run) >= 2:
                phrases.append(" ".join(run))
            run = [word.lower()] if word.lower() in names else []
        last_end = match.end()
    if len(run) >= 2:
        phrases.append(" ".join(run))
    return tuple(dict.fromkeys(phrases))


_WORD = re.compile(r"\w+")
_SENTENCE_ENDS = ".?!:;\"'(\u201c\u2018"


def needed(terms: Sequence[str]) -> int:
    """How many of ``terms`` one item must mention to be on topic: one of a one- or two-word
    topic, two of a longer one: a passage that names two of the topic's own words together
    talks about it. Half of a long question's words asked too much: a paraphrase's words are
    by design not the documents' ("compute a running total over ordered rows without a
    self-join" is answered by a passage on window functions that says "running total"), and
    half of them fell on words of how it is asked (issue 19). A near miss whose common words
    do meet in a passage is told by the corpus's vocabulary instead (:func:`unknown_terms`).

    Example:
        >>> [needed(["a"] * n) for n in range(0, 6)]
        [0, 1, 1, 2, 2, 2]
    """
    return min(len(terms), 1 if len(terms) <= 2 else 2)


def mentioned(terms: Sequence[str], text: str, names: Iterable[str] = ()) -> set[str]:
    """The ``terms`` that ``text`` mentions: an inflection counts (:func:`mentions`), except for
    a name (:func:`name_terms`), which only its own form matches (a whole word or an
    identifier's part, case-insensitive; a name the topic writes in capitals, whose capitals
    ``names`` holds too, only in capitals or written in code (:func:`_in_code`): "REST" is not
    "the rest of the documentation", "APT" is "apt-mark"; an
    option of one letter, ``-L`` in ``names``, only so written: not "-l"; a word of an
    option of several, ``-keep-going`` in ``names``, only in the option, with one dash or two:
    a task's "note errors but keep going" is not Ant's option, trial 78).

    Example:
        >>> sorted(mentioned(["windows", "lock"], "window functions; locking", {"windows"}))
        ['lock']
        >>> mentioned(["rest"], "the rest of it", {"rest", "REST"}), mentioned(
        ...     ["rest"], "a REST API", {"rest", "REST"})
        (set(), {'rest'})
        >>> mentioned(["l"], "an explicit '-l' option", {"l", "-L"}), mentioned(
        ...     ["l"], "ssh -L 8080:host:80", {"l", "-L"})
        (set(), {'l'})
        >>> names = {"keep", "going", "-keep-going"}
        >>> mentioned(["keep"], "note errors but keep going", names), mentioned(
        ...     ["keep"], "--keep-going, -k: go on", names)
        (set(), {'keep'})
    """
    names = set(names)
    found = mentions([t for t in terms if t not in names], text)
    lowered = text.lower()
    surface = set(_WORD.findall(lowered)) | set(_PARTS.findall(lowered))
    capitals = {t for t in terms if t.upper() in names and t.upper() != t}
    written = set(_PARTS.findall(text)) if capitals else set()
    options = {n[1].lower(): n for n in names if len(n) == 2 and n[0] == "-"}
    spelled = letter_options(text) if options else frozenset()
    joined = {part: option for option in names if option[:1] == "-" and len(option) > 2
              for part in option.lstrip("-").split("-") if "-" in option.lstrip("-")}
    return (found | {t for t in terms if t in names and t not in capitals and t not in options
                     and t not in joined and t in surface}
            | {t for t in capitals if t.upper() in written or _in_code(t, lowered)}
            | {t for t in terms if t in options and options[t] in spelled}
            | {t for t in terms if t in joined and writes_option(lowered, joined[t])})


_PARTS = re.compile(r"[^\W_]+")


def _in_code(word: str, lowered: str) -> bool:
    """Whether ``lowered`` (a text, lower-cased) writes ``word`` as part of a command, a path or
    an identifier (``apt-mark``, ``/etc/apt/``, ``apt_pkg``): the name a question writes in
    capitals, there in lower case (the Debian Reference's "apt-mark(8) command from the apt
    package" was judged to say nothing of "APT", trial 82, F2), never the word of prose ("the
    rest of it" is no REST).

    Example:
        >>> _in_code("apt", "see apt-mark(8) and /etc/apt/preferences"), _in_code(
        ...     "rest", "the rest of it.")
        (True, False)
    """
    name = re.escape(word)
    return re.search(rf"\b{name}(?=[-_/.]\w)|(?<=\w[-_/.]){name}\b", lowered) is not None


def judged_terms(terms: Sequence[str], names: Iterable[str] = ()) -> list[str]:
    """The ``terms`` an item is judged by: the words of how people ask
    (:data:`~workers.sources.stopwords.FILLER_WORDS`) left out, as the search leaves them out of
    its query, unless nothing else is left. Counted, they asked an item for two of "make",
    "filled", "shape" and "see" where the search had looked for "filled" and "shape", and the
    manual's page on transparent fills was warned as saying nothing of "How can I make a
    filled shape see-through?" (asymptote-doc eval, asy-35). Nor the adverbs and prepositions
    of how it is put (:data:`~workers.sources.stopwords.MANNER_WORDS`: "snapshots I *still*
    need", trial 116, F10). A word written as a name (``names``, :func:`name_terms`:
    ``--keep``) is judged by.

    Example:
        >>> judged_terms(["make", "filled", "shape", "see"]), judged_terms(["use"])
        (['filled', 'shape'], ['use'])
        >>> judged_terms(["upgrade", "without", "downtime"])
        ['upgrade', 'downtime']
    """
    names = frozenset(names)  # a filler word written as a name is one: gzip's --keep
    return [t for t in terms if (t not in FILLER_WORDS and t not in MANNER_WORDS)
            or t in names] or list(terms)


_HINDERING = re.compile(
    r"\b(stop|prevent|keep|block|bar|forbid|prohibit|discourage|hinder|restrain)(?:s|ped|ping)?"
    r"\s+(?:[\w'-]+\s+){1,5}?from\s+[\w'-]+ing\b", re.IGNORECASE)


def hindering_verbs(topic: str) -> frozenset[str]:
    """The verbs of ``topic`` that ask for something not to happen, in "stop X from Y-ing"
    (lower-cased): "How do I *stop* the terminal from beeping?", "*prevent* labels from
    overwriting one another". They say what the asker wants, not what the manual calls it:
    it names the means ("9.5.9. Disabling beep sounds: One can always unplug the PC
    speaker"), and judged by "stop" an item had to name two of "stop", "terminal" and
    "beeping"; the Debian Reference's answer names "beep" alone, and the report said the
    sources say nothing (trial 124, M2-F2). A stop on its own ("How do I stop a container?")
    is the thing asked.

    Example:
        >>> sorted(hindering_verbs("How do I stop the terminal from beeping?"))
        ['stop']
        >>> hindering_verbs("How do I stop a container?"), hindering_verbs("Stop from here")
        (frozenset(), frozenset())
    """
    return frozenset(m.group(1).lower() for m in _HINDERING.finditer(topic))


def describe_terms(terms: Sequence[str], at_least: int = 1, asked: str = "") -> str:
    """``'"zebra" or "marmalade"'``; ``'at least 2 of "a", "b" and "c"'`` when more than one is
    needed ("mentions 2 of ..." read as garbled, trial 90, F7);
    ``""`` for no terms. A term is shown as the question ``asked`` writes it: "ARG_MAX" was
    named "arg_max" (trial 125, F5).

    Example:
        >>> describe_terms(["zebra", "marmalade"]), describe_terms([])
        ('"zebra" or "marmalade"', '')
        >>> describe_terms(["arg_max"], asked="How do I raise ARG_MAX in bash?")
        '"ARG_MAX"'
    """
    quoted = [f'"{_as_written(t, asked)}"' for t in terms]
    if not quoted:
        return ""
    if len(quoted) == 1:
        return quoted[0]
    if at_least <= 1:
        return f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"at least {at_least} of {', '.join(quoted[:-1])} and {quoted[-1]}"


def _as_written(term: str, asked: str) -> str:
    """``term`` as ``asked`` first writes it, a whole word of any case; else ``term``."""
    found = re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", asked, re.IGNORECASE)
    return found.group(0) if found else term


def item_words(item: Mapping[str, Any]) -> str:
    """The words a retrieved ``item`` says, as the relevance judge reads them: its document's
    title (identifiers split, :func:`~workers.sources.query.title_terms`), its section's heading
    and its text. apt.conf's "Retries" entry under "THE ACQUIRE GROUP" answered "What does
    Acquire::Retries do?", warned as mentioning no "acquire" (trial 87, FA5)."""
    return (f"{title_terms(str(item.get('title') or ''))} {item.get('heading') or ''} "
            f"{item.get('text') or ''}")


def retrieved_texts(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The :func:`item_words` of the retrieved items (a ``ref``) of ``rows``' finished rows
    (:func:`~app.research.rows.ok_items`), each distinct passage once, in the order first seen.

    Rows cite the same passages again and again, and the relevance judges ask only whether
    some item says a word: a 1,200-task run's report made a string per item, 2.9 MB of copies
    at its peak (issue 21, item 13).

    Example:
        >>> row = {"status": "ok", "structured": {"items": [{"ref": "a#0", "text": "Send."}]}}
        >>> retrieved_texts([row, row])
        ['  Send.']
    """
    texts: dict[tuple[Any, Any, Any], str] = {}
    for _row, item in ok_items(rows):
        if item.get("ref"):
            key = (item.get("title"), item.get("heading"), item.get("text"))
            if key not in texts:
                texts[key] = item_words(item)
    return list(texts.values())
