"""The research graph's state schema: which channels exist and how each folds its writes.

Keys without an ``Annotated`` reducer are ``LastValue`` channels: exactly one node writes each of
them per superstep (``plan`` writes ``sub_questions``; the CLI writes the inputs). Keys that many
parallel workers write carry a reducer, documented on the key.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#state
"""

from __future__ import annotations

from typing import Annotated, Any, get_origin, get_type_hints

from langgraph.managed import RemainingSteps
from langgraph.managed.base import ManagedValue

# typing_extensions' TypedDict, not typing's: on Python 3.11 pydantic (which LangGraph uses to
# publish the graph's input and output JSON schema to Studio and LangGraph Server) rejects
# typing.TypedDict.
from typing_extensions import NotRequired, TypedDict

from state.reducers import add_count, concat_lists, dedupe_extend, envelope_reducer

__all__ = ["ResearchInput", "ResearchOutput", "ResearchState", "Routing", "Task", "parallel_keys"]


class Task(TypedDict):
    """The input of one worker, carried by one ``Send``: the worker's whole view of the run.

    Everything the envelope id is derived from is here, so a worker can stamp its own envelope.
    """

    worker: str
    """The registered worker name (also the node name the ``Send`` targets)."""
    sub_question: str
    """The task key: the sub-question this task answers."""
    topic: str
    """The run's topic."""
    as_of: str
    round: int
    """The dispatch round: one past the highest the thread had seen for a run's first map step
    (1 on a new thread), one more for each re-dispatch of failed tasks."""
    first_round: NotRequired[int]
    """The round of this run's first map step: ``round - first_round + 1`` is the task's round
    within its run (what ``--fail-worker NAME:ROUNDS`` counts)."""
    focus: NotRequired[str]
    """What the task's searches focus on: the topic, or, for the question on one side of a
    comparison, that side (``app.research.rounds.focus_of``); ``topic`` when absent."""


class Routing(TypedDict):
    """What the graph's edges route by, written into state by ``plan`` from the run's context.

    Edges get no runtime when LangGraph re-evaluates them after ``update_state`` (a Studio edit,
    a fork), so what they decide by must be in state. Whoever reads it checks it against the
    operator's bounds: a client's ``update_state`` can change these values, never raise a bound.
    """

    review: bool
    """Pause for a human review after ``plan`` and before ``persist``."""
    rounds: int
    """Dispatch rounds this run may take (the first included)."""
    first_round: int
    """The round this run's first dispatch sends: one past the highest the thread has seen, so
    round numbers only increase within a thread (a stale echo carries a lower one)."""
    workers: list[str]
    """The workers each sub-question is sent to (those of the compiled graph)."""
    corpus_name: NotRequired[str | None]
    """The context's ``corpus_name`` the plan was made on (None: the operator's corpus). A
    served run of the thread on another is refused (its plan, rows and report would come from
    two corpora); missing in a thread planned before it was recorded."""


class ResearchInput(TypedDict):
    """What a caller gives the graph (the form LangGraph Studio shows)."""

    topic: str
    as_of: NotRequired[str]
    """``YYYY-MM-DD``; ``plan`` defaults it to today (UTC)."""


class ResearchState(TypedDict, total=False):
    """State of one research run (one ``thread_id``)."""

    topic: str
    as_of: str
    sub_questions: list[str]
    """Written by ``plan`` (single writer, so no reducer), or replaced at the plan review."""

    planned: list[str]
    """The sub-questions the planner wrote, when ``plan`` planned them (a rerun on the
    thread's plan keeps them): ``sub_questions`` other than these were replaced at review or
    by an edit, and the report says so (it answers the plan that ran)."""

    planned_topic: str
    """The topic ``sub_questions`` were planned for (written by ``plan``): a run on the thread
    with the same topic keeps its plan (the same tasks update the same rows), one with another
    topic (a LangGraph Server client's next input, a Studio edit) is planned anew. A state
    without it (written before it existed) keeps its plan."""

    routing: Routing
    """Written by ``plan``: what the edges route by (:class:`Routing`)."""

    round: int
    """The round the next dispatch sends: ``routing["first_round"]`` from ``plan``, one more each
    time ``route`` or the results review sends tasks again. A task is sent when its envelope is
    missing, or failed (or is to be redone) in an earlier round."""

    redo: list[str]
    """Envelope ids the results review asked to send again (written by ``review_results``)."""

    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]
    """Every worker result. Many workers write in the same superstep, retries and re-dispatches
    write the same task again, persist writes back ``persisted=True``, and a ``create_agent``
    subgraph may hand back the whole list: an upsert by ``envelope_id`` keeps each task once."""

    tokens: Annotated[int, add_count]
    """Model tokens spent. Each model-calling node writes its own delta; ``add_count`` sums
    the deltas of parallel workers (a ``LastValue`` channel would reject two writes) as
    ``operator.add`` would, and refuses a state edit's ``"x"`` with a ``ValueError``."""

    unmetered_calls: Annotated[int, add_count]
    """Model responses that reported no token usage (their tokens are missing from ``tokens``):
    written like ``tokens``; the report notes them, since the budget cannot count them."""

    dropped: Annotated[list[str], dedupe_extend]
    """Envelope ids dropped at the results review (``--review``): neither persisted nor
    reported. Each id once; a rerun of the thread on its plan keeps them (the review's decision
    is the thread's), ``plan`` resets it only with a new plan."""

    notes: Annotated[list[str], concat_lists]
    """Run notes for the report (e.g. "token budget spent, no more rounds"). Append-only log:
    each note is an event, so duplicates would be meaningful and no de-duplication is done."""

    report_path: str | None
    """Written by ``report``; None from a run's ``plan`` until then (as ``report`` and
    ``outcome``; ``warnings`` and ``failed_tasks`` are emptied): a rerun paused or failed
    before its ``report`` holds no earlier run's verdict."""

    report: str | None
    """The report's text: the markdown that ``report`` wrote to ``report_path`` (written by
    ``report``; None until then), so a LangGraph Server client or another replica reads it
    from the thread, not from one machine's disk. One string per thread, a few KB; a
    checkpoint saver that stores whole checkpoints copies it into each later checkpoint of the
    thread until the next ``report`` replaces it (``prune`` drops the old ones)."""

    outcome: str | None
    """``"ok"``, ``"partial"`` (some tasks failed for good) or ``"failed"`` (all did): written
    by ``report``, at the end of a run; None from the run's ``plan`` until then."""

    warnings: list[dict[str, str]]
    """The relevance verdict (``app.research.relevance``): each ``{"code", "message"}``, empty when
    the sources speak to the topic. Written by ``report``, so every client reads it; emptied
    by the run's ``plan`` (it means something only with an ``outcome``)."""

    failed_tasks: list[dict[str, Any]]
    """The tasks that failed for good, each ``{envelope_id, worker, task_key, error}``: written
    by ``report``, with ``outcome``; emptied by the run's ``plan``."""

    remaining_steps: RemainingSteps
    """LangGraph's managed value, not a channel: the supersteps left before the run's
    ``recursion_limit`` stops it. Nothing writes it; ``route`` reads it to tell whether another
    round fits (``app.graph.nodes.route.steps_left``). Source: ``langgraph.managed``."""


class ResearchOutput(TypedDict, total=False):
    """What a run gives back to its caller: the keys of ``ResearchState`` a client reads
    (``graph.invoke``'s return; LangGraph Server's ``runs.wait`` and its ``values`` stream;
    the output form Studio shows). The edges' working keys (``routing``, ``round``, ``redo``,
    ``planned_topic``) stay in the thread's state, for ``get_state`` and time travel, and out
    of the result. Each key here is one of ``ResearchState`` and keeps its
    reducer there. Source: https://docs.langchain.com/oss/python/langgraph/graph-api#define-input-and-output-schemas
    """

    topic: str
    as_of: str
    sub_questions: list[str]
    planned: list[str]
    envelopes: list[dict[str, Any]]
    tokens: int
    unmetered_calls: int
    dropped: list[str]
    notes: list[str]
    report_path: str | None
    report: str | None
    outcome: str | None
    warnings: list[dict[str, str]]
    failed_tasks: list[dict[str, Any]]


def parallel_keys(schema: type = ResearchState) -> frozenset[str]:
    """The keys of ``schema`` that parallel writers (the workers of one map step) may write:
    those declared with a reducer, ``Annotated[T, reducer]``. A key without one takes a single
    write per superstep; two end the step in ``InvalidUpdateError``.

    Example:
        >>> {"envelopes", "tokens", "notes"} <= parallel_keys()
        True
        >>> "sub_questions" in parallel_keys()  # one writer, plan: no reducer
        False
    """
    hints = get_type_hints(schema, include_extras=True)
    return frozenset(key for key, hint in hints.items() if get_origin(hint) is Annotated
                     and not _managed(hint))


def _managed(hint: Any) -> bool:
    """Whether an ``Annotated`` hint is a LangGraph managed value (``RemainingSteps``): read
    from the run, never written."""
    return any(isinstance(m, type) and issubclass(m, ManagedValue) for m in hint.__metadata__)
