"""Which sentences answer: relevance to the question, steered by the response field's words.

The idea: a field's own JSON-schema description says what belongs in it. A ``Caveats`` field
that talks about limitations, warnings and deprecations pulls cautionary sentences; ``Findings``,
whose descriptions carry no such words, gets the most relevant ones.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from app.llm.offline.kind_sentences import asks_default, asks_difference, contrasts, says_default
from app.llm.offline.sentences import Sentence
from app.llm.offline.words import stem
from app.llm.offline.words import stems as stems_of
from workers.sources.asking import asks_task, marked_words
from workers.sources.leads import COPULA, DOES
from workers.sources.names import code_words, name_keys, writes_option, written_options
from workers.sources.operators import asked_symbols, writes_symbol

__all__ = ["ASKED_ENTRY", "DEFINES", "KINDS", "LEANS_BACK", "STATES", "code_stems", "defines_asked",
           "entry_stems", "leads", "score", "select"]

ASKED_ENTRY = 2.0
"""How much more a sentence of the entry the question names counts (its paragraph is led by
the entry's name, ``pop [<stash>]: Remove a single stashed state ...``, and the question says
"pop"): a long definition lost to a short sentence of the next entry that mentions it
("apply [<stash>]: Like pop, but ...", trial 53 on Git's docs)."""

LEANS_BACK = 0.5
"""How much a sentence quoted without the one it goes on from counts (``Sentence.leans``:
ssh's "This works by allocating a socket ..." led the Answer before the sentence it explains,
"Specifies that connections to the given TCP port ... are to be forwarded ...", trial 76)."""


DEFINES = 2.0
"""How much more a sentence saying what the question asks about counts (:func:`defines_asked`):
"Massif is a heap profiler." lost to "Different Massif Format file visualisers are
available." for "What is Massif?", being part of a longer quote (trial 107, R1)."""

_FRAMING = frozenset(stem(word) for word in ("meant", "mean", "means", "definition"))
"""The words of a question asking what a thing is that are not the thing ("What is meant by
X?")."""


_KINDS = frozenset(stem(word) for word in (
    "feature module option command function tool directive program utility extension library "
    "class method setting parameter variable filter plugin").split())
"""The kinds of thing :data:`workers.sources.leads.DOES` reads after a subject's name."""
KINDS = _KINDS


def defines_asked(text: str, question: frozenset[str]) -> bool:
    """Whether ``text`` opens by saying what the question's subject is: its subject before
    "is a" / "are the" (:data:`workers.sources.leads.COPULA`, an article aside) has the stems
    of every content word of the question and no other ("What is Massif?" and "Massif is a
    heap profiler."; not "How do I configure Massif?").

    Example:
        >>> from app.llm.offline.words import stems
        >>> defines_asked("Massif is a heap profiler.", stems("What is Massif?"))
        True
        >>> defines_asked("A partial index is an index over a subset.",
        ...               stems("What is meant by a partial index?"))
        True
        >>> defines_asked("Massif is a heap profiler.", stems("How do I configure Massif?"))
        False
        >>> defines_asked("The suEXEC feature provides users the ability to run CGI programs.",
        ...               stems("What is suEXEC?"))
        True
        >>> defines_asked("The fit command fits an expression to data points.",
        ...               stems("What does the fit command do?"))
        True
        >>> defines_asked("The set fit command controls the options for the fit command.",
        ...               stems("What does the fit command do?"))
        False
    """
    asked = question - _FRAMING
    match = COPULA.match(text) or DOES.match(text)
    if match is None or not asked:
        return False
    # "The fit command fits ...", its kind of thing aside as DOES reads it, defines what "What
    # does the fit command do?" asks (trial 115, F1)
    subject = stems_of(match[1])
    return subject == asked or bool(subject) and subject - _KINDS == asked - _KINDS != set()


_DEFAULT = frozenset({stem("default")})
STATES = 2.0
"""How much more a sentence stating what the question's kind asks counts: a default when it
asks one (:func:`~app.llm.offline.kind_sentences.says_default`: asked "How are user passwords
hashed by default?", "Django provides a flexible password storage system and uses PBKDF2 by
default." lost to "The password attribute of a User object is a string in this format:" of its
passage and was never a finding, trial 124, M3-F1), a contrast of two things named when it asks
how they differ (:func:`~app.llm.offline.kind_sentences.contrasts`, M3-F2)."""


def leads(text: str, question: frozenset[str]) -> float:
    """The factor a sentence ``text`` counts by for answering the question's kind itself: a
    definition of what it asks (:data:`DEFINES`), a default when it asks one or a contrast when
    it asks a difference (:data:`STATES`). A default counts when the sentence names something
    the question names besides "default": asked "When is the value of a default argument
    determined?", "The relative location of the label ... defaults to 1" is another thing's
    (asymptote-doc's asy-51 cited it as a finding).

    Example:
        >>> from app.llm.offline.words import stems
        >>> leads("Django uses PBKDF2 for passwords by default.",
        ...       stems("How are passwords hashed by default?"))
        2.0
        >>> leads("Passwords are hashed.", stems("How are passwords hashed by default?"))
        1.0
        >>> leads("The location of the label defaults to 1.",
        ...       stems("When is the value of a default argument determined?"))
        1.0
    """
    if defines_asked(text, question):
        return DEFINES
    words = stems_of(text)
    if asks_difference(question) and contrasts(text, words, question):
        return STATES
    return STATES if asks_default(question) and says_default(text) and (
        words & question) - _DEFAULT else 1.0


def entry_stems(question: str) -> frozenset[str] | None:
    """The stems of the words of ``question`` that may name a reference entry, when not all
    may: a question asking how to do a task names entries only by the words it writes as names
    (:func:`workers.sources.asking.entry_words`: "How do I build only static libraries?" is
    not about Libtool's ``build`` variable, trial 112, F1); None for any other question.

    Example:
        >>> entry_stems("How do I build static libraries?"), entry_stems("What is build?")
        (frozenset(), None)
    """
    if not asks_task(question):
        return None
    return frozenset(stem(word) for word in marked_words(question))


def code_stems(question: str) -> dict[str, str]:
    """The stems of the question's words written as code (a call ``orient()``, an option
    ``-nosafe``, "the orient function": :func:`workers.sources.names.code_words`), each with
    its word: a sentence has such a stem only when it has that whole word (Asymptote's
    "The default page orientation is Portrait" answered "What does the orient function
    return?", its "orientation" cut to the same stem).

    Example:
        >>> code_stems("What does the orient function return?")
        {'orient': 'orient'}
        >>> sorted(code_stems("What does the -keep-going option do?").items())
        [('going', '-keep-going'), ('keep', '-keep-going')]
    """
    words = {stem(word): word for word in code_words(name_keys(question))}
    for option in written_options(question):  # "-keep-going": its words are the option's
        if "-" in option.lstrip("-"):
            words.update((stem(part), option.lower()) for part in option.lstrip("-").split("-"))
    return words


def _missing(sentence: Sentence, code: Mapping[str, str]) -> frozenset[str]:
    """The code stems (:func:`code_stems`) ``sentence`` has only as part of another word, or
    only apart from the option of several words they belong to (a task's "note errors but keep
    going" is not Ant's ``-keep-going``, trial 78). Not its entry's name, which its label
    writes (an entry's first sentence has its stems: Vim's 'smartcase' entry's "Override the
    'ignorecase' option ..." lost the name asked and scored below the entry's notes, trial 126,
    F1)."""
    lowered = sentence.text.lower()
    return frozenset(s for s, word in code.items() if s in sentence.stems - sentence.entry and not (
        writes_option(lowered, word) if word.startswith("-")
        else re.search(rf"(?<!\w){re.escape(word)}(?!\w)", lowered)))


def score(sentence: Sentence, question: frozenset[str], boost: frozenset[str],
          code: Mapping[str, str] | None = None,
          entries: frozenset[str] | None = None) -> float:
    """Relevance to the question, multiplied up by the schema words the sentence contains, or
    the heading it sits under (a sentence of a "Limitations" section answers a caveats field).

    Relevance is the sentence's own overlap with the question plus up to 2 for how much of the
    question its passage covers (a sentence of an on-topic passage is on topic even when it
    repeats none of the question's words), lightly normalised for sentence length. A symbol the
    question asks (``<=``, :func:`~app.llm.offline.words.asked_stems`) counts as its word when
    the sentence writes it whole (:func:`~workers.sources.operators.writes_symbol`), and a
    sentence it leads as a label ("<=: message arrival.") is its entry's (trial 117, F6), as is
    one under a heading naming a thing by its kind (:data:`_KINDS`) in the question's words
    ("12. The save command" for "What does the save command do in an Exim filter file?",
    trial 117, F5; "Rollback Journal" is none for a question on WAL's advantages). A word the
    question writes as code (``code``, :func:`code_stems`) counts for neither unless the
    sentence has it whole. A sentence of the entry the question names counts
    :data:`ASKED_ENTRY` times: one whose entry's stems are among ``entries`` (the stems of the
    words that may name an entry, :func:`entry_stems`; None: the question's).
    """
    if code and (sentence.stems | sentence.context) & code.keys():
        question = question - _missing(sentence, code)
    symbols = [s for s in _symbols(question) if writes_symbol(sentence.text, s)]
    own = _own(sentence, question) + len(symbols)
    covered = len(sentence.context & question) / len(question) if question else 0.0
    relevance = (own + 2 * covered) / math.log2(2 + len(sentence.stems) / 8)
    section = sentence.opens or sentence.section  # not a "Changelog" label under it
    if (sentence.entry and sentence.entry <= (question if entries is None else entries)) or (
            section <= question and section & _KINDS
            and section - _KINDS) or (  # "The save command": a thing by its kind
            _of_owner(sentence, question)):
        relevance *= ASKED_ENTRY
    else:
        relevance *= leads(sentence.text, question)
    if any(re.match(rf"\s*{re.escape(s)}:\s", sentence.text) for s in symbols):  # "<=: ..."
        relevance *= ASKED_ENTRY
    if sentence.leans:
        relevance *= LEANS_BACK
    return relevance * (1 + len((sentence.stems | sentence.heading) & boost))


def _own(sentence: Sentence, question: frozenset[str]) -> float:
    """How many of the question's stems ``sentence`` names, counting its section heading's
    when it opens a section headed by all the question's words (:attr:`Sentence.opens`:
    "Sometimes it is useful to be allowed to invoke more than one subcommand in one go." under
    "Multi Command Chaining", for "What is multi command chaining?", trial 128, F2), less so
    the further into the opening paragraph it is (:attr:`Sentence.opening`): the first
    sentence is the surest to speak of the heading."""
    own = sentence.stems & question
    if question and question <= sentence.opens:
        return len(own) + len(question - own) / (1 + sentence.opening)
    return len(own)


def _of_owner(sentence: Sentence, question: frozenset[str]) -> bool:
    """Whether ``sentence`` names the thing a question asks of another, under the section of
    that other: asked "What does the maxdepth option of the toctree directive do?", the
    directive's own "A numeric maxdepth option may be given to indicate the depth of the tree
    ..." under ``.. toctree::`` (its section's words are the question's, and it names the rest
    of the question but the kinds of thing) was no finding, a remark of another page naming
    both words leading (trial 125, leftover 1). Only of a question naming a kind of thing
    (option, directive, ...) and a section headed by one name (an entry's): "1.3.11. Suggested
    cache size" is no owner of a default, nor Asymptote's ``fill`` of a region."""
    rest = question - sentence.section - _KINDS
    return (len(sentence.section - _KINDS) == 1 and sentence.section <= question
            and bool(question & _KINDS) and bool(rest) and rest <= sentence.stems)


@lru_cache(maxsize=64)
def _symbols(question: frozenset[str]) -> tuple[str, ...]:
    """The symbols among a question's stems (:func:`app.llm.offline.words.asked_stems`)."""
    return tuple(word for word in question if asked_symbols(word) == (word,))


def select(
    sentences: Sequence[Sentence],
    question: frozenset[str],
    boost: frozenset[str],
    bounds: tuple[int, int],
    exclude: set[str],
    code: Mapping[str, str] | None = None,
    entries: frozenset[str] | None = None,
) -> list[Sentence]:
    """The best sentences for one field, between ``bounds`` items.

    When the field's descriptions carry content words (``boost``), only sentences containing some of
    them (or under a heading that does) qualify (so a caveats list holds cautionary sentences);
    otherwise every relevant sentence does. Of the qualifying ones, those scoring at least half the
    best are taken, up to the maximum; the best of the rest top the list up to the minimum. Ties go
    to the higher-ranked passage, then to reading order.
    """
    low, high = bounds
    pool = [s for s in sentences if s.text not in exclude]
    if not pool or high <= 0:
        return []
    ranked = sorted(
        ((score(s, question, boost, code, entries), s) for s in pool),
        key=lambda pair: (-pair[0], pair[1].rank, pair[1].position),
    )
    qualified = [(value, s) for value, s in ranked if value > 0]
    if boost:
        # Sentences that say what the field asks for; when none does, only the minimum is
        # given (the most relevant sentences), rather than a list of what was not asked for.
        qualified = [(value, s) for value, s in qualified if (s.stems | s.heading) & boost]
    # a definition (or a default asked) leads, but the others' share is weighed against the
    # best as it stands without its factor: else one doubled definition left out every other
    # finding (an MCP tool's answer beside the corpus's definition of the relay was never quoted)
    best = max((value / leads(s.text, question) for value, s in qualified[:1]), default=0.0)
    chosen = [s for value, s in qualified if value >= best / 2][:high]
    for _, s in ranked:
        if len(chosen) >= low:
            break
        if s not in chosen:
            chosen.append(s)
    exclude.update(s.text for s in chosen)
    return chosen

