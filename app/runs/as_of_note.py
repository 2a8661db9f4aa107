"""The note of a run dated after today: ``--as-of 2030-01-01`` is a valid date, but a typo in
its year made a thread that the next run of the topic, dated today, never finds (trial 55, F4).
Pure: the caller says what today is (``state.envelope.today_utc``, as ``plan`` dates a run)."""

from __future__ import annotations

from state.envelope import today_utc

__all__ = ["future_note"]


def future_note(as_of: str, today: str | None = None) -> str | None:
    """The note for a run dated ``as_of`` (``YYYY-MM-DD``) when it is after ``today`` (default:
    today in UTC), else None.

    Example:
        >>> future_note("2030-01-01", "2026-12-05").split(":")[0]
        '--as-of 2030-01-01 is after today (2026-12-05)'
        >>> future_note("2026-12-05", "2026-12-05") is None
        True
    """
    today = today or today_utc()
    if as_of <= today:
        return None
    return (f"--as-of {as_of} is after today ({today}): the thread is dated {as_of}, so a run "
            "of this topic without --as-of starts another thread rather than this one")
