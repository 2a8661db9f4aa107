"""The research eval on external corpora (``scripts/eval_research.py --corpus NAME``, scored by
``scripts/eval_corpora.py``): its scoring, its hand-written question files, and a small slice
run through the real research path on SQLite's HTML docs (Debian's ``sqlite3-doc``, which
``.ci/run`` installs; ``REQUIRE_EVAL_DOCS=1`` makes a missing package an error, not a skip).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str):
    if name in sys.modules:
        return sys.modules[name]
    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ev = _script("eval_research")
corpora = sys.modules["eval_corpora"]

SLICE = ("sqlite-01", "sqlite-02", "sqlite-off-01", "sqlite-off-06")
"""The CI slice: one question in the docs' words, one paraphrased, one unrelated, one near
miss."""

REPORT = """\
# Research report: x

- As of: 2026-11-30

## 1. What is meant by x?

Findings:

- _A placeholder that cites._ [3]
- The first real finding. [2][1]
- Another. [1]

## Caveats

- A caveat. [3]

## Sources

1. `pragma.html#4`: pragma.html
2. `lang_vacuum.html#0`: lang_vacuum.html
3. `asymptote.pdf:p10#1`: asymptote.pdf, page 10
"""


def test_report_parts_read_the_sources_the_first_finding_and_the_answer():
    parts = corpora.report_parts(REPORT)
    assert parts["refs"] == ["pragma.html#4", "lang_vacuum.html#0", "asymptote.pdf:p10#1"]
    assert parts["first"] == ["lang_vacuum.html#0", "pragma.html#4"]
    assert parts["answer"] is False
    answered = REPORT.replace("## 1. What", "## Answer\n\nIt is 0 [3].\n\n## 1. What")
    parts = corpora.report_parts(answered)
    assert (parts["answer"], parts["first"]) == (True, ["asymptote.pdf:p10#1"])
    uncited = REPORT.replace("## 1. What", "## Answer\n\nIt is 0.\n\n## 1. What")
    assert corpora.report_parts(uncited)["answer"] is False


def test_score_counts_gold_pages_and_warnings():
    q = {"id": "q", "topic": "t", "style": "paraphrased", "gold": ["pragma.html"]}
    row = corpora.score(q, REPORT, [])
    assert (row["rank"], row["recall"], row["top3"], row["on_target"], row["first_gold"],
            row["answer"], row["warned"]) == (1, True, True, 1, True, False, False)
    pdf = corpora.score({**q, "gold": ["asymptote.pdf:p10"]}, REPORT, [])
    assert (pdf["rank"], pdf["top3"], pdf["first_gold"]) == (3, True, False)
    assert corpora.score({**q, "gold": ["asymptote.pdf:p1"]}, REPORT, [])["recall"] is False
    warning = [{"code": "no_relevant_sources", "message": "nothing"}]
    alarm = corpora.score(q, REPORT, warning)
    off = {"id": "o", "topic": "t", "kind": "near-miss", "gold": None}
    t = corpora.totals([alarm, corpora.score(off, REPORT, []), corpora.score(off, "", warning)])
    assert (t["all"]["false_alarms"], t["paraphrased"]["questions"]) == (1, 1)
    assert t["docs-words"]["questions"] == 0
    assert t["near-miss"] == {"questions": 2, "warned": 1, "measured": True}
    assert corpora.totals([corpora.score(off, REPORT, None)])["off_topic"]["measured"] is False


@pytest.mark.parametrize("name", corpora.names())
def test_question_files_follow_issue_19(name):
    spec = corpora.load(name)
    assert {"package", "version", "folder"} <= spec.keys()
    questions = spec["questions"]
    assert len({q["id"] for q in questions}) == len(questions)
    answerable = [q for q in questions if q["gold"] is not None]
    styles = [q["style"] for q in answerable]
    assert len(answerable) >= 40
    assert abs(styles.count("docs-words") - styles.count("paraphrased")) <= 2, styles
    assert set(styles) == set(corpora.STYLES)
    assert all(q["gold"] and isinstance(q["gold"], list) for q in answerable)
    kinds = [q["kind"] for q in questions if q["gold"] is None]
    assert len(kinds) >= 10 and kinds.count("near-miss") >= len(kinds) / 2 - 0.5
    assert set(kinds) == set(corpora.KINDS)
    if corpora.installed_version(spec["package"]) != spec["version"]:
        pytest.skip(f"{spec['package']} {spec['version']} is not installed")
    folder = Path(spec["folder"])
    pages: dict[str, int] = {}
    for q in answerable:
        for page in q["gold"]:
            file, _, number = page.partition(":p")
            assert (folder / file).is_file(), (q["id"], page)
            if number:
                if file not in pages:
                    from pypdf import PdfReader

                    pages[file] = len(PdfReader(folder / file).pages)
                assert 1 <= int(number) <= pages[file], (q["id"], page)


def test_readme_external_table_is_rendered_from_the_committed_results():
    results = corpora.load_results()
    assert set(results["corpora"]) == set(corpora.names())
    text = ev.README.read_text(encoding="utf-8")
    assert ev.render_readme_external(text, results) == text, (
        "README.md's external quality table is stale: run "
        "uv run python scripts/eval_research.py --corpus external --write")


def test_a_missing_package_is_a_one_line_error_when_not_root(tmp_path, monkeypatch, capsys):
    spec = {"package": "no-such-doc-package", "version": "1", "folder": str(tmp_path / "nope"),
            "questions": []}
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "nodoc.json").write_text(json.dumps(spec), encoding="utf-8")
    monkeypatch.setattr(corpora, "SETS_DIR", tmp_path / "sets")
    monkeypatch.setattr(corpora.os, "geteuid", lambda: 1000)
    assert ev.main(["--corpus", "nodoc"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "sudo apt-get install no-such-doc-package" in err, err


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def sqlite_slice(tmp_path_factory):
    """The CI slice of ``sqlite3-doc``, run through the real research path."""
    spec = corpora.load("sqlite3-doc")
    if not corpora.is_installed(spec):
        if os.environ.get("REQUIRE_EVAL_DOCS"):
            pytest.fail("REQUIRE_EVAL_DOCS is set but sqlite3-doc is not installed")
        pytest.skip("sqlite3-doc is not installed (apt-get install sqlite3-doc)")
    questions = [q for q in spec["questions"] if q["id"] in SLICE]
    rows = corpora.evaluate(spec, questions, tmp_path_factory.mktemp("sqlite"), ev.AS_OF)
    return spec, {r["id"]: r for r in rows}


def test_slice_of_sqlite_docs_gives_the_committed_results(sqlite_slice):
    spec, rows = sqlite_slice
    assert set(rows) == set(SLICE)
    assert rows["sqlite-off-01"]["warned"] is True  # an unrelated question is always warned
    committed = corpora.load_results()["corpora"]["sqlite3-doc"]
    if committed["version"] != corpora.installed_version(spec["package"]):
        pytest.skip(f"the results were measured on sqlite3-doc {committed['version']}")
    stored = {r["id"]: r for r in committed["questions"]}
    for qid, row in rows.items():
        assert row == stored[qid], (
            f"{qid} changed: run uv run python scripts/eval_research.py --corpus external "
            "--write")
