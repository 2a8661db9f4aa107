"""The offline model: ``OfflineChatModel``, a deterministic, extractive chat model that needs no
network and no key.

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
    its passages, so its other sentences have no ref of their own: see
    :func:`workers.tools.parse_read_passages`).
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

How it reads the tools
    Through the tools' own parsers (:func:`workers.tools.parse_search_passages`,
    :func:`workers.tools.parse_read_passages`) into the sources' :class:`workers.sources.Passage`,
    and with the sources' stopword list (:data:`workers.sources.STOPWORDS`): one protocol for the
    tools and for the model that drives them.

Layout
    :mod:`~app.llm.offline.model` (the chat model and its loop), :mod:`~app.llm.offline.sentences`
    (verbatim sentences of the passages), :mod:`~app.llm.offline.relevance` (which sentences
    answer),
    :mod:`~app.llm.offline.schema_fill` (filling the response format), :mod:`~app.llm.offline.words`
    (stems and stopwords).

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

from app.llm.offline.model import OfflineChatModel
from app.llm.offline.sentences import split_sentences
from workers.tools import READ_TOOL, SEARCH_TOOL

__all__ = ["READ_TOOL", "SEARCH_TOOL", "OfflineChatModel", "split_sentences"]
