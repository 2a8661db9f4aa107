"""Terminal output: progress as envelopes arrive (the end-of-run summary and a pause are
:mod:`app.cli.summary`).

On a terminal it uses rich (colour, a live progress bar); otherwise (a pipe, CI, a test) it prints
plain lines that a test or ``grep`` can read. Messages go to stderr when stdout carries ``--json``.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from app.research.text import clip, visible

__all__ = ["Progress", "SHORT", "shown"]


def shown(text: object, limit: int) -> str:
    """``text`` for a terminal line: on one line, cut to ``limit`` (:func:`clip`), its control
    characters escaped (:func:`visible`: else a question's ESC reached the terminal)."""
    return visible(clip(text, limit))


SHORT = 70
"""The most characters of a sub-question shown on a progress line."""


SHOW_INDEXING_FROM = 200
"""Folders of this many files or more show the index build's progress (smaller ones take well
under a second)."""

SLOW_INDEXING_S = 1.0
"""A smaller folder whose build has not ended after this many seconds (a large PDF: gnuplot's
311-page manual reads in ~25 s) names the thread and says it is indexing (else nothing was
printed for 29 s)."""

SLOW_FILE_S = 3.0
"""A file of the corpus folder read for this long is named on a line of its own ("still
reading debian-reference.en.pdf"): the Debian Reference's PDF was read for 27 s under
"indexing 18 file(s) of the corpus folder" and nothing else (trial 124, FA2). A folder of
thousands of small files reads each well under it: no line per file."""


SHOWN_REDISPATCHES = 3
"""Re-dispatch rounds of a run that each get their ``round N: sending K task(s) again`` line
(its rounds 2 to 4); later ones are counted in one line per :data:`ROUNDS_PER_LINE` rounds.
``--rounds 1000`` with a worker that always fails printed 999 such lines (trial 58, F3)."""

ROUNDS_PER_LINE = 100
"""Rounds past the first re-dispatches said in one line (``rounds 5–104: ...``), and the last
stretch when the rounds end."""


def _error_kind(error: object) -> str:
    """What makes two failures of a task the same: the error's kind, the words before its
    first colon (``InjectedWorkerError``, ``AnswerProtocolError``); its message may name the
    round or the attempt.

    Example:
        >>> _error_kind("TimeoutError: the analyst's request took over 60 s (round 3)")
        'TimeoutError'
    """
    return str(error or "").split(":", 1)[0].strip()


class _Stretch:
    """Re-dispatch rounds counted, not said one by one, since the last line about them."""

    def __init__(self) -> None:
        self.rounds: list[int] = []  # this run's round numbers
        self.tasks: list[int] = []  # tasks sent in each
        self.again = 0  # results that failed again as before (not printed)

    def line(self) -> str:
        first, last = self.rounds[0], self.rounds[-1]
        span = f"round {first}" if first == last else f"rounds {first}–{last}"
        low, high, total = min(self.tasks), max(self.tasks), sum(self.tasks)
        if low == high:
            sent = f"sent {low} task(s) again" + (" each round" if first != last else "")
        else:
            sent = f"sent {low} to {high} task(s) again a round, {total} in all"
        if self.again == total:
            return f"{span}: {sent}; each failed again as before"
        return f"{span}: {sent}; {self.again} failed again as before"


class Progress:
    """The ``on_event`` callback of :func:`app.runs.run.run_research` that prints as the run goes.

    Args:
        stream: where to print (stdout, or stderr under ``--json``).
        quiet: print nothing but errors.
    """

    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.console = Console(file=self.stream, highlight=False, soft_wrap=True)
        self.rich = self.console.is_terminal
        self.thread_shown = False
        self.bar: Any = None  # the index build's progress bar (None: not indexing yet)
        self.task: Any = None
        self.slow: threading.Timer | None = None  # a small folder's build that takes a while
        self.said_slow = threading.Event()
        # the file the build reads (from the events: its name and since when), and the thread
        # that names it once it takes SLOW_FILE_S, until the build's end (``read``)
        self.reading: tuple[str, float] = ("", 0.0)
        self.watcher: threading.Thread | None = None
        self.read = threading.Event()
        # The thread's round that is this run's first: rounds go on across a thread's reruns,
        # and a line says this run's (a rerun's first round read "round 3" on every result)
        self.first_round = 1
        # Re-dispatch rounds: each task's last result ((status, error kind) by worker and
        # task), so a later round's same failure is counted, not said again; this round's
        # count of those; the rounds counted past SHOWN_REDISPATCHES, not yet said; and, on a
        # terminal, a transient rich status saying which round runs now.
        self.said: dict[tuple[str, str], tuple[str, str]] = {}
        self.round_again = 0
        self.counting = False  # this round is past SHOWN_REDISPATCHES: its lines are counted
        self.run_round = 1
        self.stretch: _Stretch | None = None
        self.status: Any = None

    def line(self, text: str, style: str | None = None) -> None:
        """Print one line (rich styling on a terminal, plain text elsewhere), its control
        characters escaped (:func:`visible`): a note or the corpus line may quote a source's
        text (a web page's, an MCP server's)."""
        if self.quiet:
            return
        text = visible(text)
        try:
            if self.rich:
                self.console.print(escape(text), style=style)
            else:
                print(text, file=self.stream, flush=True)
        except BrokenPipeError:
            # The reader went away (``... | head``): stop printing, keep the run going. Progress
            # output is never a reason to lose work.
            self.quiet = True

    def _thread_line(self, data: dict[str, Any]) -> None:
        if not self.thread_shown:
            self.line(f"thread {data['thread_id']}", "bold")
            self.thread_shown = True

    def _indexing(self, data: dict[str, Any]) -> None:
        """For a folder of :data:`SHOW_INDEXING_FROM` files or more: the thread id at once,
        then how far the index build is: a rich progress bar on a terminal, a line at the
        start and once every file is read elsewhere. A smaller folder is indexed well under a
        second, and the thread is named when the run starts: a folder with nothing to index
        then gets its one error line and nothing before it."""
        done, total = data["done"], data["total"]
        if total == 0:  # another process builds the same index: this run waits for it
            self._thread_line(data)
            self.line("waiting for the corpus index another process is building in this data "
                      "dir")
            return
        self._watch(data)
        if total < SHOW_INDEXING_FROM:
            self._small_folder(data)
            return
        self._thread_line(data)
        if self.bar is None:
            self.line(f"indexing {total} file(s) of the corpus folder")
            if self.rich and not self.quiet:
                from rich.progress import Progress as Bar

                self.bar = Bar(console=self.console, transient=True)
                self.bar.start()
                self.task = self.bar.add_task("indexing", total=total)
            else:
                self.bar = False  # the plain line is printed; nothing more until the end
        if self.bar:
            self.bar.update(self.task, completed=done)
        if done >= total:
            self._stop_watch()
            if self.bar:
                self.bar.stop()
            # read, not indexed: a binary or blank file among them is only named in the notes
            # (the corpus line counts the files indexed)
            self.line(f"read {total} file(s); writing the index")

    def _small_folder(self, data: dict[str, Any]) -> None:
        """A folder of fewer than :data:`SHOW_INDEXING_FROM` files: the indexing line once
        the build has taken :data:`SLOW_INDEXING_S` seconds (on a timer: a single large file
        sends no event until it is read), and its end line then."""
        done, total = data["done"], data["total"]
        if done == 0 and self.slow is None:
            self.slow = threading.Timer(SLOW_INDEXING_S, self._say_indexing, [dict(data)])
            self.slow.daemon = True
            self.slow.start()
        elif done >= total:
            self._stop_slow()
            self._stop_watch()
            if self.said_slow.is_set():
                self.line(f"read {total} file(s); writing the index")

    def _watch(self, data: dict[str, Any]) -> None:
        """Keep the file the build reads next (the event's ``reading``) and since when; the
        first event starts the thread that names it when it takes :data:`SLOW_FILE_S`."""
        self.reading = (str(data.get("reading") or ""), time.monotonic())
        if self.watcher is None and data["done"] < data["total"]:
            self.watcher = threading.Thread(target=self._name_slow_files, args=(dict(data),),
                                            name="slow-file", daemon=True)
            self.watcher.start()

    def _name_slow_files(self, data: dict[str, Any]) -> None:
        """Until the build has read every file: a line for each file read for
        :data:`SLOW_FILE_S` or more (once per file), whose name the events said."""
        said = ""
        while not self.read.wait(min(0.5, SLOW_FILE_S / 4)):
            name, since = self.reading
            if name and name != said and time.monotonic() - since >= SLOW_FILE_S:
                self._thread_line(data)
                self.line(f"still reading {shown(name, 100)}")
                said = name

    def _stop_watch(self) -> None:
        self.read.set()
        if self.watcher is not None:
            self.watcher.join()  # named or not, never after the lines that follow

    def _say_indexing(self, data: dict[str, Any]) -> None:
        self._thread_line(data)
        self.line(f"indexing {data['total']} file(s) of the corpus folder")
        self.said_slow.set()

    def _stop_slow(self) -> None:
        if self.slow is not None:
            self.slow.cancel()
            self.slow.join()  # said or not, never after the lines that follow

    def _start(self, data: dict[str, Any]) -> None:
        """The ``start`` event: which thread, and whether it resumes, reruns or continues
        with a review decision; its model and corpus."""
        if data.get("review"):
            self.line(f"continuing thread {data['thread_id']} with the review decision",
                      "bold yellow")
        elif data.get("resumed_from_step") is not None:
            if data.get("step_tasks", 1):  # stopped in a map step
                where = (f"{data.get('restored', 0)} finished result(s) restored from its "
                         "checkpoint")
            else:  # stopped after the map: every result is already in the checkpoint
                where = f"at {', '.join(data.get('at') or ['its next step'])}"
            self.line(f"resuming thread {data['thread_id']} from step "
                      f"{data['resumed_from_step']} ({where})", "bold yellow")
        elif data.get("rerun"):
            self.line(f"thread {data['thread_id']} finished earlier: running it again "
                      "(same envelope ids: rows are updated in place)", "bold")
        elif not self.thread_shown:  # shown already when the folder was indexed
            self.line(f"thread {data['thread_id']}", "bold")
        self.line(f"model: {data['model']}")
        built = data.get("index_seconds")  # trial 60, F2: the build's own time went unsaid
        self.line(f"corpus: {data['corpus']}"
                  + (f" (index built in {float(built):.1f} s)" if built else ""))

    def _dispatched(self, data: dict[str, Any]) -> None:
        """A re-dispatch round: its line for the run's first :data:`SHOWN_REDISPATCHES`
        (rounds 2 to 4), then counted in a stretch said every :data:`ROUNDS_PER_LINE` rounds
        and when the rounds end (:meth:`close_rounds`); on a terminal a transient rich status
        names the round running."""
        self.run_round = data.get("run_round", data["round"])
        self.counting = self.run_round > 1 + SHOWN_REDISPATCHES
        if not self.counting:
            self.close_rounds()
            self.line(f"round {self.run_round}: sending {data['tasks']} task(s) again")
            return
        if self.stretch is not None and len(self.stretch.rounds) >= ROUNDS_PER_LINE:
            self._say_stretch()
        if self.stretch is None:
            self.stretch = _Stretch()
        self.stretch.rounds.append(self.run_round)
        self.stretch.tasks.append(data["tasks"])
        if self.rich and not self.quiet:
            text = f"round {self.run_round}: sending {data['tasks']} task(s) again"
            if self.status is None:
                self.status = self.console.status(escape(text))
                self.status.start()
            else:
                self.status.update(escape(text))

    def _say_stretch(self) -> None:
        stretch, self.stretch = self.stretch, None
        if stretch is not None and stretch.rounds:
            self.line(stretch.line())

    def close_rounds(self) -> None:
        """Say the re-dispatch rounds counted and not yet said, and stop the terminal's
        status: at the next event that is no round's, and when the run ends."""
        if self.status is not None:
            self.status.stop()
            self.status = None
        self._say_stretch()

    def _envelope(self, data: dict[str, Any]) -> None:
        """A task's result: said in round 1, and later when it is news (ok now, or another
        error); the same failure again is counted (the round's count line, or the stretch)."""
        env = data["envelope"]
        status = env.get("status", "ok")
        in_run = env.get("round", 1) - self.first_round + 1
        task = (str(env.get("worker")), str(env.get("task_key", "")))
        result = (status, _error_kind(env.get("error")))
        again = in_run > 1 and status == "error" and self.said.get(task) == result
        self.said[task] = result
        if again:
            self.round_again += 1
            if self.stretch is not None and self.counting:
                self.stretch.again += 1
        else:
            round_ = f" round {in_run}" if in_run > 1 else ""
            attempts = f" after {env['attempts']} attempts" if env.get("attempts", 1) > 1 else ""
            width = len(str(data["total"]))
            text = (
                f"[{data['done']:>{width}}/{data['total']}] {env['worker']:<12} {status:<5} "
                f"{shown(env.get('task_key', ''), SHORT)}{round_}{attempts}"
            )
            if status == "error":
                text += f"  ({shown(env.get('error') or '', 120)})"
            self.line(text, "red" if status == "error" else None)
        if data["done"] >= data["total"]:  # the round's end
            if self.round_again and not self.counting:
                self.line(f"round {in_run}: {self.round_again} task(s) failed again as before",
                          "red")
            self.round_again = 0

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        if kind not in ("dispatched", "envelope", "retry", "waiting"):
            self.close_rounds()  # the rounds ended (persist, a note, the report...)
        if kind == "indexing":
            self._indexing(data)
        elif kind == "start":
            self._stop_slow()
            self._stop_watch()
            self._start(data)
        elif kind == "planned":
            self.first_round = data.get("first_round") or 1
            count = len(data["sub_questions"])
            # a resume past planning did not plan: it goes on with the plan it had
            said = "resumed with its plan of" if data.get("resumed") else "planned"
            self.line(f"{said} {count} sub-question{'s' * (count != 1)}, "
                      f"{data['total']} tasks:")
            for i, question in enumerate(data["sub_questions"], 1):
                self.line(f"  {i}. {shown(question, 100)}")
        elif kind == "envelope":
            self._envelope(data)
        elif kind == "dispatched":
            self._dispatched(data)
        elif kind == "retry" and self.counting:
            pass  # a counted round's task: its result is news enough, if it is news
        elif kind == "retry":
            self.line(
                f"        {data['worker']:<12} retry  {shown(data['task_key'], SHORT)}  (attempt "
                f"{data['attempt']} of {data['max_attempts']} failed: {shown(data['error'], 90)})",
                "yellow",
            )
        elif kind == "waiting":  # once per wait: a Retry-After, a backoff of up to 600 s
            self.line(f"        waiting {data['seconds']:.0f} s {shown(data['for'], 200)}",
                      "yellow")
        elif kind == "persisted":
            self.line(f"persisted {data['count']} envelope(s) to the results database")
        elif kind == "report":
            self.line(f"report written: {data['path']}", "green")
        elif kind == "note":  # said even with --quiet: it may spare a whole run
            quiet, self.quiet = self.quiet, False
            self.line(f"note: {data['text']}", "yellow")
            self.quiet = quiet or self.quiet  # a broken pipe silences it for good
