"""The ``plan`` step: turn a topic into 3 to 5 sub-questions, distinct facets of it (issue 19).

With a real LLM the planner asks for structured output (:class:`Plan`); offline it uses
:func:`offline_plan`, a deterministic decomposition from the kind of question the topic asks and
the documents a first search of the corpus finds: the same topic on the same corpus always
yields the same sub-questions, and a thread run again keeps its plan (the ``plan`` node), so its
envelope ids never change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

__all__ = [
    "MAX_SUB_QUESTIONS",
    "MIN_SUB_QUESTIONS",
    "PLANNER_PROMPT",
    "TEMPLATE_WORDS",
    "main_question",
    "topic_kind",
    "Plan",
    "PlanResult",
    "llm_plan",
    "offline_plan",
]

MIN_SUB_QUESTIONS, MAX_SUB_QUESTIONS = 3, 5

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
    r"how\s+(?:do|does|can|should)\s+(?:i|you|we|one)?|how\s+to|why\s+(?:does|do|is|are)|"
    r"explain|describe|tell\s+me\s+about)\s+",
    re.IGNORECASE,
)
_DEFAULT_OF = re.compile(
    r"^(?:what\s+is\s+)?(?:the\s+)?default(?:\s+(?:value|setting|mode|size))?\s+(?:of|for)\s+"
    r"(?:the\s+)?",
    re.IGNORECASE,
)
_FACETS_PER_DOCUMENT = 2
"""The most sub-questions :func:`offline_plan` draws from the documents its first search found."""


class Plan(BaseModel):
    """The planner's structured output."""

    sub_questions: list[str] = Field(
        description="Three to five self-contained research questions, phrased as a person would "
        "ask them: the first asks the topic itself; each other asks a distinct facet of it "
        "(a part, a related setting, a kind of use or failure) and searches words the others "
        "do not."
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
    if _compare_parts(text):
        return "compare"
    return "topic"


def _compare_parts(text: str) -> list[str]:
    """The two things a "X vs Y" / "X and Y" topic names (each at most four words), or []."""
    match = _COMPARE.match(text.rstrip("?.! "))
    if not match:
        return []
    parts = [" ".join(match.group(g).split()) for g in ("a", "b")]
    if any(len(p.split()) > 4 or len(p) < 2 for p in parts):
        return []
    return parts


def _subject(topic: str) -> str:
    """The topic without its question wrapper: "How do I resume a graph?" -> "resume a graph",
    "What is the default value of X?" -> "X", "What does X do?" -> "X"; a question after a
    context keeps the context: "After an insert, how do I get the id?" -> "get the id (after
    an insert)", so a facet still searches the topic's words."""
    text = " ".join(topic.split()).rstrip("?.! ")
    asked = _asked(text)
    if asked and asked != text:  # "After an insert, how do I get the id?": the context stays
        context = text[:len(text) - len(asked)].rstrip(",;: ")
        return f"{_subject(asked)} ({context[:1].lower()}{context[1:]})"
    text = _DEFAULT_OF.sub("", text, count=1) or text
    subject = _WRAPPER.sub("", text, count=1).strip() or text
    if re.match(r"what\s+(?:does|do)\b", text, re.IGNORECASE):
        subject = re.sub(r"\s+(?:do|mean|work|does)$", "", subject, flags=re.IGNORECASE)
    return subject


_LONG_PHRASE = 7
"""A phrase of this many words or more is a sentence or an instruction, not a name."""


def _long(text: str) -> bool:
    """Whether a phrase reads as a sentence or an instruction ("Add a conditional edge from the
    starting node to ...", "Every object has an identity"), not a name: :data:`_LONG_PHRASE`
    words, or three and more opening with a capitalised word (not an identifier such as
    ``RetryPolicy``). Wrapped in "What is ...?" it would read as a template heading, so it is
    asked as it is and quoted inside a facet."""
    words = text.split()
    sentence = bool(words) and re.fullmatch(r"[A-Z][a-z]+", words[0]) is not None
    return len(words) >= _LONG_PHRASE or (sentence and len(words) >= 3)


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
    if _long(text):
        return text[:1].upper() + text[1:]
    last = text.split()[-1] if text.split() else ""
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is")) and last.islower()
    return f"What {'are' if plural else 'is'} {text}?"


def _name(passage: Any) -> str:
    """What a facet calls a document: its symbol's last part or its page title."""
    title = " ".join(str(passage.title or passage.doc_id).split())
    if re.fullmatch(r"[\w.:]+", title) and "." in title:
        parts = title.split(".")
        tail = [p for p in parts if p[:1].isupper()] or parts[-1:]
        return "`" + ".".join(parts[parts.index(tail[0]):]) + "`"
    return f"\u201c{title}\u201d" if not title.startswith("`") else title


def _twin(name: str) -> str:
    """A name with an async twin's leading "a" dropped from its last part (``aget_tuple``)."""
    head, dot, last = name.strip("`").rpartition(".")
    return f"{head}{dot}{last[1:] if last.startswith('a') and len(last) > 3 else last}".lower()


def _searched(question: str, topic: str) -> frozenset[str]:
    from workers.sources.query import search_query

    parsed = search_query(question, focus=topic)
    return frozenset(parsed.terms) if parsed else frozenset()


def offline_plan(topic: str, found: Sequence[Any] = ()) -> list[str]:
    """Deterministically divide ``topic`` into 3 to 5 sub-questions, distinct facets of it.

    The first asks the topic itself (:func:`main_question`); a comparison ("X vs Y", "X and Y")
    then asks about each thing; a subject of several phrases ("resume a graph after a crash")
    about each phrase; then, from ``found`` (the passages a first search of the corpus for the
    topic returned, best first, when the caller has them), about each of the next distinct
    documents ("What is `Name`?"). A sub-question is kept only when it searches words no earlier
    one searches (a search focused on the topic ranks by the words a question shares with it:
    :func:`workers.sources.query.search_query`). With too few, the kind of question the topic
    asks (:func:`topic_kind`) adds its usual facets (use, limitations; how to change a
    default), so the fan-out never collapses. Same input, same plan, in every process.

    Args:
        topic: the research topic, a phrase or a question.
        found: :class:`workers.sources.Passage` objects of the topic's first search, or none
            (the ``plan`` node passes none yet: see its module).

    Example:
        >>> offline_plan("Send vs reducers")[:3]
        ['How do Send and reducers differ?', 'What is Send?', 'What are reducers?']
        >>> offline_plan("How do I keep pending writes across a process crash?")[1:]
        ['How do you keep pending writes?', 'What is a process crash?']
    """
    kind = topic_kind(topic)
    subject = _subject(topic)
    parts = _compare_parts(" ".join(topic.split())) if kind == "compare" else []
    questions: list[str] = []
    if parts:
        questions.append(f"How do {parts[0]} and {parts[1]} differ?")
        questions += [main_question(p) for p in parts]
    else:
        questions.append(main_question(topic))
        questions += _phrase_facets(kind, subject)
    seen: set[frozenset[str]] = set()
    kept: list[str] = []
    for question in questions:  # a facet searching the words of an earlier one adds nothing
        terms = _searched(question, topic)
        if terms not in seen or not kept:
            seen.add(terms)
            kept.append(question)
    questions = kept
    top = found[0].document_key if found else None
    names: list[str] = []
    for passage in found:
        if passage.document_key == top or len(names) >= _FACETS_PER_DOCUMENT:
            continue
        name = _name(passage)
        if _twin(name) in {_twin(n) for n in names}:  # sync/async twins: get_tuple, aget_tuple
            continue
        question = f"What is {name}?" if name.startswith("`") else f"What does {name} cover?"
        terms = _searched(question, topic)
        if name not in names and terms and terms not in seen:
            names.append(name)
            seen.add(terms)
            questions.append(question)
    for question in _kind_facets(kind, subject):
        if len(questions) >= MIN_SUB_QUESTIONS:
            break
        questions.append(question)
    return questions[:MAX_SUB_QUESTIONS]


_PHRASE_BREAK = re.compile(
    r"\s+(?:after|before|with|without|in|into|from|for|of|on|when|while|during|across|"
    r"between|through|by|inside|within|using)\s+",
    re.IGNORECASE,
)


def _phrase_facets(kind: str, subject: str) -> list[str]:
    """A question per phrase of a subject made of several ("retry policy of a graph node":
    "What is retry policy?", "What is a graph node?"): each searches a part of the topic's
    words, so the tasks divide the work.

    A phrase is asked about only when it carries enough of the subject's content words to stay
    on topic (:func:`_carries_the_topic`): a fragment such as "tool arguments" of "Annotation
    for injecting persistent store into tool arguments" searches words the whole corpus has,
    and its task cites whatever shares them (the default eval's on-target share fell from 0.61
    to 0.50 when every phrase was asked about)."""
    from workers.sources.query import content_terms

    phrases = [p.strip() for p in _PHRASE_BREAK.split(subject)]
    words = [set(content_terms(p)) for p in phrases]
    topic = set().union(*words) if words else set()
    phrases = [p for p, w in zip(phrases, words, strict=True) if _carries_the_topic(w, topic)]
    if len(phrases) < 2:
        return []
    out = []
    for n, phrase in enumerate(phrases[:3]):
        first = phrase.split()[0].lower()
        verb = n == 0 and kind == "how" and first not in ("a", "an", "the", "my", "your")
        out.append(f"How do you {phrase}?" if verb else main_question(phrase))
    return out


def _carries_the_topic(words: set[str], topic: set[str]) -> bool:
    """Whether a phrase's content ``words`` stay on the ``topic``'s: at least two of them, and
    at least half of the topic's, the share a passage must mention to be judged on topic
    (:func:`app.research.relevance.needed`): a question searching fewer finds passages that
    are on topic only by chance."""
    return len(words) >= 2 and 2 * len(words & topic) >= len(topic)


def _kind_facets(kind: str, subject: str) -> list[str]:
    """The usual facets of a kind of question, when the corpus gives too few of its own."""
    if kind == "how":
        return [f"What is needed to {subject}?", f"What can go wrong when you {subject}?"]
    if kind == "why":
        return [f"When does {subject}?", f"How can you change whether {subject}?"]
    if kind == "default":
        return [f"How do you change {subject}?", f"What does {subject} control?"]
    if _long(subject):
        quoted = f"\u201c{subject[:1].upper()}{subject[1:]}\u201d"
        return [f"How is {quoted} used?", f"What are the limitations of {quoted}?"]
    return [f"How do you use {subject}?", f"What are the limitations of {subject}?"]


def _template_words() -> frozenset[str]:
    from workers.sources.query import query_terms

    subject = "qqqsubj"
    templates = [main_question(subject), "How do qqqsubj and zzzsubj differ?",
                 "What is `qqqsubj`?", "What does \u201cqqqsubj\u201d cover?"]
    templates += [q for kind in ("how", "why", "default", "topic")
                  for subj in (subject, " ".join([subject] * _LONG_PHRASE))
                  for q in _kind_facets(kind, subj)]
    templates += _EARLIER_TEMPLATES  # a thread planned before keeps its plan on a rerun
    words = {w for q in templates for w in query_terms(q)}
    return frozenset(words - {"qqqsubj", "zzzsubj"})


_EARLIER_TEMPLATES = (
    "What is meant by qqqsubj?", "What is the mechanism behind qqqsubj?",
    "Which settings and usage patterns apply to qqqsubj?",
    "What are the limitations, caveats and deprecations of qqqsubj?",
    "How do qqqsubj and zzzsubj relate?",
)
"""The templates of the earlier offline plan: a thread it planned keeps those sub-questions
when run again (the ``plan`` node), so their words still say nothing about its topic."""


TEMPLATE_WORDS: frozenset[str] = _template_words()
"""The searchable words :func:`offline_plan` adds around the subject ("differ", "cover",
"needed", "wrong", "alternatives", "changed", "control", "limitations", ...): derived from the
templates, so they never drift. They say nothing about the topic, so they must not count as
evidence that a passage is on topic (see :mod:`app.research.relevance`)."""


PLANNER_PROMPT = (
    "You plan research over a corpus of technical documentation. Break the user's topic into "
    "three to five self-contained sub-questions that a keyword search over that documentation "
    "can answer, phrased as a person would ask them (never wrap the topic in a template such as "
    "'What is meant by ...'). The first asks the topic itself: what it is, how to do it, why, "
    "how two things differ, or a default value, as the topic asks. Each other one asks a "
    "distinct facet of the topic (a part of it, a related setting or document, a way it is used "
    "or fails) and must search words the others do not, while keeping enough of the topic's "
    "own key words (at least half of them) that its search stays on the topic. Each must make "
    "sense on its own."
)


@dataclass
class PlanResult:
    """What :func:`llm_plan` returns.

    Attributes:
        questions: 3 to 5 cleaned sub-questions.
        tokens: the tokens the planner call cost (usage reported by the provider; 0 when not
            reported).
        notes: run notes, e.g. that the model's plan was unusable and the offline one was used.
    """

    questions: list[str]
    tokens: int = 0
    notes: list[str] = field(default_factory=list)


def llm_plan(topic: str, model: BaseChatModel) -> PlanResult:
    """Ask ``model`` for a :class:`Plan` (structured output, by function calling: see
    :func:`app.llm.models.structured_output`) and clean it up.

    Blank and repeated questions are dropped and the list is cut to 5; with fewer than 3 left the
    offline decomposition fills in, so the fan-out never collapses. An answer that does not fit
    the schema (bad JSON, wrong fields) is not fatal: the offline decomposition is used and a note
    says so.

    A rate limit (HTTP 429) is waited out within the call, up to the model's rate-limit
    patience (:func:`workers.pacing.patiently`), before the node's attempts see an error.

    Raises:
        Exception: whatever the model client raises (the node's retry policy sees it; a 401 or
            404 stops the run); ``RateLimitPatienceSpent`` once the patience is spent.
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    from app.llm.models import parse_structured, structured_output
    from workers.pacing import patiently
    from workers.usage import count_tokens

    runnable = structured_output(model, Plan)
    messages = [SystemMessage(PLANNER_PROMPT), HumanMessage(f"Topic: {topic}")]
    with count_tokens() as served:
        out = patiently(model, lambda: runnable.invoke(messages), "the planner")
    tokens = served.tokens
    plan, reason = parse_structured(out, Plan, "the planner")
    if plan is None:
        note = f"the planner's answer was unusable ({reason}): used the offline plan"
        return PlanResult(offline_plan(topic), tokens, [note])
    questions: list[str] = []
    seen: set[str] = set()
    for q in plan.sub_questions:
        q = " ".join(str(q).split())
        if q and q.lower() not in seen:
            seen.add(q.lower())
            questions.append(q)
    for q in offline_plan(topic):
        if len(questions) >= MIN_SUB_QUESTIONS:
            break
        if q.lower() not in seen:
            seen.add(q.lower())
            questions.append(q)
    return PlanResult(questions[:MAX_SUB_QUESTIONS], tokens)
