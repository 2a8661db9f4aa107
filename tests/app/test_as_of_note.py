"""A run dated after today says so: ``--as-of 2030-01-01`` is a valid date, but a typo in its
year made a thread the next run of the topic, dated today, never finds (trial 55, F4)."""

from __future__ import annotations

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli


def test_a_run_dated_after_today_notes_it_and_one_dated_before_does_not(tmp_path, small_corpus):
    later = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--as-of", "2099-01-01",
                    "--data-dir", tmp_path / "data", "--quiet")
    assert later.returncode == 0, later.stderr
    notes = [line.strip() for line in later.stdout.splitlines() if "--as-of 2099" in line]
    assert len(notes) == 1 and notes[0].startswith("note: --as-of 2099-01-01 is after today ("), \
        later.stdout
    assert "without --as-of starts another thread" in notes[0]
    earlier = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--as-of", AS_OF,
                      "--data-dir", tmp_path / "data", "--quiet")
    assert earlier.returncode == 0 and "is after today" not in earlier.stdout, earlier.stdout
