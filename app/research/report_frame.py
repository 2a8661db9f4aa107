"""The report's frame around what it found: its title and run facts above, its Failures and
Notes below, and the whole report of a run whose every result a reviewer dropped. Split from
:mod:`app.research.report`, whose :func:`~app.research.report.render_markdown` renders what
lies between.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.research.notes import coalesce_notes, unknown_kind_notes
from app.research.text import clip, clip_middle
from workers.sources.base import code_span

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["closing_lines", "dropped_report", "header_lines"]

_NOTE_CHARS = 800
"""The most characters of a note's line: twice a claim's bullet, its end kept (it says why)."""


def dropped_report(data: ReportInput) -> str:
    """The report of a run whose every result a reviewer dropped: it says so where the Answer
    would be (it once said "No sourced answer was found in the corpus", and "No limitations or
    warnings were found", of a corpus that had them), with the Notes naming each drop."""
    lines = header_lines(data, [])
    lines += ["## Answer", "",
              f"- _Every result ({data.dropped}) was dropped at review: nothing was persisted, "
              "and no finding is reported (see Notes)._", ""]
    lines += closing_lines(data, [])
    lines += ["## Sources", "", "No sources were cited."]
    return "\n".join(lines).rstrip() + "\n"


def header_lines(data: ReportInput, errors: list[dict[str, Any]]) -> list[str]:
    """The report's title and run facts: titled by the plan that ran, so a plan replaced at
    review is titled by its questions, with the topic it replaced said below."""
    workers = sorted({r["worker"] for r in data.rows})
    if data.replaced:
        title = "; ".join(data.sub_questions)
        # the report cannot tell a review's replacement from a state edit's (a Studio
        # fork's report said "at review", with no review in the run)
        topic = [f"- Topic: {clip(data.topic, 200)} (its plan was replaced at review or by a "
                 "state edit: this "
                 f"report answers the {len(data.sub_questions)} sub-question(s) of the plan "
                 "that ran, in place of the planner's)"]
    else:
        title, topic = data.topic, []
    return [
        f"# Research report: {clip(title, 200)}",
        "",
        *topic,
        f"- As of: {data.as_of}",
        f"- Model: {data.model_label}",
        f"- Thread: {code_span(data.thread_id)}",
        f"- Workers: {', '.join(workers) or 'none'}; envelopes: {len(data.rows)}; "
        f"errors: {len(errors)}",
        "",
    ]


def closing_lines(data: ReportInput, errors: list[dict[str, Any]]) -> list[str]:
    """The Failures section (when a worker ended in error) and the Notes."""
    lines: list[str] = []
    if errors:
        lines += ["## Failures", "", *(
            f"- `{r['worker']}` on \"{clip(r['task_key'], 120)}\": {r['error']}" for r in errors)]
        lines.append("")
    notes = coalesce_notes(data.notes) + unknown_kind_notes(data.rows)  # a line per run of rounds
    if notes:
        lines += ["## Notes", ""]
        lines += [f"- {clip_middle(n, _NOTE_CHARS)}" for n in notes]  # its end says why
        lines.append("")
    return lines
