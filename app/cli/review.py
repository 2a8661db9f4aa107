"""The ``review`` command's decision: checked against what the thread awaits before anything
runs, or, with no decision flag, what it awaits printed (exit 0)."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.exit_codes import BadInput, Shown
from app.errors import NothingToReview
from app.settings.config import Settings
from app.settings.hints import place_args, thread_command

__all__ = ["decides", "review_decision"]


def review_decision(args: argparse.Namespace, settings: Settings) -> dict[str, Any] | None:
    """The ``review`` command's decision, checked against what the thread awaits before anything
    runs; or, with no decision flag, print what it awaits and stop (exit 0).

    Raises:
        UnknownThread: no such thread.
        NothingToReview: the thread awaits no review.
        app.storage.ThreadBusy: it awaits none because another process is running it (75).
        BadInput: a flag does not fit the stage it awaits.
        Shown: the pause was printed (no decision given).
    """
    from app.research.review import ReviewError, ReviewPause, review_value
    from app.runs.inspect import pending_review
    from app.runs.threads import ThreadMismatch, changed_way_on, way_on
    from app.storage import ThreadBusy, storage_of

    checkpoint = getattr(args, "checkpoint", None)
    storage = storage_of(settings)
    pending = pending_review(storage, args.thread_id, checkpoint, where=place_args(settings))
    payload, unfinished = pending.payload, pending.unfinished
    decided = decides(args)
    if checkpoint is not None and payload is None:
        raise NothingToReview(f"checkpoint {checkpoint!r} of thread {args.thread_id!r} is not a "
                              "review pause "
                              f"({thread_command('inspect', args.thread_id, settings)} "
                              "lists the thread's review pauses)")
    if checkpoint is not None and not decided:
        raise BadInput("--checkpoint needs a decision: --approve, --question, --drop or --redo")
    if payload is None:
        if (unfinished and pending.reviewed and args.approve
                and not (args.question or args.drop or args.redo)):
            # The review was decided and the run then stopped (e.g. killed while persisting):
            # approving again continues it, as ``resume`` would. Not a thread started without
            # --review: it was run, with reviews switched on (trial 70, F3).
            return {"approve": True}
        if unfinished and args.thread_id in (storage.running_threads([args.thread_id]) or ()):
            raise ThreadBusy.of(args.thread_id)  # exit 75, as its --approve and resume exit
        hint = (f"; its run is unfinished: "
                f"{way_on(storage, args.thread_id, 'unfinished', settings)}" if unfinished
                else "")
        raise NothingToReview(f"thread {args.thread_id!r} has nothing awaiting review{hint}")
    if not decided and (changed := changed_way_on(storage, args.thread_id, settings)):
        raise ThreadMismatch(f"thread {args.thread_id!r} awaits its {payload['stage']} "
                             f"review, and {changed}")  # its --approve would refuse it
    if not decided:
        from app.cli.summary import show_pause

        show_pause(args.thread_id, ReviewPause(args.thread_id, pending.topic or "",
                                               pending.as_of or "", payload).to_dict(),
                   settings, as_json=args.json)
        raise Shown
    try:
        return review_value(payload, approve=args.approve, questions=args.question,
                            drop=args.drop, redo=args.redo)
    except ReviewError as exc:
        raise BadInput(str(exc)) from None


def decides(args: argparse.Namespace) -> bool:
    """Whether a ``review`` command gives a decision (else it shows what the thread awaits)."""
    return bool(args.approve or args.question or args.drop or args.redo)
