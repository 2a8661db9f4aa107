"""Which words of a question may name a reference entry (a keyword, an option, a variable).

"What does balance roundrobin do?" names HAProxy's ``balance`` entry with a plain word. A
question asking how to do a task uses plain words for the task: "How do I build only static
libraries?" does not ask about Libtool's ``build`` variable, nor "How do I take a server out
of rotation?" about HAProxy's ``server`` keyword; taken as names, those entries answered
(trial 111, F1; trial 112, F1). In such a question only the words it writes as names do
(:func:`entry_words`).

This module imports only the standard library and the sources' name parsing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.sources.names import code_words, name_keys, written_options

__all__ = ["asks_task", "asks_what", "entry_words", "marked_words", "plain_capitals",
           "set_words"]

_TASK = re.compile(
    r"^\W*(?:how\s+(?:do|can|could|should|would|might|may|must|shall)\s+(?:i|we|you|one)\b|"
    r"how\s+to\b|can\s+(?:i|we|you|one)\b|"
    r"(?:is\s+there\s+(?:a|any)|what(?:'s|\u2019s|\s+is)\s+the\s+(?:best\s+|right\s+)?)"
    r"way\s+to\b|i\s+(?:want|need|would\s+like)\s+to\b)",
    re.IGNORECASE)
"""A question asking how to do a task, by a person: "How do I ...", "How can we ...", "How to
...", "Can I ...", "Is there a way to ...", "I want to ..."."""


_KIND_FOLLOWS = re.compile(
    r"\b(?:the|its|their|my|a|an)\s+[`'\"]?([\w.-]+)[`'\"]?\s+(?:variable|option|keyword|"
    r"directive|command|function|macro|parameter|setting|flag|mode|property|attribute|field|"
    r"method|builtin|filter|hook|event|statement|pragma|module|extension)s?\b", re.IGNORECASE)
"""A word the kind of thing it names follows: "the build variable", "the md_in_html
extension"."""


_WHAT = re.compile(r"^\W*(?:what(?:'s|\u2019s|\s+(?:is|are))\s|what\s+does\s.*\bmean\b|"
                   r"define\s|what\s+(?:is|are)\s+meant\s+by\s)", re.IGNORECASE)
"""A question asking what something is: "What is backscatter mail?", "What are X?", "What does X
mean?", "Define X"."""


def asks_what(question: str) -> bool:
    """Whether ``question`` asks what something is (:data:`_WHAT`): the passage defining it
    answers (trial 114, F1).

    Example:
        >>> asks_what("What is backscatter mail?"), asks_what("What does FOO mean?")
        (True, True)
        >>> asks_what("What does the pregreet test do?"), asks_what("How is X set?")
        (False, False)
    """
    return _WHAT.match(question) is not None


_SETS = re.compile(
    r"\b(?:set|change|configure|use|enable|disable|tune|adjust|raise|lower|increase|decrease|"
    r"reduce|limit)\s+(?:the\s+|its\s+|my\s+)?(?!(?:a|an|some|any)\s)[`'\"]?([\w.-]+)",
    re.IGNORECASE)
"""A word a verb of setting takes as its object: "Can I set *retries* to 0?", "How do I use
*timeout*?". An object with an indefinite article is a thing, not an entry's name: "How do I
set a password for the web interface?" does not ask about the ``password`` entry (the SSH
password's, whose sentence was the whole Answer, trial 119, F4); written as a name ("set a
`password`") it still is one (:func:`marked_words`)."""


def set_words(question: str) -> frozenset[str]:
    """The words ``question`` sets, changes or uses (:data:`_SETS`), lower-cased: in a question
    asking how to do a task they still name the entry asked for the neighbour-entry filter
    ("Can I set retries to 0?" showed verify's "Doubles the time of a run." unlabelled once no
    entry was asked, trial 116, F3), while "take a server out of rotation" names none.

    Example:
        >>> sorted(set_words("Can I set retries to 0?")), set_words("How do I take a server?")
        (['retries'], frozenset())
        >>> set_words("How do I set a password for the web interface?")
        frozenset()
    """
    return frozenset(m[1].lower().rstrip(".") for m in _SETS.finditer(question))


def asks_task(question: str) -> bool:
    """Whether ``question`` asks how to do a task (:data:`_TASK`).

    Example:
        >>> asks_task("How do I build only static libraries?"), asks_task("How does it work?")
        (True, False)
    """
    return _TASK.match(question) is not None


def marked_words(question: str) -> frozenset[str]:
    """The words ``question`` writes as names, lower-cased: as code (a call, an option, a
    quoted word, a word its kind follows: "the build variable",
    :func:`~workers.sources.names.code_words`), capitalised within the question ("Send"), but
    an acronym written as prose writes it (:func:`plain_capitals`), and the words of the
    options it writes (``--disable-shared``: "disable", "shared").

    Example:
        >>> sorted(marked_words("How do I set the build variable with Send or --no-undefined?"))
        ['build', 'no', 'send', 'undefined']
        >>> sorted(marked_words("How do I enable SSL on the SERVER variable?"))
        ['server']
    """
    keys = name_keys(question)
    acronyms = plain_capitals(question)
    spelled = {k.phrase.lower() for k in keys if k.spelled and " " not in k.phrase} - acronyms
    options = {word for option in written_options(question)
               for word in option.lstrip("-").lower().split("-") if word}
    kinds = {m[1].lower() for m in _KIND_FOLLOWS.finditer(question)}
    return code_words(keys) | spelled | options | kinds


_CAPITALS = re.compile(r"(?<![\w`'\"$.-])[A-Z][A-Z0-9]+(?![\w`'\"(-])")
"""A word in capitals written as prose writes it: not as code (quoted, ``$SAVEHIST``), not a
call, not part of a name of several parts."""
_GIVEN_A_VALUE = re.compile(
    r"\b(?:set|change|raise|lower|increase|decrease|reset|unset)\s+(?:the\s+|its\s+|my\s+)?"
    r"([A-Z][A-Z0-9]+)\b")
"""A name in capitals given a value: "How do I set SAVEHIST to 1000?" sets a variable."""


def plain_capitals(question: str) -> frozenset[str]:
    """The words ``question`` writes in capitals as prose writes an acronym ("SSL", "CSV"),
    lower-cased: not as code, nor with their kind ("the SAVEHIST variable"), nor given a value
    ("set SAVEHIST to 1000"). A question asking how to do a task names its subject so, not a
    reference entry: "How do I enable SSL on the quill server?" ranked the glossary's "SSL: The
    older name of TLS, ..." as the entry asked, and its answer never quoted "To turn on SSL, set
    `tls_cert = ...` and `tls_key = ...` in quill.conf" (trial 119, F8).

    Example:
        >>> sorted(plain_capitals("How do I enable SSL or set HISTSIZE and `SAVEHIST`?"))
        ['ssl']
        >>> plain_capitals("How do I change the HOME variable?")
        frozenset()
    """
    given = {m[1] for m in _GIVEN_A_VALUE.finditer(question)}
    kinds = {m[1] for m in _KIND_FOLLOWS.finditer(question)}
    return frozenset(w.lower() for w in _CAPITALS.findall(question)
                     if w not in given and w not in kinds and any(c.isalpha() for c in w))


def entry_words(question: str, words: Sequence[str]) -> list[str]:
    """The ``words`` (of ``question``, lower-cased) that may name a reference entry: all of
    them, unless the question asks how to do a task (:func:`asks_task`); then those it writes
    as names (:func:`marked_words`).

    Example:
        >>> entry_words("How do I take a server out of rotation?", ["take", "server"])
        []
        >>> entry_words("How do I set the server keyword?", ["set", "server", "keyword"])
        ['server']
        >>> entry_words("What is the default of inter?", ["default", "inter"])
        ['default', 'inter']
    """
    if not asks_task(question):
        return list(words)
    marked = marked_words(question)
    return [word for word in words if word in marked]
