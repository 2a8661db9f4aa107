"""The model's HTTP client: ``RESEARCH_TIMEOUT`` bounds each whole request, and a stopping run
stops waiting for it.

``openai`` passes the timeout to its HTTP client, which applies it per operation (connect, each
read): a server that sent its headers and then one byte a second held the planner's first
request, and the run, for 200 s under ``RESEARCH_TIMEOUT=5``, and a Ctrl-C for the rest of the
request. The transport of :func:`deadline_client` sends each request and reads its answer whole
within the timeout (:func:`workers.deadline.within`): past it, the client's ``ReadTimeout``,
which ``openai`` raises as its ``APITimeoutError`` (the line names ``RESEARCH_TIMEOUT``); on a
stop, :class:`workers.errors.RunCancelled` (``openai`` wraps it; :class:`app.llm.provider.
ProviderGuard` raises it again). An answer is read up to ``MAX_ANSWER_BYTES`` once
decompressed, as a web search's is (:mod:`workers.sources.web_requests`): past it, a
:class:`workers.errors.MalformedResponseError` naming the size, retried like any malformed
answer (a server answering 200 MB was read whole before ``openai`` parsed it).

``openai`` 3 is built on ``httpx2``, earlier releases on ``httpx``: the transport subclasses
the one the installed ``openai.DefaultHttpxClient`` is built on.

Source of the idea: ``httpx``'s "Transports" and "Timeouts" docs; ``openai``'s
``DefaultHttpxClient`` (its connection limits and redirects, kept here).
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

from workers.deadline import within
from workers.errors import MalformedResponseError
from workers.sources.web_requests import MAX_ANSWER_BYTES

__all__ = ["deadline_client", "deadline_transport"]


def deadline_client(seconds: float) -> Any:
    """An ``openai.DefaultHttpxClient`` whose requests are bounded whole, ``seconds`` each
    (:func:`deadline_transport`)."""
    import openai

    http = _http_module(openai.DefaultHttpxClient)
    limits = getattr(importlib.import_module("openai._constants"), "DEFAULT_CONNECTION_LIMITS",
                     None)
    transport = deadline_transport(http)(seconds, **({"limits": limits} if limits else {}))
    return openai.DefaultHttpxClient(transport=transport, timeout=seconds)


def _http_module(client: type) -> ModuleType:
    """The HTTP package a client class is built on (``httpx2`` or ``httpx``)."""
    base = next(c for c in client.__mro__ if c.__name__ == "Client")
    return importlib.import_module(base.__module__.partition(".")[0])


@functools.cache
def deadline_transport(http: ModuleType) -> type:
    """The transport class, for the HTTP package ``http`` (``httpx`` or ``httpx2``): an
    ``HTTPTransport`` whose ``handle_request`` sends the request and reads its answer whole
    within ``seconds`` (its first argument), or raises ``http.ReadTimeout``; an answer past
    ``MAX_ANSWER_BYTES`` once decompressed raises
    :class:`~workers.errors.MalformedResponseError` (:func:`_decoded`)."""

    class DeadlineTransport(http.HTTPTransport):  # type: ignore[name-defined,misc]
        def __init__(self, seconds: float, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.seconds = float(seconds)

        def handle_request(self, request: Any) -> Any:
            opened: list[Any] = []  # the response, once its headers came

            def send() -> Any:
                response = super(DeadlineTransport, self).handle_request(request)
                opened.append(response)
                try:
                    body = _decoded(response)
                finally:
                    response.close()
                # the body as decoded: the client decodes nothing again
                headers = [(k, v) for k, v in response.headers.multi_items()
                           if k.lower() not in _ENCODING_HEADERS]
                return http.Response(response.status_code, headers=headers, content=body,
                                     request=request, extensions=response.extensions)

            try:
                return within(send, self.seconds, "the model server's answer")
            except BaseException as exc:
                for response in opened:  # given up on: its connection closed, so the call
                    response.close()  # left behind ends now, not when the server stops (once
                # its headers came: a server dripping them holds the thread until httpx's
                # per-read timeout, each header line restarting it)
                if isinstance(exc, TimeoutError):
                    raise http.ReadTimeout(f"no complete answer within {self.seconds:g} s",
                                           request=request) from None
                raise

    return DeadlineTransport



_ENCODING_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})


def _decoded(response: Any) -> bytes:
    """A response's body, decompressed as it comes, at most ``MAX_ANSWER_BYTES``: counted as
    sent, a gzip answer of 2 MB inflated to 2 GB before anything looked at it (a run's memory
    went to 10.6 GB).

    Raises:
        MalformedResponseError: the answer is larger, decompressed.
    """
    chunks, size = [], 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise MalformedResponseError(
                f"the model server sent an answer larger than {MAX_ANSWER_BYTES // 2**20} MB "
                "(decompressed); it was not read: a malformed response")
        chunks.append(chunk)
    return b"".join(chunks)
