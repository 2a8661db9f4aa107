"""Terminal output at a run's end: the summary table, and a paused run's review prompt (rich
on a terminal, plain ``key: value`` lines else, as :mod:`app.cli.progress`)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from app.cli.progress import SHORT, shown
from app.research.text import clip, visible
from app.settings.hints import thread_command

__all__ = ["print_pause", "print_summary", "show_pause"]


def print_summary(summary: dict[str, Any], stream: TextIO | None = None) -> None:
    """Print the end-of-run summary table (rich on a terminal, plain ``key: value`` lines else)."""
    stream = stream or sys.stdout
    console = Console(file=stream, highlight=False, soft_wrap=True)
    rows = [
        ("thread", summary["thread_id"]),
        ("model", summary["model"]),
        ("envelopes", f"{summary['envelopes']} (expected {summary['expected']})"),
        ("db rows", str(summary["db_rows"]) + (
            f" ({summary['missing_rows']} missing)" if summary.get("missing_rows") else "")),
        ("duplicates", str(summary["duplicates"])),
        ("persisted", f"{summary['persisted']}/{summary['envelopes']}"),
        ("errors", str(len(summary["errors"]))),
        ("tokens", str(summary["tokens"]) + (
            " (estimated: the offline model counts len(text) // 4)"
            if str(summary["model"]).startswith("offline") else "")),
        ("report", summary["report_path"] or "(none)"),
        ("elapsed", f"{summary['elapsed_seconds']:.2f} s"),
    ]
    # a path or a model's name may hold a control character (a data dir's ESC or newline)
    rows = [(key, visible(value)) for key, value in rows]
    if console.is_terminal:
        table = Table(title="summary", show_header=False)
        for key, value in rows:
            table.add_row(key, escape(value))
        console.print(table)
    else:
        print("summary:", file=stream)
        for key, value in rows:
            print(f"  {key}: {value}", file=stream)
    for error in summary["errors"]:
        # a worker's error may quote a web page's or an MCP server's text: escaped
        print(visible(f"  failed: {error['worker']} on {clip(error['sub_question'], SHORT)!r}: "
                      f"{error['error']}"
                      + (" (its earlier result was kept)" if error.get("kept") else "")),
              file=stream)
    for note in summary["notes"]:
        print(visible(f"  note: {note}"), file=stream)
    for warning in summary.get("warnings") or []:
        print(visible(f"  warning: {warning['message']}"), file=stream)
    stream.flush()


def print_pause(pause: dict[str, Any], stream: TextIO | None = None, where: str = "") -> None:
    """Print what a run paused for review awaits (``ReviewPause.to_dict()``), and the commands
    that continue it; ``where`` (e.g. ``" --data-dir /tmp/x"``, see
    :func:`app.settings.hints.place_args`) is added to each, so they find the thread when
    pasted."""
    stream = stream or sys.stdout
    review, thread = pause["review"], pause["thread_id"]
    out = [f"paused for review: thread {thread} awaits the {review['stage']} review"]

    def review_with(tail: str, why: str = "") -> str:  # a printed command, the id quoted
        command = thread_command("review", thread, tail=tail, place=where)
        return f"  {command}   ({why})" if why else f"  {command}"

    if review.get("error"):
        out.append(visible(f"the last decision was refused: {review['error']}"))
    if review["stage"] == "plan" and review.get("unrunnable"):  # a state edit broke it
        out.append(f"the plan cannot run as it stands (an approval is refused): "
                   f"{review['unrunnable']}")
        out += [f"  {i}. {visible(q)}" for i, q in enumerate(review["sub_questions"], 1)]
        out += ["continue:", review_with(" --question TEXT [--question TEXT ...]",
                                         "replace the sub-questions and run them")]
    elif review["stage"] == "plan":
        out.append(f"sub-questions ({len(review['sub_questions'])}):")
        out += [f"  {i}. {visible(q)}" for i, q in enumerate(review["sub_questions"], 1)]
        out += ["continue:", review_with(" --approve"),
                review_with(" --question TEXT [--question TEXT ...]",
                            "replace the sub-questions and run them")]
    else:
        envelopes = review["envelopes"]
        out.append(_results_heading(envelopes))
        for e in envelopes:
            out.append(f"  {e['envelope_id']}  {e['status']:<5} "
                       f"round {e.get('run_round', e['round'])}  "
                       f"{shown(e['task_key'], 60)}")
            out.append(f"      {shown(e['summary'], 110)}")
        dropped = ("not reported, and not persisted or their rows removed"
                   if any(e.get("persisted") for e in envelopes) else "not persisted, not reported")
        out += ["continue:", review_with(" --approve"),
                review_with(" --drop ENVELOPE_ID ...", f"those {dropped}; "
                            "the rest are approved: persisted and reported, unless with --redo"),
                review_with(" --redo ENVELOPE_ID ...", "sent again, then another review")]
    out += [f"note: {note}" for note in pause.get("notes") or []]
    # each line escaped: a note, a path in the commands (the data dir) may hold an ESC
    print("\n".join(visible(line) for line in out), file=stream, flush=True)


def _results_heading(envelopes: list[dict[str, Any]]) -> str:
    """The line over a results review's list: what is persisted already and what waits for the
    approval. "nothing persisted yet" was untrue of a rerun (its tasks' rows are an earlier
    run's), and "not persisted until approved" of a finished thread a state edit made await
    the review again (Studio's ``update_state``: every row was in the database; hostile trial H)."""
    done = sum(1 for e in envelopes if e.get("persisted"))
    head = f"results ({len(envelopes)}) of this run"
    if not done:
        return f"{head}, not persisted until approved:"
    if done == len(envelopes):
        return f"{head}, persisted already (their rows are in the results database):"
    return (f"{head}: {done} persisted already (their rows are in the results database), "
            f"{len(envelopes) - done} not persisted until approved:")


def show_pause(thread_id: str, pause: dict[str, Any], settings: Any, *, as_json: bool) -> None:
    """Print the pause ``review THREAD_ID`` was asked about with no decision (``as_json``: its
    exit object, exit 0), with the same keys as the pause ``research`` and ``review --approve``
    print; ``settings``: the command's (where the continue command points)."""
    from app.cli.exit_codes import EXIT_OK
    from app.cli.outcome import print_exit_object
    from app.research.review import continue_tail
    from app.settings.hints import continue_args, thread_command

    pause["continue_with"] = thread_command("review", thread_id,
                                            tail=continue_tail(pause["review"]),
                                            place=continue_args(settings))
    pause["exit_code"] = EXIT_OK
    if as_json:
        print_exit_object(EXIT_OK, thread_id=thread_id, body=pause, status="awaiting_review")
    else:
        print_pause(pause, where=continue_args(settings))
