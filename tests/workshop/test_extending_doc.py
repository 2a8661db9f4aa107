"""docs/extending.md's example worker works as the page says: a module plus a registry entry.

The first ```python block of the page is written as a module of a temporary package, registered
next to the built-in workers (the registry file itself is not touched: ``WORKERS`` is patched
where it is read), and a research runs in-process on the walkthrough corpus. Its envelopes must
be persisted as rows of their own and its findings cited in the report.

Works before and after a user follows the page: when ``workers/registry.py`` already registers a
worker of that name (the page's step 2 done), the page's code takes its place in the registry,
so it is still the page's code that runs.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DOC = ROOT / "docs" / "extending.md"


def first_python_block(text: str) -> str:
    match = re.search(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    assert match, "docs/extending.md has no ```python block"
    return match.group(1)


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The page's worker, imported from a temp package ``extending_example``."""
    package = tmp_path / "extending_example"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "glossary.py").write_text(first_python_block(DOC.read_text("utf-8")), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("extending_example")]:
        monkeypatch.delitem(sys.modules, name)
    return importlib.import_module("extending_example.glossary")


def test_the_page_says_one_module_and_one_registry_line():
    text = DOC.read_text("utf-8")
    assert "one new module in `workers/` and one line in `workers/registry.py`" in text
    assert "glossary.SPEC," in text
    assert "scripts/update_readme.py" in text  # the diagram test would fail otherwise


def test_the_page_quotes_the_walkthrough_tests_skip_reason():
    from tests.expected import STOCK_WORKERS, not_stock_reason

    reason = not_stock_reason("docs/walkthrough.md", (*STOCK_WORKERS, "glossary"))
    assert f'"{reason}"' in " ".join(DOC.read_text("utf-8").split())


def test_example_worker_is_persisted_and_cited(example, tmp_path, workshop_corpus, walkthrough,
                                               monkeypatch):
    import workers.registry
    from app.runs.run import RunRequest, run_research
    from app.settings.config import Settings
    from app.storage.sqlite import SqliteResults
    from workers.base import WorkerSpec

    spec = example.SPEC
    assert isinstance(spec, WorkerSpec)
    registered = tuple(spec if w.name == spec.name else w for w in workers.registry.WORKERS)
    if spec not in registered:  # the page's step 2 not done yet: add it, as step 2 does
        registered = (*registered, spec)
    assert [w.name for w in registered].count(spec.name) == 1
    # the run reads the registry when it starts (workers.registry.registered), as a fork's would
    monkeypatch.setattr(workers.registry, "WORKERS", registered)

    data = tmp_path / "data"
    settings = Settings(data_dir=data, corpus=workshop_corpus, retry_interval=0.05)
    summary = run_research(RunRequest(topic=walkthrough.TOPIC, as_of=walkthrough.AS_OF),
                           settings)

    questions = summary.sub_questions
    assert summary.ok, summary.to_dict()
    assert summary.expected == len(questions) * len(registered)
    assert summary.envelopes == summary.db_rows == summary.expected
    assert summary.duplicates == 0

    with SqliteResults.in_dir(data) as store:
        rows = [r for r in store.rows(thread_id=summary.thread_id) if r["worker"] == spec.name]
    assert sorted(r["task_key"] for r in rows) == sorted(questions)
    assert all(r["status"] == "ok" for r in rows)
    items = [item for r in rows for item in r["structured"]["items"]]
    assert items, "the example worker found nothing in the walkthrough corpus"

    report = Path(summary.report_path).read_text("utf-8")
    assert spec.name in report  # "Workers: analyst, critic, docs_search, glossary"
    corpus_texts = {name: " ".join(text.split())
                    for name, text in walkthrough.CORPUS_FILES.items()}
    for item in items:
        assert item["kind"] == "finding"
        assert f"`{item['ref']}`" in report, f"{item['ref']} is not in the report's sources"
        assert item["text"] in report
        # a real quote from the document its ref names
        assert item["text"] in corpus_texts[item["ref"].split("#")[0]]


def registry_import_lines() -> list[tuple[str, set[str]]]:
    """``(module added, modules imported)`` of each registry block of the page: a ```python
    block whose first code line is ``from workers import ...`` (the worker and source recipes)."""
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text("utf-8"), re.DOTALL | re.MULTILINE)
    found = []
    for block in blocks:
        code = [line for line in block.splitlines() if line and not line.startswith("#")]
        if code and code[0].startswith("from workers import "):
            names = {n.strip() for n in code[0].split("#")[0][len("from workers import "):]
                     .split(",")}
            added = re.findall(r"^\s+(\w+)\.SPEC,\s*# the one new line", block, re.MULTILINE)
            assert len(added) == 1, block
            found.append((added[0], names))
    return found


def test_the_registry_import_lines_the_page_shows_can_be_pasted():
    """A forker pastes the page's import line over the registry's (trial 16, finding 6: the
    page's line left out ``web_search``, and every command then died with a NameError). Each
    line must import every template module the registry uses, plus the recipe's own."""
    from tests.expected import STOCK_WORKERS
    from workers.registry import WEB_WORKERS

    text = (ROOT / "workers" / "registry.py").read_text("utf-8")
    used = set(re.findall(r"\b(\w+)\.SPEC\b", text))
    template = used & {*STOCK_WORKERS, *(w.name for w in WEB_WORKERS)}  # not a fork's own
    lines = registry_import_lines()
    assert len(lines) == 2, "the worker and the source recipes each show the registry's import"
    for added, names in lines:
        assert added in names, f"the page's import line does not import {added}"
        missing = sorted(template - names)
        assert not missing, (f"pasted, the page's import line ({added}) would leave "
                             f"{', '.join(missing)} undefined in workers/registry.py")
