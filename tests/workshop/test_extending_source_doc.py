"""docs/extending.md's "Add a source" recipe works as the page says, on a scratch copy of the repo.

The repository's files (``tests/workshop/scratch_clone.py``: tracked and new, not ignored) are
copied to a temporary directory; every block the page introduces with ``File `PATH`:`` is
written to ``PATH`` there, and the registry gets the two lines the page shows. Then a research
runs in that copy, in a subprocess, offline: the new worker's rows must be persisted and the
FAQ records cited in the report, quoted from the data file. The recipe must touch the files it
names and nothing else.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.cli_env import run_cli
from tests.results_db import db_rows
from tests.workshop.scratch_clone import (
    FORK_HINT,
    ROOT,
    changed_files,
    recipe_section,
    scratch_clone,
)

FILE_BLOCK = re.compile(r"^File `([^`]+)`[^\n]*\n\n```[a-z]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


def recipe_files() -> dict[str, str]:
    """``{path: content}`` of every ``File `path`:`` block of the section."""
    files = dict(FILE_BLOCK.findall(recipe_section("Add a source")))
    assert files, "the 'Add a source' section introduces no file"
    return files


def registry_lines() -> tuple[str, str]:
    """The import line and the new ``WORKERS`` entry the page shows for the registry."""
    section = recipe_section("Add a source")
    block = re.search(r"```python\n(from workers import [^\n]*\n.*?)```", section, re.DOTALL)
    assert block, "the section shows no registry block"
    code = block.group(1)
    import_line = code.splitlines()[0].split("#")[0].rstrip()
    entries = re.findall(r"^\s+(\w+\.SPEC),\s*# the one new line", code, re.MULTILINE)
    assert len(entries) == 1, code
    return import_line, entries[0]


def apply_registry(clone: Path, import_line: str, entry: str) -> None:
    """Make the two registry edits the page describes: import the module, add its SPEC."""
    path = clone / "workers" / "registry.py"
    text = path.read_text("utf-8")
    module = entry.split(".")[0]
    current = re.search(r"^from workers import ([^\n]+)$", text, re.MULTILINE)
    assert current, "workers/registry.py imports no worker modules"
    assert module in import_line
    names = sorted({*[n.strip() for n in current.group(1).split(",")], module})
    text = text.replace(current.group(0), f"from workers import {', '.join(names)}")
    tuple_start = text.index("WORKERS: tuple[WorkerSpec, ...] = (")
    close = text.index("\n)", tuple_start)
    text = text[:close] + f"\n    {entry}," + text[close:]
    path.write_text(text, "utf-8")


def test_the_page_names_the_protocol_and_the_files_it_adds() -> None:
    section = recipe_section("Add a source")
    for member in ("`search(query, k=5, *, focus=None)`", "`read(ref_or_doc_id, max_chars=6000)`",
                   "`passage(ref)`", "Passage.make_ref"):
        assert member in section
    assert set(recipe_files()) == {
        "workers/sources/faq.py", "workers/sources/faq.jsonl", "workers/faq_search.py"
    }


def test_the_recipe_applied_to_a_scratch_copy_persists_and_cites_the_new_source(
    tmp_path: Path, workshop_corpus: Path, walkthrough
) -> None:
    clone = scratch_clone(tmp_path / "clone")
    files = recipe_files()
    for rel, content in files.items():
        assert not (clone / rel).exists(), f"the recipe would overwrite {rel}. {FORK_HINT}"
        (clone / rel).write_text(content, "utf-8")
    apply_registry(clone, *registry_lines())

    # The recipe touched the files it names and nothing else.
    assert changed_files(clone) == {"workers/registry.py", *files}

    data = tmp_path / "data"
    proc = run_cli("research", walkthrough.TOPIC, "--as-of", walkthrough.AS_OF, "--corpus",
                   workshop_corpus, "--data-dir", data, "--json",
                   env={"PYTHONPATH": str(clone)}, cwd=clone, timeout=300)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"] and summary["duplicates"] == 0, summary

    rows = [r for r in db_rows(data) if r["worker"] == "faq_search"]
    assert sorted(r["task_key"] for r in rows) == sorted(summary["sub_questions"])
    assert all(r["status"] == "ok" for r in rows)

    records = [json.loads(line) for line in files["workers/sources/faq.jsonl"].splitlines()
               if line.strip()]
    answers = {f"faq:{r['id']}#0": r["answer"] for r in records}
    report = Path(summary["report_path"]).read_text("utf-8")
    cited = set(re.findall(r"`(faq:[^`]+#\d+)`", report))  # passages (under their documents)
    assert cited, "no FAQ record is cited in the report"
    assert cited <= set(answers)
    for ref in cited:
        first_sentence = answers[ref].split(". ")[0]
        assert first_sentence in report, (ref, first_sentence)


@pytest.fixture(autouse=True)
def _git_available() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the scratch copy is made from git's file list")
