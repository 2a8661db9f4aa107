"""The research eval on external corpora: documentation folders nobody in this project wrote.

Used by ``scripts/eval_research.py --corpus NAME`` (issue 19, section 5). Each corpus is a
hand-written question file ``tests/quality/eval_sets/<NAME>.json``: the Debian package that
ships the documents, the version its questions were written against, the folder the agent
indexes (``--corpus FOLDER``), and the questions, each with ``style`` ``docs-words`` (in the
documents' own words) or ``paraphrased`` (as a user would ask, without their wording) and its
``gold`` pages (paths relative to the folder; a PDF page is ``file.pdf:pN``), or ``gold: null``
and ``kind`` ``unrelated`` / ``near-miss`` for off-topic questions the documents cannot answer.
The questions were written by reading the documents, never from the agent's output.

What is scored is what a reader gets (the report and the run's warnings):

* **gold cited**: a gold page is among the report's numbered Sources;
* **first 3**: a gold page is among the first three Sources;
* **on target**: the share of cited Sources that are gold pages (micro average);
* **first finding**: the first cited statement of the report body (the first line after the
  header holding a citation mark ``[n]``, placeholders in italics left out) cites a gold page;
* **cited answer**: the report opens with an answer: its first ``##`` section is ``## Answer``
  (or ``## Short answer``) and holds a citation mark ``[n]`` of a listed source;
* **off-topic warned**: the run carries the ``no_relevant_sources`` warning; an answerable
  question that gets it is a **false alarm**.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETS_DIR = ROOT / "tests" / "quality" / "eval_sets"
RESULTS_PATH = ROOT / "tests" / "quality" / "eval_results_external.json"
WARNING_CODE = "no_relevant_sources"
STYLES = ("docs-words", "paraphrased")
KINDS = ("unrelated", "near-miss")

_SOURCE_LINE = re.compile(r"^(\d+)\. `([^`]+)`", re.MULTILINE)
_MARK = re.compile(r"\[(\d+)\]")
_ANSWER_HEADING = re.compile(r"^## (short )?answer\b", re.IGNORECASE)
_END_OF_BODY = ("## Caveats", "## Failures", "## Notes", "## Sources")


class EvalSetupError(Exception):
    """An external corpus cannot be evaluated here (its package is missing and cannot be
    installed, or its question file is unreadable); the message is one line for the user."""


def names() -> list[str]:
    """The external corpora with a question file, sorted (``["asymptote-doc", ...]``)."""
    return sorted(p.stem for p in SETS_DIR.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    """The question file of corpus ``name`` (see the module doc for its keys).

    Raises:
        EvalSetupError: no such corpus, or the file is not valid JSON.
    """
    path = SETS_DIR / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EvalSetupError(f"no external corpus {name!r} (have: {', '.join(names())})") from None
    except (OSError, ValueError) as exc:
        raise EvalSetupError(f"cannot read {path.relative_to(ROOT)}: {exc}") from None


def installed_version(package: str) -> str | None:
    """The installed version of Debian package ``package`` (``dpkg-query``), or None."""
    if not shutil.which("dpkg-query"):
        return None
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", package],
                          capture_output=True, text=True, check=False)
    status, _, version = done.stdout.rpartition(" ")
    return version if done.returncode == 0 and "ok installed" in status else None


def is_installed(spec: dict[str, Any]) -> bool:
    """Whether the documents of ``spec`` are here: its folder exists and, where dpkg is, its
    package is installed (another package may own the same folder: ``sqlite3`` and
    ``sqlite3-doc`` both use ``/usr/share/doc/sqlite3``)."""
    if not Path(spec["folder"]).is_dir():
        return False
    return installed_version(spec["package"]) is not None or not shutil.which("dpkg-query")


def _apt(*args: str) -> bool:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    done = subprocess.run(["apt-get", *args], env=env, capture_output=True, text=True,
                          check=False)
    return done.returncode == 0


def ensure_installed(spec: dict[str, Any], say: Callable[[str], None] = print) -> Path:
    """The corpus folder of ``spec``, installing its Debian package first when the folder is
    missing and this process is root (``apt-get install``; ``apt-get update`` once if that
    fails). Returns the folder.

    Raises:
        EvalSetupError: the folder is missing and cannot be installed (not root, no apt-get,
            or apt-get failed), with the command to run.
    """
    folder, package = Path(spec["folder"]), spec["package"]
    if is_installed(spec):
        return folder
    hint = f"install it with: sudo apt-get install {package}"
    if not shutil.which("apt-get"):
        raise EvalSetupError(f"{folder} is missing and there is no apt-get: {hint}")
    if os.geteuid() != 0:
        raise EvalSetupError(f"{folder} is missing (Debian package {package}): {hint}")
    say(f"installing {package} (apt-get) for {folder}")
    install = ("install", "-y", "-q", "--no-install-recommends", package)
    if not _apt(*install) and not (_apt("update", "-q") and _apt(*install)):
        raise EvalSetupError(f"apt-get install {package} failed; run it by hand to see why")
    if not is_installed(spec):
        raise EvalSetupError(f"{package} is installed but {folder} is still missing")
    return folder


def report_parts(report: str) -> dict[str, Any]:
    """What a report shows a reader: ``refs`` (the Sources list, in order), ``first`` (the refs
    the first cited statement cites) and ``answer`` (whether it opens with a cited answer)."""
    head, _, tail = report.partition("\n## Sources\n")
    numbered = {int(n): ref for n, ref in _SOURCE_LINE.findall(tail)}
    refs = [numbered[n] for n in sorted(numbered)]
    sections = re.split(r"^(?=## )", head, flags=re.MULTILINE)[1:]
    body = [s for s in sections if not s.startswith(_END_OF_BODY)]
    first: list[str] = []
    for line in "".join(body).splitlines():
        text = line.lstrip("-*> ").strip()
        marks = [int(n) for n in _MARK.findall(line) if int(n) in numbered]
        if marks and not text.startswith("_") and not line.startswith("## "):
            first = [numbered[n] for n in marks]
            break
    answer = bool(body) and bool(_ANSWER_HEADING.match(body[0])) and any(
        int(n) in numbered for n in _MARK.findall(body[0]))
    return {"refs": refs, "first": first, "answer": answer}


def doc_of(ref: str) -> str:
    """The page a passage ref belongs to: ``"pragma.html#3"`` -> ``"pragma.html"``."""
    return ref.rsplit("#", 1)[0]


def score(question: dict[str, Any], report: str, warnings: list[dict] | None
          ) -> dict[str, Any]:
    """One question's row: what the report cites and how it scores (see the module doc)."""
    parts = report_parts(report)
    docs = [doc_of(r) for r in parts["refs"]]
    warned = None if warnings is None else any(
        isinstance(w, dict) and w.get("code") == WARNING_CODE for w in warnings)
    row: dict[str, Any] = {"id": question["id"], "topic": question["topic"],
                           "gold": question["gold"], "cited": len(docs), "warned": warned}
    gold = question["gold"]
    if gold is None:
        row["kind"] = question.get("kind")
        return row
    hits = [i for i, d in enumerate(docs, 1) if d in gold]
    row.update(style=question.get("style"), rank=hits[0] if hits else None,
               recall=bool(hits), top3=bool(hits) and hits[0] <= 3, on_target=len(hits),
               first_gold=any(doc_of(r) in gold for r in parts["first"]),
               answer=parts["answer"], sources=docs[:5])
    return row


def _share(rows: list[dict[str, Any]], key: str) -> float | None:
    return round(sum(bool(r[key]) for r in rows) / len(rows), 3) if rows else None


def _answerable(rows: list[dict[str, Any]]) -> dict[str, Any]:
    cited = sum(r["cited"] for r in rows)
    return {"questions": len(rows), "recall": _share(rows, "recall"),
            "top3": _share(rows, "top3"),
            "on_target": round(sum(r["on_target"] for r in rows) / cited, 3) if cited else None,
            "first_gold": _share(rows, "first_gold"), "answer": _share(rows, "answer"),
            "false_alarms": sum(r["warned"] is True for r in rows)}


def _off(rows: list[dict[str, Any]]) -> dict[str, Any]:
    measured = bool(rows) and all(r["warned"] is not None for r in rows)
    return {"questions": len(rows),
            "warned": sum(r["warned"] is True for r in rows) if measured else None,
            "measured": measured}


def totals(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Aggregates: answerable questions overall and per style, off-topic overall and per
    kind."""
    answerable = [r for r in rows if r["gold"] is not None]
    off = [r for r in rows if r["gold"] is None]
    out: dict[str, Any] = {"all": _answerable(answerable)}
    for style in STYLES:
        out[style] = _answerable([r for r in answerable if r["style"] == style])
    out["off_topic"] = _off(off)
    for kind in KINDS:
        out[kind] = _off([r for r in off if r["kind"] == kind])
    return out


def run_question(question: dict[str, Any], data_dir: Path, folder: Path, as_of: str
                 ) -> dict[str, Any]:
    """Run the offline agent on one question with ``--corpus folder`` (in this process, as
    ``python -m app research TOPIC --corpus FOLDER`` would) and score its report."""
    from app.runs.run import RunRequest, run_research
    from app.settings.config import Settings

    settings = Settings(data_dir=data_dir, model="offline", corpus=str(folder))
    # a new thread each time: on a reused --data-dir the derived thread would be run again on
    # its stored plan, so a change to the planner would not be measured
    summary = run_research(RunRequest(topic=question["topic"], as_of=as_of, fresh=True), settings)
    if not summary.report_path:
        raise SystemExit(f"{question['id']}: the run wrote no report: {summary.to_dict()}")
    report = Path(summary.report_path).read_text(encoding="utf-8")
    return score(question, report, summary.to_dict().get("warnings"))


def evaluate(spec: dict[str, Any], questions: Sequence[dict[str, Any]], data_dir: Path,
             as_of: str, progress: Callable[[dict[str, Any]], None] | None = None
             ) -> list[dict[str, Any]]:
    """Run ``questions`` of corpus ``spec`` on one data dir (its index is built once)."""
    folder = Path(spec["folder"])
    rows = []
    for question in questions:
        rows.append(run_question(question, data_dir, folder, as_of))
        if progress:
            progress(rows[-1])
    return rows


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


HEADER = (f"{'question':<14} {'rank':>4} {'top3':>4} {'on target':>9} {'1st':>3} {'ans':>3}  w "
          f"{'verdict':<18} topic")


def format_row(row: dict[str, Any]) -> str:
    """One line per question (``w``: W when warned)."""
    warn = {None: "?", True: "W", False: " "}[row["warned"]]
    if row["gold"] is None:
        verdict = {None: "unmeasured", True: "ok (warned)", False: "MISS (no warning)"}
        return (f"{row['id']:<14} {'':>4} {'':>4} {'':>9} {'':>3} {'':>3}  {warn} "
                f"{verdict[row['warned']]:<18} {row['topic'][:60]}")
    share = f"{row['on_target']}/{row['cited']}"
    yes = {True: "yes", False: "no"}
    return (f"{row['id']:<14} {row['rank'] or '-'!s:>4} {yes[row['top3']]:>4} {share:>9} "
            f"{yes[row['first_gold']]:>3} {yes[row['answer']]:>3}  {warn} "
            f"{'ok' if row['recall'] else 'MISS':<18} {row['topic'][:60]}")


def _off_text(off: dict[str, Any]) -> str:
    return f"{off['warned']}/{off['questions']}" if off["measured"] else "unmeasured"


def format_totals(t: dict[str, Any]) -> list[str]:
    """The totals of one corpus: answerable (all, per style), then off-topic."""
    lines = [f"{'questions':<12} {'n':>3} {'cited':>6} {'top 3':>6} {'on target':>10} "
             f"{'1st finding':>12} {'cited answer':>13} {'false alarms':>13}"]
    for key in ("all", *STYLES):
        a = t[key]
        lines.append(f"{key:<12} {a['questions']:>3} {_fmt(a['recall']):>6} "
                     f"{_fmt(a['top3']):>6} {_fmt(a['on_target']):>10} "
                     f"{_fmt(a['first_gold']):>12} {_fmt(a['answer']):>13} "
                     f"{a['false_alarms']:>13}")
    lines.append(f"off-topic warned ({WARNING_CODE}): {_off_text(t['off_topic'])} "
                 f"(unrelated {_off_text(t['unrelated'])}, near misses "
                 f"{_off_text(t['near-miss'])})")
    return lines


def result(spec: dict[str, Any], rows: list[dict[str, Any]], description: str
           ) -> dict[str, Any]:
    """The stored result of one corpus: where it came from, its totals and its rows."""
    return {"package": spec["package"], "version": installed_version(spec["package"]),
            "questions_written_for": spec["version"], "folder": spec["folder"],
            "corpus": description, "totals": totals(rows), "questions": rows}


def load_results(path: Path = RESULTS_PATH) -> dict[str, Any]:
    """The committed results (``{"generated_by": ..., "corpora": {name: result}}``), or an
    empty shell when there are none yet."""
    if not path.exists():
        return {"generated_by": "scripts/eval_research.py", "corpora": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def quality_table(results: dict[str, Any]) -> str:
    """The README's ``quality-external`` block (markdown) from the results file's content."""
    lines = [
        "| corpus | questions | n | gold cited | gold in first 3 | cited on target "
        "| first finding from gold | opens with cited answer | false alarms |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, res in sorted(results["corpora"].items()):
        t = res["totals"]
        for key, label in (("all", "all answerable"), ("docs-words", "in the docs' words"),
                           ("paraphrased", "paraphrased")):
            a = t[key]
            lines.append(f"| {name if key == 'all' else ''} | {label} | {a['questions']} "
                         f"| {_fmt(a['recall'])} | {_fmt(a['top3'])} | {_fmt(a['on_target'])} "
                         f"| {_fmt(a['first_gold'])} | {_fmt(a['answer'])} "
                         f"| {a['false_alarms']} |")
    lines += ["", f"| corpus | off-topic warned (`{WARNING_CODE}`) | unrelated | near misses |",
              "|---|---|---|---|"]
    for name, res in sorted(results["corpora"].items()):
        t = res["totals"]
        lines.append(f"| {name} | {_off_text(t['off_topic'])} | {_off_text(t['unrelated'])} "
                     f"| {_off_text(t['near-miss'])} |")
    lines.append("")
    lines += [f"{name}: {res['corpus']}, Debian package {res['package']} {res['version']}."
              for name, res in sorted(results["corpora"].items())]
    return "\n".join(lines)
