"""A served run's checks before LangGraph Server creates it: the ``@auth.on.threads.create_run``
hook of ``app/server/auth.py`` calls :func:`refusal` with the request's ``kwargs``.

LangGraph saves a run's input as a checkpoint of its thread before its first node runs, so a
refusal raised in ``plan`` comes after the thread's ``topic`` was replaced and, on a thread
paused at a review, after the pause was dropped. Refused here, no run and no checkpoint exist:
the thread stays as it was (``tests/e2e/test_server_prerun.py``). What is checked:

* ``durability`` other than the operator's (:func:`app.settings.client.check_durability`), a
  key of LangGraph's runtime (``__pregel_*``) or ``callbacks`` in the config or context
  (:func:`app.settings.client.request_problem`): 400;
* the input's ``topic`` and ``as_of`` (:func:`app.research.topics.topic_problem`, the CLI's
  check; a topic the input leaves out is the thread's): 400;
* a ``Command``'s ``goto`` to a worker named bare (it runs only on a ``Send``'s task), on a
  thread with no topic yet, or to ``persist`` on a thread that reviews its results
  (:func:`_goto_problem`): 400;
* a ``Command``'s ``goto`` on a thread paused at a review (its resume answers the review; a
  node beside it ran past the review: :func:`_goto_at_review`), or a run with neither input
  nor command on a thread no run has saved a checkpoint of: 409, 400;
* a new input without review on a thread paused at a review (its state's next node is
  ``review_plan`` or ``review_results``): 409, resume it with a ``Command`` instead; the same,
  queued (``multitask_strategy="enqueue"``, the server's default) behind a run with review still in
  flight;
* a resume queued (``enqueue``) behind a run in flight on its thread (two reviewers answering
  one pause: the second answer was replayed away): 409;
* a resume at an earlier checkpoint, a review pause the thread went on from (it would replay
  the pause's first answer; a copy of the pause takes a new one), or a run with no input from an
  earlier checkpoint that ended a run (nothing runs; its stale verdict would be the head): 409;
* a run (a new input or a resume) on another ``corpus_name`` than the thread's plan was made on
  (:func:`app.graph.nodes.common.check_same_corpus`): 409; refused by ``dispatch``, a resume
  had already taken the review's answer, and the pause was gone.

The thread (its state at the checkpoint the run starts from) is read with LangGraph's loopback
client (``langgraph_sdk.get_client()``, in process, with the caller's identity), and only when
its ``owner`` is the caller: another user's thread gets the server's own 404, never a word about
its state. A run that names a checkpoint the thread lacks (or not as text), or whose input is
not an object, is refused (400), and a fork is checked against the thread's head as well.
The nodes keep the same checks, for the CLI and as a backstop (a server without the hook; a
cron's input is checked as it is made, ``@auth.on.crons.create``, and its runs pass the hook as
they fire).

Source: LangGraph Server's auth guide (``@auth.on.threads.create_run``, ``Auth.types.RunsCreate``:
``kwargs`` holds the run's ``input``, ``command``, ``config``, ``context`` and ``durability``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph import END, START

from app.errors import CorpusMismatch
from app.graph.build import NODES
from app.graph.nodes.common import check_same_corpus
from app.research.review import REVIEW_NODE_BY_STAGE
from app.research.text import clip
from app.research.topics import SERVED_EXAMPLE, topic_problem
from app.runs.ids import visible_topic
from app.settings.checks import check_as_of, check_given
from app.settings.client import check_durability, request_problem, resolve
from app.settings.config import ConfigError, Settings

__all__ = ["awaits_review", "input_problem", "refusal"]


def input_problem(kwargs: Mapping[str, Any], settings: Settings,
                  thread_topic: Any = None) -> str | None:
    """What refuses a run from its request alone, in one line, or None.

    Args:
        kwargs: the run request's ``kwargs`` (``input``, ``durability``...).
        settings: the operator's settings.
        thread_topic: the thread's ``topic`` (None: no thread, or none yet), what ``plan`` sees
            when the input leaves ``topic`` out.

    Example:
        >>> from app.settings.config import Settings
        >>> input_problem({"input": {"topic": "x"}, "durability": "async"}, Settings())[:30]
        "the topic 'x' has no word to s"
        >>> input_problem({"input": None, "durability": "exit"}, Settings())[:30]
        "durability: 'exit' is the oper"
    """
    if why := request_problem(kwargs.get("config"), kwargs.get("context")):
        return why
    try:
        check_durability(kwargs.get("durability"), settings)
    except ConfigError as exc:
        return str(exc)
    given = kwargs.get("input")
    if given is None:  # a resume or a plain continue
        return None
    if not isinstance(given, Mapping):  # LangGraph refused it after the thread's pause was gone
        return (f"the input must be an object of the graph's input keys (topic, as_of), got "
                f"{type(given).__name__} {clip(repr(given), 80)}")
    topic = given["topic"] if "topic" in given else thread_topic
    if topic is not None and not isinstance(topic, str):
        return f"the topic must be text, got {type(topic).__name__} {clip(repr(topic), 80)}"
    if why := topic_problem(visible_topic(topic or ""), example=SERVED_EXAMPLE):
        return why
    try:  # the CLI's rule: left out (or null) is today; empty is refused, not today
        check_as_of(given.get("as_of"))
    except ValueError as exc:
        return str(exc)
    return None


def awaits_review(state: Mapping[str, Any], review: bool) -> str | None:
    """The review stage (``plan``, ``results``) a new input without review would skip, or None.

    Args:
        state: the thread's state as ``threads.get_state`` returns it (its ``next``).
        review: the run's effective ``review`` (a run with review pauses again: let through).
    """
    if review:
        return None
    upcoming = state.get("next") or ()
    # a thread whose next node is a review node awaits that review
    return next((stage for stage, node in REVIEW_NODE_BY_STAGE.items() if node in upcoming),
                None)


async def refusal(value: Mapping[str, Any], settings: Settings, caller: str | None,
                  client: Any) -> tuple[int, str] | None:
    """The HTTP status and one line that refuse the run ``value`` asks for, or None.

    Args:
        value: ``Auth.types.RunsCreate`` (``thread_id``, ``kwargs``).
        settings: the operator's settings.
        caller: the caller's identity with auth on (None: auth off, every thread is everyone's).
        client: a ``langgraph_sdk`` async client of this server (the loopback one).
    """
    kwargs = value.get("kwargs") or {}
    thread_id = value.get("thread_id")
    state: Mapping[str, Any] | None = {}
    head: Mapping[str, Any] | None = {}
    if thread_id is not None:
        try:
            state, head = await _thread_state(client, str(thread_id), kwargs, caller)
        except _NoCheckpoint as exc:
            return 400, str(exc)
        if state is None:  # another user's: the server answers 404
            return None
    unseen, head = head is None, head or {}  # no thread the caller can read
    values = state.get("values")
    values = values if isinstance(values, Mapping) else {}
    if why := input_problem(kwargs, settings, values.get("topic")):
        return 400, why
    try:
        ctx = resolve(kwargs.get("context") or None, settings)
    except ConfigError:  # the graph factory refuses it, before the run writes anything
        return None
    new_input = isinstance(kwargs.get("input"), Mapping)  # not a Command's resume
    if (value.get("multitask_strategy") == "enqueue" and thread_id is not None
            and (why := await _queued_problem(kwargs, bool(ctx.review), values, client,
                                              str(thread_id), settings))):
        return 409, why
    if why := _goto_problem(kwargs.get("command"), values):
        return 400, why
    if why := _goto_at_review(kwargs.get("command"), state, str(thread_id)):
        return 409, why
    if not values:  # a new thread: nothing of it to skip or mix
        return _no_input(value, unseen)
    if why := (_answered_pause(kwargs, state, head, str(thread_id))
                or _finished_checkpoint(kwargs, state, head, str(thread_id))):
        return 409, why
    if new_input and (stage := awaits_review(state, bool(ctx.review))):
        return 409, (
            f"thread {str(thread_id)!r} awaits its {stage} review (it was planned with review); "
            "a run without review would go past it unapproved: resume it with a Command "
            "(command={\"resume\": {\"approve\": true}}, or the review's other values) and "
            "review true in the context, or start a new thread")
    try:  # a rerun, fork or resume on another corpus than its plan's (or, for a fork from
        # before the plan, than the thread's head: its rows would be replaced): refused
        for planned in (values, head.get("values") or {}):
            check_same_corpus(planned, ctx.corpus_name, True, settings.named_corpora())
    except CorpusMismatch as exc:
        return 409, str(exc)
    return None


def _no_input(value: Mapping[str, Any], unseen: bool) -> tuple[int, str] | None:
    """A run with neither input nor command on a thread with no state: 400 and the line, where
    LangGraph would fail it with "EmptyInputError: Received no input for __start__" (trial 67);
    None, the server's own 404, for a thread the caller cannot read and the run does not create
    (another user's got this line about a state it has: trial S, H3)."""
    kwargs = value.get("kwargs") or {}
    thread_id = value.get("thread_id")
    if thread_id is None or kwargs.get("input") is not None or kwargs.get("command"):
        return None
    if unseen and value.get("if_not_exists") != "create":
        return None
    return 400, (f"thread {str(thread_id)!r} has no state yet (no run of it saved a "
                 "checkpoint): start it with an input ({\"topic\": ...})")


def _answered_pause(kwargs: Mapping[str, Any], state: Mapping[str, Any],
                    head: Mapping[str, Any], thread_id: str) -> str | None:
    """Why a ``Command(resume=...)`` at an earlier checkpoint, a review pause the thread went
    on from, is refused, or None: LangGraph keeps the answer the pause was resumed with, and a
    new resume there replays it (a reviewer's new ``drop`` or plan was ignored without a word,
    the run a success). A copy of the pause (``update_state(..., as_node="__copy__")``, as
    ``review --checkpoint`` makes) is the thread's head, and takes a new answer."""
    asked = _checkpoint_asked(kwargs)
    command = kwargs.get("command")
    if (asked is None or not isinstance(command, Mapping) or command.get("resume") is None
            or (head.get("checkpoint") or {}).get("checkpoint_id") == asked):
        return None
    if not (stage := awaits_review(state, False)):
        return None
    return (f"thread {thread_id!r}: checkpoint {clip(str(asked), 80)!r} is a {stage} review the "
            "thread went on from; a resume there replays its first answer: copy the pause first "
            "(threads.update_state(thread, None, as_node=\"__copy__\", checkpoint_id=...)) and "
            "resume the copy, or with the CLI: review THREAD_ID --checkpoint ID")


def _goto_problem(command: Any, values: Mapping[str, Any]) -> str | None:
    """Why a ``Command``'s ``goto`` is refused, or None: a node named bare that is not one of
    the graph's own (:data:`app.graph.build.NODES`) is a worker, which runs only on the task a
    ``Send`` hands it (``goto: docs_search`` failed with ``KeyError('sub_question')``); any
    ``goto`` on a thread with no topic yet runs before ``plan`` has made a plan (``goto:
    review_results`` on a new thread left it "awaiting its results review", trial 42 F7); a
    ``goto: persist`` on a thread that reviews its results skips the review (trial 64, F1: rows
    nobody approved were written while the thread still awaited its review). A
    ``Send`` to a worker with no sub-question is refused alike (its failed task stayed pending
    and failed every later resume of the thread, trial 48); one with a task is LangGraph's to
    run."""
    goto = command.get("goto") if isinstance(command, Mapping) else None
    if not goto:
        return None
    names = goto if isinstance(goto, list) else [goto]
    graph_nodes = (*NODES, START, END)
    for name in names:  # a bare name, or a Send ({"node": ..., "input": ...})
        sent = name if isinstance(name, Mapping) else {"node": name}
        if isinstance(name, Mapping) and sent.get("node") in NODES:  # its input as the state
            return (f"goto a Send to {clip(str(sent.get('node')), 80)!r}: a node of the graph "
                    "runs on the thread's state, only a worker on a Send's task; go to it by "
                    "name")
        task = sent.get("input", sent.get("arg"))
        asked = task.get("sub_question") if isinstance(task, Mapping) else None
        if sent.get("node") not in graph_nodes and not (isinstance(asked, str) and asked.strip()):
            return (f"goto {clip(str(sent.get('node')), 80)!r}: a worker node runs only on the "
                    f"task a Send hands it (dispatch sends them); go to one of "
                    f"{', '.join(NODES)}, or run the thread again")
    if not values.get("topic"):
        return ("a Command's goto needs a thread that has a topic; start the thread with an "
                "input ({\"topic\": ...})")
    routing = values.get("routing")
    if "persist" in names and isinstance(routing, Mapping) and routing.get("review") is True:
        return ("goto 'persist': this thread reviews its results before they are persisted; "
                "answer its results review instead (resume with {\"approve\": true}, or drop "
                "or redo some), which persists what it keeps")
    return None


def _goto_at_review(command: Any, state: Mapping[str, Any], thread_id: str) -> str | None:
    """Why a ``Command``'s ``goto`` on a thread paused at a review is refused, or None. It
    schedules its node beside the paused one, which its resume value answers: a ``goto:
    report`` at the plan review wrote an empty report over the thread's last one, and a
    ``goto: dispatch`` or ``route`` at the results review ran the map step again after the
    approval had persisted the rows, and paused for a second review of them (trial 67, F1,
    F2). A review is answered by its resume value alone."""
    goto = command.get("goto") if isinstance(command, Mapping) else None
    stage = awaits_review(state, False) if goto else None
    if stage is None:
        return None
    return (f"thread {thread_id!r} awaits its {stage} review: answer it with a Command's resume "
            "alone (command={\"resume\": {\"approve\": true}}, or the review's other values); "
            "a goto beside it would run a node past the review")


def _finished_checkpoint(kwargs: Mapping[str, Any], state: Mapping[str, Any],
                         head: Mapping[str, Any], thread_id: str) -> str | None:
    """Why a run with no input from an earlier checkpoint that ended a run is refused, or
    None: no node runs from it, and the thread's head becomes that run's state, its ``outcome``
    a verdict on rows the thread has replaced since (a thread run on a second topic showed the
    first topic's ``ok`` over the second topic's rows). A fork from a checkpoint with a next
    node is judged again by ``report``."""
    asked = _checkpoint_asked(kwargs)
    command = kwargs.get("command")
    goto = command.get("goto") if isinstance(command, Mapping) else None
    if (asked is None or kwargs.get("input") is not None or goto or state.get("next")
            or (head.get("checkpoint") or {}).get("checkpoint_id") == asked):
        return None  # a Command's update or resume alone schedules nothing from an ended run
    return (f"thread {thread_id!r}: checkpoint {clip(str(asked), 80)!r} ended a run: nothing "
            "runs from it, and the thread would show that run's verdict on rows it has replaced "
            "since; fork from a checkpoint with a next node, or run the thread again")


async def _queued_problem(kwargs: Mapping[str, Any], review: bool, values: Mapping[str, Any],
                          client: Any, thread_id: str, settings: Settings) -> str | None:
    """Why a run queued (``enqueue``) behind the thread's run in flight is refused, or None: a
    new input without review, behind a run that may pause at a review (it would replace the
    topic once that run pauses, and drop the review); a resume, behind any run (two reviewers
    answering one pause: the second answer was replayed away)."""
    command = kwargs.get("command")
    if isinstance(kwargs.get("input"), Mapping) and not review and await _reviewed_in_flight(
            client, thread_id, settings, _planned_review(values)):
        return (f"thread {thread_id!r} has a run in flight that plans with review; a run "
                "without review queued behind it (enqueue) would replace its topic once it "
                "pauses and drop the review: wait for the pause and resume it with a Command, "
                "or start a new thread")
    if (isinstance(command, Mapping) and command.get("resume") is not None
            and await _reviewed_in_flight(client, thread_id, settings, planned=True)):
        return (f"thread {thread_id!r} has a run in flight; a resume queued behind it would "
                "answer a pause that run answers or moves past (its answer replayed away): "
                "wait for the run to end, then resume the pause it leaves")
    return None


def _planned_review(values: Mapping[str, Any]) -> bool:
    """Whether the thread's plan was made with review (its state's ``routing``)."""
    routing = values.get("routing")
    return isinstance(routing, Mapping) and routing.get("review") is True


async def _reviewed_in_flight(client: Any, thread_id: str, settings: Settings,
                              planned: bool = False) -> bool:
    """Whether a run of ``thread_id`` not yet ended (pending or running) has review on (its
    context's ``review``, or the operator's default; any run, on a thread ``planned`` with
    review: an approval sent with a context that leaves ``review`` out runs on to the results
    review all the same): it may pause at a review that a run queued behind it would skip. The
    check above reads the thread as the request finds it, and an enqueued run starts later
    (one started after the pause, replaced the topic, and the node's backstop refused it with
    the review already gone)."""
    from langgraph_sdk.errors import NotFoundError

    for status in ("running", "pending"):
        try:
            runs = await client.runs.list(thread_id, status=status, limit=100,
                                          select=["run_id", "kwargs"])
        except NotFoundError:  # no such thread yet (the run creates it): nothing in flight
            return False
        if planned and runs:
            return True
        for run in runs:
            context = (run.get("kwargs") or {}).get("context") or None
            try:
                if resolve(context, settings).review:
                    return True
            except ConfigError:  # refused as it runs: it pauses at nothing
                continue
    return False


class _NoCheckpoint(Exception):
    """A run names a checkpoint its thread does not have (the message is the one line)."""


def _checkpoint_asked(kwargs: Mapping[str, Any]) -> Any:
    """The checkpoint id a run starts from, however the request names it (``config``'s
    ``configurable.checkpoint_id``, ``checkpoint_id``, ``checkpoint.checkpoint_id``), or None."""
    configurable = (kwargs.get("config") or {}).get("configurable") or {}
    checkpoint = kwargs.get("checkpoint")
    named = (configurable.get("checkpoint_id"), kwargs.get("checkpoint_id"),
             checkpoint.get("checkpoint_id") if isinstance(checkpoint, Mapping) else None)
    # the first named; else an empty one (refused: "" is no checkpoint, it was the head)
    return next((asked for asked in named if asked),
                next((asked for asked in named if isinstance(asked, str)), None))


async def _thread_state(client: Any, thread_id: str, kwargs: Mapping[str, Any],
                        caller: str | None
                        ) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
    """The state the run's input is given to (its checkpoint's, for a fork) and the thread's
    head state; ``({}, None)`` for a thread the caller cannot read (none yet, or another
    user's), ``(None, {})`` for a thread of another user.

    Raises:
        _NoCheckpoint: the run names a checkpoint the thread does not have, or not as text
            (else a made-up id read as a new thread, and every check was skipped).
    """
    from langgraph_sdk.errors import APIStatusError, NotFoundError

    try:
        thread = await client.threads.get(thread_id)
    except NotFoundError:  # none, or another user's (the loopback client carries the caller)
        return {}, None
    if caller is not None and (thread.get("metadata") or {}).get("owner") != caller:
        return None, {}
    head = await client.threads.get_state(thread_id) or {}
    asked = _checkpoint_asked(kwargs)  # a fork: the input goes to that checkpoint
    if asked is None:
        return head, head
    try:  # "" was read as no checkpoint: the run went on from the head, unasked
        check_given("checkpoint_id", asked)
    except ValueError as exc:
        raise _NoCheckpoint(str(exc)) from None
    if not isinstance(asked, str):
        raise _NoCheckpoint(f"checkpoint_id must be text, got {type(asked).__name__}")
    try:
        state = await client.threads.get_state(thread_id, {"checkpoint_id": asked}) or {}
    except (NotFoundError, APIStatusError):
        state = {}
    # a checkpoint the thread lacks reads back as an empty state echoing the id asked for
    if ((state.get("checkpoint") or {}).get("checkpoint_id") != asked
            or not state.get("created_at")):
        raise _NoCheckpoint(f"thread {thread_id!r} has no checkpoint {clip(asked, 80)!r}")
    return state, head
