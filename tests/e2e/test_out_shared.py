"""``--out`` shared by two topics: the second report replaces the first's file and says whose
report it replaced; the first's text stays in the results database (trial 12, finding 5: the
file was replaced without a word, and the first thread's runs row then named a report of
another topic)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli

FIRST, SECOND = "zorblax relay", "zorblax relay stations"


def test_a_report_of_another_thread_at_out_is_replaced_with_a_note(tmp_path: Path,
                                                                    small_corpus: Path) -> None:
    out, data = tmp_path / "shared" / "report.md", tmp_path / "data"
    out.parent.mkdir()
    where = ["--as-of", AS_OF, "--corpus", str(small_corpus), "--out", str(out), "--json"]
    first = run_cli("research", FIRST, "--data-dir", data, *where)
    assert first.returncode == 0, first.stderr
    first_id = json.loads(first.stdout)["thread_id"]
    first_text = out.read_text("utf-8")

    second = run_cli("research", SECOND, "--data-dir", data, *where)
    assert second.returncode == 0, second.stderr
    notes = json.loads(second.stdout)["notes"]
    assert f"{out} held the report of thread {first_id}, replaced by this one (its text " \
           f"stays in the results database: inspect {first_id} --report)" in notes, notes
    assert out.read_text("utf-8").startswith(f"# Research report: {SECOND}\n")
    kept = run_cli("inspect", first_id, "--report", "--data-dir", data)
    assert kept.returncode == 0 and kept.stdout.strip() == first_text.strip(), kept.stderr

    again = run_cli("research", SECOND, "--data-dir", data, *where)  # its own report: no note
    assert not any("held the report" in n for n in json.loads(again.stdout)["notes"])

    # Trial 13: from another data dir, "inspect X --report" there fails: the note says where
    other = run_cli("research", FIRST, "--data-dir", tmp_path / "elsewhere", *where)
    second_id = json.loads(second.stdout)["thread_id"]
    assert f"stays in the results database of the data dir that ran it: inspect {second_id} " \
           "--report" in " ".join(json.loads(other.stdout)["notes"])
