"""Rows and report helpers shared by the report tests (test_report*.py, test_relevance)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.research.report import ReportInput, render_markdown

AS_OF = "2026-11-30"
Q1, Q2 = "What is the Zorblax relay?", "How does the Zorblax relay work?"


def item(kind: str, text: str, ref: str | None, **extra) -> dict:
    out = {"kind": kind, "text": text, "title": f"title of {ref}", "source": f"src/{ref}"}
    if ref is not None:
        out["ref"] = ref
    return {**out, **extra}


def row(worker: str, task_key: str, items: list[dict] | None = None, *, status: str = "ok",
        error: str | None = None) -> dict:
    return {
        "envelope_id": f"{worker}:{AS_OF}:{abs(hash((worker, task_key))):x}",
        "worker": worker,
        "task_key": task_key,
        "as_of": AS_OF,
        "status": status,
        "error": error,
        "structured": None if items is None else {"items": items},
    }


def data(rows: list[dict], **kw) -> ReportInput:
    return ReportInput(
        topic=kw.pop("topic", "zorblax relay"),
        as_of=AS_OF,
        model_label="offline (deterministic, extractive)",
        thread_id=kw.pop("thread_id", "t-1"),
        sub_questions=kw.pop("sub_questions", [Q1, Q2]),
        rows=rows,
        **kw,
    )


def keyword_entry(keyword: str, args: str, text: str) -> str:
    """An entry as HAProxy's HTML guides write one: the keyword in a ``div``, its text in a
    ``pre``."""
    return (f'<div class="keyword"><b><a class="anchor" name="{keyword}"></a>{keyword}</b> '
            f'<span>{args}</span></div><pre class="text">{text}</pre>\n')


def answer_section(md: str) -> str:
    """The text of a rendered report's ``## Answer`` section, up to the next section."""
    return md.split("## Answer\n", 1)[1].split("\n## ", 1)[0]


def researched(folder: Path, topic: str, data_dir: Path) -> str:
    """The report ``research topic --corpus folder`` writes (offline, as of :data:`AS_OF`)."""
    from tests.conftest import run_cli

    proc = run_cli("research", topic, "--as-of", AS_OF, "--corpus", folder, "--data-dir",
                   data_dir, "--json")
    assert proc.returncode == 0, proc.stderr
    return Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")


def first_answer(tmp_path: Path, files: dict[str, str], topic: str) -> tuple[str, str]:
    """The report of ``topic`` over a folder of ``files`` (name -> text) and its Answer's first
    line."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    report = researched(folder, topic, tmp_path / "data")
    return report, answer_section(report).strip().splitlines()[0]


def answer_to(q: str, findings: list[dict]) -> str:
    """The ``## Answer`` of a report on ``q`` alone whose one analyst row found ``findings``."""
    return answer_section(render_markdown(data([row("analyst", q, findings)], topic=q,
                                               sub_questions=[q])))


ROWS = [
    row("analyst", Q1, [
        item("finding", "The relay moves glimmer packets between moon stations.", "z.md#0"),
        item("finding", "Each packet is folded into three copper envelopes.", "z.md#1"),
    ]),
    row("docs_search", Q1, [
        item("passage", "The relay moves glimmer packets. It is fictional.", "z.md#0", score=3.2),
        item("passage", "Stations of Quelloria are nine. Each holds a relay.", "q.md#0"),
    ]),
    row("analyst", Q2, [
        item("finding", "The outer copper envelope carries the destination.", "z.md#1"),
        item("finding", "The receiving station compares the checksum with its ledger.", "z.md#2"),
    ]),
    row("critic", Q2, [
        item("caveat", "The relay must not be used during a double eclipse.", "z.md#3"),
    ]),
]


def sources(md: str) -> list[tuple[int, str]]:
    tail = md.split("\n## Sources\n", 1)[1]
    return [(int(n), ref) for n, ref in re.findall(r"^(\d+)\. `([^`]+)`", tail, re.MULTILINE)]


def citations(md: str) -> list[int]:
    body = md.split("\n## Sources\n", 1)[0]
    return [int(n) for n in re.findall(r"\[(\d+)\]", body)]


def bullet_number(md: str, text: str) -> int:
    match = re.search(rf"^- .*{re.escape(text)}.* \[(\d+)\]$", md, re.MULTILINE)
    assert match, f"no bullet with {text!r} in:\n{md}"
    return int(match.group(1))


def listed_refs(passages_line: str) -> list[str]:
    """The refs a Sources entry's ``- passages:`` line lists, each less the section heading that
    may follow it as ``(`heading`)``."""
    return re.findall(r"`([^`]+)`", re.sub(r" \(`[^)]*`\)", "", passages_line))
