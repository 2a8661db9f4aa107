"""What a topic asks (issue 19, section 1): its kind (what / how / why / compare / default), its
subject without the question's wrapper, and the topic itself as the plan's first sub-question.

Pure text functions (no I/O): :mod:`app.research.plan` and :mod:`app.research.facets` build the
plan on them, and the report ranks its answer by :func:`topic_kind`.
"""

from __future__ import annotations

import re
import unicodedata

from workers.sources.query import query_terms

__all__ = [
    "LONG_PHRASE", "MAX_TOPIC_CHARS", "compare_parts", "is_long", "main_question",
    "subject", "topic_kind", "topic_problem",
]

MAX_TOPIC_CHARS = 500
"""The longest topic a run takes (whitespace collapsed)."""

# Invisible characters that reorder how text is displayed (the "Trojan Source" family): a topic
# must look like what it is in the report, the thread id and the database.
_BIDI_CONTROLS = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def topic_problem(topic: str) -> str | None:
    """What makes ``topic`` (whitespace collapsed) no topic to research, in one line, or None:
    empty, longer than :data:`MAX_TOPIC_CHARS`, with control or bidi characters, with no letter
    or digit, or with no word a search looks for (one letter, only words like "what" and "the":
    :func:`workers.sources.query.query_terms`). The CLI and the ``plan`` node (a served run's
    input) both ask it.

    Example:
        >>> topic_problem("x")[:30]
        "the topic 'x' has no word to s"
        >>> topic_problem("checkpointer pending writes") is None
        True
    """
    if not topic:
        return ("the topic is empty; say what to research, e.g. "
                "research \"checkpointer pending writes\"")
    if len(topic) > MAX_TOPIC_CHARS:
        return f"the topic has {len(topic)} characters; the limit is {MAX_TOPIC_CHARS}"
    if any(unicodedata.category(ch) == "Cc" or ch in _BIDI_CONTROLS for ch in topic):
        return "the topic contains control characters"
    if not any(ch.isalnum() for ch in topic):
        return "the topic has no letters or digits; say what to research"
    if not query_terms(topic):  # the words a corpus search looks for: "x", "what is it" has none
        return (f"the topic {topic!r} has no word to search for (single letters and words "
                "like 'what' or 'the' are not searched); say what to research, e.g. "
                "research \"checkpointer pending writes\"")
    return None

_COMPARE = re.compile(
    r"^(?:(?:what\s+is|what's)\s+the\s+differences?\s+between\s+|compare\s+|how\s+(?:do|does)\s+)?"
    r"(?P<a>.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with)|and|or)\s+(?P<b>.+?)"
    r"(?:\s+(?:differ|compare))?$",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^(?:what|how|why|when|where|which|who|whom|whose|can|could|should|would|will|is|are|"
    r"does|do|did|was|were|has|have)\b",
    re.IGNORECASE,
)
_KINDS = (
    ("default", re.compile(r"\bdefaults?\b", re.IGNORECASE)),
    ("compare", re.compile(r"\b(?:vs\.?|versus|differ(?:s|ence|ences)?|compared?)\b",
                           re.IGNORECASE)),
    ("why", re.compile(r"^why\b", re.IGNORECASE)),
    ("how", re.compile(r"^(?:how\b|can\s+i\b|what\s+steps\b)", re.IGNORECASE)),
    ("what", re.compile(r"^(?:what|which|who)\b", re.IGNORECASE)),
)
_WRAPPER = re.compile(
    r"^(?:what\s+(?:is|are)\s+meant\s+by|what\s+(?:is|are|does|do)(?:\s+an?|\s+the)?|"
    r"how\s+(?:do|does|can|should)(?:\s+(?:i|you|we|one))?|how\s+(?:is|are|was|were)|how\s+to|"
    r"why\s+(?:does|do|is|are)|"
    r"explain|describe|tell\s+me\s+about)\s+",
    re.IGNORECASE,
)
_DEFAULT_OF = re.compile(
    r"^(?:what\s+is\s+)?(?:the\s+)?default(?:\s+(?:value|setting|mode|size))?\s+(?:of|for)\s+"
    r"(?:the\s+)?",
    re.IGNORECASE,
)
_LATER_QUESTION = re.compile(r"[,;:]\s+(?=" + _QUESTION_START.pattern.lstrip("^") + ")",
                             re.IGNORECASE)


def _asked(text: str) -> str | None:
    """The question a topic asks, when it asks one: the whole text when it starts with a
    question word, the clause from a later one ("After an insert, *how do I get the id*"),
    else None (a phrase)."""
    if _QUESTION_START.match(text):
        return text
    match = _LATER_QUESTION.search(text)
    clause = text[match.end():] if match else ""
    return clause if len(clause.split()) >= 3 else None  # "...; why?" names no subject


def topic_kind(topic: str) -> str:
    """The kind of question ``topic`` asks: ``"default"`` (a default value), ``"compare"``
    (two or more things), ``"why"``, ``"how"``, ``"what"``, or ``"topic"`` for a phrase.

    Example:
        >>> [topic_kind(t) for t in ("Send vs reducers", "How do I retry?", "RetryPolicy")]
        ['compare', 'how', 'topic']
    """
    text = " ".join(topic.split())
    text = _asked(text) or text
    for kind, pattern in _KINDS:
        if pattern.search(text):
            return kind
    if compare_parts(text):
        return "compare"
    return "topic"


def compare_parts(text: str) -> list[str]:
    """The two things a "X vs Y" / "X and Y" topic names (each at most four words), or []."""
    match = _COMPARE.match(text.rstrip("?.! "))
    if not match:
        return []
    parts = [" ".join(match.group(g).split()) for g in ("a", "b")]
    if any(len(p.split()) > 4 or len(p) < 2 for p in parts):
        return []
    return parts


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


LONG_PHRASE = 7
"""A phrase of this many words or more is a sentence or an instruction, not a name."""


def is_long(text: str) -> bool:
    """Whether a phrase reads as a sentence or an instruction ("Add a conditional edge from the
    starting node to ...", "Every object has an identity"), not a name: :data:`LONG_PHRASE`
    words, or three and more opening with a capitalised word (not an identifier such as
    ``RetryPolicy``). Wrapped in "What is ...?" it would read as a template heading, so it is
    asked as it is and quoted inside a facet."""
    words = text.split()
    sentence = bool(words) and re.fullmatch(r"[A-Z][a-z]+", words[0]) is not None
    return len(words) >= LONG_PHRASE or (sentence and len(words) >= 3)


def main_question(topic: str) -> str:
    """The topic itself as a question: a question-shaped topic as asked (a "?" added), a
    short phrase as "What is X?" ("What are X?" for a plural), a long one (a sentence, an
    instruction) as it is.

    Example:
        >>> main_question("checkpointer pending writes"), main_question("how do I retry")
        ('What are checkpointer pending writes?', 'How do I retry?')
        >>> main_question("copy all checkpoints from one thread to another")
        'Copy all checkpoints from one thread to another'
    """
    text = " ".join(topic.split()).rstrip("?.! ")
    if _asked(text) or topic.rstrip().endswith("?"):
        return text[:1].upper() + text[1:] + "?"
    if is_long(text):
        return text[:1].upper() + text[1:]
    last = text.split()[-1] if text.split() else ""
    identifier = any(c in last for c in "_.()`") or last != last.lower()  # add_messages, Send
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is")) and not identifier
    return f"What {'are' if plural else 'is'} {text}?"
