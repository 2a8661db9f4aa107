"""What a sentence answers: the kind of question it fits (a definition for "what is", a default,
a limitation, a way to do it ...), whether it defines its own subject
(:func:`~app.research.sentence_subjects.subject_of`) by its kind, and whether that subject is
the thing asked, a part of it or another named thing. Used
by the report's Answer (:mod:`app.research.answer`) to put the sentence that answers the
question's kind first. Pure: regular expressions over one sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.llm.offline.relevance import defines_asked
from app.llm.offline.words import stems
from app.research.caveats import without_setting_names
from app.research.reference import written_names
from workers.sources.entries import entry_name
from workers.sources.leads import JUDGED_AS
from workers.sources.query import mentions, query_terms

__all__ = ["INSTRUCTION", "asked_label", "conditioned", "defining", "fits", "genus",
           "glossary_entry", "headed_by", "names_another", "predicated"]

_DEFINITION = re.compile(
    r"^[^.;:]{0,80}?\b(?:(?<!\bthere )(?<!\bhere )"
    r"(?:is|are|means|refers\s+to|represents|is\s+called)\s+"
    rf"(?:an?|the|one|used|how|what)\b(?!\s+{JUDGED_AS})|(?:stands|is\s+short)\s+for\b"
    r"|are\s+(?:[\w-]+\s+)?[\w-]+s\s+(?:that|which|who)\b"
    r"|(?:is|are)\s+(?:(?:also|often|commonly|usually|sometimes)\s+)?(?:known\s+as|"
    r"referred\s+to\s+as|called\s+[\"'\u201c\u2018]))",
    re.IGNORECASE,
)
"""A sentence that says what something is ("X is a ...", "An X is the ...", "GIN stands for
Generalized Inverted Index", and in the plural, "Constraints files are requirements files
that only control ...": trial 62, F4, the Answer opened with "Constraints file support was
added in pip 7.1."), or the name it is known by ('The HEAD in such a state is called
"detached".', "This is known as being in detached HEAD state.", trial 121, F2; "is called"
only before a quoted name: "is called when ..." tells when code runs). "There is a" and "here
is an" say that something exists, not what it is:
Mutt's "Note that there is a space between <enter-command> and ..." opened the Answer to
"What does the macro command do?" (trial 86, F5); "is a good place to"
(:data:`~workers.sources.leads.JUDGED_AS`) says what it is good for: "The application context is
a good place to store common data ..." led before "The application context keeps track of ..."
(trial 121, F2)."""
_GENUS = re.compile(r"\s*(?:is|are)\s+(?:an?|the|one)\s+((?:[\w-]+\s+){0,3}[\w-]+)",
                    re.IGNORECASE)
"""The start of a definition's predicate: "is an index built ..." of "A partial index is an
index built over a subset of a table"."""
_FITS: dict[str, re.Pattern[str]] = {
    "how": re.compile(
        r"\b(?:you\s+can|can\s+be|may\s+be|is\s+done|by\s+(?:\w+ing|the|an?)|with\s+the|"
        r"using|use|call|pass|specify|invoke|configure|enable)\b", re.IGNORECASE),
    "why": re.compile(
        r"\b(?:because|so\s+that|in\s+order\s+to|since|reasons?|this\s+(?:means|ensures|"
        r"allows|prevents|avoids)|to\s+(?:avoid|prevent|ensure|allow|guarantee)|"
        # what a thing is not made for: why not to use it ("It is not designed to be
        # particularly secure", Flask's development server, trial 121, F5)
        r"(?:is|are)\s+(?:not\s+(?:\w+ly\s+)?(?:designed|intended|meant)|(?:designed|intended|"
        r"meant)\s+(?:\w+\s+){0,3}?only))\b",
        re.IGNORECASE),
    "compare": re.compile(
        r"\b(?:unlike|whereas|instead\s+of|rather\s+than|differs?|difference|different|"
        r"compared?|while|both|either|than)\b", re.IGNORECASE),
    "default": re.compile(r"\bdefaults?\b|\bdefaulting\b", re.IGNORECASE),
    "limitation": re.compile(
        r"\b(?:not|never|no\s+longer|cannot|can't|don't|doesn't|won't|isn't|aren't|only|"
        r"deprecated|limit(?:ed|ation|ations)?|unsupported|avoid|beware|careful|unsafe|risks?|"
        r"lost|lose|loses|warn(?:s|ing|ings)?|caveats?|drawbacks?|instead)\b", re.IGNORECASE),
    "measure": re.compile(  # a quantity, a duration, a distance, a date or a frequency
        r"\b\d+(?:[.,]\d+)?\s*(?:%|percent|per\s*cent|seconds?|minutes?|hours?|days?|weeks?|"
        r"months?|years?|metres?|meters?|km|kilomet(?:re|er)s?|miles?|feet|ft|cm|mm|m|kg|g|"
        r"bytes?|[KMGT]i?B|pages?|times?)\b|\b(?:every|once|twice|daily|weekly|monthly|yearly|"
        r"annually|hourly|between|until|January|February|March|April|May|June|July|August|"
        r"September|October|November|December|(?:one|two|three|four|five|six|seven|eight|nine|"
        r"ten|twelve|twenty|thirty|hundred|thousand)\s+\w+s)\b|\b(?:1[89]|20)\d\d\b"),
    "what": _DEFINITION,
    "topic": _DEFINITION,
}
"""What a sentence that answers each kind of question (:func:`app.research.topics.topic_kind`)
says: how to do it, why, how things differ, a default, a limitation or warning, a measure (a
number with its unit, a date, a frequency: "how long", "how far", "when"), what a thing is (a
definition: matched at the sentence's start)."""
_GLOSSED = re.compile(r"^(?P<label>[^.:;!?\n]{1,60}):\s+\S")
"""A sentence led by the term it defines: a glossary's or a definition list's entry."""
_NAME_LINE = re.compile(r"^(?P<label>[\w.+-]+)[ \t]+[-\u2013\u2014][ \t]+\w")
"""A man page's NAME line, led by the command it defines: "git-fetch - Download objects and refs
from another repository" (what "What is git fetch?" asks, trial 121, F1)."""


def genus(sentence: str, subject: str) -> bool:
    """Whether ``sentence``, whose subject is ``subject``
    (:func:`~app.research.sentence_subjects.subject_of`), defines it by its kind: its predicate
    names the subject's head word ("A partial index is *an index*
    built over a subset of a table"), as a definition by genus and difference does; "Partial
    indexes are a specialized feature" says something of partial indexes, defining nothing.

    Example:
        >>> genus("A partial index is an index built over a subset.", "A partial index ")
        True
        >>> genus("Partial indexes are a specialized feature.", "Partial indexes ")
        False
    """
    words = query_terms(subject)
    at = len(subject) if words and sentence.startswith(subject) else -1
    match = _GENUS.match(sentence, at) if at >= 0 else None
    return bool(match) and bool(mentions(words[-1:], match.group(1)))


def defining(text: str, subject: Sequence[str], asked: str) -> bool:
    """Whether ``text`` defines what the "what is" question ``asked`` (its subject words
    ``subject``) asks about, whatever its verb: it is the subject's glossary entry
    (:func:`glossary_entry`), or its own subject is the thing asked and it says what that is or
    does (:func:`~app.llm.offline.relevance.defines_asked`: "The application context keeps
    track of the application-level data during a request ..."), not what it is good for
    (:data:`~workers.sources.leads.JUDGED_AS`: "... is a good place to store common data",
    which led Flask's Answer while "keeps track of" counted as no definition, trial 121, F2).

    Example:
        >>> q = "What is the application context?"
        >>> defining("The application context keeps track of the app's data.", [], q)
        True
        >>> defining("The application context is a good place to store data.", [], q)
        False
    """
    if glossary_entry(text, subject) or predicated(text, subject):  # L1-F1
        return True
    judged = re.search(rf"\b(?:is|are)\s+(?:an?|the)\s+{JUDGED_AS}", text, re.IGNORECASE)
    return judged is None and defines_asked(text, stems(asked))


_PREDICATE = re.compile(r"^([^,;:.()]{1,80}?)\s(?:is|are)\s+(?:\w+ly\s+)?([\w-]+)",
                        re.IGNORECASE)
"""A sentence's subject up to its "is" or "are" (no clause before it) and the word that gives
it: "Writes stored at the target checkpoint itself" and "pending"."""


def predicated(text: str, subject: Sequence[str]) -> str:
    """The subject ``text`` says of what the topic's other words say of the thing the topic's
    head names: its subject, up to its "is" or "are", names some of the words of ``subject``
    and the word after that verb the others ("Writes stored at the target checkpoint itself
    are pending for the next super-step" says when writes are pending, for "checkpointer
    pending writes", where no sentence says "Pending writes are ..." and a sentence on another
    thing led, L1-F1; "A repository is bare when ..."); "" when it does not. A first word that
    is also a verb's form ("Writes") is no end of that subject.

    Example:
        >>> predicated("Writes stored at a checkpoint are pending for the next step.",
        ...            ["checkpointer", "pending", "writes"])
        'Writes stored at a checkpoint'
        >>> predicated("Pending writes are stored in order.", ["pending", "writes"])
        ''
    """
    match = _PREDICATE.match(text)
    if match is None or len(subject) < 2 or len(match.group(1).split()) > 10:
        return ""
    named, told = mentions(subject, match.group(1)), mentions(subject, match.group(2))
    whole = bool(named) and bool(told - named) and named | told == set(subject)
    return match.group(1) if whole else ""


def glossary_entry(text: str, subject: Sequence[str]) -> bool:
    """Whether ``text`` is the entry of a definition list or glossary for ``subject``: led by
    a label of at most six words that is the subject, every word of it and no other
    (``bare repository: A bare repository is normally ...``; not a cross-reference line, "FTS5
    highlight - fts5.html#...: ..." for FTS5): a definition, whatever verb follows (Git's
    glossary defines by "X: ...", and "is normally an" is no "is a").

    Example:
        >>> glossary_entry("bare repository: A bare repository is normally a directory.",
        ...                ["bare", "repository"])
        True
        >>> glossary_entry("git push: Updates remote refs.", ["bare", "repository"])
        False
        >>> glossary_entry("FTS5 highlight - fts5.html#highlight: FTS5 highlight", ["fts5"])
        False
        >>> glossary_entry("git-fetch - Download objects and refs", ["git", "fetch"])
        True
    """
    label = _GLOSSED.match(text) or _NAME_LINE.match(text)
    if not label or not subject or len(label.group("label").split()) > 6:
        return False
    own = query_terms(label.group("label"))  # the label is the subject, not more
    return (len(mentions(subject, label.group("label"))) == len(subject)
            and len(mentions(own, " ".join(subject))) == len(own))


INSTRUCTION = re.compile(
    r"^\W*(?!(?i:in|on|at|if|when|for|to|by|with|from|as|of|the|an?|this|that|these|those|it|"
    r"its|each|all|some|any|no|once|after|before|while|unless|since|because|although|there|"
    r"here|then|also|only|note|see|so|but|and|or|yet|most|many|much|more|such|other)\b)"
    r"[A-Z][a-z]+(?<![^s]s)(?<!ed)(?<!ing)\s+(?:the|an?|all|each|its|this|that|these|any|"
    r"every|your|one|it|them)\b")
"""An instruction: a sentence that opens with a verb's plain form and its object ("Mark the
server DOWN for maintenance.", "Remove a single stash entry."), as a command's entry says
what it does: it answers "how do I ...?" (trial 111, F1). Not a description ("Sets the
..."), a clause or a phrase ("In the statistics page, ...")."""


def fits(kind: str, text: str) -> bool:
    """Whether a sentence answers a question of ``kind`` (:data:`_FITS`): a definition for
    "what", a limitation or warning for "limitation", a default for "default", ...

    Example:
        >>> fits("what", "A macro is a sequence of keys."), fits(
        ...     "what", "Note that there is a space between the keys.")
        (True, False)
        >>> fits("what", "The app context is a good place to store data."), fits(
        ...     "what", 'The HEAD in such a state is called "detached".'), fits(
        ...     "what", "The hook is called when the app starts.")
        (False, True, False)
        >>> fits("how", "Mark the server DOWN for maintenance."), fits(
        ...     "how", "Marks the server DOWN."), fits("how", "In the page, it is red.")
        (True, False, False)
    """
    pattern = _FITS.get(kind)
    if pattern is None:
        return False
    text = without_setting_names(text)  # a row named "warning" is no warning
    if kind == "how" and INSTRUCTION.match(text):
        return True
    return bool(pattern.match(text) if pattern is _DEFINITION else pattern.search(text))


_CONDITION = re.compile(
    r"^\W*(?!(?:in|on|for|with)\s+(?:addition|general|practice|short|particular|example|"
    r"instance|fact|turn|contrast|other\s+words|this\s+way)\b)"
    r"(?:in|on|under|with|when|whenever|if|unless|while|once)\s+[^,.;:]{1,60},\s",
    re.IGNORECASE)
"""A sentence opening with the condition it holds under ("In sh or ksh emulation, ...", "On
Windows, ...", "If X is set, ..."); a discourse phrase ("In addition, ...", "For example,
...") is no condition."""


def conditioned(text: str) -> bool:
    """Whether ``text`` says what holds under a condition it opens with (:data:`_CONDITION`):
    asked a default, such a sentence goes after the plain one ("In sh or ksh emulation, the
    default is ‘+ ’." led PS4's Answer before "Default is ‘+%N:%i> ’", trial 115, F9).

    Example:
        >>> conditioned("In sh or ksh emulation, the default is ‘+ ’."), conditioned(
        ...     "On Windows, the default is NUL."), conditioned("Default is ‘+%N:%i> ’.")
        (True, True, False)
        >>> conditioned("In addition, the default is 5."), conditioned(
        ...     "By default, adjacent boxes touch.")
        (False, False)
    """
    return _CONDITION.match(text) is not None


def asked_label(text: str, asked: set[str]) -> str:
    """The label of the entry ``text`` opens when it is one asked (``asked``), else "": the
    subject of a reference entry's line, whose description has no subject of its own
    ("dont-use-other-dicts: (boolean) Disable use of ...", trial 95, F1).

    Example:
        >>> asked_label("extra-dicts: (list) Extra dictionaries to use.", {"extra-dicts"})
        'extra-dicts'
    """
    label = entry_name(text)
    return label if label and label.lower() in {name.lower() for name in asked} else ""


def names_another(own: str, asked: set[str]) -> bool:
    """Whether a sentence's subject (``own``) writes identifiers, none of them one the question
    asks (``asked``, its :func:`~app.research.neighbours.asked_names`; a flag and its bare name
    are one): "The --dont-clean-words option can be used to ..." is no answer for
    ``dont-use-other-dicts``, though both have "dont" (trial 95, F1).

    Example:
        >>> names_another("The --dont-clean-words option ", {"dont-use-other-dicts"})
        True
        >>> names_another("The --dont-clean-words option ", {"dont-clean-words"})
        False
    """
    names = {n.lstrip("-").lower() for n in written_names(own)}
    return bool(asked and names) and not names & {n.lstrip("-").lower() for n in asked}


def headed_by(own: str, subject: Sequence[str]) -> bool:
    """Whether a sentence's subject (``own``) is the topic's thing itself, not a part of it:
    its words before an "of" name the topic ("A coprocess", not "The return status of a
    coprocess": trial 51 found the second opening "What is a coprocess?").

    Example:
        >>> headed_by("The return status of a coprocess ", ["coprocess"])
        False
        >>> headed_by("A coprocess ", ["coprocess"])
        True
    """
    head = re.split(r"\bof\b", own, maxsplit=1)[0]
    return bool(mentions(subject, head))
