"""What a research run says as it starts, before its graph streams: the ``start`` event (where
it resumes, what is restored), its notes (the corpus's, an unfinished thread of the topic on
another day, the recorded choices a continuation keeps), and the plan, once. Split from
:mod:`app.runs.run`, whose :func:`~app.runs.run.run_research` emits them in this order.
"""

from __future__ import annotations

from typing import Any

from app.runs.choices import choices_note
from app.runs.resume import Start
from app.runs.stream import Event
from app.runs.threads import unfinished_alike
from app.settings.config import Settings
from app.storage import Storage

__all__ = ["announce", "note_choices", "note_other_days", "planned_once"]


def note_choices(emit: Event, thread_id: str, continued: Any, restarted: bool) -> None:
    """Say which recorded choices a continuation keeps or changes (:func:`choices_note`)."""
    if said := choices_note(thread_id, continued, restarted=restarted):
        emit("note", {"thread_id": thread_id, "text": said})


def announce(emit: Event, thread_id: str, values: dict[str, Any], start: Start, counts: Any,
             reviewed: bool, labels: dict[str, str], notes: list[str]) -> bool:
    """Emit the run's ``start`` event (where it resumes, what is restored), a ``note`` for each
    of ``notes`` and, unless a review decision continues it (its plan was shown at the pause),
    the ``planned`` one; whether it emitted that."""
    if start.restarted:
        emit("note", {"thread_id": thread_id, "text": start.restarted})
    emit("start", {"thread_id": thread_id, "resumed_from_step": start.resumed_from,
                   "rerun": (bool(values.get("topic")) and start.resumed_from is None
                             and not start.restarted),
                   "restored": len(counts.restored), "step_tasks": counts.step_tasks,
                   "at": counts.at, "review": reviewed, "topic": start.topic,
                   "as_of": start.as_of, **labels})
    for text in notes:
        emit("note", {"thread_id": thread_id, "text": text})
    if counts.planned is not None and not reviewed:
        emit("planned", counts.planned)
        return True
    return False


def planned_once(emit: Event, said: bool) -> Event:
    """``emit`` less the stream's first ``planned`` event when :func:`announce` emitted the
    plan already: a run resumed at ``dispatch`` runs it again, and it announces the round's
    plan too (else the plan and its questions were printed twice)."""
    if not said:
        return emit
    shown = [True]

    def emit_once(kind: str, data: dict[str, Any]) -> None:
        if kind == "planned" and shown:
            shown.clear()
            return
        emit(kind, data)
    return emit_once


def note_other_days(emit: Event, storage: Storage, thread_id: str, topic: str | None,
                    as_of: str, recorded: dict[str, Any] | None, settings: Settings
                    ) -> None:
    """When the run starts a new thread (``recorded`` None) of a ``topic`` (None: a resume by
    id), a ``note`` event for each unfinished thread of the same topic, spelled otherwise or on
    another ``as_of`` (:func:`app.runs.threads.unfinished_alike`)."""
    if recorded is not None or topic is None:
        return
    for text in unfinished_alike(storage, thread_id, topic, as_of, settings):
        emit("note", {"thread_id": thread_id, "text": text})
