"""What a topic asks (issue 19, section 1): its kind (what / how / why / compare / default), its
subject without the question's wrapper, and the topic itself as the plan's first sub-question.

Pure text functions (no I/O): :mod:`app.research.plan` and :mod:`app.research.facets` build the
plan on them, and the report ranks its answer by :func:`topic_kind`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from app.research.default_asks import ASKS_DEFAULT, DEFAULT_AFTER, default_after
from app.research.phrasing import (
    LONG_PHRASE,
    QUESTION_START,
    ask,
    capital_i,
    is_long,
    is_name,
    requested,
    shape,
)
from app.research.shared_context import shared_context
from app.research.text import BIDI_CONTROLS, utf8_problem
from workers.sources.query import query_terms

__all__ = [
    "LONG_PHRASE", "MAX_COMPARED", "MAX_QUESTION_CHARS", "MAX_TOPIC_CHARS", "SERVED_EXAMPLE",
    "Comparison",
    "compare_parts", "comparison", "is_long", "main_question", "plain_topic", "question_problem",
    "shared_context", "subject", "topic_kind", "topic_problem",
]

MAX_TOPIC_CHARS = 500
"""The longest topic a run takes (whitespace collapsed)."""

MAX_QUESTION_CHARS = 2 * MAX_TOPIC_CHARS
"""The longest sub-question a plan may hold: a plan wraps its topic in a question ("How do I
...?"), so a topic of the longest length gives a longer question (else a 500-character
topic was taken, then its own plan refused for 501)."""

# A topic must look like what it is in the report, the thread id and the database: no bidi
# control (BIDI_CONTROLS).


_EXAMPLE = "e.g. research \"how are failed downloads retried?\""
"""The example a refused topic's line gives: a question in a user's words about no one corpus
(it named the package docs' "checkpointer pending writes" on R's manuals: trial 49, F5)."""

SERVED_EXAMPLE = 'e.g. input {"topic": "how are failed downloads retried?"}'
"""The example a served run's refused topic gives: its client sends an input, not a command
line (a server client was told ``research "..."``: new-user trial N, N6)."""


def topic_problem(topic: str, *, limit: int = MAX_TOPIC_CHARS, noun: str = "topic",
                  example: str = _EXAMPLE) -> str | None:
    """What makes ``topic`` (whitespace collapsed) no topic to research, in one line, or None:
    empty, longer than :data:`MAX_TOPIC_CHARS`, not valid UTF-8 (a served run's JSON may
    carry a lone surrogate), with control or bidi characters, with no letter
    or digit, or with no word a search looks for (one letter, only words like "what" and "the":
    :func:`workers.sources.query.query_terms`). The CLI and the ``plan`` node (a served run's
    input) both ask it; :func:`question_problem` asks it of a sub-question (``limit``, and
    ``noun`` in the line, are then the question's). ``example`` ends the line of an empty or
    wordless topic: the CLI's command, or :data:`SERVED_EXAMPLE` for a served run's input.

    Example:
        >>> topic_problem("x")[:30]
        "the topic 'x' has no word to s"
        >>> topic_problem("checkpointer pending writes") is None
        True
    """
    if not topic:
        return f"the {noun} is empty; say what to research, {example}"
    if len(topic) > limit:
        return f"the {noun} has {len(topic)} characters; the limit is {limit}"
    if where := utf8_problem(topic):  # a lone surrogate: a byte that was not UTF-8
        return f"the {noun} is not valid UTF-8 ({where})"
    if any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in topic):
        return f"the {noun} contains control characters"
    if not any(ch.isalnum() for ch in topic):
        return f"the {noun} has no letters or digits; say what to research"
    if not query_terms(topic):  # the words a corpus search looks for: "x", "what is it" has none
        return (f"the {noun} {topic!r} has no word to search for (single letters and words "
                f"like 'what' or 'the' are not searched); say what to research, {example}")
    return None


def question_problem(question: str) -> str | None:
    """What makes ``question`` no sub-question to research, in one line, or None: what
    :func:`topic_problem` asks of a topic, with :data:`MAX_QUESTION_CHARS` as its limit. The
    plan check and the LLM planner's clean-up both ask it, so no plan the planner keeps is
    refused later.

    Example:
        >>> question_problem("How do I keep " + "pending writes " * 33 + "?") is None  # 510
        True
        >>> question_problem("what the")[:38]
        "the question 'what the' has no word to"
    """
    return topic_problem(" ".join(question.split()), limit=MAX_QUESTION_CHARS, noun="question")

_COMPARE_LEAD = re.compile(
    r"^(?:(?:what\s+(?:is|are)|what's)\s+the\s+(?:main\s+|key\s+|real\s+)?differences?\s+between|"
    r"(?:is\s+there\s+(?:a|any)|are\s+there\s+(?:any\s+)?)\s*differences?\s+between|"
    r"(?:the\s+)?differences?\s+between|compare|comparing|(?:a\s+)?comparison\s+(?:of|between)|"
    r"(?:when\s+)?should\s+(?:i|you|we)\s+(?:use|choose|pick|prefer)|"
    r"(?:choosing|choose|pick|picking)\s+between)\s+",
    re.IGNORECASE,
)
"""What opens a comparison's question around the things it compares."""
_COMPARE_HOW = re.compile(
    r"^(?:how\s+)?(?:do|does|is|are)\s+(?P<body>.+?\s+(?:compared?\s+(?:to|with)|differs?\s+from|"
    r"different\s+from)\s+.+|.+?(?=\s+(?:differ|compare|different)$))", re.IGNORECASE)
"""A comparison asked with a verb around the things: "How does A differ from B", and asked
yes or no as well, "Is A different from B", "Do A and B differ" (trial 113: "Is add_callback
different from spawn_callback?" was planned as one sub-question and answered on one side)."""
_COMPARE_TAIL = re.compile(r"\s+(?:differ|compare|different|differences?)$", re.IGNORECASE)
_CLAUSE_AROUND = re.compile(
    r"^(?:which|what)\b[^,:;]*[,:;](?:\s+|$)|"
    r"\s*[,:;]\s*(?:(?:and|but)\s+(?=which|when|should))?(?:which|what|how|when|should)\b.*$",
    re.IGNORECASE)
"""A question clause before or after the things compared: "Which is faster, *A or B*",
"*A or B*: which one?", "*A and B*, and when should I use each?". A comma with no space after
it ends no clause: it is inside a token ("F,2h,15m", an Exim retry rule), so "What does
F,2h,15m mean in an exim retry rule?" compares nothing (it was planned "How do 2h and 15m mean
differ ...?", trial 117, F7)."""
_SEPARATOR = re.compile(
    r"\s*,(?:\s+|$)(?:and\s+|or\s+)?|\s+(?:vs\.?|versus|or|and|compared?\s+(?:to|with)|against|"
    r"differs?\s+from|different\s+from)\s+",
    re.IGNORECASE)
_CONTEXT = re.compile(r"\s+(?P<context>(?:in|for|within|inside|under|on|when)\s+.+)$",
                      re.IGNORECASE)
_NOT_A_PART = re.compile(
    r"\b(?:i|me|my|you|your|we|our|it|they|which|one|of|for|to|from|with|into|by|at|about|"
    r"if|that|this)\b", re.IGNORECASE)
"""A word that makes a phrase no thing to compare ("pros and *cons of* X", "*I* read and write
X", "X or Y: *which one*")."""
MAX_COMPARED = 3
"""The most things a comparison names ("asyncio.gather vs asyncio.wait vs asyncio.as_completed")."""


@dataclass(frozen=True)
class Comparison:
    """What a comparison topic compares (:func:`comparison`).

    Attributes:
        parts: the 2 to :data:`MAX_COMPARED` things compared, each whole: with the context a
            side shares with another (:func:`shared_context`: "--system" of "git config
            --global and --system" is "git config --system").
        context: where they are compared ("in LangGraph"), or "".
        written: the things as the topic lists them ("annotated", "lightweight tags"), which
            the comparison's question keeps; empty: ``parts``.
    """

    parts: list[str]
    context: str = ""
    written: list[str] = field(default_factory=list)

    @property
    def question(self) -> str:
        """The comparison asked: "How do A and B differ?", "How do A, B and C differ in X?"."""
        said = self.written or self.parts
        names = f"{', '.join(said[:-1])} and {said[-1]}"
        return f"How do {names} differ{' ' + self.context if self.context else ''}?"


def comparison(text: str) -> Comparison | None:
    """What ``text`` compares, or None: the things a "X vs Y", "X or Y: which one?", "What is
    the difference between X and Y in Z?", "A vs B vs C" or "A, B and C" topic names. Each
    thing must be a name (:func:`app.research.phrasing.is_name`) of at most four words with
    no pronoun or preposition: "Validate an IPv4 or IPv6 interface" and "How do I read and
    write X" compare nothing.

    Example:
        >>> comparison("MessageGraph or StateGraph: which one?").parts
        ['MessageGraph', 'StateGraph']
        >>> comparison("What is the difference between Send and Command in LangGraph?").question
        'How do Send and Command differ in LangGraph?'
        >>> comparison("What is the difference between merge, rebase and cherry-pick?").parts
        ['merge', 'rebase', 'cherry-pick']
        >>> comparison("Validate an IPv4 or IPv6 interface") is None
        True
        >>> comparison("Is add_callback different from spawn_callback?").parts
        ['add_callback', 'spawn_callback']
        >>> found = comparison("What's the difference between null=True and blank=True?")
        >>> found.parts, found.question
        (['null', 'blank'], 'How do null=True and blank=True differ?')
    """
    text = " ".join(text.split()).rstrip("?.! ")
    # the lead first: the commas of "between A, B and C" list the things, they end no clause
    text = _COMPARE_LEAD.sub("", text, count=1)
    text = _CLAUSE_AROUND.sub("", text, count=1).strip() or text
    how = _COMPARE_HOW.match(text)
    if how:
        text = how.group("body")
    text = _COMPARE_TAIL.sub("", _COMPARE_LEAD.sub("", text, count=1))
    context = ""
    found = _CONTEXT.search(text)
    if found and _SEPARATOR.search(text[:found.start()]):
        context, text = found.group("context"), text[:found.start()]
    parts = [" ".join(p.split()) for p in _SEPARATOR.split(text)]
    if len({p.casefold() for p in parts}) < 2 or not 2 <= len(parts) <= MAX_COMPARED:
        return None
    for part in parts:
        if (len(part.split()) > 4 or len(part) < 2 or _NOT_A_PART.search(part)
                or not is_name(part)):
            return None
    named = [_VALUED.sub(r"\g<name>\g<call>", p) for p in parts]  # "null=True": null
    whole = shared_context(named if len({n.casefold() for n in named}) == len(parts) else parts)
    return Comparison(whole, context, parts if whole != parts else [])


_VALUED = re.compile(r"^(?P<name>-{0,2}[A-Za-z_][\w.-]*)(?:=\S+|(?P<call>\()[^()\s]+(?=\)$))")
"""A thing compared written with a value or an argument: "null=True", ``--opt=val``,
``fetch(url)``. The thing is the name ("null", ``fetch()``): the docs' "null is purely
database-related, whereas blank is validation-related" named no "true" and was no contrast of
"null=True and blank=True" (trial 124, M3-F2); the question keeps them as written."""


_DANGLING = re.compile(r"^(?:(?:vs\.?|versus|or|and)\s+)+|(?:\s+(?:vs\.?|versus|or|and))+$",
                       re.IGNORECASE)


def plain_topic(text: str) -> str:
    """``text`` with a one-sided or self comparison made the plain topic it is: a comparison
    word with nothing on one side dropped ("Send vs" -> "Send", "vs reducers" -> "reducers"),
    and a thing compared with itself named once ("Send vs Send", "StateGraph vs StateGraph vs
    StateGraph" -> "Send", "StateGraph"). Not planned as "How do Send and
    Send differ?" and "What is Send vs?". Any other text as it is (spaces collapsed).

    Example:
        >>> plain_topic("Send vs"), plain_topic("vs reducers"), plain_topic("Send vs send")
        ('Send', 'reducers', 'Send')
        >>> plain_topic("Send vs reducers")
        'Send vs reducers'
    """
    text = " ".join(text.split())
    bare = _DANGLING.sub("", text.rstrip("?.! ")).strip() or text
    parts = [" ".join(p.split()) for p in _SEPARATOR.split(bare)]
    if (len(parts) >= 2 and len({p.casefold() for p in parts}) == 1
            and re.search(r"\s(?:vs\.?|versus)\s", bare, re.IGNORECASE)):
        return parts[0]
    return bare if bare != text.rstrip("?.! ") else text


def compare_parts(text: str) -> list[str]:
    """The things a comparison topic names (:func:`comparison`), or []."""
    found = comparison(text)
    return found.parts if found else []


MEASURES = ("long far much many often soon old big large small fast deep high tall wide heavy "
            "frequently").split()
ASKED_MEASURE = re.compile(rf"\bhow\s+({'|'.join(MEASURES)})\b", re.IGNORECASE)
""""How *long*", "how *far*", "how *many*": the word asks for a measure, which the answer
states ("90 minutes", "150 metres") without the word."""

_DOES = re.compile(r"^what\s+(?:does|do)\b.*\bdo\W*$", re.IGNORECASE)
""""What does X do?" asks what a thing does, whatever its name says: Jinja's *default* filter
(answered by a version note, its definition passed over as no default), a ``compare()``
function, a ``--default`` flag."""


def _asks(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """A kind's test by the words that ask it (``pattern``), not in a "What does X do?"."""
    return lambda text: not _DOES.match(text) and pattern.search(text) is not None


_KINDS = (
    ("limitation", _asks(re.compile(
        r"\b(?:limitations?|caveats?|drawbacks?|downsides?|pitfalls?|gotchas?|"
        r"disadvantages?|restrictions?|shortcomings?)\b", re.IGNORECASE))),
    ("default", _asks(ASKS_DEFAULT)),
    ("default", lambda text: default_after(text)),
    ("compare", _asks(re.compile(r"\b(?:vs\.?|versus|differ(?:s|ence|ences)?|compared?)\b",
                                 re.IGNORECASE))),
    ("compare", comparison),  # names the things it compares: "MessageGraph or StateGraph?"
    ("measure", re.compile(rf"^(?:how\s+(?:{'|'.join(MEASURES)})\b|when\b)",
                           re.IGNORECASE).search),
    ("why", re.compile(r"^why\b", re.IGNORECASE).search),
    ("how", re.compile(r"^(?:how\b|can\s+i\b|what\s+steps\b)", re.IGNORECASE).search),
    ("what", re.compile(r"^(?:what|which|who)\b", re.IGNORECASE).search),
)
_WRAPPER = re.compile(
    r"^(?:what\s+(?:is|are)\s+meant\s+by|what\s+(?:is|are|does|do)(?:\s+an?|\s+the)?|"
    r"how\s+(?:do|does|can|should)(?:\s+(?:i|you|we|one))?|how\s+(?:is|are|was|were)|how\s+to|"
    rf"how\s+(?:{'|'.join(MEASURES)})(?:\s+away)?\s+(?:do|does|did|is|are|was|were|should|can|"
    r"must|will)(?:\s+(?:i|you|we|one))?|"
    r"why\s+(?:does|do|is|are)|"
    r"explain|describe|tell\s+me\s+about)\s+",
    re.IGNORECASE,
)
_DEFAULT_OF = re.compile(
    r"^(?:what\s+is\s+)?(?:the\s+)?default(?:\s+(?:value|setting|mode|size))?\s+(?:of|for)\s+"
    r"(?:the\s+)?",
    re.IGNORECASE,
)
_LATER_QUESTION = re.compile(r"[,;:]\s+(?=" + QUESTION_START.pattern.lstrip("^") + ")",
                             re.IGNORECASE)


def _asked(text: str) -> str | None:
    """The question a topic asks, when it asks one: the whole text when it starts with a
    question word, the clause from a later one ("After an insert, *how do I get the id*"),
    else None (a phrase)."""
    if QUESTION_START.match(text):
        return text
    match = _LATER_QUESTION.search(text)
    clause = text[match.end():] if match else ""
    return clause if len(clause.split()) >= 3 else None  # "...; why?" names no subject


def topic_kind(topic: str) -> str:
    """The kind of question ``topic`` asks: ``"limitation"`` (limitations, caveats,
    drawbacks), ``"default"`` (a default value), ``"compare"`` (two or more things, by a word
    of comparison or by naming them: :func:`comparison`), ``"measure"`` (how long, far, many,
    often...: :data:`ASKED_MEASURE`; when), ``"why"``, ``"how"`` (a how-question,
    or an instruction or wish: "customise the serialiser"), ``"what"``, or ``"topic"`` for a
    name or a statement.

    Example:
        >>> [topic_kind(t) for t in ("Send vs reducers", "How do I retry?", "RetryPolicy")]
        ['compare', 'how', 'topic']
        >>> [topic_kind(t) for t in ("customise the serialiser", "What are the drawbacks of X?")]
        ['how', 'limitation']
        >>> [topic_kind(t) for t in ("How long do batteries charge?", "When is the census?")]
        ['measure', 'measure']
        >>> topic_kind("merge, rebase or cherry-pick, which one?")
        'compare'
        >>> [topic_kind(t) for t in ("What does the default filter do?", "What does compare() do?",
        ...                          "What does mkdir do by default?")]
        ['what', 'what', 'default']
    """
    text = plain_topic(topic)
    asked = _asked(text)
    # "explain how X works": how; but "A, B or C, which one?" asks how A, B and C differ
    if not (asked and asked != text and asked[:6].lower() == "which " and comparison(text)):
        text = asked or requested(text) or text
    if not _asked(text) and not comparison(text) and shape(text) in ("verb", "wish", "request"):
        text = ask(text)  # "customise X": "How do I customise X?"
    for kind, test in _KINDS:
        if test(text):
            return kind
    return "topic"


def subject(topic: str) -> str:
    """The topic without its question wrapper: "How do I resume a graph?" -> "resume a graph",
    "What is the default value of X?" -> "X", "What does the X determine?" -> "X"; a question
    after a context keeps the context: "After an insert, how do I get the id?" -> "get the id
    (after an insert)", so a facet still searches the topic's words."""
    text = " ".join(topic.split()).rstrip("?.! ")
    asked = _asked(text)
    if asked and asked != text:  # "After an insert, how do I get the id?": the context stays
        context = text[:len(text) - len(asked)].rstrip(",;: ")
        return f"{subject(asked)} ({context[:1].lower()}{context[1:]})"
    text = _DEFAULT_OF.sub("", text, count=1) or text
    bare = _WRAPPER.sub("", text, count=1).strip() or text
    return _without_verb(text, bare)


def _without_verb(text: str, bare: str) -> str:
    """``bare``, the subject of question ``text``, without the verb a "what does" or "how
    does" question ends with: "What does the embed argument of a Label determine?" asks about
    "embed argument of a Label" (any last word: after "the X" comes the verb; not when "do"
    stands inside, as in "the STRICT keyword do in a table"); "How does X work?" about X."""
    if (re.match(r"what\s+(?:does|do)\s+(?:an?|the)\s", text, re.IGNORECASE)
            and len(bare.split()) > 2
            and not re.search(r"\s(?:do|does)\s", bare, re.IGNORECASE)):
        return bare.rsplit(" ", 1)[0]
    if re.match(r"(?:what|how)\s+(?:does|do)\b", text, re.IGNORECASE):
        return re.sub(r"\s+(?:do|mean|work|does|behave)$", "", bare, flags=re.IGNORECASE)
    return bare


def main_question(topic: str) -> str:
    """The topic itself as a question: a question-shaped topic as asked (a "?" added), any
    other as :func:`app.research.phrasing.ask` asks it ("What is X?", "How do I X?"; a
    statement as it is).

    Example:
        >>> main_question("checkpointer pending writes"), main_question("how do i retry")
        ('What are checkpointer pending writes?', 'How do I retry?')
        >>> main_question("copy all checkpoints from one thread to another")
        'How do I copy all checkpoints from one thread to another?'
        >>> main_question("HostnameLookups default")
        'What is the default of HostnameLookups?'
    """
    text = capital_i(plain_topic(topic).rstrip("?.! "))
    if _asked(text):
        return text[:1].upper() + text[1:] + "?"
    if default_after(text):  # "HostnameLookups default": not "What is HostnameLookups default?"
        match = DEFAULT_AFTER.search(text)
        return f"What is the default of {text[:match.end('before')]}?" if match else text
    if topic.rstrip().endswith("?") and shape(text) in ("statement", "long"):
        return text[:1].upper() + text[1:] + "?"
    return ask(text)
