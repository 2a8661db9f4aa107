"""Which reference entry a passage holds or heads, matched to the words of a question: an
entry's heading (``inter <delay>``, Texinfo's "11.44 crop", ``-resize geometry``), a paragraph
led by an entry's label (``drop [<stash>]: ...``, ``SAVEHIST: ...``). The search ranks such a
passage as the symbol named (:mod:`workers.sources.ranking`).

This module imports only the standard library and the sources' own modules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.sources.chunks import PARA_SPLIT
from workers.sources.entries import (
    definition_names,
    entry_keywords,
    entry_name,
    fielded_name,
    names_keyword,
)
from workers.sources.option_entries import option_heading
from workers.sources.query import SearchQuery

__all__ = ["entries_held", "entry_named", "holds_named_entry", "holds_spelled_entry",
           "opens_named_entry"]

_NUMBERED_NAME = re.compile(r"\d+(?:\.\d+)*\.?\s+([a-z][\w-]*)")


def entry_named(heading: str, terms: Sequence[str]) -> bool:
    """Whether ``heading`` labels a reference entry the question names: a keyword followed by
    its arguments (``inter <delay>``, ``balance <algorithm> [ <arguments> ]``; several joined
    by " / "), the keyword one of the question's ``terms``. Such an entry counts as the symbol
    named, as the question spells it: "What is the default value of the inter server
    parameter?" ranked ``fall``'s and ``rise``'s entries first, whose "See also" names
    ``inter`` beside their own defaults.

    So does a numbered section headed by a lower-case name alone, as Texinfo heads each entry
    (FFmpeg's "11.44 crop": "What does the crop filter do?" ranked the introduction's example
    "... through the crop filter and the vflip filter" above it, trial 69), and one headed by an
    option and its argument (ImageMagick's "-resize geometry" ranked below "-adaptive-resize
    geometry", trial 72).

    Example:
        >>> entry_named("inter <delay> / fastinter <delay>", ["default", "inter"])
        True
        >>> entry_named("fall <count>", ["default", "inter"]), entry_named("Inter", ["inter"])
        (False, False)
        >>> entry_named("11.44 crop", ["crop", "filter"]), entry_named("2 Crop", ["crop"])
        (True, False)
        >>> entry_named("-resize geometry", ["resize"]), entry_named("-adaptive-resize", ["resize"])
        (True, False)
        >>> entry_named("Builtin: changequote ([start], [end])", ["changequote"])
        True
    """
    if defined := definition_names(heading):  # Texinfo's "Builtin: dnl" (trial 101, F1)
        return any(name.lower() in terms for name in defined)
    if (numbered := _NUMBERED_NAME.fullmatch(heading.strip())) is not None:
        return numbered[1] in terms
    if option := option_heading(heading):
        words = " ".join(option.lstrip("-+").lower().split("-"))
        return bool(names_keyword(" ".join(terms), {words}))
    if not any(mark in heading for mark in "<[{("):  # the common case: a plain heading
        return False
    return bool(names_keyword(" ".join(terms), entry_keywords(heading)))


def opens_named_entry(text: str, heading: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` opens the section of an entry the question names (:func:`entry_named`:
    "11.44 crop", "-resize geometry", ``show servers state [<backend>]``): its first paragraph
    is the heading, or an option's label alone (Exim's "-bt", a definition list's term without
    an anchor, trial 73), and what the entry does comes next ("Crop the input video to given
    dimensions.", "Dump the state of the servers ...", where HAProxy's later passages of it,
    listing the dump's columns, ranked first, trial 79)."""
    if text.lstrip().startswith(heading.strip()) and entry_named(heading, terms):
        return True
    # a term Exim's <dt> gives no anchor; ssh's -L, four forms a line each
    lines = text.lstrip().split("\n\n", 1)[0].strip().split("\n")
    return (len(lines) <= 6 and all(len(line) <= 80 and option_heading(line) for line in lines)
            and entry_named(lines[0], terms))


def holds_named_entry(text: str, terms: Sequence[str]) -> bool:
    """Whether a passage holds the entry of a name the question says (a paragraph led by the
    entry's label, :func:`~workers.sources.entries.entry_name`; an option's dashes aside): such
    an entry counts as the symbol named, as :func:`entry_named` does for a heading. "What does
    git stash drop do?" ranked pop's entry, which says "call git stash drop manually
    afterwards", above drop's own ("drop [<stash>]: Remove a single stash entry ...", trial 53).

    Example:
        >>> holds_named_entry("drop [-q] [<stash>]: Remove a stash entry.", ["stash", "drop"])
        True
        >>> holds_named_entry("Options.\\n\\n--abort: Abort the rebase.", ["rebase", "abort"])
        True
        >>> holds_named_entry("pop [<stash>]: Remove it; see drop.", ["stash", "drop"])
        False
        >>> holds_named_entry("--leak-check=<no|full> [default: summary]: When enabled, ...",
        ...                   ["leak", "check", "full"])
        True
        >>> holds_named_entry("check_local_user\\n\\nUse: routers\\n\\nWhen this option is true",
        ...                   ["check_local_user", "router"])
        True
    """
    # an option's words as the question's terms give them: --leak-check is "leak check"
    names = {" ".join(name.lower().lstrip("-").split("-")) for name in entries_held(text)}
    return bool(names and names_keyword(" ".join(terms), names))


def entries_held(text: str) -> set[str]:
    """The names of the entries a passage holds, as written: each paragraph led by an entry's
    label (:func:`~workers.sources.entries.entry_name`), or a name above its field rows
    (Exim's "check_local_user", "Use: routers", trial 86, F2).

    Example:
        >>> sorted(entries_held("reply: As REPLY.\\n\\nSAVEHIST: The maximum number of events."))
        ['SAVEHIST', 'reply']
    """
    if ": " not in text:  # the common case
        return set()
    paragraphs = PARA_SPLIT.split(text)
    names = {entry_name(p) or fielded_name(paragraphs, at) for at, p in enumerate(paragraphs)}
    return names - {""}


def holds_spelled_entry(text: str, query: SearchQuery) -> bool:
    """Whether a passage holds the entry of a name the question spells as the entry does, a
    capital letter in it (``SAVEHIST``): the name's definition, which ranks above the passages
    that use the name, however often they do (zsh's ``fc -p`` says "$HISTSIZE & $SAVEHIST are
    instead set ..." on a short page, and answered "What is SAVEHIST?", trial 115, F2a). Of a
    question asking how to do a task, only a name it may name an entry by counts
    (:attr:`~workers.sources.query.SearchQuery.entry_terms`): "How do I enable SSL?" names SSL
    as its subject, not the glossary's "SSL: The older name of TLS" (trial 119, F8).

    Example:
        >>> from workers.sources.query import search_query
        >>> holds_spelled_entry("SAVEHIST: The most events.", search_query("What is SAVEHIST?"))
        True
        >>> holds_spelled_entry("SAVEHIST: The most events.", search_query("What is savehist?"))
        False
        >>> holds_spelled_entry("SSL: The older name of TLS.", search_query("How do I enable SSL?"))
        False
    """
    spelled = {n.spelled for n in query.names if n.spelled and (  # a task's acronym: no entry
        query.entry_terms is None or n.spelled.lower() in query.entry_terms)}  # (trial 119, F8)
    return bool(spelled and spelled & entries_held(text))
