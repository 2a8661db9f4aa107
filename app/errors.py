"""Domain errors: what a user asked for cannot be done as asked.

Each is a condition of the user's data or request (a thread that does not exist, a thread with
nothing left to resume, a thread that belongs to another topic), never a bug. The CLI prints any
:class:`DomainError` as one ``error:`` line and exits 2 (bad input); every other exception,
``KeyError`` included, is a failure: exit 1 with ``run failed: ...``. Raise these instead of
built-in exceptions so a bug inside a node can never pass for bad input.

Errors of the worker side (``workers.sources.CorpusError``) live with the workers, which never
import ``app/``; the CLI maps them to exit 2 as well.
"""

from __future__ import annotations

__all__ = [
    "AwaitsReview", "BadAsOf", "BadTopic", "CliThread", "CorpusMismatch", "DomainError",
    "ForeignRows", "NothingToResume", "NothingToReview", "ThreadMismatch", "UnknownCheckpoint",
    "UnknownThread",
]


class DomainError(Exception):
    """Bad input about the user's threads or data dir: one line, exit 2, nothing written."""


class UnknownThread(DomainError):
    """No thread with that id in the data dir (neither a checkpoint nor a recorded run)."""


class NothingToResume(DomainError):
    """The thread exists but has no unfinished work (or no recorded topic) to continue."""


class ThreadMismatch(DomainError):
    """The thread exists and belongs to another topic, ``as_of`` or corpus."""


class NothingToReview(DomainError):
    """A review decision for a thread that awaits no review (it finished, or never paused)."""


class UnknownCheckpoint(DomainError):
    """``review --checkpoint ID``: the thread has no checkpoint with that id."""


class BadTopic(DomainError, ValueError):
    """A run's topic is no topic to research (empty, not text, too long, nothing to search
    for): the CLI refuses it before the run; a served run's input meets it in ``plan``.

    Also a ``ValueError``, like a bad ``as_of`` and ``app.settings.config.ConfigError``:
    LangGraph Server returns the message of a ``ValueError`` to the client, but any other
    exception's as "An internal error occurred" (``langgraph_api.serde``)."""


class BadAsOf(DomainError, ValueError):
    """A served run's ``as_of`` (its input's, or a state edit's before ``plan``) is no date
    :func:`state.normalize_as_of` reads: the CLI refuses ``--as-of`` before the run; ``plan``
    raises this with the same line, so the run's error names the input, not a bare
    ``ValueError`` (trial 42, F6). A ``ValueError``, so the server returns its message to the
    client (see :class:`BadTopic`)."""


class CliThread(ThreadMismatch, ValueError):
    """A served run (LangGraph Server) on the id of a thread the command line runs in the same
    data dir: its rows and report would be replaced by a run whose checkpoints are the
    server's. A ``ValueError``, so the server returns its message to the client (see
    :class:`BadTopic`)."""


class ForeignRows(ThreadMismatch, ValueError):
    """A served run on a thread id whose result rows this server's thread did not write (the
    thread has no earlier checkpoint here: a stateless run's id, another client's, one the
    server lost): run, it would replace them. A ``ValueError``, so the server returns its
    message to the client (see :class:`BadTopic`)."""


class AwaitsReview(ThreadMismatch, ValueError):
    """A served run without review on a thread paused at a review: it would go past the pause
    and persist rows nobody approved (``research``/``resume`` show the pause instead). A
    ``ValueError``, so the server returns its message to the client (see :class:`BadTopic`)."""


class CorpusMismatch(ThreadMismatch, ValueError):
    """A served run of a thread (LangGraph Server) names another ``corpus_name`` than the one
    its plan was made on: continued, its plan and its workers' searches would come from two
    corpora; rerun, its rows and report would be replaced by the other corpus's. The CLI refuses
    the same (:func:`app.runs.threads.check_thread`). A ``ValueError``, so the server returns
    its message to the client (see :class:`BadTopic`)."""
