"""How a topic, or a phrase of one, is asked as a question a person would ask (issue 19): the
text's shape picks the question word.

* a question is asked as it is ("How do I retry?");
* a request to explain ("explain checkpointers", "describe how X works") asks what it requests
  ("What are checkpointers?", "Can you describe how X works?");
* a wish ("I want to X", "I want the axes to be ...") asks how ("How do I X?", "How do I get
  the axes to be ...?");
* a verb phrase, an instruction ("customise the serialiser", "Copy all checkpoints ...") asks
  how to do it ("How do I customise the serialiser?");
* a docstring's verb ("Generates a JSON schema ...", "Raised when ...") asks what does it
  ("What generates a JSON schema ...?", "What is raised when ...?");
* a statement ("Every object has an identity") is no question and is kept as it is: wrapped in
  "What is ...?" it read as a garbled template;
* a name or noun phrase asks what it is ("What is a retry policy?", "What are reserved classes
  of identifiers?": the number is its head noun's, the word before its first preposition).

Pure text functions with a small closed vocabulary (no tagger: deterministic and fast); a word
that is a noun as often as a verb ("retry", "stream") starts a verb phrase only when an object
follows it ("resume *a* graph", not "retry policy").
"""

from __future__ import annotations

import re

from app.research.verb_words import ALSO_NOUNS as _ALSO_NOUNS
from app.research.verb_words import VERBS as _VERBS

__all__ = ["LONG_PHRASE", "QUESTION_START", "ask", "is_long", "is_name", "is_verb", "requested",
           "second_person", "shape"]

LONG_PHRASE = 7
"""A phrase of this many words or more is a sentence or an instruction, not a name."""

QUESTION_START = re.compile(
    r"^(?:what|how|why|when|where|which|who|whom|whose|can|could|should|would|will|is|are|"
    r"does|do|did|was|were|has|have)\b",
    re.IGNORECASE,
)
"""A question's first word."""
_AUX = frozenset(
    "is are was were has have had can cannot could will would should must may might does do "
    "did shall isn't aren't doesn't don't can't won't wasn't".split())
_RELATIVE = frozenset("that which who whom whose what where when".split())
_OBJECT_START = frozenset(
    "a an the my your our their its this that these those all each every some any one two "
    "three several multiple many more no another it them me us up out off down back away over "
    "into onto".split())
_REQUEST = re.compile(
    r"^(?:please\s+)?(?P<verb>explain|describe|define|summari[sz]e|list|outline|tell\s+me\s+about|"
    r"tell\s+me|show\s+me|give\s+me|talk\s+about)\s+(?!of\b)(?P<rest>.+)$",
    re.IGNORECASE,
)
_WISH = re.compile(
    r"^(?:i\s+(?:want|need|would\s+like|'d\s+like|wish)|i'd\s+like|help\s+me|show\s+me\s+how|"
    r"how\s+to)\s+(?:to\s+)?(?P<rest>.+)$",
    re.IGNORECASE,
)
_DETERMINERS = frozenset("a an the this these those every each all some any".split())
_JOINS = frozenset("and or nor vs vs. versus".split())
_EMBEDDED = re.compile(r"^(?:how|why|what|when|where|which|whether|if|who)\b", re.IGNORECASE)
_PARTICIPLE_NEXT = frozenset(
    "when if by after before to during while for whenever unless once on in".split())
_PREPOSITION = re.compile(
    r"\s(?:of|for|in|on|with|without|from|to|into|by|at|about|between|under|over|that|which|"
    r"when|where|who|during|across|through|within|using|after|before)\s", re.IGNORECASE)


_PRONOUN_I = re.compile(
    r"(^|\b(?:do|did|can|could|should|would|will|shall|may|might|must|am|if|when|where|how|why|"
    r"what|so|and|but|then|once|until|unless|before|after|that)\s+)i(?=\s|'(?:m|ve|d|ll)\b)",
    re.IGNORECASE,
)


def capital_i(text: str) -> str:
    """``text`` with the pronoun "i" written "I" where a person asks about themselves (after an
    auxiliary or a conjunction, or first), so a topic typed in lower case does not give a
    heading "How do i retry?"; a variable named ``i`` elsewhere is left alone.

    Example:
        >>> capital_i("how do i retry"), capital_i("What does i hold in the loop?")
        ('how do I retry', 'What does i hold in the loop?')
        >>> capital_i("i'm stuck: can i resume?")
        "I'm stuck: can I resume?"
    """
    return _PRONOUN_I.sub(r"\1I", text)


def _words(text: str) -> list[str]:
    return text.split()


def _bare(word: str) -> str:
    """A word lower-cased, without the punctuation around it."""
    return word.strip("\"'`()[]{},;:.!?").lower()


def _is_verb(word: str) -> bool:
    """Whether ``word`` can start an imperative: a known verb, or a verb by its ending
    ("customise", "serialize", "simplify"); never an identifier with a capital inside
    (``DeflateBufferSize`` ends in "ize": "DeflateBufferSize default" was planned as "How do I
    DeflateBufferSize default?")."""
    if re.search(r"[a-z][A-Z]", word):
        return False
    w = _bare(word)
    return w in _VERBS or (len(w) >= 7 and w.endswith(("ise", "ize", "ify")))


_INTRANSITIVE = frozenset(
    """listen work go come respond talk speak point bind behave appear fail crash hang expire
    match resume continue proceed happen depend rely""".split())


def is_verb(word: str) -> bool:
    """Whether ``word`` can be a verb's base form: one :func:`_is_verb` knows, a verb that
    takes no object ("listen", "work") or one by its ending ("terminate"). What ends a
    causative's clause ("make Varnish *listen*") and follows an infinitive's "to".

    Example:
        >>> [is_verb(w) for w in ("listen", "terminate", "send", "port", "Varnish")]
        [True, True, True, False, False]
    """
    w = _bare(word)
    return (_is_verb(word) or w in _INTRANSITIVE
            or (len(w) >= 6 and w.endswith("ate") and word[:1].islower()))


_ATE_VERB = re.compile(r"[a-z]{4,}ate")
"""A word that may be a verb by its "-ate" ending ("automate", "truncate") or a noun
("template", "certificate"): an instruction's verb only before a determiner. Trial 127, F5:
"automate an ssh login with pexpect" was asked "What is automate an ssh login with pexpect?"."""


def _verb_phrase(words: list[str]) -> bool:
    """Whether ``words`` are an instruction: a verb, then its object (a verb also used as a
    noun needs an object that opens with an article, a pronoun or a particle)."""
    if (len(words) >= 4 and _bare(words[1]) in ("and", "or") and _is_verb(words[0])
            and words[0][:1] not in "`\"'" and _verb_phrase(words[2:])):
        return _bare(words[3]) in _OBJECT_START  # "interrupt and resume a graph"
    if len(words) >= 2 and not _is_verb(words[0]) and _ATE_VERB.fullmatch(words[0]):
        return _bare(words[1]) in _DETERMINERS  # "automate an ssh login"
    if (len(words) < 2 or not _is_verb(words[0]) or words[0][:1] in "`\"'"
            or words[0].endswith(",") or _bare(words[1]) in _JOINS):
        return False  # "Send or Command", "Send, Command and interrupt": names
    first = _bare(words[0])
    if first in _ALSO_NOUNS or not re.fullmatch(r"[a-z]+", first.lower()):
        return _bare(words[1]) in _OBJECT_START
    return True


def _base_of_gerund(word: str) -> str | None:
    """The verb a gerund is made of ("customising" -> "customise", "running" -> "run"), when
    it is one :func:`_is_verb` knows, else None."""
    w = _bare(word)
    if not w.endswith("ing") or len(w) < 6:
        return None
    stem = w[:-3]
    for base in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""):
        if base and _is_verb(base):
            return base
    return None


def _instruction(text: str) -> str | None:
    """``text`` as an instruction in the verb's base form ("customising the serialiser",
    "to customise the serialiser" -> "customise the serialiser"), or None."""
    words = _words(text)
    if len(words) >= 3 and _bare(words[0]) == "to":
        words = words[1:]
    base = _base_of_gerund(words[0]) if words else None
    if base:
        words = [base, *words[1:]]
    return " ".join(words) if _verb_phrase(words) else None


def _third_person(words: list[str]) -> bool:
    """A docstring's "Generates a JSON schema ...": a known verb with an "s", then an object."""
    if len(words) < 2:
        return False
    first = _bare(words[0])
    stem = first[:-2] if first.endswith(("sses", "shes", "ches", "xes", "zes")) else first[:-1]
    return first.endswith("s") and stem in _VERBS and _bare(words[1]) in _OBJECT_START


def _participle(words: list[str]) -> bool:
    """A docstring's "Raised when ...", "Used to ...": a past participle, then a clause."""
    return (len(words) >= 3 and _bare(words[0]).endswith("ed")
            and _bare(words[1]) in _PARTICIPLE_NEXT and words[0][:1].isalpha())


def _statement(words: list[str]) -> bool:
    """Whether ``words`` state something: a verb "be", "have" or a modal after a subject, and
    not in a relative clause ("a type *that will* accept ...": a name), or "Note that ..."."""
    if len(words) >= 2 and _bare(words[0]) == "note" and _bare(words[1]) == "that":
        return True
    for n, word in enumerate(words[1:], start=1):
        if _bare(word) in _AUX:
            return _bare(words[n - 1]) not in _RELATIVE
    return False


def shape(text: str) -> str:
    """The shape of a topic or phrase: ``"question"``, ``"request"`` ("explain X"), ``"wish"``
    ("I want to X"), ``"verb"`` (an instruction), ``"third"`` ("Generates X"),
    ``"participle"`` ("Raised when X"), ``"statement"``, ``"long"`` (a long phrase of no shape
    above: kept as it is) or ``"name"`` (a name or noun phrase).

    Example:
        >>> [shape(t) for t in ("customise the serialiser", "retry policy", "explain Send")]
        ['verb', 'name', 'request']
    """
    text = " ".join(text.split()).rstrip("?.! ")
    words = _words(text)
    if _WISH.match(text):
        return "wish"
    if QUESTION_START.match(text):
        return "question"
    if _REQUEST.match(text):
        return "request"
    if _instruction(text):
        return "verb"
    if _third_person(words):
        return "third"
    if _participle(words):
        return "participle"
    if _statement(words):
        return "statement"
    return "long" if is_long(text) else "name"


def is_long(text: str) -> bool:
    """Whether a phrase reads as a sentence or an instruction ("Add a conditional edge from the
    starting node to ...", "Every object has an identity"), not a name: :data:`LONG_PHRASE`
    words, or five and more opening with a capitalised word (not an identifier such as
    ``RetryPolicy``): a sentence whose verb no "be", "have" or modal marks ("A mapping
    object maps hashable values"); "The \"return\" statement", "Send or Command" are names."""
    words = text.split()
    sentence = bool(words) and re.fullmatch(r"[A-Z][a-z]+", words[0]) is not None
    return len(words) >= LONG_PHRASE or (sentence and len(words) >= 5)


def is_name(text: str) -> bool:
    """Whether ``text`` names a thing (:func:`shape` ``"name"``): what a comparison's part and
    a "What is ...?" facet must be.

    Example:
        >>> is_name("asyncio.gather"), is_name("Validate an IPv4"), is_name("StateGraph: which")
        (True, False, False)
    """
    return shape(text) == "name" and not re.search(r"[:;,?]", text)


def _lower_first(text: str) -> str:
    """``text`` with its first letter lower-cased when its first word is a plain word
    ("Copy all" -> "copy all"; "RetryPolicy", "SQLite", "I" unchanged)."""
    first = text.split(" ", 1)[0]
    if re.fullmatch(r"[A-Z][a-z'-]+", first):
        return text[:1].lower() + text[1:]
    return text


def _plural(text: str) -> bool:
    """Whether a noun phrase is plural: its head noun (the last word before its first
    preposition: "reserved *classes* of identifiers", "in-memory *store* for bytes") ends in a
    plural "s", and is no identifier (``add_messages``, ``Send``)."""
    if re.search(r"\s(?:and|or)\s|,", text) and " or " not in text:
        return True  # "Send and Command", "pros and cons"
    if len(text.split()) > 1 and text.upper() == text:  # "CHECKPOINTER PENDING WRITES"
        text = text.lower()  # is asked as "checkpointer pending writes" is
    head = _PREPOSITION.split(f" {text} ", maxsplit=1)[0].split()
    last = head[-1] if head else ""
    identifier = any(c in last for c in "_.()`") or last != last.lower()
    return (last.endswith("s") and not last.endswith(("ss", "us", "is")) and not identifier
            and len(last) > 2 and not _no_plural(last))


_SINGULAR_S = frozenset("news series species lens chaos canvas alias bias atlas gas".split())


def _no_plural(word: str) -> bool:
    """Whether ``word``, ending in "s", is no plural: an abbreviation with no vowel before its
    "s" ("https", "tls", "dns", "nfs") or a noun that is singular ("series", "alias"). A
    keyword phrase "redirect scheme https" is one thing: it was asked "What are redirect
    scheme https?" (trial 113, new users on HAProxy).

    Example:
        >>> [_no_plural(w) for w in ("https", "dns", "alias", "writes", "rules")]
        [True, True, True, False, False]
    """
    w = word.lower()
    return w in _SINGULAR_S or not re.search(r"[aeiouy]", w[:-1])


def requested(text: str) -> str | None:
    """What a request to explain asks about ("explain *how X works*"), or None."""
    match = _REQUEST.match(" ".join(text.split()))
    return match.group("rest") if match else None


def ask(text: str) -> str:
    """``text`` asked as a question a person would ask (see the module's docstring); a
    statement or a long phrase of no known shape is kept as it is (capitalised).

    Example:
        >>> ask("customise the serialiser"), ask("explain checkpointers")
        ('How do I customise the serialiser?', 'What are checkpointers?')
        >>> ask("checkpointer pending writes"), ask("how do I retry")
        ('What are checkpointer pending writes?', 'How do I retry?')
        >>> ask("Every object has an identity, a type and a value")
        'Every object has an identity, a type and a value'
    """
    text = " ".join(text.split()).rstrip("?.! ")
    kind = shape(text)
    if kind == "question":
        return text[:1].upper() + text[1:] + "?"
    if kind == "wish":
        rest = _WISH.match(text).group("rest")  # type: ignore[union-attr]
        if _verb_phrase(_words(rest)) or _bare(rest.split()[0]) in _VERBS:
            return f"How do I {_lower_first(rest)}?"
        return f"How do I get {rest}?"  # "I want both axes to be ..."
    if kind == "request":
        match = _REQUEST.match(text)
        verb, rest = match.group("verb"), match.group("rest")  # type: ignore[union-attr]
        if _EMBEDDED.match(rest):
            return f"Can you {verb.lower()} {rest}?"
        if shape(rest) in ("name", "question"):
            return ask(rest)
        return f"Can you {text[:1].lower()}{text[1:]}?"
    if kind == "verb":
        return f"How do I {_lower_first(_instruction(text) or text)}?"
    if kind == "third":
        return f"What {_lower_first(text)}?"
    if kind == "participle":
        return f"What is {_lower_first(text)}?"
    if kind in ("statement", "long"):
        return text[:1].upper() + text[1:]
    if text and _bare(text.split()[0]) in _DETERMINERS:  # "The return statement": "the"
        text = text[:1].lower() + text[1:]
    plural = _plural(text)
    if not plural and _of_phrase(text):  # "retry policy of a graph node": "the retry ..."
        text = f"the {text}"
    return f"What {'are' if plural else 'is'} {text}?"


def _of_phrase(text: str) -> bool:
    """Whether a singular noun phrase is a common noun of something ("retry policy of a graph
    node"), which English asks about with "the" ("What is the retry policy of a graph
    node?"): its first word a plain lower-case word, no determiner, and
    "of" after its head. A name ("RetryPolicy of X", "asyncio.gather") is asked as it is."""
    words = text.split()
    first = _PREPOSITION.search(f" {text} ")
    return (len(words) >= 3 and re.fullmatch(r"[a-z]+", words[0]) is not None
            and words[0] not in _DETERMINERS and first is not None
            and first.group().strip().lower() == "of")


_FIRST_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
                 "we": "you", "us": "you", "our": "your", "ours": "yours",
                 "ourselves": "yourselves"}


def second_person(phrase: str) -> str:
    """``phrase`` as asked of "you": the asker's "my" is "your" ("How do you send all your
    outgoing mail?", not "... all my outgoing mail?", trial 73, F9).

    Example:
        >>> second_person("send all my outgoing mail through our ISP")
        'send all your outgoing mail through your ISP'
        >>> second_person("retry my I/O on US letter paper")
        'retry your I/O on US letter paper'
    """
    return re.sub(r"\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself|[Ww]e|[Uu]s|[Oo]urs?|[Oo]urselves)\b"
                  r"(?![/'-])",  # not "I/O"
                  lambda m: _FIRST_PERSON[m.group().lower()], phrase)
