"""The LangChain tools the agent workers bind: search the corpus, read one of its documents.

``make_corpus_tools(corpus)`` builds fresh tools that close over that corpus (any
:class:`workers.sources.Source`), so each graph build binds its own. Both tools return JSON
strings (what a ``ToolMessage`` carries) in the shape of :meth:`Passage.to_dict`; the parsers here
turn those strings back: ``parse_search_results`` / ``parse_document`` into dicts (for tests that
read tool messages), ``parse_search_passages`` / ``parse_read_passages`` into
:class:`~workers.sources.Passage` objects (what the offline model reads: one parser, one
``Passage``, for the tools and the model that drives them).

``search_corpus`` result::

    {"results": [{"ref": "langgraph.types.RetryPolicy#0", "title": "...", "source": "...",
                  "text": "...", "score": 10.072}]}

``read_document`` result::

    {"ref": "langgraph.types.RetryPolicy#0", "title": "...", "source": "...", "text": "..."}
    {"error": "no document with ref 'x#9'"}
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.prebuilt import InjectedState

from workers.errors import (
    RateLimitPatienceSpent,
    RetryAfterTooLong,
    is_fatal,
    is_rate_limited,
    one_line,
)
from workers.sources import CorpusError, Passage, Source
from workers.sources.web import UNREACHED, unreached_source

__all__ = [
    "READ_MAX_CHARS",
    "READ_TOOL",
    "SEARCH_TOOL",
    "WEB_TOOL",
    "make_corpus_tools",
    "make_web_tools",
    "message_text",
    "parse_document",
    "parse_read_passages",
    "parse_search_passages",
    "parse_search_results",
]

SEARCH_TOOL = "search_corpus"
READ_TOOL = "read_document"
WEB_TOOL = "search_web"
READ_MAX_CHARS = 6000
"""``read_document`` returns at most about this many characters of a document."""

_SEARCH_DESCRIPTION = """\
Search the reference corpus ({description}) for passages relevant to a question.

Input: `query`, a few plain keywords or a short question (e.g. "checkpointer pending writes"). \
Operators and quotes are not needed: the words are matched with stemming and ranked by BM25.
Output: JSON {{"results": [{{"ref", "title", "source", "text", "score"}}]}}, best match first, \
at most {k} results; an empty list means nothing matched, so try other or fewer words.
Cite a passage by its exact `ref` (e.g. "langgraph.types.RetryPolicy#0"). To see the rest of a \
document, call read_document with that ref."""

_READ_DESCRIPTION = """\
Read a whole document from the reference corpus.

Input: `ref`, a passage ref exactly as search_corpus returned it (e.g. \
"langgraph.types.RetryPolicy#0"), or a document id (the ref without "#n").
Output: JSON {{"ref", "title", "source", "text"}} with the document text (about {max_chars} \
characters at most, around the requested passage; cuts are marked […]), or {{"error": ...}} \
when no document has that ref."""


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


def make_corpus_tools(corpus: Source, k: int = 5) -> list[BaseTool]:
    """Build the ``search_corpus`` and ``read_document`` tools over ``corpus``.

    Args:
        corpus: an open source (:class:`~workers.sources.Source`, e.g. a
            :class:`~workers.sources.Corpus`); the tools close over it (they do not close it).
        k: how many passages ``search_corpus`` returns at most (>= 1).

    Returns:
        ``[search_tool, read_tool]``, named ``SEARCH_TOOL`` and ``READ_TOOL``. Both return JSON
        strings and never raise for bad input: a corpus failure comes back as an ``"error"`` key.

    Raises:
        ValueError: ``k`` is less than 1.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")

    def search_corpus(
        query: str, topic: Annotated[str | None, InjectedState("topic")] = None
    ) -> str:
        # Inside an agent whose state carries the run's topic (workers.agent.TopicState),
        # LangGraph injects it (the model never sees the argument): the search is focused on
        # the topic's own words. Only the field is injected, never the whole ToolRuntime, which
        # pydantic would try to serialize with the run's context.
        focus = topic if isinstance(topic, str) and topic.strip() else None
        try:
            passages = corpus.search(query, k=k, focus=focus)
        except CorpusError as exc:
            return _dumps({"results": [], "error": str(exc)})
        return _dumps({"results": [p.to_dict() for p in passages]})

    def read_document(ref: str) -> str:
        try:
            doc = corpus.read(ref, max_chars=READ_MAX_CHARS)
        except CorpusError as exc:
            return _dumps({"error": str(exc)})
        if doc is None:
            return _dumps({"error": f"no document with ref {ref!r}"})
        ref = ref.strip()
        cited = ref if "#" in ref and ref != doc.doc_id else f"{doc.doc_id}#0"
        return _dumps({"ref": cited, "title": doc.title, "source": doc.source, "text": doc.text})

    search_tool = StructuredTool.from_function(
        func=search_corpus,
        name=SEARCH_TOOL,
        description=_SEARCH_DESCRIPTION.format(description=corpus.description, k=k),
    )
    read_tool = StructuredTool.from_function(
        func=read_document,
        name=READ_TOOL,
        description=_READ_DESCRIPTION.format(max_chars=READ_MAX_CHARS),
    )
    return [search_tool, read_tool]


_WEB_DESCRIPTION = """\
Search the web for pages relevant to a question.

Input: `query`, a few keywords or a short question. Output: JSON {{"results": [{{"ref", "title", \
"source", "text", "score"}}]}}, best match first, at most {k} results: `source` is the page's URL \
and `text` its snippet. Cite a result by its exact `ref` (the URL followed by "#0"); \
read_document with that ref returns the page's text."""


def make_web_tools(web: Source, k: int = 5) -> list[BaseTool]:
    """Build the ``search_web`` tool over a web source (``workers.sources.web.WebSource``).

    Same output shape as ``search_corpus`` (so one parser reads both). A bad key raises (it
    stops the run); a search API that cannot be reached, times out or fails after the source's
    own retries (``workers.sources.web.UNREACHED``), or stays rate-limited past the patience
    the source waits (``RateLimitPatienceSpent``, a ``Retry-After`` too long), is handed back to
    the agent as an error result, as a failed MCP tool is, so the agent answers from the corpus
    and the run's notes name what it did without (once, with SearXNG down or its limiter
    answering 429, the analyst and the critic failed for good and their corpus findings were
    lost).

    Raises:
        ValueError: ``k`` is less than 1.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")

    def search_web(query: str) -> str:
        try:
            return _dumps({"results": [p.to_dict() for p in web.search(query, k=k)]})
        except (*UNREACHED, RetryAfterTooLong, RateLimitPatienceSpent) as exc:
            if is_fatal(exc) or is_rate_limited(exc):
                raise  # a bad key stops the run; a rate limit the source did not wait out
            # unreached, or rate-limited past the patience the source waited: the agent
            # answers from its other tools; named as the web_search worker names it
            raise ToolException(unreached_source(one_line(exc)) or str(exc)) from exc

    tool = StructuredTool.from_function(
        func=search_web, name=WEB_TOOL, description=_WEB_DESCRIPTION.format(k=k)
    )
    tool.handle_tool_error = True  # a ToolException: a ToolMessage with status "error"
    return [tool]


def message_text(content: Any) -> str:
    """The text of a message's content: a string, or a list of text blocks/strings."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "".join(parts)
    return ""


def _loads(content: Any) -> Any:
    try:
        return json.loads(message_text(content))
    except (TypeError, ValueError):
        return None


def parse_search_results(content: Any) -> list[dict]:
    """The ``results`` list of a ``search_corpus`` output (a JSON string, or a message content
    list of text blocks); ``[]`` when it is empty, an error, or not a search result at all.
    Each item is a dict with ``ref``, ``title``, ``source``, ``text`` and ``score``."""
    data = _loads(content)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        return []
    return [r for r in data["results"] if isinstance(r, dict) and isinstance(r.get("ref"), str)]


def parse_document(content: Any) -> dict | None:
    """The ``{"ref", "title", "source", "text"}`` dict of a ``read_document`` output, or None
    when it is an error or not a document at all."""
    data = _loads(content)
    if not isinstance(data, dict) or "error" in data:
        return None
    if not isinstance(data.get("ref"), str) or not isinstance(data.get("text"), str):
        return None
    return data


def parse_search_passages(content: Any) -> list[Passage]:
    """The passages of a ``search_corpus`` output, best first, as :class:`Passage` objects;
    items without a ref or text are left out (see :meth:`Passage.from_dict`)."""
    found = (Passage.from_dict(item) for item in parse_search_results(content))
    return [p for p in found if p is not None]


def parse_read_passages(content: Any) -> list[Passage]:
    """The citable passages of a read result: ``{"passages": [{"ref", "text", ...}, ...]}``.

    ``read_document`` returns ``{"ref", "title", "source", "text"}`` where ``text`` is a window of
    the whole document but ``ref`` is the one passage asked for: a sentence of that text may
    belong to another passage, so such a result names no passage it could be cited by and gives
    ``[]``. A read tool that names its passages gets them cited one by one. Errors and junk give
    ``[]``.
    """
    data = _loads(content)
    items = data.get("passages") if isinstance(data, dict) and "error" not in data else None
    if not isinstance(items, list):
        return []
    found = (Passage.from_dict(item) for item in items)
    return [p for p in found if p is not None]
