"""Whether a phrase of a topic makes a facet a person would ask (:func:`app.research.facets.
phrase_facets`): a thing named, not a clause, a value or a verb phrase cut from its complement.
Pure text functions.
"""

from __future__ import annotations

import re

from app.research.phrasing import shape
from app.research.topics import main_question

__all__ = ["CLAUSE_VERB", "POINTS_OUT", "asks_a_thing", "cut_from_complement", "infinitive",
           "names_a_thing"]


def asks_a_thing(phrase: str, asked: str) -> bool:
    """Whether ``asked``, the facet :func:`main_question` made of ``phrase``, asks about a
    thing the topic names ("What is an include tag?") or is the phrase's own question ("Who
    painted the ceiling?"). A phrase asked any other way reads as no thing: "ignore missing",
    the subject of "What does ignore missing do in an include tag?", was asked "How do I
    ignore missing do?" (trial 117, F7), and is not asked at all.

    Example:
        >>> asks_a_thing("ignore missing", "How do I ignore missing?")
        False
        >>> asks_a_thing("an include tag", "What is an include tag?")
        True
    """
    return shape(phrase) == "question" or re.match(r"What (?:is|are) ", asked) is not None


_COMPLEMENT = re.compile(r"^\s*(?:from|into|onto|in|to|of)\b", re.IGNORECASE)
"""A preposition that opens a verb's source, place or destination ("send my traffic *from*
http to https", "inject the store *into* tool arguments", "keep more commands *in* my history
file"), or what its object is of ("enable insertion *of* the X-Forwarded-For header" was asked
"How do you enable insertion?", trial 127, F6): the verb phrase before it is not whole."""
CLAUSE_VERB = re.compile(r"\s+(?:work|works|do|does|behave|behaves|mean|means)$",
                          re.IGNORECASE)
"""The verb a "how do X work?" clause ends with: the first phrase of "How do counting options
work for verbosity flags?" was asked "How do you counting options work?" (trial 114, F12); its
subject, "counting options", is what the facet asks about."""
_CAUSATIVE = frozenset("make let have help get".split())


def cut_from_complement(phrase: str, subject: str) -> bool:
    """Whether the verb phrase ``phrase``, the first of ``subject``, is cut from its
    complement, so "How do you <phrase>?" asks half a question: the phrase after it is its
    source or destination (:data:`_COMPLEMENT`), or it ends in a verb of a causative whose
    complement was split off ("make Varnish listen" of "make Varnish listen on port 80" was
    asked "How do you make Varnish listen?", and "send my traffic" of "send my traffic from
    http to https" "How do you send your traffic?": trial 113, new users on Varnish), or it is
    a causative the rest of the subject still belongs to ("How do you make zsh keep more
    commands?" of "... in my history file" searched zsh's ``command`` builtin, trial 115, F2:
    a facet that drops the question's own object words is no facet).

    Example:
        >>> cut_from_complement("make Varnish listen", "make Varnish listen on port 80")
        True
        >>> cut_from_complement("send my traffic", "send my traffic from http to https")
        True
        >>> cut_from_complement("make zsh keep more commands",
        ...                     "make zsh keep more commands in my history file")
        True
        >>> cut_from_complement("keep pending writes",
        ...                     "keep pending writes across a process crash")
        False
    """
    from app.research.phrasing import is_verb

    words = phrase.split()
    rest = subject[len(phrase):] if subject.startswith(phrase) else ""
    causative = (len(words) >= 3 and words[0].lower() in _CAUSATIVE
                 and (is_verb(words[-1]) or bool(rest.strip())))
    return causative or bool(_COMPLEMENT.match(rest))


_NOT_A_NAME = re.compile(
    r"\b(?:i|me|my|you|your|we|our|one\s+another|be|is|are|was|were|been|not|can|cannot|"
    r"will)\b|^\w+ing\s+(?:to|the|a|an|of|one|my|your)\b", re.IGNORECASE)
"""Words of a clause, not a name: a pronoun, a verb "be", a negation, or a gerund with its
object ("writing to files"; "string functions" is a name)."""
POINTS_OUT = re.compile(r"\b(?:it|its|they|them|their|theirs|these|those)\b", re.IGNORECASE)
"""A pronoun that points at another phrase of the topic: a phrase holding one is no question
of its own ("How do I send them to the browser?" of "compress responses before sending them
to the browser" searched AJP's packets and led the Answer with them)."""


def names_a_thing(phrase: str) -> bool:
    """Whether ``phrase`` asked as "What is ...?" reads as a question a person would ask: a
    question already ("Who painted the ceiling"), or a name ("a hatch pattern"), not a clause
    ("my file runs", "a string be detected", "overwriting one another") nor a sentence kept as
    it is ("Function objects are created": no question at all), nor a clause's verb and its
    object (:func:`_verb_and_object`), nor a phrase with an aside in brackets ("What is a
    password (conversation)?", trial 127, F7). Found on the eval runs."""
    asked = shape(phrase) == "question"  # an instruction's clause is no thing to ask about
    return (main_question(phrase).endswith("?") and (asked or not _NOT_A_NAME.search(phrase))
            and (asked or not (_verb_and_object(phrase) or "(" in phrase))
            and not _A_VALUE.match(phrase) and not infinitive(phrase))


_DETERMINER = frozenset("a an the my your our its their this these those".split())
_BEFORE_DETERMINER = frozenset("""and or nor but vs versus than as like at to about over under
    via per against around among near all both half each every any some such what which quite
    rather only just even also not""".split())
"""Words a determiner may follow inside a noun phrase ("a file and the index", "all the
lines", "such a file"); after any other word past the first, it opens a verb's object."""


def _verb_and_object(phrase: str) -> bool:
    """Whether ``phrase`` holds, past its first word, a determiner after a word that takes no
    determiner in a noun phrase (:data:`_BEFORE_DETERMINER`): a clause's verb and its object.
    "How does a module ask the user for a password?" planned "What is a module ask the user?"
    (trial 127, F7); no verb list need know "ask".

    Example:
        >>> _verb_and_object("a module ask the user"), _verb_and_object("all the lines")
        (True, False)
        >>> _verb_and_object("the index and the cache"), _verb_and_object("the retry policy")
        (False, False)
    """
    words = [w.lower() for w in phrase.split()]
    return any(nxt in _DETERMINER and w.isalpha() and w not in _BEFORE_DETERMINER | _DETERMINER
               for w, nxt in zip(words[1:], words[2:], strict=False))


_A_VALUE = re.compile(r"^(?:(?:the|a|an)\s+)?(?:[a-z]+\s+)?[\d][\d.,:/-]*$")
"""A number, or a common noun and its number ("port 80", "line 12"): a value, no thing to ask
"What is port 80?" about (trial 113, new users on Varnish)."""


def infinitive(phrase: str) -> bool:
    """Whether ``phrase`` holds a verb after "to" ("Varnish to terminate HTTPS"): a clause cut
    from its verb, asked "What is Varnish to terminate HTTPS?" (trial 113, Varnish).

    Example:
        >>> infinitive("Varnish to terminate HTTPS"), infinitive("a path to a file")
        (True, False)
    """
    from app.research.phrasing import is_verb

    words = phrase.split()
    return any(w.lower() == "to" and is_verb(nxt) for w, nxt in zip(words, words[1:], strict=False))
