"""``OfflineChatModel``: a deterministic, extractive chat model that needs no network and no key.

What it is
    A ``langchain_core`` ``BaseChatModel`` that drives the real ``create_agent`` tool-calling loop
    by itself. It reads only the messages it is given and answers in three turns:

    1. no tool results yet: call the search tool (``search_corpus``) with the question (the text of
       the last ``HumanMessage``);
    2. after the search results: call the read tool (``read_document``) once, on the top result's
       ``ref``;
    3. finish: call the structured-response tool (the bound tool that is neither search nor read,
       e.g. ``Findings`` when ``create_agent(..., response_format=ToolStrategy(Findings))``) with
       arguments that validate against its JSON schema. With provider-native structured output
       (``response_format={"type": "json_schema", ...}`` bound, as ``ProviderStrategy`` does) it
       returns the same object as JSON text instead; with no response format at all it answers in
       plain text.

    Answers are extractive: every claim is a sentence copied verbatim from a retrieved passage and
    carries that passage's ``ref``. The passages are the search results; a read result counts only
    if it names its passages (``read_document`` returns a whole document under the ref of one of
    its passages, so its other sentences have no ref of their own: see ``parse_read_result``).
    Sentences are ranked by the overlap of their word stems with the question (and how much of the
    question their passage covers), multiplied up by the words of the response schema's field
    descriptions: a ``Caveats`` field that talks about limitations, warnings, deprecations and
    things that must not be done pulls cautionary sentences, while ``Findings``, whose descriptions
    carry no such words, gets the most relevant ones. No passages, no claims: it never invents.

Why it exists
    It is the default model when no LLM provider is configured, so the whole app (planner, agent
    workers, persist, report) runs end to end with zero keys, on real corpus text, in CI and in a
    workshop, with reproducible output.

Where the idea comes from
    The fake chat models in ``langchain_core`` (``FakeListChatModel``, ``GenericFakeChatModel``) do
    not implement ``bind_tools``, and ``create_agent`` binds tools (and, with ``ToolStrategy``, a
    structured-output tool plus ``tool_choice="any"``) on every model call, so a tool-calling agent
    needs a model that implements ``bind_tools`` and emits real ``tool_calls``.

Notes
    * Stateless: nothing per call is stored on ``self``; parallel workers can share one instance.
      Every AIMessage gets a fresh ``uuid4`` id and every tool call a fresh ``call_<uuid4>`` id.
      The response cache is disabled (``cache=False``) so a global LLM cache can never replay ids.
    * ``usage_metadata`` holds estimates: ``len(text) // 4`` tokens for the input messages and for
      the output (content plus tool-call arguments as JSON).
    * A plain pydantic ``response_format`` (``create_agent(..., response_format=Findings)``) makes
      ``create_agent`` choose ``ToolStrategy`` for this model (it has no model profile and its name
      matches none of the provider-strategy fallback patterns). ``ProviderStrategy`` works too.
    * If a structured response it produced was rejected (``create_agent`` answers an invalid one
      with a ``ToolMessage`` carrying the validation error and calls the model again), it does not
      retry with the same arguments until the recursion limit: it answers in plain text and the
      agent ends without a ``structured_response``.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.caches import BaseCache
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from workers.tools import READ_TOOL, SEARCH_TOOL, message_text

__all__ = [
    "READ_TOOL",
    "SEARCH_TOOL",
    "OfflineChatModel",
    "Passage",
    "parse_read_result",
    "parse_search_results",
    "split_sentences",
]


# How many items an array field gets when neither its JSON schema nor its description says.
_DEFAULT_MIN_ITEMS = 1
_DEFAULT_MAX_ITEMS = 3

# Sentence filters: too short is a fragment or heading, too long is a run-on or a table row.
_MIN_WORDS, _MAX_WORDS = 5, 60
_MIN_CHARS, _MAX_CHARS = 25, 400


# --------------------------------------------------------------------------------------------------
# Passages and sentences
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    """A retrieved text and the ref it is cited by; ``rank`` is its search rank (0 is the top)."""

    ref: str
    text: str
    rank: int


@dataclass(frozen=True)
class _Sentence:
    text: str
    ref: str
    rank: int
    position: int
    stems: frozenset[str]
    context: frozenset[str]  # the stems of its whole passage


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _passage_from(obj: Any, rank: int, fallback_ref: str | None = None) -> Passage | None:
    if not isinstance(obj, dict) or "error" in obj:
        return None
    text = obj.get("text")
    ref = obj.get("ref", fallback_ref)
    if not isinstance(text, str) or not text.strip() or not isinstance(ref, str) or not ref:
        return None
    return Passage(ref=ref, text=text, rank=rank)


def parse_search_results(content: Any) -> list[Passage]:
    """Passages of a search tool result ``{"results": [{"ref", "text", ...}]}``; junk gives []."""
    data = _loads(message_text(content))
    if isinstance(data, dict):
        data = data.get("results")
    if not isinstance(data, list):
        return []
    passages = []
    for item in data:
        passage = _passage_from(item, rank=len(passages))
        if passage is not None:
            passages.append(passage)
    return passages


def parse_read_result(content: Any, rank: int) -> list[Passage]:
    """The citable passages of a read tool result; an error, junk or a plain document gives [].

    ``workers/tools.py``'s ``read_document`` returns ``{"ref", "title", "source", "text"}`` where
    ``text`` is the whole document (a window of its passages joined by blank lines) but ``ref`` is
    the one passage that was asked for. A sentence of that text may belong to another passage of
    the document, whose ref the result does not give, so citing it by ``ref`` could name the wrong
    passage: a plain document is read but never cited. A result that names its passages,
    ``{"passages": [{"ref", "text"}, ...]}``, is cited passage by passage.
    """
    data = _loads(message_text(content))
    items = data.get("passages") if isinstance(data, dict) and "error" not in data else None
    if not isinstance(items, list):
        return []
    found = (_passage_from(item, rank=rank) for item in items)
    return [p for p in found if p is not None]


_BLOCK_START = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|>\s?|\||```|~~~)")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)")
# Docstring sections: a header alone on its line ("Args:", "Returns:") and entries under it
# ("    retry_state: The retry state.", "**kwargs: ...", "name (int): ...").
_SECTION_HEADER = re.compile(r"^\s*[A-Z][A-Za-z ]{0,30}:\s*$")
_FIELD_ENTRY = re.compile(r"^\s*\**([A-Za-z_][\w.\[\]]*)(?:\s*\([^)]*\))?:(?:\s|$)")
_PROSE_LABELS = frozenset(
    {"warning", "note", "important", "caution", "tip", "hint", "danger", "attention", "deprecated"}
)
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*(?=\s+[\"'(\[`*_]?[A-Z0-9])")
_TERMINAL = re.compile(r"[.!?][\"')\]]*$")
_CODE_HINTS = re.compile(
    r"```|=>|==|!=|\s=\s|;\s*$|[{}]|^\s*(?:>>>|\$ |import |from \S+ import|def |class |return )"
)


def _blocks(text: str) -> Iterable[str]:
    """Paragraphs and list items of a text, skipping fenced code; each a slice of ``text``."""
    block: list[str] = []
    in_fence = False
    for line in text.split("\n"):  # not splitlines(): "\n".join must give back a slice of text
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            if block:
                yield "\n".join(block)
                block = []
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if _SECTION_HEADER.match(line):
            if block:
                yield "\n".join(block)
                block = []
            continue
        if not stripped or _BLOCK_START.match(line) or _FIELD_ENTRY.match(line):
            if block:
                yield "\n".join(block)
                block = []
            if stripped and not stripped.startswith(("#", "|")):
                block.append(_LIST_MARKER.sub("", line, count=1))
            continue
        block.append(line)
    if block and not in_fence:
        yield "\n".join(block)


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``; each is a verbatim substring of it."""
    sentences: list[str] = []
    for block in _blocks(text):
        start = 0
        for match in _SENTENCE_END.finditer(block):
            sentences.append(block[start : match.end()].strip())
            start = match.end()
        sentences.append(block[start:].strip())
    return [s for s in sentences if s and s in text]


def _looks_like_code(sentence: str) -> bool:
    """Code, or a field/parameter listing (``name: ...``) rather than a prose sentence."""
    if _CODE_HINTS.search(sentence):
        return True
    if (m := _FIELD_ENTRY.match(sentence)) and m.group(1).lower() not in _PROSE_LABELS:
        return True
    visible = [c for c in sentence if not c.isspace()]
    letters = sum(c.isalpha() for c in visible)
    return not visible or letters / len(visible) < 0.7


def _acceptable(sentence: str, *, need_terminal: bool) -> bool:
    words = sentence.split()
    if not (_MIN_WORDS <= len(words) <= _MAX_WORDS and _MIN_CHARS <= len(sentence) <= _MAX_CHARS):
        return False
    if need_terminal and not _TERMINAL.search(sentence):
        return False
    return not _looks_like_code(sentence)


def _sentences(passages: Sequence[Passage]) -> list[_Sentence]:
    """Candidate sentences of all passages, de-duplicated, in rank then reading order."""
    found: list[_Sentence] = []
    for need_terminal in (True, False):  # prefer whole sentences; fall back to any prose line
        seen: set[str] = set()
        for passage in sorted(passages, key=lambda p: p.rank):
            context = _stems(passage.text)
            for position, sentence in enumerate(split_sentences(passage.text)):
                key = " ".join(sentence.lower().split())
                if key in seen or not _acceptable(sentence, need_terminal=need_terminal):
                    continue
                seen.add(key)
                found.append(
                    _Sentence(
                        sentence, passage.ref, passage.rank, position, _stems(sentence), context
                    )
                )
        if found:
            break
    return found


# --------------------------------------------------------------------------------------------------
# Words and relevance
# --------------------------------------------------------------------------------------------------

_STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each either else etc every
    for from further had has have having he her here hers him his how i if in into is it its itself
    just let like me more most my no nor of off on once only or other our ours out over own per
    same she should so some such than that the their theirs them then there these they this those
    through to too under until up us very via was we were what when where which while who whom
    why will with within would yet you your yours""".split()  # noqa: SIM905
)
# Words of response-schema descriptions that describe the answer's form, not its content, and
# verbs too generic to tell one kind of sentence from another.
_META_WORDS = frozenset(
    """answer answers question questions sub claim claims sentence sentences passage passages
    ref refs reference references source sourced sources citation citations cite tool tools
    retrieved taken exactly gave given gives fact facts item items list field fields string
    response one two three four five six seven eight nine ten key state stating states stated
    use used uses using usage work works working come comes came thing things done""".split()  # noqa: SIM905
)
_SUFFIXES = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "edly",
    "ed",
    "ies",
    "es",
    "ly",
    "s",
)
_WORD = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    """A crude, deterministic stem: strip one common suffix, keep at most 6 characters."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:6]


def _stems(text: str, drop: frozenset[str] = _STOPWORDS) -> frozenset[str]:
    return frozenset(
        _stem(w)
        for w in _WORD.findall(text.lower())
        if w not in drop and (len(w) > 1 or w.isdigit())
    )


def _score(sentence: _Sentence, question: frozenset[str], boost: frozenset[str]) -> float:
    """Relevance to the question, multiplied up by the schema words the sentence contains.

    Relevance is the sentence's own overlap with the question plus up to 2 for how much of the
    question its passage covers (a sentence of an on-topic passage is on topic even when it
    repeats none of the question's words), lightly normalised for sentence length.
    """
    own = len(sentence.stems & question)
    covered = len(sentence.context & question) / len(question) if question else 0.0
    relevance = (own + 2 * covered) / math.log2(2 + len(sentence.stems) / 8)
    return relevance * (1 + len(sentence.stems & boost))


def _select(
    sentences: Sequence[_Sentence],
    question: frozenset[str],
    boost: frozenset[str],
    bounds: tuple[int, int],
    exclude: set[str],
) -> list[_Sentence]:
    """The best sentences for one field, between ``bounds`` items.

    When the field's descriptions carry content words (``boost``), only sentences containing some
    of them qualify (so a caveats list holds cautionary sentences); otherwise every relevant
    sentence does. Of the qualifying ones, those scoring at least half the best are taken, up to
    the maximum; the best of the rest top the list up to the minimum. Ties go to the higher-ranked
    passage, then to reading order.
    """
    low, high = bounds
    pool = [s for s in sentences if s.text not in exclude]
    if not pool or high <= 0:
        return []
    ranked = sorted(
        ((_score(s, question, boost), s) for s in pool),
        key=lambda pair: (-pair[0], pair[1].rank, pair[1].position),
    )
    qualified = [(score, s) for score, s in ranked if score > 0]
    if boost:
        # Sentences that say what the field asks for; when none does, only the minimum is
        # given (the most relevant sentences), rather than a list of what was not asked for.
        qualified = [(score, s) for score, s in qualified if s.stems & boost]
    best = qualified[0][0] if qualified else 0.0
    chosen = [s for score, s in qualified if score >= best / 2][:high]
    for _, s in ranked:
        if len(chosen) >= low:
            break
        if s not in chosen:
            chosen.append(s)
    exclude.update(s.text for s in chosen)
    return chosen


# --------------------------------------------------------------------------------------------------
# Filling a JSON schema
# --------------------------------------------------------------------------------------------------

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_N = r"(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)"
_RANGE = re.compile(rf"\b{_N}\s*(?:to|-|–|—|or)\s*{_N}\b", re.IGNORECASE)
_AT_MOST = re.compile(rf"\b(?:up to|at most|no more than|maximum of)\s+{_N}\b", re.IGNORECASE)
_AT_LEAST = re.compile(rf"\b(?:at least|minimum of)\s+{_N}\b", re.IGNORECASE)
_REF_TOKENS = frozenset(
    {"ref", "refs", "reference", "references", "source", "sources", "citation", "citations", "cite"}
)


def _num(token: str) -> int:
    return int(token) if token.isdigit() else _NUMBER_WORDS[token.lower()]


def _bounds(schema: dict[str, Any]) -> tuple[int, int]:
    """How many items an array gets: ``minItems``/``maxItems``, else hints in its description."""
    low, high = _DEFAULT_MIN_ITEMS, _DEFAULT_MAX_ITEMS
    description = str(schema.get("description") or "")
    if m := _RANGE.search(description):
        low, high = sorted((_num(m.group(1)), _num(m.group(2))))
    if m := _AT_MOST.search(description):
        high = _num(m.group(1))
    if m := _AT_LEAST.search(description):
        low = _num(m.group(1))
        high = max(high, low)
    if isinstance(schema.get("minItems"), int):
        low = schema["minItems"]
        high = max(high, low)
    if isinstance(schema.get("maxItems"), int):
        high = schema["maxItems"]
        low = min(low, high)
    return low, high


_SKIP = object()  # "leave this optional property out"


def _is_ref_name(name: str) -> bool:
    tokens = re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", name)
    return any(t.lower() in _REF_TOKENS for t in tokens if t)


class _SchemaFiller:
    """Fills a JSON schema with sentences of the retrieved passages (see the module docstring)."""

    def __init__(self, root: dict[str, Any], sentences: list[_Sentence], question: str) -> None:
        self.root = root
        self.sentences = sentences
        self.question = _stems(question)
        self.used: set[str] = set()  # texts already given to a field (no sentence twice)
        self.used_order: list[_Sentence] = []  # the same sentences, in the order they were given

    def resolve(self, schema: Any) -> dict[str, Any]:
        """Follow local ``$ref``s and unwrap ``Optional`` (``anyOf`` with null)."""
        seen = 0
        while isinstance(schema, dict) and seen < 32:
            seen += 1
            ref = schema.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/"):
                target: Any = self.root
                for part in ref[2:].split("/"):
                    target = target.get(part, {}) if isinstance(target, dict) else {}
                extra = {k: v for k, v in schema.items() if k != "$ref"}
                schema = {**target, **extra} if isinstance(target, dict) else extra
                continue
            variants = schema.get("anyOf") or schema.get("oneOf")
            if isinstance(variants, list) and "type" not in schema:
                non_null = [
                    v for v in variants if not (isinstance(v, dict) and v.get("type") == "null")
                ]
                if non_null:
                    extra = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
                    schema = {**(non_null[0] if isinstance(non_null[0], dict) else {}), **extra}
                    continue
            return schema
        return schema if isinstance(schema, dict) else {}

    def words(self, schema: Any, depth: int = 0) -> str:
        """The descriptions of a field, of its items and of their fields."""
        schema = self.resolve(schema)
        parts = [str(schema.get("description") or "")]
        if depth < 4:
            if schema.get("type") == "array" or "items" in schema:
                parts.append(self.words(schema.get("items", {}), depth + 1))
            for prop in (schema.get("properties") or {}).values():
                parts.append(self.words(prop, depth + 1))
        return " ".join(p for p in parts if p)

    def select(self, boost: frozenset[str], bounds: tuple[int, int]) -> list[_Sentence]:
        chosen = _select(self.sentences, self.question, boost, bounds, self.used)
        self.used_order.extend(chosen)
        return chosen

    def fill(self, schema: dict[str, Any]) -> dict[str, Any]:
        return self.fill_object(self.resolve(schema))

    def fill_object(self, schema: dict[str, Any]) -> dict[str, Any]:
        """An object: its ref-like string fields cite the sentence its first text field got."""
        props: dict[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        values: dict[str, Any] = {}
        used_before = len(self.used_order)
        refs = [
            n
            for n, p in props.items()
            if _is_ref_name(n) and self.resolve(p).get("type") == "string"
        ]
        for name, raw in props.items():
            if name not in refs:
                values[name] = self.fill_value(name, self.resolve(raw), name in required)
        cited = self.used_order[used_before : used_before + 1]
        for name in refs:
            if cited:
                values[name] = cited[0].ref
            else:
                values[name] = self.fill_value(name, self.resolve(props[name]), name in required)
        return {n: values[n] for n in props if values.get(n, _SKIP) is not _SKIP}

    def fill_value(self, name: str, prop: dict[str, Any], required: bool) -> Any:
        kind = prop.get("type")
        # The field's own descriptions steer the choice (not the schema's docstring, which
        # describes the whole answer rather than what belongs in this field).
        boost = _stems(self.words(prop), drop=_STOPWORDS | _META_WORDS)
        if kind == "array" or "items" in prop:
            items = self.resolve(prop.get("items", {}))
            chosen = self.select(boost, _bounds(prop))
            if items.get("type") == "object" or "properties" in items:
                return [self.fill_item(items, s) for s in chosen]
            if items.get("type", "string") == "string":
                return [s.ref if _is_ref_name(name) else s.text for s in chosen]
            return [] if required else _SKIP
        if kind == "object" or "properties" in prop:
            return self.fill_object(prop)
        if kind == "string" and "enum" not in prop:
            chosen = self.select(boost, (1, 1))
            if chosen:
                return chosen[0].ref if _is_ref_name(name) else chosen[0].text
            return "" if required else _SKIP
        return self.default(prop) if required else _SKIP

    def fill_item(self, schema: dict[str, Any], sentence: _Sentence) -> dict[str, Any]:
        """One array item: ref-like strings get the ref, the first other string the sentence."""
        props: dict[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        out: dict[str, Any] = {}
        claim_given = False
        for name, raw in props.items():
            prop = self.resolve(raw)
            kind = prop.get("type")
            is_required = name in required
            if _is_ref_name(name) and kind == "string":
                out[name] = sentence.ref
            elif _is_ref_name(name) and kind == "array":
                out[name] = [sentence.ref]
            elif kind == "string" and "enum" not in prop and (not claim_given or is_required):
                out[name] = sentence.text
                claim_given = True
            elif is_required:
                out[name] = self.default(prop)
        return out

    def default(self, prop: dict[str, Any]) -> Any:
        if "default" in prop:
            return prop["default"]
        if isinstance(prop.get("enum"), list) and prop["enum"]:
            return prop["enum"][0]
        if "const" in prop:
            return prop["const"]
        kind = prop.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        return {
            "string": "",
            "integer": int(prop.get("minimum", 0)),
            "number": float(prop.get("minimum", 0)),
            "boolean": False,
            "array": [],
            "object": {},
        }.get(kind)


# --------------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------------


def _tool_name(tool: dict[str, Any]) -> str:
    fn = tool.get("function")
    if isinstance(fn, dict) and isinstance(fn.get("name"), str):
        return fn["name"]
    return str(tool.get("name") or "")


def _tool_parameters(tool: dict[str, Any]) -> dict[str, Any]:
    fn = tool.get("function")
    params = fn.get("parameters") if isinstance(fn, dict) else tool.get("parameters")
    return params if isinstance(params, dict) else {}


def _string_arg(tool: dict[str, Any], preferred: str) -> str:
    """The argument to pass text in: ``preferred`` if the tool has it, else its first string arg."""
    params = _tool_parameters(tool)
    props = params.get("properties") or {}
    if preferred in props or not props:
        return preferred
    ordered = [*(params.get("required") or []), *props]
    for name in ordered:
        if isinstance(props.get(name), dict) and props[name].get("type", "string") == "string":
            return name
    return preferred


def _forced_tool(tool_choice: Any) -> str | None:
    """The tool name a ``tool_choice`` forces, if it names one."""
    if isinstance(tool_choice, dict):
        fn = tool_choice.get("function")
        name = fn.get("name") if isinstance(fn, dict) else tool_choice.get("name")
        return name if isinstance(name, str) else None
    if isinstance(tool_choice, str) and tool_choice not in ("auto", "any", "required", "none"):
        return tool_choice
    return None


def _estimate_tokens(text: str) -> int:
    return len(text) // 4


class OfflineChatModel(BaseChatModel):
    """A deterministic, extractive, tool-calling chat model for zero-key runs (see module doc).

    Example:
        ``create_agent(OfflineChatModel(), tools=[search_corpus, read_document],
        response_format=ToolStrategy(Findings))``
    """

    model_name: str = "offline-extractive"
    """Reported in ``response_metadata`` and the identifying params."""

    read_top_result: bool = True
    """Whether turn 2 reads the top search result's document (when the read tool is bound)."""

    cache: BaseCache | bool | None = Field(default=False, exclude=True)
    """Never cached: a cached generation would replay its message and tool-call ids."""

    @property
    def _llm_type(self) -> str:
        return "offline-extractive"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "read_top_result": self.read_top_result}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | dict[str, Any] | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools (converted to the OpenAI tool format) and the other call options.

        ``create_agent`` passes ``tool_choice`` (``"any"`` under ``ToolStrategy``) and, under
        ``ProviderStrategy``, ``response_format``; ``with_structured_output`` passes
        ``ls_structured_output_format`` (consumed by ``BaseChatModel``). Others (``strict``,
        ``parallel_tool_calls``) are accepted and ignored.
        """
        formatted: list[dict[str, Any]] = []
        for tool in tools:
            try:
                formatted.append(convert_to_openai_tool(tool))
            except Exception:  # a provider built-in tool dict: keep it as is
                if not isinstance(tool, dict):
                    raise
                formatted.append(dict(tool))
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self._respond(messages, kwargs)
        input_tokens = sum(_estimate_tokens(message_text(m.content)) for m in messages)
        output_text = message_text(message.content) + "".join(
            json.dumps(tc["args"], sort_keys=True) for tc in message.tool_calls
        )
        output_tokens = _estimate_tokens(output_text)
        message.usage_metadata = {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])

    # ---- the loop -----------------------------------------------------------------------------

    def _respond(self, messages: list[BaseMessage], options: dict[str, Any]) -> AIMessage:
        tools = [t for t in options.get("tools") or [] if isinstance(t, dict)]
        by_name = {_tool_name(t): t for t in tools if _tool_name(t)}
        tool_choice = options.get("tool_choice")
        may_call_tools = tool_choice != "none"

        start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
        question = message_text(messages[start].content) if start >= 0 else ""
        turn = messages[start + 1 :]

        calls: dict[str, tuple[str, dict[str, Any]]] = {}
        for m in turn:
            if isinstance(m, AIMessage):
                for tc in m.tool_calls:
                    calls[tc.get("id") or ""] = (tc["name"], tc.get("args") or {})
        results: list[tuple[str, dict[str, Any], ToolMessage]] = []
        for m in turn:
            if isinstance(m, ToolMessage):
                name, args = calls.get(m.tool_call_id, (m.name or "", {}))
                results.append((name, args, m))
        called = {name for name, _ in calls.values()}

        passages: list[Passage] = []
        for name, _, m in results:
            if name == SEARCH_TOOL and m.status != "error":
                passages.extend(parse_search_results(m.content))
        searched = len(passages)
        for name, _, m in results:
            if name == READ_TOOL and m.status != "error":
                passages.extend(parse_read_result(m.content, rank=searched))

        response_tools = [t for n, t in by_name.items() if n not in (SEARCH_TOOL, READ_TOOL)]
        forced = _forced_tool(tool_choice)
        if forced in by_name and forced not in (SEARCH_TOOL, READ_TOOL):
            response_tools = [by_name[forced]]
        response_names = {_tool_name(t) for t in response_tools}
        # create_agent ends the loop on a valid structured response, so being called again after
        # calling a response tool means it was rejected (the ToolMessage carrying the validation
        # error has status "success"). Answering the same again would loop until the recursion
        # limit (9999 steps by default in langgraph 1.2).
        rejected = any(name in response_names for name, _ in calls.values())

        # Turn 1: search.
        if may_call_tools and SEARCH_TOOL in by_name and SEARCH_TOOL not in called:
            arg = _string_arg(by_name[SEARCH_TOOL], "query")
            return self._tool_call(SEARCH_TOOL, {arg: question})
        # Turn 2: read the top result once.
        if (
            may_call_tools
            and self.read_top_result
            and READ_TOOL in by_name
            and READ_TOOL not in called
            and passages
        ):
            arg = _string_arg(by_name[READ_TOOL], "ref")
            return self._tool_call(READ_TOOL, {arg: min(passages, key=lambda p: p.rank).ref})

        # Turn 3: answer.
        sentences = _sentences(passages)
        if may_call_tools and response_tools and not rejected:
            tool = response_tools[0]
            schema = _tool_parameters(tool)
            filler = _SchemaFiller(schema, sentences, question)
            args = filler.fill(schema)
            return self._tool_call(_tool_name(tool), args)

        native = options.get("response_format")
        if isinstance(native, dict) and native.get("type") == "json_schema" and not rejected:
            spec = native.get("json_schema") or {}
            schema = spec.get("schema") if isinstance(spec, dict) else None
            if isinstance(schema, dict):
                filler = _SchemaFiller(schema, sentences, question)
                data = filler.fill(schema)
                return self._text(json.dumps(data, ensure_ascii=False))

        if rejected:
            return self._text(
                "The structured response could not be validated; no other answer is available "
                "offline."
            )
        return self._text(self._plain_answer(sentences, question))

    @staticmethod
    def _plain_answer(sentences: list[_Sentence], question: str) -> str:
        if not sentences:
            return "No passages were found for this question."
        chosen = _select(sentences, _stems(question), frozenset(), (1, 3), set())
        return "\n".join(f"- {s.text} [{s.ref}]" for s in chosen)

    def _tool_call(self, name: str, args: dict[str, Any]) -> AIMessage:
        return AIMessage(
            content="",
            id=str(uuid.uuid4()),
            tool_calls=[
                {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex}", "type": "tool_call"}
            ],
            response_metadata={"model_name": self.model_name, "finish_reason": "tool_calls"},
        )

    def _text(self, text: str) -> AIMessage:
        return AIMessage(
            content=text,
            id=str(uuid.uuid4()),
            response_metadata={"model_name": self.model_name, "finish_reason": "stop"},
        )
