"""What a search service's answer may bring into a run: its shape checked, every size bounded.

A search service (Tavily, a SearXNG instance, a proxy in front of either) is a peer on the
network: what it sends is data to check where it enters, never a shape to trust. Before, the web
source stored and passed on whatever came: a 10 MB snippet was one passage, so the
offline model spun on it for over 900 s, and a run with a model wrote 190 MB to the data dir for
a 1.7 KB report; ``{"results": {...}}`` or ``"results": "none"`` failed the analyst and the
critic with a raw ``AttributeError``, though the README promises that they carry on from
the corpus when the web search fails.

:func:`answer_results` is the one gate, called by :class:`workers.sources.web.WebSource` for
every provider (a :data:`~workers.sources.web.SearchFn` of one's own included):

- **Shape.** An answer that is not a JSON object, whose ``results`` is not a list (``null`` or
  absent is an empty answer), or whose results are none of them objects, is no answer:
  :class:`UnusableAnswer` says how, the web source raises it as a
  :class:`~workers.sources.web.WebSearchError` naming the provider, and nothing is cached (a
  later task asks again). A result that is no object among others is left out; a field of
  another type than a string (``"url": 12345``, ``"title": ["a"]``) counts as absent.
- **Sizes.** At most ``limit`` results are kept (the number asked, ``MAX_WEB_RESULTS``: 8). A
  URL longer than :data:`MAX_URL_CHARS` is left out (cut, it would name another page). The
  title is cut at :data:`MAX_TITLE_CHARS`, the snippet at :data:`MAX_SNIPPET_CHARS`, the page
  text (Tavily's ``raw_content``) at :data:`MAX_PAGE_CHARS`, each at a space with ``[…]``.
  ``WebSource`` cuts what an older cache holds the same way when it reads it.

Sources of the bounds: the sitemaps protocol's URL limit ("less than 2,048 characters",
sitemaps.org/protocol.html); the snippets Tavily and SearXNG send are a few hundred characters
(the tests' stand-ins, ``tests/tavily_server.py``, copy their shape), so 2,000 leaves room for a
long one and none for a page. :data:`MAX_PAGE_CHARS` is about a long article: ``read_document``
shows 6,000 characters of a page, and its passages are cut from the text kept. Only the standard
library and :func:`~workers.sources.urls.page_url`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workers.sources.urls import page_url

__all__ = [
    "MAX_PAGE_CHARS",
    "MAX_SNIPPET_CHARS",
    "MAX_TITLE_CHARS",
    "MAX_URL_CHARS",
    "UnusableAnswer",
    "WebResult",
    "answer_results",
    "clip",
    "unusable",
]

MAX_URL_CHARS = 2048
"""A result whose URL is longer is left out."""
MAX_TITLE_CHARS = 300
"""Characters of a page's title kept."""
MAX_SNIPPET_CHARS = 2000
"""Characters of a result's snippet (Tavily's ``content``, SearXNG's) kept: its passage ``#0``."""
MAX_PAGE_CHARS = 100_000
"""Characters of a page's text (Tavily's ``raw_content``) kept: its passages ``#1``, ``#2``..."""

_MARK = " […]"


class UnusableAnswer(ValueError):
    """A search answer of another shape than a search answer's; the message says what came
    (``"its results are a string, not a list"``)."""


@dataclass(frozen=True)
class WebResult:
    """One usable result: its URL spelled one way (:func:`page_url`), and its bounded texts."""

    url: str
    title: str
    snippet: str
    content: str


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a space when one is near the end, the
    cut marked ``[…]``; unchanged when it fits (so cutting twice changes nothing).

    Example:
        >>> clip("pending writes are saved", 18)
        'pending writes […]'
        >>> clip("short", 18)
        'short'
    """
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - len(_MARK))]
    space = cut.rfind(" ")
    if space >= len(cut) * 4 // 5:
        cut = cut[:space]
    return cut.rstrip() + _MARK


def _kind(value: Any) -> str:
    """What JSON ``value`` is, for a message: ``"a string"``, ``"null"``, ``"a JSON object"``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    for types, name in ((str, "a string"), ((int, float), "a number"), (dict, "a JSON object"),
                        (list, "a list")):
        if isinstance(value, types):
            return name
    return type(value).__name__


def _words(value: Any, limit: int) -> str:
    """A string field's text on one line, at most ``limit`` characters ("" for another type).
    Only a slice is flattened, so a 10 MB field costs no more than a small one."""
    if not isinstance(value, str):
        return ""
    return clip(" ".join(value[: 4 * limit].split()), limit)


def _result(item: Any) -> WebResult | None:
    """One result of an answer, bounded; None when it is no object, or has no usable URL or
    text (a result with no URL is dropped, and one with no text has nothing to cite)."""
    if not isinstance(item, dict):
        return None
    url = item.get("url")
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS or (url := page_url(url)) is None:
        return None
    snippet = _words(item.get("content"), MAX_SNIPPET_CHARS)
    raw = item.get("raw_content")
    content = clip(raw.strip(), MAX_PAGE_CHARS) if isinstance(raw, str) else ""
    content = content or snippet
    snippet = snippet or _words(content, 500)
    if not snippet:
        return None
    return WebResult(url, _words(item.get("title"), MAX_TITLE_CHARS) or url, snippet, content)


def unusable(answer: Any) -> str | None:
    """Why ``answer`` (parsed JSON) is no search answer, or None when it is one: not an
    object, ``results`` not a list (``null`` or absent: no results), or a list with none of its
    results an object.

    Example:
        >>> unusable([]), unusable({"results": {"url": "x"}}), unusable({"results": None})
        ('it is a list, not a JSON object', 'its results are a JSON object, not a list', None)
    """
    if not isinstance(answer, dict):
        return f"it is {_kind(answer)}, not a JSON object"
    items = answer.get("results")
    if items is not None and not isinstance(items, list):
        return f"its results are {_kind(items)}, not a list"
    if items and not any(isinstance(item, dict) for item in items):
        return (f"none of its {len(items)} result(s) is a JSON object (the first is "
                f"{_kind(items[0])})")
    return None


def answer_results(answer: Any, limit: int) -> list[WebResult]:
    """The usable results of a search answer (``{"results": [{"url", "title", "content",
    "raw_content"?}, ...]}``), in its order, each URL once (another spelling of a page listed:
    the first wins), at most ``limit`` of them, every text bounded (see the module).

    Raises:
        UnusableAnswer: the answer is not an object, its ``results`` not a list, or none of its
            results is an object.

    Example:
        >>> [r.url for r in answer_results({"results": [None, {"url": "https://A.org/x/",
        ...                                  "content": "text"}]}, 8)]
        ['https://a.org/x']
        >>> answer_results({"results": "none"}, 8)
        Traceback (most recent call last):
        ...
        workers.sources.web_answer.UnusableAnswer: its results are a string, not a list
    """
    if (why := unusable(answer)) is not None:
        raise UnusableAnswer(why)
    items = answer.get("results") or []
    out: list[WebResult] = []
    for item in items:
        if len(out) >= limit:
            break
        result = _result(item)
        if result is not None and all(result.url != kept.url for kept in out):
            out.append(result)
    return out
