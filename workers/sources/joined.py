"""Words a question writes apart that a manual runs together into one name: Postfix's
``relayhost``, ``myorigin``, ``mydestination`` (trial 114, F7: "How do I configure a relay
host?" was answered from ``fallback_relay``'s entry, which says "relay hosts", and never from
``relayhost``'s). A snake_case name is found from its words already (FTS5 splits it at ``_``);
a run-together one is one word no question writes, so the question's adjacent words are
searched joined too, and a passage with the joined word has the words it joins.

A function word (a possessive, a determiner, a negation: "my", "your", "no", "any") is no part
of the name after it: "How do I back up my SQL database?" was searched as ``mysql`` and
answered "Back up a MySQL state store with mysqldump ..." from the MySQL page, not from the
page about the SQL database asked; "no body" was searched as ``nobody`` (trial 119, F3). Only a
prefix written apart leads a joined name (:data:`NAME_LEADS`: "non blocking", "sub command"),
and a possessive (:data:`POSSESSIVE_LEADS`) only before a word the question writes in lower
case, as a configuration name is written ("my networks": Postfix's ``mynetworks``; "my SQL"
names the language, not ``MySQL``): "How do I set my networks?" found no ``mynetworks`` entry
once "my" joined nothing (trial 120, F7). A question writing "my sql" in lower case is still
searched as ``mysql``.

A phrasal verb written apart is its one-word noun, as a manual names the thing: "log in" is
``login``, "set up" ``setup``, "back up" ``backup``, "check out" ``checkout`` (trial 125, F1:
"Which files does bash read when I log in?" found "*.log" lines and never bash's "login shell"
startup files, which "for a login shell" found). Its particle (:data:`PARTICLES`) is a
stopword no search keeps, so the verb, a word of the question in lower case (not "-ed" or
"-ing": "stored in" is no name) and not after a determiner ("the log in ..." is a noun), is
searched joined to it, standing for the verb.

This module imports only the standard library and the sources' stopwords.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.sources.stopwords import STOPWORDS

__all__ = ["MAX_JOINED", "NAME_LEADS", "PARTICLES", "POSSESSIVE_LEADS", "joined_in",
           "joined_words"]

MAX_JOINED = 4
"""At most this many joined words are searched for one question."""

_WORDS = re.compile(r"[^\W\d_]+")

NAME_LEADS = frozenset({"non", "sub", "self"})
"""Prefixes a search drops that lead a run-together name when written apart ("non blocking":
``nonblocking``); any other such word joins no name ("of send", "is retry"), a function word
least of all ("my SQL" is no ``mysql``, "no body" no ``nobody``, trial 119, F3)."""

POSSESSIVE_LEADS = frozenset({"my"})
"""Possessives that lead a configuration name (Postfix's ``mynetworks``, ``myhostname``,
``myorigin``): joined only before a word the question writes in lower case (trial 120, F7)."""

PARTICLES = frozenset({"in", "up", "out", "on", "off", "down"})
"""The particles of a phrasal verb whose one-word noun a manual writes: login, setup, checkout,
logon, logoff, shutdown (trial 125, F1)."""

_DETERMINERS = frozenset("a an the this that these those each every any some no its their his "
                         "her my your our which what whose one".split())
"""Words before which a word is a noun, not a verb: "the log in /var" is no ``login``."""

_FORMS = re.compile(r"(?:ed|ing)$")


def joined_words(question: str, core: Sequence[str]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The joined words of ``question``: each pair of adjacent words whose second is one of the
    ``core`` terms and whose first is another or one of :data:`NAME_LEADS` ("non blocking":
    ``nonblocking``), joined, with the indexes of the core terms it joins; a lead of
    :data:`POSSESSIVE_LEADS` joins a word the question writes in lower case.

    Example:
        >>> joined_words("How do I configure a relay host?", ["configure", "relay", "host"])
        (('relayhost', (1, 2)),)
        >>> joined_words("Is the non blocking mode set?", ["blocking", "mode", "set"])
        (('nonblocking', (0,)), ('blockingmode', (0, 1)), ('modeset', (1, 2)))
        >>> joined_words("How do I back up my SQL database?", ["sql", "database"])
        (('sqldatabase', (0, 1)), ('backup', ()))
        >>> joined_words("Which hosts do my networks hold?", ["hosts", "networks", "hold"])
        (('mynetworks', (1,)), ('networkshold', (1, 2)))
        >>> joined_words("What are the caveats of Send?", ["caveats", "send"])
        ()
        >>> joined_words("Which files does bash read when I log in?", ["files", "bash", "log"])
        (('login', (2,)),)
        >>> joined_words("How do I back up a database?", ["database"])
        (('backup', ()),)
        >>> joined_words("Is the log in /var stored in the files?", ["log", "files"])
        ()
        >>> joined_words("How do I make a variable read-only?", ["make", "variable", "read"])
        (('variableread', (1, 2)), ('readonly', (2,)))
        >>> joined_words("Is it state-of-the-art?", ["state", "art"])
        ()
    """
    written = _WORDS.findall(question)
    words = [w.lower() for w in written]
    out: dict[str, tuple[int, ...]] = {}
    for i, (first, second) in enumerate(zip(words, words[1:], strict=False)):
        lead = first in NAME_LEADS or first in POSSESSIVE_LEADS and written[i + 1].islower()
        if second not in core or first not in core and not lead:
            continue
        joined = first + second
        if joined not in core:
            out.setdefault(joined, tuple(core.index(w) for w in (first, second) if w in core))
    for i, joined in _phrasal(written):
        if joined not in core:
            out.setdefault(joined, (core.index(words[i]),) if words[i] in core else ())
    for i, joined in _hyphenated(question):
        if joined not in core:
            out.setdefault(joined, (core.index(words[i]),) if words[i] in core else ())
    return tuple(out.items())[:MAX_JOINED]


def _hyphenated(question: str) -> list[tuple[int, str]]:
    """The compounds ``question`` writes with one hyphen between two words ("read-only",
    "time-out", "e-mail"; not a longer chain, "state-of-the-art"), each as its first word's
    index among the question's words and the two joined: a manual may write the compound
    closed (bash's ``readonly``), and a search drops a stopword half ("only") of it (new-user
    trial N, N2: "How do I make a variable read-only?" never found bash's readonly builtin)."""
    spans = [m.span() for m in _WORDS.finditer(question)]
    out = []
    for i in range(len(spans) - 1):
        (start, end), (after, stop) = spans[i], spans[i + 1]
        if (question[end:after] == "-" and question[start - 1:start] != "-"
                and question[stop:stop + 1] != "-"):
            out.append((i, (question[start:end] + question[after:stop]).lower()))
    return out


def _phrasal(written: Sequence[str]) -> list[tuple[int, str]]:
    """The phrasal verbs of the ``written`` words, each as its verb's index and the verb joined
    to its particle: a verb of three letters or more in lower case, no "-ed" or "-ing" form
    ("stored in", "logging in": no name), not after a determiner ("the log in ...")."""
    out = []
    for i, (verb, particle) in enumerate(zip(written, written[1:], strict=False)):
        before = written[i - 1].lower() if i else ""
        if (particle.lower() in PARTICLES and verb.islower() and len(verb) > 2
                and verb not in STOPWORDS and not _FORMS.search(verb)
                and before not in _DETERMINERS):
            out.append((i, verb + particle.lower()))
    return out


def joined_in(joined: Sequence[tuple[str, tuple[int, ...]]], text: str) -> tuple[set[int], int]:
    """The indexes of the terms the ``joined`` words ``text`` has (as whole words, any case)
    stand for, and how many of them join two terms (a phrase of the question's words).

    Example:
        >>> joined_in((("relayhost", (1, 2)),), "relayhost (default: empty)")
        ({1, 2}, 1)
        >>> joined_in((("relayhost", (1, 2)),), "the relay host, relayhosts or relay_host")
        (set(), 0)
    """
    if not joined:
        return set(), 0
    words = set(_WORDS.findall(text.lower()))
    found = [ends for word, ends in joined if word in words]
    return {i for ends in found for i in ends}, sum(len(ends) == 2 for ends in found)

