"""Bad paths and unreadable topics: one ``error:`` line, exit 2, and nothing written or
overwritten (the hostile-input cases a tester found after the first bad-input suite)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli


def _assert_refused(proc, *, data_dir: Path) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    assert not data_dir.exists(), "bad input must not create the data dir"


@pytest.mark.parametrize(
    "topic",
    ["???", "!!! ... ---", "a\u202eb", "ab\x7fc", "ab\x9bc"],
    ids=["punctuation", "punctuation-2", "bidi-override", "DEL", "C1-control"],
)
def test_unreadable_topics_are_refused(tmp_path, topic):
    data = tmp_path / "data"
    _assert_refused(run_cli("research", topic, "--data-dir", data), data_dir=data)


def test_out_never_overwrites_a_file_that_is_not_a_report(tmp_path, small_corpus):
    victim = tmp_path / "precious.py"
    victim.write_text("print('keep me')\n")
    data = tmp_path / "data"
    proc = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir", data,
                   "--out", victim)
    _assert_refused(proc, data_dir=data)
    assert victim.read_text() == "print('keep me')\n"


def test_out_may_name_a_new_report_file_in_a_new_folder(tmp_path, small_corpus):
    out = tmp_path / "new" / "folder" / "report.md"
    proc = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir",
                   tmp_path / "data", "--out", out, "--as-of", "2026-11-30")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8").startswith("# Research report: Zorblax relay")


def test_a_data_dir_that_is_a_file_is_refused(tmp_path):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    proc = run_cli("research", "Zorblax relay", "--data-dir", not_a_dir)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and "is a file" in proc.stderr
    assert not_a_dir.read_text() == "x"


def test_a_corpus_that_is_a_file_or_has_nothing_to_index_is_refused(tmp_path):
    a_file = tmp_path / "notes.md"
    a_file.write_text("# notes\n")
    data = tmp_path / "data"
    _assert_refused(run_cli("research", "zorblax relay", "--corpus", a_file, "--data-dir", data),
                    data_dir=data)
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run_cli("research", "zorblax relay", "--corpus", empty, "--data-dir", data)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and "no indexable" in proc.stderr


def test_resume_of_an_unknown_thread_writes_nothing(tmp_path):
    data = tmp_path / "data"
    _assert_refused(run_cli("resume", "no-such-thread", "--data-dir", data), data_dir=data)


def test_out_with_a_trailing_slash_is_a_new_folder_for_the_report(tmp_path, small_corpus):
    # issue 10 item 13: ``--out DIR/`` (no such folder) wrote a *file* named DIR
    out = tmp_path / "reports-here"
    proc = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir",
                   tmp_path / "data", "--out", f"{out}/", "--as-of", "2026-11-30")
    assert proc.returncode == 0, proc.stderr
    assert out.is_dir(), "the trailing slash names a folder"
    written = list(out.iterdir())
    assert len(written) == 1 and written[0].suffix == ".md", written
    assert written[0].read_text(encoding="utf-8").startswith("# Research report: Zorblax relay")
    assert f"report written: {written[0].resolve()}" in proc.stdout


def test_out_inside_the_corpus_folder_never_makes_a_report_cite_itself(tmp_path,
                                                                      make_corpus):
    # Issue 21 (trial 6, finding 7): the second run indexed the first run's report and cited
    # it as its source 1.
    corpus = make_corpus()
    args = ("research", "Zorblax relay", "--corpus", corpus, "--data-dir", tmp_path / "data",
            "--out", f"{corpus}/", "--as-of", "2026-11-30", "--json")
    first = run_cli(*args)
    assert first.returncode == 0, first.stderr
    again = run_cli(*args, "--fresh")  # another thread: another report file beside the first
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    name = Path(json.loads(first.stdout)["report_path"]).name
    assert f"{name}: skipped, a report of this app (it would cite itself)" in summary["notes"]
    sources = Path(summary["report_path"]).read_text("utf-8").split("## Sources", 1)[1]
    assert name not in sources and "Research report" not in sources


@pytest.mark.parametrize("command", [["research", "Zorblax relay"], ["resume", "some-thread"],
                                     ["threads"], ["inspect", "some-thread"], ["prune"]],
                         ids=lambda c: c[0])
def test_a_data_dir_under_a_file_is_bad_input_for_every_command(tmp_path, command):
    # issue 10 item 12: ``--data-dir notes.txt/data`` exited 1 ("run failed: Not a directory")
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me\n")
    proc = run_cli(*command, "--data-dir", a_file / "data")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.strip() == (f"error: data dir {a_file / 'data'}: {a_file} is a file, "
                                   "not a folder")
    assert a_file.read_text() == "keep me\n"


def test_a_corpus_with_nothing_to_index_writes_nothing_into_the_data_dir(tmp_path):
    # issue 10 item 12: the refusal (exit 2) came after the thread lock had created ``locks/``
    data = tmp_path / "data"
    data.mkdir()
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "picture.png").write_bytes(b"\x89PNG")
    proc = run_cli("research", "Zorblax relay", "--corpus", empty, "--data-dir", data)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1
    assert list(data.iterdir()) == [], "bad input must write nothing"


def test_a_topic_never_lands_on_a_thread_of_another_topic(tmp_path, small_corpus):
    """threads.check_thread judges the thread's state too: another topic on a thread id that
    holds one is refused in one line (exit 2), and the thread's rows are untouched."""
    from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
    from tests.results_db import db_rows

    data = tmp_path / "data"
    common = ["--as-of", AS_OF, "--corpus", small_corpus, "--data-dir", data, "--model",
              "offline", "--thread-id", "mine", "--quiet"]
    assert run_cli("research", SMALL_TOPIC, *common).returncode == 0
    rows = db_rows(data, "mine")
    other = run_cli("research", "something else entirely", *common)
    assert other.returncode == 2, other.stderr
    assert "belongs to topic" in other.stderr and len(other.stderr.strip().splitlines()) == 1
    assert db_rows(data, "mine") == rows


@pytest.mark.parametrize("where", ["folder", "missing-folder", "a user's file"])
def test_a_run_log_that_cannot_be_written_is_refused_before_the_run(tmp_path, small_corpus,
                                                                    where):
    # It was opened only as workers finished: the run planned, dispatched, then failed exit 1
    # ("run failed: IsADirectoryError ...", sometimes a traceback) and left a failed thread.
    # Trial 18, finding 15: a user's .docx (or results.sqlite) named by --run-log was appended to.
    run_log = {"folder": tmp_path, "missing-folder": tmp_path / "no" / "such" / "run.log",
               "a user's file": tmp_path / "thesis.docx"}[where]
    if where == "a user's file":
        run_log.write_bytes(b"PK\x03\x04 the user's own document")
    data = tmp_path / "data"
    proc = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir", data,
                   "--run-log", run_log)
    _assert_refused(proc, data_dir=data)
    assert "--run-log" in proc.stderr and not proc.stdout
    if where == "a user's file":
        assert "is not a run log of this app" in proc.stderr, proc.stderr
        assert run_log.read_bytes() == b"PK\x03\x04 the user's own document"


def test_a_run_log_of_this_app_or_an_empty_file_is_appended_to(tmp_path) -> None:
    from app.cli.checks import check_run_log

    line = "docs_search:2026-11-30:0123456789abcdef\t1\tok\t4242\n"
    (tmp_path / "runs.log").write_text(line, encoding="utf-8")
    (tmp_path / "empty.log").write_text("", encoding="utf-8")
    check_run_log(str(tmp_path / "runs.log"))  # neither raises
    check_run_log(str(tmp_path / "empty.log"))


def test_a_run_log_that_only_looks_like_one_is_refused(tmp_path) -> None:
    # Trial 19: a FIFO hung the run at its first task (findings 1); a user's TSV of four
    # columns was appended to (2); the data dir's empty WAL took the lines, then vanished (3)
    import os

    from app.cli.checks import check_run_log
    from app.cli.exit_codes import BadInput

    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dangling").symlink_to(tmp_path / "no" / "such" / "run.log")  # finding 12
    (tmp_path / "data.tsv").write_text("alice\t42\tok\t7\nbob\t3\tfailed\t9\n", "utf-8")
    (tmp_path / "results.sqlite-wal").write_bytes(b"")
    for name, why in [("fifo", "is not a regular file"), ("dangling", "cannot write there"),
                      ("data.tsv", "is not a run log of this app"),
                      ("results.sqlite-wal", "is not a run log of this app")]:
        with pytest.raises(BadInput, match=why):
            check_run_log(str(tmp_path / name))
    assert (tmp_path / "data.tsv").read_text("utf-8").count("\n") == 2


@pytest.mark.parametrize("files", [{"empty.md": ""}, {"blank.txt": " \n\t\n"},
                                   {"page.html": "<html><body></body></html>"}],
                         ids=["empty-md", "blank-txt", "html-without-text"])
def test_a_corpus_whose_files_hold_no_text_writes_nothing(tmp_path, files):
    # A new user's trial: a folder holding only an empty .md printed "thread ..." on stdout
    # before its error and left .corpus-dir-*.lock in the data dir. The probe now looks inside
    # (empty, blank), and a build that finds no text (markup only) cleans up after itself.
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in files.items():
        (corpus / name).write_text(text, encoding="utf-8")
    data = tmp_path / "data"
    proc = run_cli("research", "Zorblax relay", "--corpus", corpus, "--data-dir", data)
    _assert_refused(proc, data_dir=data)
    assert proc.stdout == "" and "no indexable" in proc.stderr, (proc.stdout, proc.stderr)
    data.mkdir()  # an existing data dir gets nothing either
    proc = run_cli("research", "Zorblax relay", "--corpus", corpus, "--data-dir", data)
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert list(data.iterdir()) == []


@pytest.mark.parametrize("where", ["notes", "corpus-document"])
def test_out_never_overwrites_a_markdown_file_that_is_not_a_report(tmp_path, small_corpus, where):
    # Trial 10: `--out notes.md` replaced the user's notes; `--out` naming a document of the
    # corpus folder replaced the very document the report cited (the next run skipped it as
    # "a report of this app"). Only the extension was checked.
    import shutil

    corpus = tmp_path / "corpus"
    shutil.copytree(small_corpus, corpus)
    victim = (tmp_path / "notes.md" if where == "notes"
              else next(p for p in sorted(corpus.rglob("*.md"))))
    if where == "notes":
        victim.write_text("# My notes\n\nkeep me\n", encoding="utf-8")
    before = victim.read_bytes()
    data = tmp_path / "data"
    proc = run_cli("research", "Zorblax relay", "--corpus", corpus, "--data-dir", data,
                   "--out", victim)
    _assert_refused(proc, data_dir=data)
    assert "is not a report of this app" in proc.stderr
    assert victim.read_bytes() == before


def test_out_writes_again_over_a_report_of_this_app(tmp_path, small_corpus):
    out = tmp_path / "report.md"
    first = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir",
                    tmp_path / "data", "--out", out, "--as-of", "2026-11-30")
    assert first.returncode == 0, first.stderr
    again = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir",
                    tmp_path / "data2", "--out", out, "--as-of", "2026-11-30")
    assert again.returncode == 0, again.stderr
    assert out.read_text(encoding="utf-8").startswith("# Research report: Zorblax relay")


def test_the_report_is_not_written_over_a_file_that_appeared_during_the_run(tmp_path):
    # The CLI checks before the run; the writer checks again at the end (the folder form's
    # name is the thread's, and a file may appear meanwhile).
    from app.research.report_files import write_report

    path = tmp_path / "thread.md"
    path.write_text("mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError, match="is not a report of this app"):
        write_report("# Research report: x\n", path)
    assert path.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("flag", ["--data-dir", "--corpus", "--out", "--run-log",
                                  "--mcp-config"])
def test_a_path_through_a_link_loop_is_refused_as_bad_input(tmp_path, small_corpus, flag):
    # hostile trial H, F4: every path flag that was (or went through) a symbolic link to
    # itself ended in "run failed: RuntimeError: Symlink loop from '...'", exit 1
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    data = tmp_path / "data"
    given = loop / "sub" if flag in ("--data-dir", "--corpus") else loop
    args = {"--data-dir": data, "--corpus": small_corpus, flag: given}
    proc = run_cli("research", "Zorblax relay", *(str(a) for kv in args.items() for a in kv))
    _assert_refused(proc, data_dir=data)
    assert proc.stderr.strip() == (f"error: {flag} {given}: a symbolic link on this path points "
                                   "back to itself (a link loop), so it leads to no file or "
                                   "folder; give the path itself")


@pytest.mark.parametrize(("flag", "name"), [("--data-dir", "data"), ("--out", "reports/"),
                                            ("--out", "report.md"), ("--run-log", "run.log")])
def test_a_link_to_nothing_a_run_could_make_is_refused_as_bad_input(tmp_path, small_corpus,
                                                                    flag, name):
    # hostile trial H, F4: --data-dir at a dangling link said "cannot create data dir X: File
    # exists", --run-log that it "exists and is not a run log", and --out DIR/ ran every
    # worker, then failed to write the report
    link = tmp_path / name.rstrip("/")
    link.symlink_to(tmp_path / "gone" / "target")
    given = f"{link}/" if name.endswith("/") else str(link)
    data = tmp_path / "data" if flag != "--data-dir" else link
    args = {"--data-dir": tmp_path / "data", "--corpus": small_corpus, flag: given}
    proc = run_cli("research", "Zorblax relay", *(str(a) for kv in args.items() for a in kv))
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert proc.stderr.strip() == (f"error: {flag} {given} is a link to {tmp_path}/gone/target, "
                                   "which does not exist: create it, or give another path")
    assert not (tmp_path / "gone").exists() and (data == link or not data.exists())


def test_a_link_to_a_new_file_in_an_existing_folder_is_written_through(tmp_path, small_corpus):
    target = tmp_path / "logs" / "run.log"
    target.parent.mkdir()
    (tmp_path / "run.log").symlink_to(target)
    proc = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir",
                   tmp_path / "data", "--run-log", tmp_path / "run.log")
    assert proc.returncode == 0, proc.stderr
    assert target.read_text(encoding="utf-8").count("\n") >= 3


@pytest.mark.parametrize("command", [["threads"], ["inspect", "x"], ["inspect", "x", "--report"],
                                     ["prune"], ["prune", "--dry-run"], ["review", "x"]],
                         ids=" ".join)
def test_a_data_dir_through_a_link_loop_is_named_by_every_command(tmp_path, command):
    # hostile trial H, left over from F4: research, resume and review --approve refused it in
    # one line, while threads said "no threads yet: no data dir ..." (exit 0), inspect "no
    # thread 'x'", prune "no data dir": the loop was never named
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    proc = run_cli(*command, "--data-dir", str(loop))
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert proc.stderr.strip() == (f"error: --data-dir {loop}: a symbolic link on this path "
                                   "points back to itself (a link loop), so it leads to no file "
                                   "or folder; give the path itself")
