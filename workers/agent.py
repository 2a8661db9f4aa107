"""Shared machinery of the ``create_agent`` workers: build the agent once, run it per task.

Each agent worker is a real ``create_agent`` graph with the corpus tools and a pydantic
``response_format``. It runs as a subgraph *invoked from a wrapper node* rather than added as the
node itself, because:

* the ``Send`` payload is a :class:`state.Task`, while the agent's input is ``{"messages": ...}``;
  the wrapper turns one into the other;
* the agent's state (its message history) is scratch work; only the envelope belongs in the
  parent state, so nothing but the envelope crosses back (an agent added as a node would hand its
  whole state back for every key it shares with the parent; see the durability tests);
* the agent is compiled with ``checkpointer=False``: its inner steps are not checkpointed into
  the parent thread (with the default ``None`` every model and tool step of every agent would
  add a checkpoint under a subgraph namespace: about ten times the parent's checkpoints, for
  state nobody resumes). The unit of durability is the worker task; a retried task starts clean.
* it is invoked with ``durability="exit"``: a subgraph inherits the parent's durability mode,
  and on langgraph 1.2.24 a ``checkpointer=False`` subgraph run under a parent's
  ``durability="sync"`` fails with ``AttributeError: 'SyncPregelLoop' object has no attribute
  '_put_checkpoint_fut'`` (the sync loop waits for a checkpoint future it never created). With
  no checkpointer the mode changes nothing else.
* an ``after_model`` middleware checks every answer for provider-side faults
  (:func:`workers.errors.response_fault`): output cut at the length limit, a tool call without an
  id. Unchecked, they surface later as a misleading symptom ("finished without a structured
  response", "Tool search_corpus returned unexpected type"); checked, the task's error says
  what the provider did.
* a ``wrap_model_call`` middleware (:class:`workers.answer_protocol.AnswerProtocol`) holds the
  model to the structured-output protocol: a duplicate answer call or invalid answer arguments
  get one correction, then the task's error names the fault (langchainjs#11020,
  langchain#40420). A model that never answers ends at :data:`AGENT_RECURSION_LIMIT` with an
  error saying so, not a bare ``GraphRecursionError``.
* a ``wrap_model_call`` middleware (:func:`rate_limit_waits`) waits out a rate limit (HTTP 429)
  within the model step, up to the model's rate-limit patience, as the planner and the report
  summary do.

Tokens are not counted here: the worker node counts every model response of every attempt
(:mod:`workers.usage`).

Source: "Use subgraphs" (invoke a graph from a node) in the LangGraph docs, and
``langchain.agents.create_agent``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NotRequired

from langchain.agents import AgentState, create_agent
from langchain.agents.middleware import AgentMiddleware, after_model, wrap_model_call
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.errors import GraphRecursionError
from pydantic import BaseModel

from state import ItemKind, ResultItem, Task
from workers.answer_protocol import AnswerProtocol
from workers.base import WorkerDeps, WorkerResult
from workers.errors import ANSWERED_WITHOUT, AnswerProtocolError, response_fault
from workers.node_steps import named_refs
from workers.pacing import patiently
from workers.sources.web_answer import clip
from workers.tools import WEB_TOOL, make_corpus_tools, make_web_tools, message_text

__all__ = [
    "AGENT_RECURSION_LIMIT", "MAX_CLAIM_CHARS", "TopicState", "build_agent_runner",
    "rate_limit_waits", "response_checks", "retrieved_documents", "unretrieved_note",
]

AGENT_RECURSION_LIMIT = 24
"""Steps one agent run may take: a search, a few reads, an answer, and a couple of retries."""

# ``durability="exit"`` is passed on purpose to a graph without a checkpointer (see above).
warnings.filterwarnings(
    "ignore", message="`durability` has no effect when no checkpointer", category=UserWarning
)


class TopicState(AgentState):
    """The agent's state: LangChain's ``AgentState`` plus the run's ``topic``, which LangGraph
    injects into the ``search_corpus`` tool (``InjectedState("topic")``) to rank the topic's own
    words above the rest of the model's query (see :func:`workers.tools.make_corpus_tools`)."""

    topic: NotRequired[str]


def response_checks(name: str) -> AgentMiddleware:
    """An ``after_model`` middleware that raises the provider-side fault of an answer, if any
    (see :func:`workers.errors.response_fault`), naming the agent ``name``.

    Raises (from the agent's run):
        workers.errors.OutputCutOff: the answer stopped at the length limit (permanent).
        workers.errors.MalformedResponseError: a tool call without an id (transient).
    """

    @after_model(name=f"{name}_response_checks")
    def check(state: dict[str, Any], runtime: Any) -> None:
        messages = state.get("messages") or []
        if messages and (fault := response_fault(messages[-1], name)) is not None:
            raise fault
        return None

    return check


def rate_limit_waits(name: str) -> AgentMiddleware:
    """A ``wrap_model_call`` middleware that retries a rate-limited model request (HTTP 429)
    within its step, by the model's rate-limit patience (:func:`workers.pacing.patiently`):
    the agent's tool results so far are kept, and no ``RetryPolicy`` attempt is spent.
    LangChain's ``ModelRetryMiddleware`` does the same by attempt count; this one is bounded by
    time, the patience shared with the other roles.

    Raises (from the agent's run):
        workers.errors.RateLimitPatienceSpent: still rate-limited when the patience ran out.
    """

    @wrap_model_call(name=f"{name}_rate_limit_waits")
    def waits(request: Any, handler: Any) -> Any:
        return patiently(request.model, lambda: handler(request), name)

    return waits


def _passage_holding(corpus: Any, passage: Any, claim: str) -> Any:
    """The passage of ``passage``'s document that holds ``claim`` word for word (whitespace
    aside): ``passage`` itself when it does, or when no passage of the document does.

    ``read_document`` returns a whole document under the one ref it was asked for, so a claim
    quoted from it may come from a sibling passage (``doc#2`` read as ``doc#0``); citing the
    passage that really holds the sentence keeps every citation checkable.
    """
    want = " ".join(str(claim).split())
    if not want or want in " ".join(passage.text.split()):
        return passage
    seq = 0
    while (other := corpus.passage(f"{passage.doc_id}#{seq}")) is not None:
        if want in " ".join(other.text.split()):
            return other
        seq += 1
    return passage


def build_agent_runner(
    deps: WorkerDeps,
    *,
    name: str,
    system_prompt: str,
    schema: type[BaseModel],
    items_field: str,
    kind: ItemKind,
    tools: Sequence[BaseTool] = (),
) -> Callable[[Task], WorkerResult]:
    """Compile one ``create_agent`` graph and return ``run(task) -> WorkerResult`` using it.

    Args:
        deps: the injected model and corpus (``deps.model`` must support ``bind_tools``), and
            ``deps.web`` when the run searches the web (adds the ``search_web`` tool; claims
            citing a web page are checked through ``deps.corpus``, which then resolves both),
            and ``deps.tools`` (the operator's MCP tools, offered to every agent worker).
        name: the agent's name (shows in traces).
        system_prompt: the agent's role.
        schema: the pydantic ``response_format`` (used through ``ToolStrategy``, which works with
            every tool-calling model); its ``items_field`` is a list of ``{claim, ref}`` objects.
        items_field: the list field of ``schema`` holding the sourced claims.
        kind: the item kind the report groups by (``"finding"`` or ``"caveat"``).
        tools: more tools offered to the agent next to the corpus tools (docs/extending.md,
            "Add a tool"). A claim is kept only when its ref is a passage of ``deps.corpus``,
            so a tool whose answers are to be cited returns passages, as ``search_corpus``
            does (``{"results": [passage.to_dict(), ...]}``).

    Raises:
        ValueError: when ``deps.model`` is None, or a tool's name is taken.
    """
    if deps.model is None:
        raise ValueError(f"the {name} worker needs a chat model")
    agent = _compile_agent(deps, name, system_prompt, schema, _offered_tools(deps, name, tools))
    # the operator's tools and the web: a failure of either is handed to the agent, and named
    operator_tools = {t.name for t in deps.tools}
    if deps.web is not None:
        operator_tools.add(WEB_TOOL)

    def run(task: Task) -> WorkerResult:
        result = _invoke(agent, name, task)
        answer = result.get("structured_response")
        if answer is None:
            raise ValueError(f"{name} finished without a structured response")
        claims = list(getattr(answer, items_field))
        unread = _unread(claims, result["messages"], deps.corpus)
        items = _cited_items([c for c in claims if str(c.ref) not in unread], kind,
                             deps.corpus)
        tool_calls = sum(
            len(m.tool_calls) for m in result["messages"] if isinstance(m, AIMessage)
        )
        notes = _failed_tools(result["messages"], operator_tools)
        extra = {"tool_calls": tool_calls, "tool_errors": len(notes)}
        notes += _tool_notes(result["messages"], operator_tools)
        if unread:  # cited without being read: counted in the row, said in the notes
            extra["dropped_unretrieved"] = len(unread)
            notes.append(unretrieved_note(name, unread))
        return WorkerResult(items=items, extra=extra, state={"notes": notes} if notes else {})

    return run


def _unread(claims: Sequence[Any], messages: Sequence[Any], corpus: Any) -> list[str]:
    """The refs of ``claims`` whose passage no tool of the task returned
    (:func:`retrieved_documents`). A ref no source knows is left to the node's one check
    (``sourced_items``); one it knows is compared as the source spells it (a web page's URL as
    ``search_web`` returned it)."""
    read = retrieved_documents(messages)
    return [str(c.ref) for c in claims if (known := corpus.passage(str(c.ref))) is not None
            and _document(known.ref) not in read]


def retrieved_documents(messages: Sequence[Any]) -> set[str]:
    """The documents (``doc_id``: a ref less its ``#n``) whose passages the task's tools
    returned: every ``ref`` in the JSON of its successful ``ToolMessage``s (search results, a
    read document, an operator's tool answering with passages). A claim may cite only these:
    a model that cites a real passage it never retrieved (one it remembers, or guessed) has
    not read it (such a claim once led the report's Answer).

    Example:
        >>> retrieved_documents([ToolMessage('{"results": [{"ref": "a.md#2"}]}',
        ...                                  tool_call_id="1")])
        {'a.md'}
    """
    found: set[str] = set()
    for message in messages:
        if isinstance(message, ToolMessage) and message.status != "error":
            try:
                data = json.loads(message_text(message.content))
            except ValueError:
                continue
            found.update(_document(ref) for ref in _refs(data))
    return found


def _refs(data: Any) -> list[str]:
    """Every string value of a ``"ref"`` key in JSON ``data``, at any depth."""
    if isinstance(data, dict):
        own = [data["ref"]] if isinstance(data.get("ref"), str) else []
        return own + [r for value in data.values() for r in _refs(value)]
    if isinstance(data, list):
        return [r for value in data for r in _refs(value)]
    return []


def _document(ref: str) -> str:
    """The document of a passage ref: ``"a.md#2"`` -> ``"a.md"`` (a bare ``doc_id`` is one)."""
    return ref.strip().rsplit("#", 1)[0]


def unretrieved_note(name: str, refs: Sequence[str], shown: int = 3) -> str:
    """The run note of the claims agent ``name`` cited ``refs`` with, passages none of its
    task's tools returned (:func:`retrieved_documents`).

    Example:
        >>> print(unretrieved_note("analyst", ["a.md#1"]))
        analyst: 1 item(s) dropped, their ref names a passage no tool of its task returned: \
'a.md#1'
    """
    return (f"{name}: {len(refs)} item(s) dropped, their ref names a passage no tool of its "
            f"task returned: {named_refs(refs, shown)}")


def _failed_tools(messages: Sequence[Any], names: set[str]) -> list[str]:
    """One note per failed call of the operator's tools ``names`` (an error ``ToolMessage``:
    the tool handed its failure back, and the agent answered without it)."""
    return [f"{message_text(m.content)}{ANSWERED_WITHOUT}" for m in messages
            if isinstance(m, ToolMessage) and m.status == "error" and m.name in names]


def _tool_notes(messages: Sequence[Any], names: set[str]) -> list[str]:
    """The ``"note"`` of each answer of the operator's tools ``names`` that carries one (an
    MCP answer that held an image beside its text: ``workers.mcp_tools``)."""
    notes = []
    for m in messages:
        if isinstance(m, ToolMessage) and m.status != "error" and m.name in names:
            try:
                data = json.loads(message_text(m.content))
            except ValueError:
                continue
            if isinstance(data, dict) and isinstance(data.get("note"), str):
                notes.append(data["note"])
    return notes


def _offered_tools(deps: WorkerDeps, name: str, tools: Sequence[BaseTool]) -> list[BaseTool]:
    """The tools an agent worker is offered: the corpus tools, ``search_web`` with ``--web``,
    the operator's MCP tools, then the worker's own ``tools``.

    Raises:
        ValueError: two tools share a name.
    """
    offered = make_corpus_tools(deps.corpus, k=deps.search_k)
    if deps.web is not None:  # --web: the agent may search the web too (search_web)
        offered += make_web_tools(deps.web, k=deps.search_k)
    offered += list(deps.tools) + list(tools)  # the operator's (MCP), then the worker's own
    names = [t.name for t in offered]
    if len(set(names)) != len(names):
        raise ValueError(f"the {name} worker's tools must have unique names: {names}")
    return offered


def _compile_agent(deps: WorkerDeps, name: str, system_prompt: str, schema: type[BaseModel],
                   offered: list[BaseTool]) -> Any:
    """The ``create_agent`` graph of one worker: ``schema`` through ``ToolStrategy``, the
    middleware of the module's docstring, no checkpointer, :class:`TopicState`."""
    # handle_errors=False: a broken answer reaches AnswerProtocol, which bounds the corrections.
    strategy = ToolStrategy(schema, handle_errors=False)
    return create_agent(
        deps.model,
        tools=offered,
        system_prompt=system_prompt,
        response_format=strategy,
        middleware=[response_checks(name), AnswerProtocol(name, strategy),
                    rate_limit_waits(name)],
        name=name,
        checkpointer=False,
        state_schema=TopicState,
    )


def _invoke(agent: Any, name: str, task: Task) -> dict[str, Any]:
    """Run ``agent`` on ``task``'s sub-question, within :data:`AGENT_RECURSION_LIMIT` steps.

    Raises:
        workers.errors.AnswerProtocolError: the model kept calling tools without answering.
    """
    # The message is the sub-question alone: it already names the topic, and it is what the
    # agent should search for. The topic rides in the agent's state for the search tool.
    try:
        return agent.invoke(
            {"messages": [HumanMessage(task["sub_question"])],
             "topic": task.get("focus") or task["topic"]},
            # A model that keeps calling tools without answering would loop to the default
            # limit (9999 steps). Bound it, and say so in this task's error envelope.
            {"recursion_limit": AGENT_RECURSION_LIMIT},
            durability="exit",
        )
    except GraphRecursionError as exc:
        raise AnswerProtocolError(
            f"{name} gave no structured answer within {AGENT_RECURSION_LIMIT} agent steps "
            "(model and tool calls): the model kept calling tools") from exc


MAX_CLAIM_CHARS = 2_000
"""The longest claim kept, cut at a space with ``[…]`` (as a web snippet is,
:data:`workers.sources.web_answer.MAX_SNIPPET_CHARS`): a claim is one sentence, and a model's
1 MB "sentence" was stored whole in every row and checkpoint for a report that showed 400
characters of it (trial 83, F3)."""


def _cited_items(claims: Sequence[Any], kind: ItemKind, corpus: Any) -> list[ResultItem]:
    """The answer's ``{claim, ref}`` objects as result items, each citing the passage of its
    ref's document that holds the claim (:func:`_passage_holding`), its text at most
    :data:`MAX_CLAIM_CHARS`. A claim whose ref is no
    passage of ``corpus`` keeps its ref: the node wrapper drops it, counts it
    (``dropped_unsourced``) and notes it, as it does for every worker
    (:func:`workers.node_steps.sourced_items`)."""
    items: list[ResultItem] = []
    for claim in claims:
        passage = corpus.passage(claim.ref)
        if passage is not None:
            passage = _passage_holding(corpus, passage, claim.claim)
        items.append({
            "kind": kind,
            "text": clip(str(claim.claim), MAX_CLAIM_CHARS),
            "ref": passage.ref if passage else str(claim.ref),
            "title": passage.title if passage else "",
            "source": passage.source if passage else "",
            # the section it is cut from, for the report's Sources
            **({"heading": passage.heading} if passage and passage.heading else {}),
        })
    return items
