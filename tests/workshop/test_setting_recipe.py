"""docs/extending.md's "Add a setting" recipe works as written, on a scratch copy of the repo.

The page's ```diff blocks are applied with ``git apply`` to a copy of the repository and the
README is regenerated there as the page says: exactly the files the page names must change. In
the copy, the configuration, README, report and help tests must pass, plus one more test,
written into the copy, that uses the new setting the three ways a user can (flag, variable,
``.env``) and checks the report follows it and a bad value is refused.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.workshop.scratch_clone import apply_recipe, run_pytest

USES_THE_SETTING = '''
"""Written into the scratch copy by tests/workshop/test_setting_recipe.py."""
import os
import re
from pathlib import Path

import app
from app.settings.env import load_settings
from tests.conftest import AS_OF, run_cli
from workers.registry import registered


def test_this_is_the_copy():
    assert os.path.dirname(os.path.dirname(app.__file__)) == os.environ["PYTHONPATH"]


def test_the_variable_and_the_env_file_set_it(tmp_path):
    assert load_settings(env={}, env_file=None).report_passages == 3
    assert load_settings(env={"RESEARCH_REPORT_PASSAGES": "1"}, env_file=None).report_passages == 1
    dotenv = tmp_path / ".env"
    dotenv.write_text("RESEARCH_REPORT_PASSAGES=0\\n", encoding="utf-8")
    assert load_settings(env={}, env_file=dotenv).report_passages == 0


def _passages_per_question(report: str) -> list[int]:
    """How many "Top passages" bullets each numbered sub-question section lists."""
    sections = re.split(r"^## \\d+\\. ", report, flags=re.MULTILINE)[1:]
    counts = []
    for section in sections:
        body = section.split("\\n## ", 1)[0]
        block = re.search(r"^Top passages:\\n\\n((?:- .*\\n)+)", body, re.MULTILINE)
        counts.append(len(block.group(1).splitlines()) if block else 0)
    return counts


def test_the_flag_and_the_variable_reach_the_report(tmp_path):
    # Twelve short notes, and only docs_search succeeds (every other registered worker, a
    # fork's own included, is made to fail): every section lists top passages.
    corpus = tmp_path / "notes"
    corpus.mkdir()
    for i in range(1, 13):
        (corpus / f"z{i}.md").write_text(
            f"# Zorblax relay note {i}\\n\\nThe zorblax relay keeps ledger number {i} at "
            f"station {i}.\\n", encoding="utf-8")
    common = ["research", "zorblax relay", "--as-of", AS_OF, "--corpus", corpus,
              "--model", "offline", "--rounds", "1",
              *[a for w in registered() if w.name != "docs_search" for a in ("--fail-worker",
                                                                             w.name)]]
    runs = {
        "default": run_cli(*common, "--data-dir", tmp_path / "a"),
        "flag": run_cli(*common, "--data-dir", tmp_path / "b", "--report-passages", "1"),
        "variable": run_cli(*common, "--data-dir", tmp_path / "c",
                            env={"RESEARCH_REPORT_PASSAGES": "0"}),
    }
    counts = {}
    for name, proc in runs.items():
        assert proc.returncode in (0, 1), (name, proc.stderr[-2000:])  # 1: tasks failed
        path = next(line.split("report:", 1)[1].strip() for line in proc.stdout.splitlines()
                    if "report:" in line)
        counts[name] = _passages_per_question(Path(path).read_text(encoding="utf-8"))
    assert max(counts["default"]) == 3  # the default
    assert max(counts["flag"]) == 1
    assert max(counts["variable"]) == 0


def test_a_bad_value_is_refused_in_one_line(tmp_path):
    proc = run_cli("research", "zorblax relay", "--data-dir", tmp_path / "d",
                   "--report-passages", "-1")
    assert proc.returncode == 2
    assert "--report-passages" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    help_text = run_cli("research", "--help").stdout
    assert "--report-passages" in help_text
'''


def test_the_setting_recipe_applies_touches_only_its_files_and_the_tests_pass(tmp_path: Path):
    clone = apply_recipe("Add a setting", tmp_path / "repo", regenerates_readme=True)
    assert "RESEARCH_REPORT_PASSAGES" in (clone / "README.md").read_text(encoding="utf-8")

    (clone / "tests" / "app" / "test_recipe_uses_the_setting.py").write_text(USES_THE_SETTING,
                                                                           "utf-8")
    proc = run_pytest(
        clone,
        "tests/app/test_recipe_uses_the_setting.py",
        "tests/app/test_config.py",
        "tests/app/test_readme.py",
        "tests/app/test_report.py",
        "tests/e2e/test_help.py",
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", proc.stdout) and " failed" not in proc.stdout
