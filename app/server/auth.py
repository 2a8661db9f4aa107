"""Who may call the served graph: a ``langgraph_sdk.Auth`` handler, named by ``langgraph.json``.

Off when the operator configures no tokens (``langgraph dev`` on a laptop stays open: every
request is let through, as without auth, and threads are shared). With ``RESEARCH_API_TOKENS``
(comma-separated ``TOKEN=USER`` pairs, split at the last ``=``: a token may end in base64's
``=`` padding; read from the environment or ``.env`` once, at import):

* every request needs ``Authorization: Bearer TOKEN``; without one, or with an unknown one, the
  server answers 401;
* each user sees, runs and resumes only their own threads (and runs, crons, assistants they
  made): the handler stamps ``owner`` into the metadata of what a user creates and returns it
  as the filter of every read, search, update and run, so another user's thread is a 404;
* the store is each user's own: ``@auth.on.store`` puts the user's identity in front of every
  namespace a request names (alice's ``("notes",)`` is ``("alice", "notes")``; the items and
  namespaces the server hands back carry it), so no user reads, overwrites, lists or deletes
  another's items (the global handler's filter does not reach the store). The graph does not
  use the store; a node that did (``runtime.store``) would scope it itself, by
  ``runtime.server_info.user.identity`` (LangGraph's public ``Runtime`` field,
  ``langgraph/runtime.py``: ``"anonymous"`` while auth is off; ``runtime.server_info`` is None
  outside LangGraph Server);
* ``langgraph.json`` sets ``"disable_studio_auth": true``, so a request with
  ``x-auth-scheme: langsmith`` is not let through as the Studio user: it needs a token too.

With or without tokens, ``@auth.on.threads.create_run`` refuses, before the run exists, what a
run's request alone shows it cannot do (:mod:`app.server.prerun`): a bad topic or ``as_of``, a
``durability`` other than the operator's, a key of LangGraph's runtime (400), a new input without
review on a thread paused at a review, a run on another ``corpus_name`` than the thread's plan
(409); ``@auth.on.threads.delete`` refuses deleting a thread (or a run) while a run of it is
in flight (409: :mod:`app.server.deletes`); ``@auth.on.assistants.create`` and ``update``
refuse an assistant naming LangGraph's runtime, ``@auth.on.crons.create`` and ``update`` a cron
whose runs would be refused (400).

Source: LangGraph's "Add custom authentication", "Make conversations private" and "Isolate
store data per user" guides (``@auth.authenticate``, a global ``@auth.on`` handler returning
``{"owner": ...}`` filters, an ``@auth.on.store`` handler rewriting ``value["namespace"]``).
"""

from __future__ import annotations

import functools
import hmac
from typing import Any

from langgraph_sdk import Auth

from app.server.deletes import deletion_problem
from app.server.prerun import input_problem, refusal
from app.server.run_settings import settings_problem
from app.settings.checks import split_api_token
from app.settings.client import request_problem
from app.settings.env import load_settings

__all__ = ["auth", "tokens_of"]


def tokens_of(pairs: tuple[str, ...]) -> dict[str, str]:
    """``RESEARCH_API_TOKENS`` items (``TOKEN=USER``, checked by
    :func:`app.settings.checks.check_api_token`) as ``{token: user}``.

    Example:
        >>> tokens_of(("c2VjcmV0dG9rZW4==alice", "bob-token-9c2e=bob"))
        {'c2VjcmV0dG9rZW4=': 'alice', 'bob-token-9c2e': 'bob'}
    """
    return dict(split_api_token(pair) for pair in pairs)


SETTINGS = load_settings(warn=lambda line: None)  # app/server/studio.py warns
"""The operator's settings, read once."""
TOKENS = tokens_of(SETTINGS.api_tokens)
"""The operator's tokens (empty: auth is off)."""

ANONYMOUS = "anonymous"
"""The identity of every request while auth is off."""

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """The user a request's ``Authorization: Bearer TOKEN`` names.

    Raises:
        Auth.exceptions.HTTPException: 401, the token is missing or unknown (auth on).
    """
    if not TOKENS:
        return {"identity": ANONYMOUS, "is_authenticated": True}
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() == "bearer" and token:
        for known, user in TOKENS.items():
            if hmac.compare_digest(known.encode(), token.strip().encode()):
                return {"identity": user, "is_authenticated": True}
    raise Auth.exceptions.HTTPException(status_code=401, detail="a valid bearer token is needed")


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str] | None:
    """Every resource and action: stamp the caller as ``owner`` of what it creates, and filter
    what it reads or runs to what it owns (None, no filter, while auth is off)."""
    if not TOKENS:
        return None
    filters = {"owner": ctx.user.identity}
    if isinstance(value, dict):  # as the guide does: harmless on a read, stamps a create
        if value.get("metadata") is None:
            value["metadata"] = {}
        value["metadata"].update(filters)
    return filters


@auth.on.store()
async def own_store(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> None:
    """Every store operation: the namespace it names (a prefix, for a search or a listing; none:
    all of them) is put under the caller's identity, so a user reaches only their own items
    (nothing while auth is off: the store is shared, as the threads are)."""
    if not TOKENS:
        return
    value["namespace"] = (ctx.user.identity, *(value.get("namespace") or ()))


@functools.cache
def _loopback() -> Any:
    """LangGraph's loopback client of this server (in process; it carries the caller's identity)."""
    from langgraph_sdk import get_client

    return get_client(api_key=None)


@auth.on.assistants.create
@auth.on.assistants.update
async def check_assistant(ctx: Auth.types.AuthContext, value: dict[str, Any]
                          ) -> dict[str, str] | None:
    """An assistant's config and context, before the server stores them: one that names
    LangGraph's runtime (:func:`app.settings.client.request_problem`) would do so in every run
    made with it (an assistant with ``__pregel_checkpointer: null`` ran each of its runs with
    no checkpointer), and one the graph factory would refuse every run of
    (:func:`app.server.run_settings.settings_problem`: ``{"rounds": 99}`` was stored, 200, and
    each run failed); else the caller's filter, as :func:`owner_only` gives.

    Raises:
        Auth.exceptions.HTTPException: 400, with the one line.
    """
    if why := (request_problem(value.get("config"), value.get("context"))
               or settings_problem(value.get("config"), value.get("context"), SETTINGS)):
        raise Auth.exceptions.HTTPException(status_code=400, detail=why)
    return await owner_only(ctx, value)


@auth.on.crons.create
@auth.on.crons.update
async def check_cron(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str] | None:
    """A cron's run request, before the server stores it: refused with the line the pre-run
    hook would give each of its runs (:func:`app.server.prerun.input_problem`: a bad topic or
    ``as_of``, a durability not the operator's, a key of LangGraph's runtime) or the graph
    factory its config and context (:func:`app.server.run_settings.settings_problem`), else the
    caller's filter. Accepted, such a cron was refused every time it fired, in the server's
    log only, the client told it was made.

    Raises:
        Auth.exceptions.HTTPException: 400, with the one line.
    """
    payload = value.get("payload")
    if isinstance(payload, dict) and (why := input_problem(payload, SETTINGS)
                                      or settings_problem(payload.get("config"),
                                                          payload.get("context"), SETTINGS,
                                                          configurable=False)):
        raise Auth.exceptions.HTTPException(status_code=400, detail=why)
    return await owner_only(ctx, value)


@auth.on.threads.create_run
async def check_run(ctx: Auth.types.AuthContext,
                    value: Auth.types.on.threads.create_run.value) -> dict[str, str] | None:
    """A run's request, before the server creates the run and saves its input: refused with
    one line when :func:`app.server.prerun.refusal` says so; else the caller's filter, as
    :func:`owner_only` gives every other action.

    Raises:
        Auth.exceptions.HTTPException: 400, a bad topic, ``as_of`` or ``durability``; 409, a
            new input without review on a thread paused at a review.
    """
    caller = ctx.user.identity if TOKENS else None
    if refused := await refusal(value, SETTINGS, caller, _loopback()):
        status, line = refused
        raise Auth.exceptions.HTTPException(status_code=status, detail=line)
    return await owner_only(ctx, value)


@auth.on.threads.delete
async def check_delete(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str] | None:
    """A thread's (or a run's, or a prune's) deletion, before the server deletes anything:
    refused while a run of the thread is in flight (:func:`app.server.deletes.deletion_problem`:
    the run would go on writing rows and a report for the deleted thread, and a thread made
    again with its id took them for its own); else the caller's filter, as :func:`owner_only`.

    Raises:
        Auth.exceptions.HTTPException: 409, with the one line.
    """
    if why := await deletion_problem(value, _loopback()):
        raise Auth.exceptions.HTTPException(status_code=409, detail=why)
    return await owner_only(ctx, value)
