"""A model call that failed on its way to or from the model server, said in words that name the
model and the server: ``openai``'s ``APIConnectionError`` reads "Connection error." and its
timeout "Request timed out.", naming neither, though the server may be down, slow, cut its
answer off, or redirect the request to where nothing answers. Split from
:mod:`app.llm.provider`, whose :class:`~app.llm.provider.ProviderGuard` calls
:func:`name_the_server` on every failed call.

Source: ``openai``'s ``APIConnectionError`` and ``APITimeoutError``, ``httpx``'s errors and
their ``request``.
"""

from __future__ import annotations

import sys
from urllib.parse import urlsplit, urlunsplit

from workers.errors import causes

__all__ = ["name_the_server", "redirected_to"]


def name_the_server(error: BaseException, label: str, where: str = "") -> None:
    """Say in a connection error or timeout which model and server it was: ``openai``'s
    ``APIConnectionError`` reads "Connection error." and its timeout "Request timed out.",
    naming neither. The error keeps its type (transient: retried); its message (``args``,
    ``message``) is rewritten in place.

    Example:
        >>> err = ConnectionError("Connection error.")
        >>> name_the_server(err, "openai:tiny", "http://127.0.0.1:11434/v1")
        >>> print(err)
        openai:tiny: cannot reach the model server at http://127.0.0.1:11434/v1 (Connection \
error.): is it running, at that address?
    """
    openai = sys.modules.get("openai")  # an openai error exists only if it was imported
    timeout = openai is not None and isinstance(error, openai.APITimeoutError)
    if not timeout and not isinstance(error, ConnectionError) and not (
            openai is not None and isinstance(error, openai.APIConnectionError)):
        return
    at = f" at {where}" if where else ""
    said = " ".join(str(error).split()) or type(error).__name__
    if said.startswith(f"{label}: "):  # named already (the same error seen twice)
        return
    if (cut := _cut_answer(error)) is not None:  # it answered, and stopped mid-way
        text = (f"{label}: the model server{at} closed the connection before its answer was "
                f"complete ({' '.join(str(cut).split()) or type(cut).__name__})")
    elif (to := redirected_to(error)) is not None:  # it answered, with a redirect
        why = " ".join(str(list(causes(error))[-1]).split()) or said  # "Connection refused"
        text = (f"{label}: the model server{at} redirected the request to {to}, which "
                + ("gave no answer within the timeout (RESEARCH_TIMEOUT)" if timeout else
                   f"cannot be reached ({why})") + ": set OPENAI_BASE_URL to where it serves")
    else:
        text = (f"{label}: no answer from the model server{at} within the timeout ({said}): "
                "RESEARCH_TIMEOUT sets it" if timeout else
                f"{label}: cannot reach the model server{at} ({said}): is it running, at that "
                "address?")
    error.args = (text,)
    if isinstance(getattr(error, "message", None), str):
        try:
            error.message = text  # type: ignore[attr-defined]
        except AttributeError:
            pass


def _cut_answer(error: BaseException) -> BaseException | None:
    """The HTTP client's error in ``error``'s causes when the server closed the connection
    mid-answer (a ``RemoteProtocolError``, of httpx, the copy the openai client ships, httpcore
    or h11: "peer closed connection without sending complete message body"), else None: the
    server was reached (trial 70, F4: said "cannot reach ...: is it running?")."""
    return next((c for c in causes(error) if type(c).__name__ == "RemoteProtocolError"), None)


def redirected_to(error: BaseException) -> str | None:
    """Where the request that failed was sent when a redirect sent it elsewhere, else None:
    the URL of the innermost error's request (``httpx``'s, after the client followed the
    redirect) when it is not the outermost's (the ``openai`` error's, the URL asked), without
    user info or query. A server that redirects to a closed port was "cannot reach the model
    server ...: is it running?", and it was.

    Example:
        >>> import httpx
        >>> asked = httpx.Request("POST", "http://127.0.0.1:8000/v1/chat/completions")
        >>> sent = httpx.Request("POST", "http://u:pw@127.0.0.1:9/v1/chat/completions?k=1")
        >>> try:
        ...     try:
        ...         raise httpx.ConnectError("refused", request=sent)
        ...     except httpx.ConnectError as inner:
        ...         raise httpx.ConnectError("Connection error.", request=asked) from inner
        ... except httpx.ConnectError as outer:
        ...     redirected_to(outer)
        'http://127.0.0.1:9/v1/chat/completions'
    """
    urls = []
    for current in causes(error):
        try:
            url = getattr(getattr(current, "request", None), "url", None)
        except RuntimeError:  # httpx: "The .request property has not been set."
            continue
        if url is not None:
            urls.append(str(url))
    if len(urls) < 2 or urls[0] == urls[-1]:
        return None
    parts = urlsplit(urls[-1])
    host = f"{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
