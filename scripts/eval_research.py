"""Measure the offline research report's quality on a labeled question set.

Run it from a fresh clone (no key, no network; about 20 s)::

    uv run python scripts/eval_research.py            # print per question and in total
    uv run python scripts/eval_research.py --write    # also update the results file and README
    uv run python scripts/eval_research.py --corpus external --write   # documents nobody here wrote

``--corpus NAME`` (``sqlite3-doc``, ``asymptote-doc``, or ``external`` for both) runs instead on
an external corpus: a Debian documentation package's folder, indexed as ``--corpus FOLDER``,
with questions written by hand by reading it (``tests/quality/eval_sets/NAME.json``); run as
root, the eval installs the package when its folder is missing. Its scoring and figures are
described in ``scripts/eval_corpora.py``; ``--write`` stores them in
``tests/quality/eval_results_external.json`` and the README's ``quality-external`` block.

The rest of this docstring is about the default corpus.

The set is ``tests/quality/eval_set.json``, built from the corpus itself by
``scripts/make_eval_set.py`` (its docstring gives the procedure). Each question is a research
topic with one gold source, a corpus document (``langgraph.types.RetryPolicy``, ``pydoc:for``),
or none for off-topic questions the corpus cannot answer.

Every question is run through the whole offline agent, in this process, as
``python -m app research TOPIC`` would run it (plan, the three workers, persist, report), on one
data dir whose corpus index is built once. What is scored is what a reader gets: the report's
numbered Sources list (refs ``<doc_id>#<n>``, in citation order) and the run's warnings.

Per answerable question:

* **recall**: the gold document is among the cited sources;
* **top 3**: it is among the first three;
* **on target**: the share of cited sources that belong to the gold document's family: the
  gold itself, its members (``RetryPolicy.__init__`` of ``RetryPolicy``) and, for a method, its
  class. Totals are over all cited sources of all questions (micro average).

Per off-topic question: correct only when the run carries the ``no_relevant_sources`` warning
(the ``warnings`` list of the ``--json`` summary). While the run has no ``warnings`` at all,
these are reported as unmeasured, never as passed. An answerable question that gets the warning
counts as a false alarm.

``--write`` stores the numbers in ``tests/quality/eval_results.json`` and rewrites the README's
``quality`` block from that file; ``tests/quality/test_eval.py`` checks both against a fresh run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "scripts"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import eval_corpora as corpora  # noqa: E402 - scripts/ is put on sys.path just above

SET_PATH = ROOT / "tests" / "quality" / "eval_set.json"
RESULTS_PATH = ROOT / "tests" / "quality" / "eval_results.json"
README = ROOT / "README.md"
AS_OF = "2026-11-30"
WARNING_CODE = "no_relevant_sources"
AREAS = ("langgraph", "langchain", "pydantic", "python")

_SOURCE_LINE = re.compile(r"^\d+\. `([^`]+)`", re.MULTILINE)


def load_set(path: Path = SET_PATH) -> dict[str, Any]:
    """The labeled set (see ``scripts/make_eval_set.py``)."""
    return json.loads(path.read_text(encoding="utf-8"))


def cited_refs(report: str) -> list[str]:
    """The refs of a report's numbered Sources list, in order."""
    _, _, tail = report.partition("\n## Sources\n")
    return _SOURCE_LINE.findall(tail)


def doc_of(ref: str) -> str:
    """The document a passage ref belongs to: ``"a.b.C#2"`` -> ``"a.b.C"``."""
    return ref.rsplit("#", 1)[0]


def on_target(doc_id: str, gold: str) -> bool:
    """Whether a cited document belongs to the gold's family: the gold, its members, or (for a
    method ``pkg.mod.Class.method``) its class."""
    if doc_id == gold or doc_id.startswith(gold + "."):
        return True
    owner = gold.rsplit(".", 1)[0] if "." in gold and not gold.startswith("pydoc:") else ""
    return bool(owner) and owner.rsplit(".", 1)[-1][:1].isupper() and doc_id == owner


def score(question: dict[str, Any], refs: Sequence[str], warnings: list[dict] | None
          ) -> dict[str, Any]:
    """One question's result: what was cited and how it scores (see the module doc)."""
    docs = [doc_of(r) for r in refs]
    warned = None if warnings is None else any(
        isinstance(w, dict) and w.get("code") == WARNING_CODE for w in warnings)
    row: dict[str, Any] = {"id": question["id"], "area": question["area"],
                           "topic": question["topic"], "gold": question["gold"],
                           "cited": len(refs), "warned": warned}
    gold = question["gold"]
    if gold is None:
        return row
    rank = docs.index(gold) + 1 if gold in docs else None
    row.update(rank=rank, recall=rank is not None, top3=rank is not None and rank <= 3,
               on_target=sum(on_target(d, gold) for d in docs))
    return row


def run_question(question: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """Run the offline agent on one question (in this process) and score its report."""
    from app.runs.run import RunRequest, run_research
    from app.settings.config import Settings

    settings = Settings(data_dir=data_dir, model="offline")
    # a new thread each time: on a reused --data-dir the derived thread would be run again on
    # its stored plan, so a change to the planner would not be measured
    summary = run_research(RunRequest(topic=question["topic"], as_of=AS_OF, fresh=True), settings)
    if not summary.report_path:
        raise SystemExit(f"{question['id']}: the run wrote no report: {summary.to_dict()}")
    report = Path(summary.report_path).read_text(encoding="utf-8")
    data = summary.to_dict()
    return score(question, cited_refs(report), data.get("warnings"))


def totals(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate results: per area and overall for answerable questions, plus off-topic."""
    def agg(subset: list[dict[str, Any]]) -> dict[str, Any]:
        n, cited = len(subset), sum(r["cited"] for r in subset)
        return {
            "questions": n,
            "recall": round(sum(r["recall"] for r in subset) / n, 3) if n else None,
            "top3": round(sum(r["top3"] for r in subset) / n, 3) if n else None,
            "on_target": round(sum(r["on_target"] for r in subset) / cited, 3) if cited else None,
            "false_alarms": sum(r["warned"] is True for r in subset),
        }

    answerable = [r for r in rows if r["gold"] is not None]
    off = [r for r in rows if r["gold"] is None]
    out: dict[str, Any] = {area: agg([r for r in answerable if r["area"] == area])
                           for area in AREAS if any(r["area"] == area for r in answerable)}
    out["all"] = agg(answerable)
    measured = [r for r in off if r["warned"] is not None]
    out["off_topic"] = {
        "questions": len(off),
        "warned": sum(r["warned"] is True for r in off) if measured else None,
        "measured": len(measured) == len(off) and bool(off),
    }
    return out


def evaluate(questions: Sequence[dict[str, Any]], data_dir: Path,
             progress: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run every question on one data dir (the corpus index is built once) and score it."""
    rows = []
    for question in questions:
        row = run_question(question, data_dir)
        rows.append(row)
        if progress:
            progress(row)
    return rows


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def format_row(row: dict[str, Any]) -> str:
    """One line per question."""
    warn = {None: "?", True: "W", False: " "}[row["warned"]]
    if row["gold"] is None:
        verdict = {None: "unmeasured", True: "ok (warned)", False: "MISS (no warning)"}
        return (f"{row['id']:<13} {'':>5} {'':>4} {'':>9} {row['cited']:>5}  {warn} "
                f"{verdict[row['warned']]:<18} {row['topic'][:60]}")
    rank = row["rank"] or "-"
    share = f"{row['on_target']}/{row['cited']}"
    return (f"{row['id']:<13} {rank!s:>5} {'yes' if row['top3'] else 'no':>4} {share:>9} "
            f"{row['cited']:>5}  {warn} {'ok' if row['recall'] else 'MISS':<18} "
            f"{row['topic'][:60]}")


HEADER = (f"{'question':<13} {'rank':>5} {'top3':>4} {'on target':>9} {'cited':>5}  w "
          f"{'verdict':<18} topic")


def format_totals(t: dict[str, Any]) -> list[str]:
    """The totals, one line per area, then all, then off-topic."""
    lines = [f"{'area':<12} {'n':>3} {'recall':>7} {'top 3':>7} {'on target':>10} "
             f"{'false alarms':>13}"]
    for area, a in t.items():
        if area == "off_topic":
            continue
        lines.append(f"{area:<12} {a['questions']:>3} {_fmt(a['recall']):>7} "
                     f"{_fmt(a['top3']):>7} {_fmt(a['on_target']):>10} {a['false_alarms']:>13}")
    off = t["off_topic"]
    if off["measured"]:
        lines.append(f"off-topic: {off['warned']}/{off['questions']} got the {WARNING_CODE} "
                     "warning")
    else:
        lines.append(f"off-topic: {off['questions']} questions unmeasured (the run reports no "
                     f"warnings yet; {WARNING_CODE} is not available)")
    return lines


def quality_table(results: dict[str, Any]) -> str:
    """The README's quality block (markdown) from a results file's content."""
    t = results["totals"]
    lines = [
        "| questions | n | recall (gold cited) | gold in first 3 sources "
        "| cited sources on target |",
        "|---|---|---|---|---|",
    ]
    for area, a in t.items():
        if area == "off_topic":
            continue
        label = "all answerable" if area == "all" else area
        lines.append(f"| {label} | {a['questions']} | {_fmt(a['recall'])} | {_fmt(a['top3'])} "
                     f"| {_fmt(a['on_target'])} |")
    off = t["off_topic"]
    warned = f"{off['warned']}/{off['questions']} warned" if off["measured"] else "unmeasured"
    lines.append(f"| off-topic (must get `{WARNING_CODE}`) | {off['questions']} | {warned} "
                 "| | |")
    lines += ["", f"Corpus: {results['corpus']}."]
    return "\n".join(lines)


def render_readme(text: str, results: dict[str, Any]) -> str:
    """README text with its ``quality`` block rewritten from ``results``."""
    from app.graph.diagram import replace_section

    return replace_section(text, "quality", quality_table(results))


def render_readme_external(text: str, results: dict[str, Any]) -> str:
    """README text with its ``quality-external`` block rewritten from ``results`` (the external
    corpora's results file)."""
    from app.graph.diagram import replace_section

    return replace_section(text, "quality-external", corpora.quality_table(results))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="default",
                        choices=["default", *corpora.names(), "external"],
                        help="which corpus to evaluate: the package docs (default), one external "
                             "documentation folder, or every external one (external)")
    parser.add_argument("--set", type=Path, default=SET_PATH,
                        help="the labeled set of the default corpus (JSON)")
    parser.add_argument("--data-dir", type=Path, help="data dir to reuse (default: a temp dir)")
    parser.add_argument("--only", help="run only questions whose id starts with this")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--write", action="store_true",
                        help=f"store the results in {RESULTS_PATH.relative_to(ROOT)} (external "
                             f"corpora: {corpora.RESULTS_PATH.relative_to(ROOT)}) and update "
                             "README.md's quality table")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.write and args.only:
        print("eval_research: --write needs the whole set (drop --only)", file=sys.stderr)
        return 2
    if args.corpus != "default":
        chosen = corpora.names() if args.corpus == "external" else [args.corpus]
        try:
            return main_external(args, chosen)
        except corpora.EvalSetupError as exc:
            print(f"eval_research: {exc}", file=sys.stderr)
            return 2
    try:
        labeled = load_set(args.set)
    except (OSError, ValueError) as exc:
        print(f"eval_research: cannot read the set {args.set}: {exc}", file=sys.stderr)
        return 2
    questions = [q for q in labeled["questions"]
                 if not args.only or q["id"].startswith(args.only)]
    if not questions:
        print(f"eval_research: no question id starts with {args.only!r}", file=sys.stderr)
        return 2
    return main_default(args, questions)


def main_default(args: argparse.Namespace, questions: list[dict[str, Any]]) -> int:
    """The eval on the default corpus (the package docs)."""
    with tempfile.TemporaryDirectory(prefix="eval-research-") as tmp:
        data_dir = args.data_dir or Path(tmp)
        show = None if args.json else print
        if show:
            show(HEADER)
        rows = evaluate(questions, data_dir,
                        progress=(lambda r: show(format_row(r))) if show else None)
        from workers.sources import Corpus

        with Corpus.open(data_dir) as corpus:
            description = corpus.description
    results = {"generated_by": "scripts/eval_research.py", "corpus": description,
               "totals": totals(rows), "questions": rows}
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print()
        print("\n".join(format_totals(results["totals"])))
        misses = [r for r in rows if (r["gold"] is not None and not r["recall"])
                  or (r["gold"] is None and r["warned"] is False)]
        print(f"misses: {len(misses)}")
        for r in misses:
            what = f"gold {r['gold']} not cited" if r["gold"] else "no warning"
            print(f"  {r['id']}: {r['topic']!r}: {what}")
    if args.write:
        RESULTS_PATH.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
        _write_readme(render_readme, results, RESULTS_PATH)
    return 0


def run_external(name: str, only: str | None = None, data_dir: Path | None = None,
                 progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Evaluate external corpus ``name`` (installing its Debian package when missing, see
    :func:`eval_corpora.ensure_installed`): its result (:func:`eval_corpora.result`).

    Raises:
        eval_corpora.EvalSetupError: the corpus cannot be evaluated here, or no question id
            starts with ``only``.
    """
    spec = corpora.load(name)
    folder = corpora.ensure_installed(spec, say=lambda m: print(m, file=sys.stderr))
    version = corpora.installed_version(spec["package"])
    if version and version != spec["version"]:
        print(f"eval_research: note: {name}'s questions were written for {spec['package']} "
              f"{spec['version']}, {version} is installed (gold pages may have moved)",
              file=sys.stderr)
    questions = [q for q in spec["questions"] if not only or q["id"].startswith(only)]
    if not questions:
        raise corpora.EvalSetupError(f"no question id of {name} starts with {only!r}")
    with tempfile.TemporaryDirectory(prefix=f"eval-{name}-") as tmp:
        where = data_dir / name if data_dir else Path(tmp)
        rows = corpora.evaluate(spec, questions, where, AS_OF, progress)
        from workers.sources import Corpus

        with Corpus.open(where, folder=folder) as corpus:
            description = corpus.description
    return corpora.result(spec, rows, description)


def main_external(args: argparse.Namespace, chosen: list[str]) -> int:
    """The eval on external corpora ``chosen`` (names of ``tests/quality/eval_sets``)."""
    stored = corpora.load_results()
    show = None if args.json else print
    progress = (lambda r: print(corpora.format_row(r))) if show else None
    for name in chosen:
        if show:
            show(f"== {name}")
            show(corpora.HEADER)
        res = run_external(name, args.only, args.data_dir, progress)
        stored["corpora"][name] = res
        if show:
            show("")
            show("\n".join(corpora.format_totals(res["totals"])))
            show("")
    if args.json:
        print(json.dumps({n: stored["corpora"][n] for n in chosen}, indent=2,
                         ensure_ascii=False))
    if args.write:
        corpora.RESULTS_PATH.write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
        _write_readme(render_readme_external, stored, corpora.RESULTS_PATH)
    return 0


def _write_readme(render: Callable[[str, dict[str, Any]], str], results: dict[str, Any],
                  path: Path) -> None:
    old = README.read_text(encoding="utf-8")
    new = render(old, results)
    if new != old:
        README.write_text(new, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}{' and README.md' if new != old else ''}",
          file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
