"""The workshop's obvious exercise, swapping ``envelope_reducer`` for ``operator.add``, fails its
very first run, and says why.

Found running the workshop (issue 14): the swapped app exited 0 with "persisted 0/12" and the
duplication only showed on the second run (the results database upserts, so its rows looked
right). The test makes the swap the way a participant would, by editing ``state/schema.py``, in a
scratch copy of the packages, and runs the CLI from there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.durability._helpers import clean_env

ROOT = Path(__file__).resolve().parents[2]
REDUCER_LINE = "envelopes: Annotated[list[dict[str, Any]], envelope_reducer]"


def _swapped_copy(tmp_path: Path) -> Path:
    scratch = tmp_path / "scratch"
    for package in ("app", "state", "workers"):
        shutil.copytree(ROOT / package, scratch / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    schema = scratch / "state" / "schema.py"
    text = schema.read_text("utf-8")
    assert text.count(REDUCER_LINE) == 1, "state/schema.py no longer declares the line swapped"
    text = text.replace(REDUCER_LINE, REDUCER_LINE.replace("envelope_reducer]", "operator.add]"))
    if "\nimport operator\n" not in text:  # as the walkthrough says: import it
        text = text.replace("\nfrom typing import", "\nimport operator\nfrom typing import", 1)
    schema.write_text(text, "utf-8")
    return scratch


def _research(cwd: Path, data: Path, corpus: Path, walkthrough) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", "research", walkthrough.TOPIC, "--as-of",
         walkthrough.AS_OF, "--data-dir", str(data), "--corpus", str(corpus), "--model",
         "offline", "--quiet", "--json"],
        cwd=cwd, env=clean_env(), capture_output=True, text=True, encoding="utf-8",
        timeout=180, check=False)


def test_operator_add_fails_the_first_run_and_names_the_reducer(tmp_path, workshop_corpus,
                                                                walkthrough):
    import json

    scratch = _swapped_copy(tmp_path)
    run = _research(scratch, tmp_path / "data", workshop_corpus, walkthrough)
    assert run.returncode == 1, run.stdout + run.stderr
    summary = json.loads(run.stdout)
    n = summary["expected"]
    assert summary["ok"] is False
    assert summary["duplicates"] == n  # each worker entry plus persist's write-back
    assert summary["persisted"] == 0
    assert any(
        note.startswith(f"the envelopes channel holds {2 * n} entries for {n} envelope ids")
        and "envelope_reducer" in note and "operator.add" in note
        for note in summary["notes"]), summary["notes"]


def test_the_stock_reducer_passes_the_same_check(tmp_path, workshop_corpus, walkthrough):
    import json

    run = _research(ROOT, tmp_path / "data", workshop_corpus, walkthrough)
    assert run.returncode == 0, run.stdout + run.stderr
    summary = json.loads(run.stdout)
    assert summary["duplicates"] == 0 and summary["persisted"] == summary["expected"]
    assert not [n for n in summary["notes"] if "envelopes channel" in n]
