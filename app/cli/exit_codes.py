"""The CLI's exit codes, and :class:`BadInput`, the bad-input error the CLI raises itself.

0 success; 1 the run failed (an exception, or the graph's ``outcome`` is ``partial`` or
``failed``, or a row is missing or duplicated), or a ``--crash-at`` point was never reached;
2 bad input (one line on stderr, nothing written: :class:`app.errors.DomainError`, a bad flag or
setting, an unusable corpus); 75 try later (``EX_TEMPFAIL`` of BSD's ``sysexits.h``: the thread
is being run by another process, or another process holds the database's setup lock, or the
PostgreSQL server cannot be reached or went away mid-run, or a provider's rate limit outlasted
the run's patience; nothing was lost, the same command works once that is over); 130
interrupted (Ctrl-C) and 143 terminated (SIGTERM): the run stopped cleanly, is recorded as
``interrupted`` and resumes with the command its line prints (its own, with ``--as-of``).
"""

from __future__ import annotations

from app.errors import DomainError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_TRY_LATER = 75  # EX_TEMPFAIL (sysexits.h): a script can tell "try later" from "failed"
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, 128 + SIGTERM: the shell's codes


class BadInput(DomainError):
    """Bad input found by the CLI itself (a flag, a path, the topic): one line, exit code 2."""


class Shown(Exception):
    """``review THREAD_ID`` without a decision: what it awaits was printed; exit 0."""
