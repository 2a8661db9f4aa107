"""``python -m app research`` end to end, in a subprocess, on a small made-up corpus.

What a user relies on, checked on real output:

* the run exits 0 and prints where the report is; the report is there;
* every ``[n]`` in the report resolves to one numbered source, each source is listed once, each
  source's ``ref`` is a real passage of the corpus, and (the offline model being extractive)
  each finding, caveat and passage excerpt is verbatim text of the passage it cites;
* the results database, the last checkpoint and the plan agree: one row and one envelope per
  worker x sub-question, no duplicates, all persisted, no payload left in checkpoint state;
* progress goes to stdout in plain mode, nowhere with ``--quiet``, to stderr with ``--json``
  (stdout then holds only the JSON summary);
* on the default corpus (the installed packages' docs), the headline topic is answered from
  LangGraph's own docs.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.research.plan import offline_plan
from app.runs.ids import default_thread_id
from app.runs.inspect import inspect_thread
from app.storage.sqlite import SqliteResults, SqliteStorage
from state import make_envelope_id
from tests.app.report_rows import listed_refs
from tests.conftest import AS_OF, SMALL_TOPIC, run_cli_many
from workers.registry import WORKERS
from workers.sources import Corpus

WORKER_NAMES = {w.name for w in WORKERS}
PROGRESS = re.compile(r"^\[\s*(\d+)/(\d+)\] (\S+)\s+(ok|error)\b")
DEFAULT_TOPIC = "checkpointer pending writes"


# ------------------------------------------------------------------------------------------
# Reading a report


@dataclass
class Bullet:
    section: str  # "answer", "findings", "passages" or "caveats"
    text: str
    numbers: list[int]


@dataclass
class Report:
    text: str
    body: str
    bullets: list[Bullet]
    citations: list[int]  # every [n] of the body, in reading order
    sources: list[tuple[int, str, str]]  # (number, document, "title (source)")
    passages: dict[int, list[str]]  # a source's cited passages (refs), listed under it


_BULLET = re.compile(r"^- (?P<text>.*) (?P<marks>(?:\[\d+\])+)$")


def parse_report(text: str) -> Report:
    body, sep, tail = text.partition("\n## Sources\n")
    assert sep, "the report has no Sources section"
    sources = [
        (int(n), ref, rest)
        for n, ref, rest in re.findall(r"^(\d+)\. `([^`]+)`: (.*)$", tail, re.MULTILINE)
    ]
    # each document's cited passages, listed under it ("   - passages: `a#0`, `a#2`")
    cited = {}
    for n, refs in re.findall(r"^(\d+)\. `[^`]+`: .*\n   - passages: (.*)$", tail, re.MULTILINE):
        cited[int(n)] = listed_refs(refs)
    bullets: list[Bullet] = []
    citations: list[int] = []
    section = ""
    for line in body.splitlines():
        if line == "## Answer":
            section = "answer"
        elif line == "Findings:":
            section = "findings"
        elif line == "Top passages:":
            section = "passages"
        elif line == "## Caveats":
            section = "caveats"
        elif line.startswith("## "):
            section = ""
        match = _BULLET.match(line)
        if match:
            numbers = [int(n) for n in re.findall(r"\d+", match["marks"])]
            citations.extend(numbers)
            # a claim bullet; italics ("- _Answered by the findings above._ [1][2]") are the
            # report speaking about itself, not a claim
            if section and not match["text"].startswith("_"):
                bullets.append(Bullet(section, match["text"], numbers))
    return Report(text, body, bullets, citations, sources, cited)


def flat(text: str) -> str:
    return " ".join(text.split())


def assert_report_is_grounded(report: Report, corpus: Corpus) -> None:
    """Citations resolve to sources, sources to passages, bullet text to the cited passage."""
    numbers = [n for n, _, _ in report.sources]
    refs = [ref for _, ref, _ in report.sources]
    assert numbers == list(range(1, len(numbers) + 1)), "sources are not numbered 1..N"
    assert len(set(refs)) == len(refs), f"a source is listed twice: {refs}"
    assert report.citations, "the report cites nothing"
    assert set(report.citations) == set(numbers), (
        "every [n] must resolve to a listed source and every listed source must be cited"
    )
    first_cited = list(dict.fromkeys(report.citations))
    assert first_cited == numbers, "sources must be numbered in first-cited order"

    # one entry per document (issue 19), its cited passages listed under it
    passages: dict[int, list] = {}
    for number, doc, rest in report.sources:
        refs = report.passages.get(number, [])
        assert refs, f"source [{number}] `{doc}` lists no cited passage"
        found = [corpus.passage(ref) for ref in refs]
        assert None not in found, f"source [{number}] `{doc}`: {refs} are not all passages"
        assert {p.doc_id for p in found} == {doc}, f"source [{number}] mixes documents: {refs}"
        # "Title (source)", the source, or a folder file's title alone (its source is its path,
        # the doc id the entry shows already: trial 20, finding 9)
        assert any(rest in (f"{p.title} ({p.source})", p.source)
                   or (rest == p.title and p.source == p.doc_id) for p in found), (
            f"source [{number}] `{doc}` is misdescribed: {rest!r}"
        )
        passages[number] = found

    for bullet in report.bullets:
        if bullet.section == "answer":  # may be model-written: its [n]s resolve (above)
            continue
        assert len(bullet.numbers) == 1, bullet
        cited = passages[bullet.numbers[0]]
        claim = bullet.text
        if bullet.section == "passages":  # "- <title>: <first sentence of the passage>"
            title, _, claim = claim.partition(": ")
            assert title in {p.title for p in cited}, bullet
        claim = flat(claim).removesuffix("…")
        assert claim and any(claim in flat(p.text) for p in cited), (
            f"{bullet.section} bullet is not verbatim text of a cited passage of "
            f"`{cited[0].doc_id}`: {bullet.text!r}"
        )


# ------------------------------------------------------------------------------------------
# Runs (all at once, once per module: each is a whole CLI process)


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def runs(small_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("e2e-research")
    dirs = {name: base / name for name in ("plain", "quiet", "json", "default")}
    common = ["--as-of", AS_OF]
    small = ["research", SMALL_TOPIC, "--corpus", small_corpus, *common]
    procs = run_cli_many(
        {
            "plain": [*small, "--data-dir", dirs["plain"]],
            "quiet": [*small, "--data-dir", dirs["quiet"], "--quiet"],
            "json": [*small, "--data-dir", dirs["json"], "--json"],
            # The default corpus (package docs): indexed once in the whole suite, here.
            "default": ["research", DEFAULT_TOPIC, *common, "--data-dir", dirs["default"],
                        "--json"],
        }
    )
    return {"dirs": dirs, "procs": procs}


def _ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, (
        f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _printed_report_path(stdout: str) -> Path:
    match = re.search(r"^  report: (.+)$", stdout, re.MULTILINE)
    assert match, f"no report path in the summary:\n{stdout}"
    return Path(match.group(1))


# ------------------------------------------------------------------------------------------
# Plain mode


def test_plain_run_exits_0_and_prints_progress_for_every_task(runs) -> None:
    out = _ok(runs["procs"]["plain"]).stdout
    total = len(WORKERS) * len(offline_plan(SMALL_TOPIC))
    progress = [PROGRESS.match(line) for line in out.splitlines()]
    progress = [m for m in progress if m]
    assert [int(m[1]) for m in progress] == list(range(1, total + 1)), out
    assert {int(m[2]) for m in progress} == {total}
    assert all(m[4] == "ok" for m in progress), out
    assert {m[3] for m in progress} == WORKER_NAMES
    count = len(offline_plan(SMALL_TOPIC))
    assert f"planned {count} sub-question{'s' * (count != 1)}, {total} tasks:" in out
    assert "report written: " in out
    assert re.search(rf"^  envelopes: {total} \(expected {total}\)$", out, re.MULTILINE), out
    assert re.search(r"^  duplicates: 0$", out, re.MULTILINE), out


def test_plain_run_report_is_at_the_printed_path(runs) -> None:
    out = _ok(runs["procs"]["plain"]).stdout
    path = _printed_report_path(out)
    assert f"report written: {path}" in out
    assert path.is_file()
    reports = (runs["dirs"]["plain"] / "reports").resolve()
    assert path.resolve().parent == reports
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"# Research report: {SMALL_TOPIC}\n")
    assert f"- As of: {AS_OF}" in text
    # a section per sub-question, numbered as shown; one that found only what a section above
    # shows is named in the Notes instead of repeating it (issue 19)
    shown = re.findall(r"^## (\d+)\. (.*)$", text, re.MULTILINE)
    assert [int(n) for n, _ in shown] == list(range(1, len(shown) + 1)), shown
    notes = text.split("\n## Notes\n", 1)[-1] if "\n## Notes\n" in text else ""
    for question in offline_plan(SMALL_TOPIC):
        assert question in [q for _, q in shown] or f'"{question}"' in notes, question


def test_report_citations_resolve_to_verbatim_corpus_passages(runs, small_corpus) -> None:
    path = _printed_report_path(_ok(runs["procs"]["plain"]).stdout)
    report = parse_report(path.read_text(encoding="utf-8"))
    with Corpus.open(runs["dirs"]["plain"], folder=small_corpus) as corpus:
        assert_report_is_grounded(report, corpus)
    sections = {b.section for b in report.bullets}
    # "Top passages" lists only passages no finding cites yet, so on this small corpus it may
    # be empty; findings and caveats are always there.
    assert {"findings", "caveats"} <= sections, sections
    # The made-up subject's distinctive sentences made it into the report, cited.
    assert "three copper envelopes" in report.body
    caveats = " ".join(b.text for b in report.bullets if b.section == "caveats")
    assert re.search(r"must not|deprecated|[Ww]arning|rejected", caveats), caveats
    assert "No sources were cited." not in report.text
    assert "## Failures" not in report.text


def test_database_checkpoint_and_plan_agree(runs) -> None:
    _ok(runs["procs"]["plain"])
    data_dir = runs["dirs"]["plain"]
    thread_id = default_thread_id(SMALL_TOPIC, AS_OF)
    questions = offline_plan(SMALL_TOPIC)
    expected_ids = {make_envelope_id(w, q, AS_OF) for w in WORKER_NAMES for q in questions}
    assert len(expected_ids) == len(WORKERS) * len(questions)

    with SqliteResults.in_dir(data_dir) as store:
        rows = store.rows(thread_id=thread_id)
        assert store.duplicate_count() == 0
        assert store.count() == len(expected_ids)
        run = store.run(thread_id)
    assert [r["envelope_id"] for r in rows] and {r["envelope_id"] for r in rows} == expected_ids
    assert len(rows) == len(expected_ids)
    assert all(r["status"] == "ok" and r["write_count"] == 1 for r in rows)
    assert all(r["structured"] is not None for r in rows), "the DB must hold the payloads"
    assert all(r["structured"]["items"] for r in rows if r["worker"] == "docs_search")
    assert run is not None and run["status"] == "finished"

    with SqliteStorage(data_dir).checkpointer() as saver:
        last = saver.get_tuple({"configurable": {"thread_id": thread_id}})
    assert last is not None
    envelopes = last.checkpoint["channel_values"]["envelopes"]
    ids = [e["envelope_id"] for e in envelopes]
    assert len(ids) == len(set(ids)) == len(expected_ids)
    assert set(ids) == expected_ids
    assert all(e["persisted"] is True for e in envelopes)
    assert all(e.get("structured") is None for e in envelopes), "payload left in checkpoint"

    info = inspect_thread(data_dir, thread_id)
    assert info is not None and info["next"] == []
    final = info["checkpoints"][-1]
    assert final["envelopes"] == final["unique_ids"] == final["persisted"] == len(expected_ids)
    assert final["with_payload"] == 0
    assert len(info["rows"]) == len(expected_ids)


# ------------------------------------------------------------------------------------------
# --quiet and --json


def test_quiet_prints_no_progress_only_the_summary(runs) -> None:
    proc = _ok(runs["procs"]["quiet"])
    lines = proc.stdout.splitlines()
    assert not [line for line in lines if PROGRESS.match(line)], proc.stdout
    assert not any(line.startswith(("planned ", "thread ", "report written")) for line in lines)
    assert "summary:" in lines
    assert _printed_report_path(proc.stdout).is_file()
    assert proc.stderr.strip() == ""


def test_json_puts_progress_on_stderr_and_only_json_on_stdout(runs) -> None:
    proc = _ok(runs["procs"]["json"])
    summary = json.loads(proc.stdout)  # the whole of stdout is one JSON document
    total = len(WORKERS) * len(offline_plan(SMALL_TOPIC))
    assert summary["ok"] is True
    assert summary["thread_id"] == default_thread_id(SMALL_TOPIC, AS_OF)
    assert summary["topic"] == SMALL_TOPIC and summary["as_of"] == AS_OF
    assert summary["sub_questions"] == offline_plan(SMALL_TOPIC)
    assert summary["envelopes"] == summary["expected"] == summary["db_rows"] == total
    assert summary["persisted"] == total
    assert summary["duplicates"] == 0 and summary["errors"] == []
    path = Path(summary["report_path"])
    assert path.is_file() and path.parent == (runs["dirs"]["json"] / "reports").resolve()

    progress = [m for m in map(PROGRESS.match, proc.stderr.splitlines()) if m]
    assert len(progress) == total, proc.stderr
    assert f"report written: {path}" in proc.stderr


# ------------------------------------------------------------------------------------------
# The default corpus: the product's headline promise


def test_default_corpus_answers_from_langgraph_docs(runs) -> None:
    proc = _ok(runs["procs"]["default"])
    summary = json.loads(proc.stdout)
    assert summary["ok"] is True and summary["duplicates"] == 0
    assert summary["corpus"].startswith("package docs: langgraph ")
    report = parse_report(Path(summary["report_path"]).read_text(encoding="utf-8"))
    langgraph_refs = [ref for _, ref, _ in report.sources if ref.startswith("langgraph.")]
    assert langgraph_refs, f"no langgraph source cited: {[r for _, r, _ in report.sources]}"
    # cited claims, in the Answer or a section's Findings (each sentence is said once: the
    # Answer's are not repeated below it), and at least one of them on pending writes
    claims = [b for b in report.bullets if b.section in ("answer", "findings")]
    assert any("pending" in b.text.lower() for b in claims), f"no claim on the topic: {claims}"
    with Corpus.open(runs["dirs"]["default"]) as corpus:  # the cached index of the run
        assert not corpus.built
        assert_report_is_grounded(report, corpus)
