"""A version number a question writes is one term, matched as written (trial 117, F3): "What
changed in version 3.1.2?" over Jinja's change log answered from "Version 2.0rc1: First release
of Jinja 2.", the tokenizer's "3", "1" and "2" dropped as one-character words."""

from __future__ import annotations

from pathlib import Path

from app.research.relevance import on_topic
from tests.workers.sources.conftest import write
from workers.sources import Corpus
from workers.sources.query import query_terms

CHANGES = (
    "<html><head><title>Changes</title></head><body><h1>Changes</h1>"
    "<h2>Version 3.1.2</h2><p>Released 2022-04-28</p>"
    "<p>Add parameters to Environment.overlay to match __init__.</p>"
    "<p>Handle race condition in FileSystemBytecodeCache.</p>"
    "<h2>Version 3.1.1</h2><p>Released 2022-03-25</p>"
    "<p>The template filename on Windows uses the primary path separator.</p>"
    "<h2>Version 2.2.1</h2><p>Released 2009-09-14</p>"
    "<p>Fixes some smaller problems for Jinja on Jython.</p>"
    "<h2>Version 2.0rc1</h2><p>Released 2008-06-09</p><p>First release of Jinja 2.</p>"
    "</body></html>")
RELEASE = (
    "<html><head><title>Release 3.40.1 On 2022-12-28</title></head><body>"
    "<h1>Release 3.40.1 On 2022-12-28</h1><p>Fix the --safe command-line option to the CLI so "
    "that it correctly disallows the use of SQL functions like writefile().</p></body></html>")
OTHER = (
    "<html><head><title>Release 3.1.0 On 2004-01-01</title></head><body>"
    "<h1>Release 3.1.0 On 2004-01-01</h1><p>Version 3 of the file format was changed and "
    "released; fix 2 and fix 1 of the version 3 page were made.</p></body></html>")


def test_a_version_number_is_one_term_as_written() -> None:
    assert query_terms("What changed in version 3.1.2?") == ["changed", "version", "3.1.2"]
    assert query_terms("Jinja v2.0rc1 and 3.40.1.") == ["jinja", "2.0rc1", "3.40.1"]


def test_the_section_headed_by_the_version_asked_ranks_first(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(root, "changes.html", CHANGES)
    write(root, "releaselog/3_40_1.html", RELEASE)
    write(root, "releaselog/3_1_0.html", OTHER)
    with Corpus.open(tmp_path / "d", folder=root) as c:
        for question in ("What changed in version 3.1.2?",
                         "When did Jinja 3.1.2 come out and what did it fix?"):
            found = c.search(question, k=3, focus=question)
            assert found[0].ref == "changes.html#0", (question, [p.ref for p in found])
            assert found[0].heading == "Version 3.1.2", [p.heading for p in found]
            assert all("3.1.1" not in p.text for p in found[:1])
        # a sibling: SQLite's release notes, one page a release (releaselog/3_40_1.html)
        found = c.search("What did SQLite 3.40.1 fix?", k=3)
        assert found[0].doc_id == "releaselog/3_40_1.html", [p.ref for p in found]


def test_a_passage_writing_the_version_asked_is_on_topic() -> None:
    # Jinja's "Version 3.1.2 / Released 2022-04-28 / ..." names neither "jinja" nor "fix"
    terms = ["jinja", "3.1.2", "fix"]
    entry = {"text": "Version 3.1.2\n\nReleased 2022-04-28\n\nHandle race condition.",
             "title": "Changes", "ref": "changes.html#0"}
    assert on_topic(entry, terms)
    assert not on_topic({**entry, "text": "Version 3.1.20\n\nReleased 2023-01-01"}, terms)


def test_a_release_the_corpus_never_names_is_no_near_miss_and_a_series_matches(
        tmp_path: Path) -> None:
    # trial 120, F3: once "3.8" was a term, "Is Python 3.8 still supported by quill?" over
    # "quill needs Python 3.9 or later" was warned that the sources say nothing (the corpus
    # lacks "3.8" and "supported"); a question on a series ("1.4") is answered from its
    # release ("1.4.2")
    import json

    from tests.cli_env import run_cli

    folder = tmp_path / "docs"
    write(folder, "install.md", "# Installing quill\n\nquill needs Python 3.9 or later. Install "
                                "it with `pip install quill`.\n")
    write(folder, "releases.md", "# Releases\n\n## Version 1.4.2\n\nReleased 2024-03-01. Fixes "
                                 "a crash when a sync is cancelled.\n\n## Version 1.3.0\n\n"
                                 "Released 2023-11-02. Adds the prune command.\n")
    write(folder, "sync.md", "# Syncing\n\nRun quill sync to copy a folder to the server.\n")
    for topic, expected in (("Is Python 3.8 still supported by quill?", "3.9 or later"),
                            ("Which crash was fixed in quill 1.4?", "Fixes a crash")):
        proc = run_cli("research", topic, "--as-of", "2026-11-30", "--corpus", folder,
                       "--data-dir", tmp_path / "data", "--json")
        assert proc.returncode == 0, proc.stderr
        summary = json.loads(proc.stdout)
        report = Path(summary["report_path"]).read_text("utf-8")
        assert "sources say nothing" not in report, report
        assert expected in report.split("## ", 2)[1], report
