"""A comparison's Answer (issue 19, section 3): the sentence that contrasts the things compared,
then a defining sentence of each thing no line names yet, never a counter's or a listing's row.

Trial 113 found comparison Answers that answered one side only: "What is the difference between
add_callback and spawn_callback?" showed add_callback's definition alone while the analyst had
quoted Tornado's "As of Tornado 6.0, this method is equivalent to add_callback." (under
``IOLoop.spawn_callback``); Varnish's purge and ban were answered by a VCL line on bans, and
HAProxy's frontend and backend by a statistics row ('1 + 2 + 4 = 7 -> frontend + backend +
server').
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from app.llm.offline.kind_sentences import CONTRAST
from app.research.definitions import DEFINES, definition_line
from app.research.neighbours import entry_names, qualified_match, written_names
from app.research.relevance import topic_terms
from app.research.sentence_kinds import fits, glossary_entry, headed_by
from app.research.sentence_subjects import subject_of
from workers.sources.query import mentions

__all__ = ["CONTRAST", "compare_answer", "contrast", "defines", "listing_row"]

_LISTING = re.compile(
    r"^\W*(?:count|number|total|sum)\s+of\b|\d+\s*[-+*/=]\s*\d+\s*[-+*/=]|->|=>", re.IGNORECASE)
"""A counter's description ("Count of bans replaced by later identical bans.", Varnish's
counters) or a listing's row of values ("1 + 2 + 4 = 7 -> frontend + backend + server",
HAProxy's ``show stat`` types): it names the things, defining none."""
_DEFINING_VERB = re.compile(
    r"\s*(?:(?:is|are)\s+(?:an?|the|one|what|how|like|similar\s+to)|means|refers\s+to|"
    r"represents|describes|defines|denotes|stands\s+for)\b", re.IGNORECASE)
"""The verb after a defining sentence's subject: 'A "frontend" section *describes* a set of
listening sockets ...' (HAProxy), "A purge *is* what happens when ..." (Varnish)."""
_THINK_OF = re.compile(r"\bthink\s+of\s+(?P<thing>(?:[\w\"'-]+\s+){0,3}?)as\s+an?\b",
                       re.IGNORECASE)
"""A definition by likeness: "You can think of bans as a sort of a filter on objects ..."."""


def listing_row(text: str) -> bool:
    """Whether ``text`` is a counter's description or a listing's row (:data:`_LISTING`).

    Example:
        >>> listing_row("Count of bans replaced by later identical bans.")
        True
        >>> listing_row("1 + 2 + 4 = 7 -> frontend + backend + server.")
        True
        >>> listing_row("A purge is what happens when you pick out an object from the cache.")
        False
    """
    return bool(_LISTING.search(text))


def _names(part: str, text: str) -> bool:
    """Whether ``text`` names ``part``: every word of it, in the plural too ("bans" names "a
    ban": a short word's plural is no form :func:`~workers.sources.query.word_forms` gives)."""
    terms = topic_terms(part)
    said = mentions(terms, text) | mentions(terms, _SINGULAR.sub(r"\1", text))
    return bool(terms) and len(said) == len(terms)


_SINGULAR = re.compile(r"\b([a-z]{2,}?)s\b")


def defines(part: str, text: str) -> bool:
    """Whether ``text`` is a defining sentence of ``part``: its subject is the thing itself
    (:func:`~app.research.sentence_kinds.headed_by`) and says what it is or describes, or it
    asks the reader to think of the thing as something; never a listing's row.

    Example:
        >>> defines("a frontend", 'A "frontend" section describes a set of listening sockets.')
        True
        >>> defines("a ban", "You can think of bans as a sort of a filter on objects.")
        True
        >>> defines("a ban", "The ban lurker can help you keep the ban list small.")
        False
        >>> defines("a purge", "Usually a purge is invoked through HTTP with the method PURGE.")
        False
        >>> defines("a backend", "<backend> is the name of the backend to use.")
        False
    """
    if listing_row(text):
        return False
    like = _THINK_OF.search(text)
    if like and _names(part, like.group("thing")):
        return True
    terms = topic_terms(part)
    if glossary_entry(text, terms):  # "-release release: Specify that the library ..."
        return True
    own = subject_of(text)
    if (not own or not terms or not headed_by(own, terms) or not _names(part, own)
            or own.lstrip("`'\"").startswith("<")):  # "<backend> is the name of ...": an argument
        return False
    rest = text[text.find(own) + len(own):] if own in text else ""
    return bool(_DEFINING_VERB.match(rest)) or fits("what", text)


EntryOf = Callable[[dict[str, Any]], str]
"""The label of the entry (or section) a finding's sentence lies in, "" when unknown:
:func:`app.research.neighbours.sentence_entry` of its passage."""


def _heading(item: dict[str, Any]) -> str:
    return str(item.get("heading") or "")


def _about(item: dict[str, Any], entry_of: EntryOf = _heading) -> str:
    """What a finding is about beyond its words: its entry's label (``entry_of``; default its
    passage's heading) or the symbol it defines."""
    return f"{item.get(DEFINES) or ''} {entry_of(item)}"


def contrast(found: Sequence[dict[str, Any]], parts: Sequence[str],
             entry_of: EntryOf = _heading) -> dict[str, Any] | None:
    """The first finding of ``found`` that sets the things compared against each other: a
    contrast word (:data:`CONTRAST`), one thing named in its words and every thing in its words
    or its entry's label (``entry_of``: "As of Tornado 6.0, this method is equivalent to
    add_callback." under ``IOLoop.spawn_callback``), shown under the thing only its entry names;
    else None. The entry is the sentence's own section, not the passage's: under "## mirror",
    "In mirror mode the destination is made identical to the source" was shown as ``archive
    mode``'s, a later heading of the same passage (trial 116, F2).

    Example:
        >>> f = {"text": "This method is equivalent to add_callback.", "ref": "io.html#3",
        ...      "heading": "IOLoop.spawn_callback(callback) -> None"}
        >>> definition_line(contrast([f], ["add_callback", "spawn_callback"]))
        '`spawn_callback`: This method is equivalent to add_callback.'
    """
    for item in found:
        text = " ".join(str(item.get("text", "")).split())
        if not CONTRAST.search(text) or listing_row(text):
            continue
        named = [p for p in parts if _names(p, text)]
        unnamed = [p for p in parts if p not in named]
        if named and all(_names(p, _about(item, entry_of)) for p in unnamed):
            return {**item, DEFINES: unnamed[0]} if len(unnamed) == 1 else item
    return None


def compare_answer(found: Sequence[dict[str, Any]], defined: Sequence[dict[str, Any]],
                   parts: Sequence[str], entry_of: EntryOf = _heading) -> list[dict[str, Any]]:
    """A comparison's Answer lines: the :func:`contrast` first when there is one, then each
    thing compared's defining sentence among ``found`` (the findings, best first: one saying
    what it is, "A purge is what happens when ...", before one saying what it is like:
    :func:`defines`), else its reference entry's definition (``defined``), else the first
    sentence of its own entry or section (``entry_of``), else, when no line names it yet, the
    first finding naming it, one whose subject is a thing compared first
    (:func:`_subject_names`); a counter's or a listing's row never stands for one
    (:func:`listing_row`), nor a sentence of another thing's entry that merely names it
    (backlog's "The default is the value of maxconn." stood for maxconn, trial 116, F7).

    Example:
        >>> io = "IOLoop.{}(callback) -> None"
        >>> lines = compare_answer([
        ...     {"text": "As of Tornado 6.0, this method is equivalent to add_callback.",
        ...      "heading": io.format("spawn_callback")},
        ...     {"text": "Calls the callback on the next iteration.", "defines": "add_callback"},
        ...     {"text": "Calls the callback on the next loop.", "defines": "spawn_callback"}],
        ...     [], ["add_callback", "spawn_callback"])
        >>> [definition_line(line)[:16] for line in lines]
        ['`spawn_callback`', '`add_callback`: ', '`spawn_callback`']
        >>> entries = {"Sets the length of the queue.": "backlog <n>",
        ...            "The default is the value of maxconn.": "backlog <n>",
        ...            "Sets the most connections.": "maxconn <n>"}
        >>> [line["text"] for line in compare_answer(
        ...     [{"text": t} for t in entries], [], ["backlog", "maxconn"],
        ...     lambda f: entries[f["text"]])]
        ['Sets the length of the queue.', 'Sets the most connections.']
    """
    chosen: list[dict[str, Any]] = []
    if (lead := contrast(found, parts, entry_of)) is not None:
        chosen.append(lead)
    usable = [f for f in found if not listing_row(str(f.get("text", "")))]
    for part in parts:
        entry = sorted((f for f in usable if _names(part, entry_of(f))),  # its label first
                       key=lambda f: not _opens(f, entry_of(f)))
        naming = sorted((f for f in usable if _names(part, definition_line(f))
                         and (f in entry or not _others_entry(f, part, parts, entry_of))),
                        key=lambda f: not _subject_names(f, parts))
        picks = sorted((f for f in naming if defines(part, " ".join(str(f["text"]).split()))),
                       key=lambda f: not fits("what", str(f["text"])))
        own = [f for f in [*naming, *defined] if f.get(DEFINES) and _names(part, f[DEFINES])
               and not listing_row(str(f.get("text", "")))]
        defining = picks or own or [
            {**f, DEFINES: f.get(DEFINES) or part}
            for f in [f for f in entry if _owns(part, entry_of(f))][:1]
            if not any(_names(p, entry_of(f)) for p in parts if p != part)]
        if any(c in defining or _same(c, defining) for c in chosen):
            continue
        if defining or not any(_names(part, definition_line(c)) for c in chosen):
            chosen += (defining or naming)[:1]
    return chosen


def _subject_names(item: dict[str, Any], parts: Sequence[str]) -> bool:
    """Whether the subject of ``item``'s sentence (:func:`subject_of`) names a thing compared:
    "More precisely, git pull runs git fetch with the given parameters and then ..." relates
    the things, while a side note naming them past its subject ("Note: There is a difference
    between listing multiple <refspec> directly on git pull command line and having multiple
    remote.<repository>.fetch entries ...") led the Answer to "What is the difference between
    git fetch and git pull?" for its word "difference" (trial 121, F2).

    Example:
        >>> parts = ["git fetch", "git pull"]
        >>> _subject_names({"text": "More precisely, git pull runs git fetch first."}, parts)
        True
        >>> _subject_names({"text": "Note: There is a difference between git pull and "
        ...                          "remote.origin.fetch entries."}, parts)
        False
    """
    own = subject_of(" ".join(str(item.get("text", "")).split()))
    return any(_names(part, own) for part in parts)


def _owns(part: str, label: str) -> bool:
    """Whether the entry ``label`` (which names ``part``'s words) is ``part``'s own: a label
    writing names writes ``part`` as one of them, qualified or not (``IOLoop.spawn_callback``);
    rsyslog's ``PollingInterval`` names "polling" and is the interval's entry, and its "This
    setting specifies how often files are to be polled" was shown as "`polling`: ..." (trial
    118, F7). A label writing no name (a heading, "Polling mode") is the part's.

    Example:
        >>> _owns("polling", "PollingInterval"), _owns("maxconn", "maxconn <number>")
        (False, True)
        >>> _owns("polling", "Polling mode"), _owns("spawn_callback", "IOLoop.spawn_callback(f)")
        (True, True)
        >>> _owns("a frontend", "frontend <name>"), _owns("bans", "ban <regex>")
        (True, True)
    """
    names = entry_names(label)
    if not names:
        return True
    keys = written_names(part) | {" ".join(topic_terms(part))}  # "a frontend": frontend
    return qualified_match(names, keys | {k[:-1] for k in keys if k.endswith("s")})


def _opens(item: dict[str, Any], label: str) -> bool:
    """Whether ``item``'s sentence opens its entry: it starts with the entry's ``label``
    ("maxconn <number>: Sets the most connections ...")."""
    return bool(label) and " ".join(str(item.get("text", "")).split()).startswith(label)


def _same(item: dict[str, Any], among: Sequence[dict[str, Any]]) -> bool:
    """Whether ``item``'s sentence is one of ``among``'s (labelled or not)."""
    return any(item.get("text") == f.get("text") and item.get("ref") == f.get("ref")
               for f in among)


def _others_entry(item: dict[str, Any], part: str, parts: Sequence[str],
                  entry_of: EntryOf) -> bool:
    """Whether ``item`` lies in the entry of another thing compared than ``part``."""
    label = entry_of(item)
    return bool(label) and any(_names(p, label) for p in parts if p != part)
