"""``--json`` carries ``warnings``: ``no_relevant_sources`` for a topic the default corpus knows
nothing about (in English or not), none for a covered one; the exit code stays 0 either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import AS_OF, run_cli

pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("relevance-data")  # one package-docs index for the module


def research(data_dir: Path, topic: str, *extra: str):
    proc = run_cli("research", topic, "--as-of", AS_OF, "--data-dir", data_dir, *extra)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.parametrize("topic", ["zebra marmalade", "Wie backe ich einen Apfelkuchen"])
def test_unknown_topic_is_warned_about_in_json_and_report(data_dir: Path, topic: str) -> None:
    summary = json.loads(research(data_dir, topic, "--json").stdout)
    assert summary["ok"] is True
    [warning] = summary["warnings"]
    assert warning["code"] == "no_relevant_sources"
    assert f'the sources say nothing about "{topic}"' in warning["message"]
    report = Path(summary["report_path"]).read_text("utf-8")
    assert f'**The sources say nothing about "{topic}".**' in report.split("## 1.", 1)[0]
    assert "Findings:" not in report and "Top passages:" not in report


def test_covered_topic_has_an_empty_warnings_list(data_dir: Path) -> None:
    summary = json.loads(research(data_dir, "checkpointer pending writes", "--json").stdout)
    assert summary["warnings"] == []
    report = Path(summary["report_path"]).read_text("utf-8")
    answer = report.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    assert "say nothing about" not in report and "pending" in answer and "[1]" in answer


def test_a_word_no_passage_holds_is_a_warning_a_script_reads(data_dir: Path) -> None:
    # Trial 33, finding 3: "savefig in matplotlib" over gnuplot's manual was named in the
    # report's first line only; `--json` said "warnings": [] and a script saw a clean run
    summary = json.loads(research(data_dir, "checkpointer pendng writes", "--json").stdout)
    [warning] = summary["warnings"]
    assert warning["code"] == "words_not_found"
    # one typing slip from "pending", which the corpus writes (trial 126, F6)
    assert warning["message"].startswith('the corpus never uses "pendng" (a typo of "pending"?)')
    assert not any("pendng" in note for note in summary["notes"])  # said once, as a warning
    report = Path(summary["report_path"]).read_text("utf-8")
    assert '> The corpus never uses "pendng" (a typo of "pending"?)' in report.split("## 1.", 1)[0]
    assert "say nothing about" not in report and "Findings:" in report


def test_the_plain_summary_prints_the_warning(data_dir: Path) -> None:
    out = research(data_dir, "zebra marmalade").stdout
    assert '  warning: the sources say nothing about "zebra marmalade"' in out


@pytest.fixture(scope="module")
def sql_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small manual in which "replace" and "window" meet, and "cracked" and "pane" never do."""
    folder = tmp_path_factory.mktemp("sql-docs")
    pages = {
        "replace.md": "# REPLACE\n\nThe REPLACE command replaces a row when a uniqueness "
                      "constraint fails: it deletes the old row first.\n",
        "window.md": "# Window functions\n\nA window function computes a running total over "
                     "a window of rows. REPLACE may replace the values a window function reads.\n",
        "memory.md": "# In-memory databases\n\nCreate an in-memory database by opening the name "
                     ":memory:. It never touches the disk and is gone with its connection.\n",
        "vacuum.md": "# VACUUM\n\nVACUUM rebuilds the database file, which shrinks it after many "
                     "rows were deleted.\n",
    }
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_near_miss_is_warned_and_a_paraphrase_is_not(tmp_path: Path, sql_docs: Path) -> None:
    near = "How do I replace a cracked window pane?"
    summary = json.loads(research(tmp_path, near, "--corpus", str(sql_docs), "--json").stdout)
    [warning] = summary["warnings"]
    assert warning["code"] == "no_relevant_sources"
    assert warning["message"].endswith('no retrieved passage mentions "cracked" or "pane"')
    report = Path(summary["report_path"]).read_text("utf-8")
    assert f'**The sources say nothing about "{near}".**' in report.split("## 1.", 1)[0]
    paraphrase = "Can I create a throwaway database that never touches the disk?"
    summary = json.loads(
        research(tmp_path, paraphrase, "--corpus", str(sql_docs), "--json").stdout)
    # answered: only the word no page uses is named (the report's first line says the same)
    assert [w["code"] for w in summary["warnings"]] == ["words_not_found"]
    assert '"throwaway"' in summary["warnings"][0]["message"]


def test_a_question_spelled_the_other_way_is_answered_not_warned(tmp_path: Path) -> None:
    """British spelling over an American manual: "optimise" and "behaviour" are in no
    passage as written, yet the manual is about them (workers/sources/spelling.py)."""
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "optimizer.md").write_text(
        "# The query optimizer\n\nThe optimizer's behavior: it may optimize a join by "
        "reordering its tables, and ANALYZE gives it the statistics it needs.\n", "utf-8")
    (folder / "vacuum.md").write_text(
        "# VACUUM\n\nVACUUM rebuilds the database file after many rows were deleted.\n", "utf-8")
    topic = "How does the optimiser's behaviour change when I analyse a table?"
    summary = json.loads(research(tmp_path / "data", topic, "--corpus", str(folder),
                                  "--json").stdout)
    assert "no_relevant_sources" not in {w["code"] for w in summary["warnings"]}
    report = Path(summary["report_path"]).read_text("utf-8")
    assert "say nothing about" not in report
    assert "1. `optimizer.md`" in report.split("## Sources", 1)[1]
