"""The searchable words of an API symbol's name and of a document's title: identifiers split
into words (``RetryPolicy``: retry policy), the symbol's own name out of a qualified one, and
whether a text writes an identifier.
Re-exported by :mod:`workers.sources.query`, which searches by them.

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["VERSION", "identifier_in", "symbol_name", "symbol_terms", "title_terms", "version_in",
           "words_of"]

_IDENT_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def title_terms(title: str) -> str:
    """The searchable words of a title: the title itself plus its identifiers split into words,
    so ``"langgraph.types.RetryPolicy"`` is also found by "retry policy" and
    ``"get_state_history"`` by "state history"."""
    whole = set(re.findall(r"[^\W_]+", title.lower()))
    extra = dict.fromkeys(w.lower() for w in _IDENT_WORDS.findall(title))
    words = [w for w in extra if w not in whole]
    return f"{title} {' '.join(words)}" if words else title



_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def symbol_name(symbol: str) -> str:
    """The own name of an API symbol: the last part of its qualified name (the class's for its
    ``__init__``/``__call__``); ``""`` for no symbol or one that is not a dotted name.

    Example:
        >>> symbol_name("langgraph.types.Send.__init__"), symbol_name("")
        ('Send', '')
    """
    if not _DOTTED_NAME.fullmatch(symbol):
        return ""
    parts = symbol.split(".")
    while len(parts) > 1 and parts[-1].startswith("__"):
        parts.pop()
    return parts[-1]


def symbol_terms(symbol: str) -> str:
    """The searchable name of an API symbol: its :func:`symbol_name` with its identifier words;
    ``""`` for no symbol. Search weights it above the title, so "InMemorySaver" finds
    ``langgraph.checkpoint.memory.InMemorySaver`` before its methods.

    Example:
        >>> symbol_terms("langgraph.types.RetryPolicy.__init__")
        'RetryPolicy retry policy'
        >>> symbol_terms("")
        ''
    """
    name = symbol_name(symbol)
    return title_terms(name) if name else ""


def identifier_in(term: str, lowered: str) -> bool:
    """Whether ``term``, an identifier (``pending_writes``: ``_`` inside it), is written in the
    lower-cased text ``lowered``, alone or as a run of a longer identifier's parts
    (``load_pending_writes``, ``pending_writes_sql``); a version number (``3.1.2``) as written
    (:func:`version_in`); False for any other term. The text's words are split at ``_`` (as
    FTS5 splits them) and an identifier term is not, so no word of the text matched it: a
    topic naming one was found in the corpus and then judged as found nowhere.

    Example:
        >>> identifier_in("pending_writes", "its `pending_writes` and load_pending_writes")
        True
        >>> identifier_in("pending_writes", "pending writes"), identifier_in("send", "send")
        (False, False)
    """
    if VERSION.fullmatch(term):
        return version_in(term, lowered)
    if "_" not in term.strip("_"):
        return False
    return re.search(rf"(?<![^\W_]){re.escape(term.lower())}(?![^\W_])", lowered) is not None


VERSION = re.compile(r"\d+(?:\.\d+)+[a-z]*\d*")
"""A version number, digits with dots ("3.1.2", "2.0rc1"): one term of a question, matched as
written. A tokenizer splits it into its digits, and one-digit words were dropped, so "What
changed in version 3.1.2?" searched "changed" and "version" alone and Jinja's "Version 2.0rc1"
answered (trial 117, F3)."""


def version_in(version: str, lowered: str) -> bool:
    """Whether the lower-cased text ``lowered`` writes ``version`` (:data:`VERSION`) whole, or
    a release of that series ("1.4" asked, "1.4.2" written: trial 120, F3); not as part of a
    longer number ("13.1.2", "3.1.20"); its dots may be written as ``_`` (SQLite's
    ``releaselog/3_40_1.html``).

    Example:
        >>> version_in("3.1.2", "version 3.1.2 released"), version_in("3.1.2", "v3.1.2.")
        (True, True)
        >>> version_in("3.1.2", "3.1.20"), version_in("3.1.2", "13.1.2"), version_in("1.4", "1.40")
        (False, False, False)
        >>> version_in("3.40.1", "releaselog/3_40_1.html"), version_in("1.4", "version 1.4.2")
        (True, True)
    """
    written = "[._]".join(re.escape(part) for part in version.lower().split("."))
    return re.search(rf"(?<![\d.])(?<!\d_){written}(?:[._]\d+)*(?!\w|[._]\d)",
                     lowered) is not None


_TOKENS = re.compile(rf"(?<![\w.])v?({VERSION.pattern})(?![\w.]*\w)|\w+")


def words_of(text: str) -> list[str]:
    """The word tokens (``\\w+``) of ``text``, a version number one token, as written (its
    "v" aside: :data:`VERSION`), so a question's "3.1.2" is searched as that phrase.

    Example:
        >>> words_of("What changed in Jinja v3.1.2 (not 2.0rc1, 3.1)?")
        ['What', 'changed', 'in', 'Jinja', '3.1.2', 'not', '2.0rc1', '3.1']
    """
    return [m[1] or m[0] for m in _TOKENS.finditer(text)]
