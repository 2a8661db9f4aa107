"""Indexing a user's folder (issue 19, section 4): the thread id at once, then the build's
progress; every file skipped is named with why; the size limit is a setting."""

from __future__ import annotations

import re

from app.cli.progress import SHOW_INDEXING_FROM
from tests.conftest import AS_OF, run_cli


def _folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(SHOW_INDEXING_FROM):
        (docs / f"note{i}.md").write_text(f"# Zorblax note {i}\n\nThe zorblax relay keeps "
                                          f"ledger {i}.\n", encoding="utf-8")
    (docs / "big.md").write_text("# Big\n\n" + "zorblax relay ledger. " * 200, encoding="utf-8")
    (docs / "blob.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00" * 50)  # read, then skipped: binary
    return docs


def test_the_thread_comes_first_and_a_file_over_the_limit_is_named(tmp_path):
    proc = run_cli("research", "zorblax relay", "--as-of", AS_OF, "--model", "offline",
                   "--corpus", _folder(tmp_path), "--data-dir", tmp_path / "data",
                   "--max-file-bytes", "1000")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("thread "), lines[:3]
    # the file over the limit is not among those read; the binary one is read, not indexed
    read = SHOW_INDEXING_FROM + 1
    assert lines[1] == f"indexing {read} file(s) of the corpus folder", lines[:3]
    assert lines[2] == f"read {read} file(s); writing the index", lines[:3]
    assert lines[3].startswith("model:"), lines[:5]  # the thread line is not said twice
    # the run's file count is what was indexed (a new user saw skipped files counted), and it
    # says how many of those read were not ("read 162 file(s)", then "(161 files)": trial 126)
    assert lines[4].startswith("corpus: folder corpus: "), lines[:5]
    assert (f"({SHOW_INDEXING_FROM} files indexed, 1 more read but not indexed: see the notes)"
            in lines[4]), lines[4]
    skipped = [line for line in lines if "big.md" in line]
    assert skipped and "too large" in skipped[0], proc.stdout[-2000:]
    # said before the run too, with the flag that admits it: it may hold the answers (trial
    # 29, finding 1: a 2.6 MB manual was named only in the last notes, after the report)
    planned = next(i for i, line in enumerate(lines) if line.startswith("planned "))
    assert lines.index(skipped[0]) < planned and "--max-file-bytes" in skipped[0], lines
    binary = [line for line in lines if "blob.md" in line]
    assert binary and "skipped, binary" in binary[0], proc.stdout[-2000:]


def test_the_limit_is_checked_like_every_setting(tmp_path):
    proc = run_cli("research", "zorblax relay", "--data-dir", tmp_path / "data",
                   "--max-file-bytes", "0")
    assert proc.returncode == 2
    assert "--max-file-bytes" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_folder_of_one_file_over_the_default_limit_is_indexed_with_a_higher_one(tmp_path):
    # Trial 10: the CLI's check before the run used the default (then 2 MB), so a folder whose
    # only file was past it was refused ("1 file skipped as larger than 2 MB") with the flag
    # that admits it given, by flag or by RESEARCH_MAX_FILE_BYTES. The default is 8 MB since
    # trial 29 (a 2.6 MB one-page manual was skipped).
    docs = tmp_path / "docs"
    docs.mkdir()
    line = "The zorblax relay keeps its ledger in copper envelopes. "
    (docs / "book.txt").write_text(line * (8_500_000 // len(line) + 1), encoding="utf-8")
    common = ("research", "zorblax relay", "--as-of", AS_OF, "--model", "offline", "--corpus",
              docs)
    refused = run_cli(*common, "--data-dir", tmp_path / "d0")
    assert refused.returncode == 2 and "larger than 8 MB" in refused.stderr, refused.stderr
    by_flag = run_cli(*common, "--data-dir", tmp_path / "d1", "--max-file-bytes", "9000000")
    assert by_flag.returncode == 0, by_flag.stderr[-2000:]
    assert "(1 file)" in by_flag.stdout, by_flag.stdout[-2000:]
    by_env = run_cli(*common, "--data-dir", tmp_path / "d2",
                     env={"RESEARCH_MAX_FILE_BYTES": "9000000"})
    assert by_env.returncode == 0, by_env.stderr[-2000:]


def test_a_file_of_long_blank_runs_is_indexed_in_time(tmp_path):
    # Trial 59, F1: the list-item rule of the sentence cuts was tried at every blank of a run,
    # O(k²): fixed-width records (6 MB) took 48 s, a run of 400,000 spaces 140 s; a run of
    # 1,000,000 would take about 15 minutes, past the CLI's timeout here. Linear, it is instant.
    docs = tmp_path / "docs"
    docs.mkdir()
    body = "The zorblax relay reads its ledger. It starts worker processes.\n" * 20
    (docs / "records.txt").write_text(body + "Total:" + " " * 1_000_000 + "42\n" + body,
                                      encoding="utf-8")
    proc = run_cli("research", "zorblax relay ledger", "--as-of", AS_OF, "--model", "offline",
                   "--corpus", docs, "--data-dir", tmp_path / "data", "--quiet")
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_the_run_that_builds_the_index_says_how_long_it_took(tmp_path):
    # Trial 60, F2: the first run's elapsed time included the build, and nothing said how long
    # the build itself took; a run that reuses the index says nothing of it
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "relay.md").write_text("# Relay\n\nThe zorblax relay keeps its ledger.\n")
    common = ("research", "zorblax relay", "--as-of", AS_OF, "--model", "offline", "--corpus",
              docs, "--data-dir", tmp_path / "data")
    first, second = run_cli(*common), run_cli(*common)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    said = [line for line in first.stdout.splitlines() if line.startswith("corpus: ")]
    assert len(said) == 1 and re.search(r"\(index built in \d+\.\d s\)$", said[0]), said
    assert "index built in" not in second.stdout
