"""How ``threads`` and ``inspect`` print what :mod:`app.runs.inspect` reads: thread ids never
cut, the topic cut with an ellipsis or whole, no column ever dropped (an 80- or 40-column
terminal, or a pipe)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.research.review import REVIEW_NODES
from app.research.text import visible
from app.runs.status import ROWS_ONLY, ROWS_ONLY_WHY

__all__ = ["print_inspection", "print_threads"]


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


_MIN_TOPIC = 16
"""Narrowest topic column the ``threads`` table accepts before it switches to one record per
thread (the table's topic is cut with an ellipsis, never folded into pieces)."""


def print_threads(rows: list[dict[str, Any]]) -> None:
    """Print the ``threads`` listing. Thread ids are never cut: they are what you copy into
    ``inspect`` and ``resume``.

    Three layouts, so it stays readable wherever it goes:

    * piped (not a terminal): one line per thread, columns padded, the topic last and whole;
      lines are never wrapped or cut, so ``grep`` and ``cut`` see one thread per line;
    * a terminal wide enough for the ids plus a 16-column topic: a table whose topic is cut
      with an ellipsis (``--json`` has it whole);
    * a narrower terminal: one record per thread, the id on its own line.
    """
    console = _console()
    if not rows:
        console.print("no threads yet")
        return
    _print_thread_rows(console, rows)
    for r in rows:
        if r.get("problem"):
            console.print(visible(f"{r['thread_id']}: {r['problem']}"), soft_wrap=True)


def _print_thread_rows(console: Any, rows: list[dict[str, Any]]) -> None:
    """The ``threads`` rows in the layout the console allows (see :func:`print_threads`)."""
    cells = [(r["thread_id"], r["status"], "" if r["last_step"] is None else str(r["last_step"]),
              str(r["as_of"] or ""), visible(" ".join(str(r["topic"] or "").split())))
             for r in rows]  # a topic a state edit wrote may hold an ESC: escaped
    header = ("thread_id", "status", "step", "as_of", "topic")
    widths = [max(len(c[i]) for c in (header, *cells)) for i in range(4)]
    if not console.is_terminal:
        for c in (header, *cells):
            line = "  ".join(c[i].rjust(widths[i]) if i == 2 else c[i].ljust(widths[i])
                             for i in range(4))
            print(f"{line}  {c[4]}".rstrip())
        return
    topic_width = console.width - sum(widths) - 2 * 4  # four gaps of two spaces
    if topic_width >= _MIN_TOPIC:
        from rich.table import Table

        table = Table(box=None, pad_edge=False)
        for i, name in enumerate(header[:4]):
            table.add_column(name, no_wrap=True, min_width=widths[i],
                             justify="right" if name == "step" else "left")
        table.add_column("topic", no_wrap=True, overflow="ellipsis", max_width=topic_width)
        for c in cells:
            table.add_row(*c)
        console.print(table)
        return
    from rich.markup import escape

    for thread_id, status, step, as_of, topic in cells:
        console.print(escape(thread_id), style="bold", overflow="ignore", crop=False)
        detail = ", ".join(x for x in (status, step and f"step {step}",
                                       as_of and f"as of {as_of}") if x)
        console.print(escape(f"  {detail}"))
        console.print(escape(f"  topic: {topic}"), overflow="ellipsis", no_wrap=True)



def _print_table(console: Any, title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print a table that never loses a column: rich's on a terminal wide enough for every
    cell, else (narrow, or piped) plain lines padded to the widest cell, which a narrow terminal
    wraps but never cuts. (rich shrinks unwrappable columns to nothing when they do not fit.)"""
    from rich.markup import escape
    from rich.table import Table

    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    if console.is_terminal and sum(widths) + 2 * (len(widths) - 1) <= console.width:
        table = Table(title=escape(title), box=None, pad_edge=False)
        for name, width in zip(header, widths, strict=True):
            table.add_column(name, no_wrap=True, min_width=width)
        for row in rows:
            table.add_row(*map(escape, row))
        console.print(table)
        return
    console.print(escape(title), soft_wrap=True)
    for row in (header, *rows):
        line = "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        console.print(escape(line.rstrip()), soft_wrap=True)


def _next_tasks(names: list[str], saved: int) -> str:
    """The tasks a thread has next, and how many of them a resume will not run again.

    Example:
        >>> _next_tasks(["analyst", "critic", "analyst"], 1)
        'analyst x2, critic (3 tasks: 1 finished, its writes saved; 2 to run)'
        >>> _next_tasks(["persist"], 0)
        'persist'
    """
    counts = Counter(names)
    shown = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in counts.items())
    if len(names) == 1 and not saved:
        return shown
    done = (f"{saved} finished, {'its' if saved == 1 else 'their'} writes saved; "
            if saved else "")
    return f"{shown} ({len(names)} tasks: {done}{len(names) - saved} to run)"


def print_inspection(data: dict[str, Any]) -> None:
    """Print ``inspect`` output: the checkpoint history, then the thread's database rows."""
    from rich.markup import escape

    console = _console()
    console.print(escape(f"thread {data['thread_id']}: {data['topic']!r} as of {data['as_of']}"))
    if data["next"]:  # named as threads names it: "awaiting review", not "unfinished"
        console.print(f"{data['run_status']}: next "
                      f"{_next_tasks(data['next'], data.get('next_saved', 0))}")
    if data["checkpoints"]:
        history = []
        for c in data["checkpoints"]:
            ran = ("(pruned)" if c["ran"] is None else ", ".join(
                f"{name} x{n}" if n > 1 else name for name, n in c["ran"].items()) or "-")
            history.append([str(c["step"]), str(c["source"]), ran, str(c["envelopes"]),
                            str(c["persisted"]), str(c["with_payload"]),
                            str(c["bytes"] or "-")])
        _print_table(console, "checkpoints (oldest first)",
                     ["step", "source", "nodes that ran", "envelopes", "persisted", "payloads",
                      "bytes"], history)
        for c in data["checkpoints"]:  # what review --checkpoint takes (time travel)
            if paused := [n for n in c["next"] if n in REVIEW_NODES]:
                console.print(f"review pause at step {c['step']} ({paused[0]}): "
                              f"{c['checkpoint_id']}", soft_wrap=True)
    elif data["run_status"] == ROWS_ONLY:
        console.print(f"no checkpoints and no run here: {ROWS_ONLY_WHY}")
    elif "checkpoints" not in data.get("unread", ()):
        console.print(f"no checkpoints (status: {data['run_status']}); a hard kill under "
                      "durability=exit leaves none: `resume` runs the topic again")
    if data["rows"]:
        unknown = any(r["run_round"] is None for r in data["rows"])
        _print_table(console, f"results database rows of this thread: {len(data['rows'])}, one "
                     "per envelope (round: within its run, --json's run_round; its round "
                     "counts the thread's rounds"
                     + ("; ?: no checkpoint here tells where its runs began, the thread-wide "
                        "round is in --json" if unknown else "")
                     + "; writes: by every run, in place; times: --json)",
                     ["status", "round", "attempts", "writes", "envelope_id"],
                     [[r["status"], "?" if r["run_round"] is None else str(r["run_round"]),
                       str(r["attempts"]), str(r["write_count"]), r["envelope_id"]]
                      for r in data["rows"]])
    elif "rows" not in data.get("unread", ()):
        console.print("no results database rows for this thread")
    if missing := data.get("missing_rows"):
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3
                                          else "")
        console.print(escape(f"missing from the results database: {len(missing)} envelope(s) "
                             f"the last checkpoint marks persisted ({shown}); the thread's next "
                             "run computes them again"), soft_wrap=True)
