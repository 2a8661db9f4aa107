"""Bad input is refused cleanly; hostile but valid input works.

Refused (exit 2): one line on stderr starting with ``error:``, no traceback, nothing on stdout,
and nothing written: the data dir is not even created.

Accepted (exit 0): topics full of quotes, FTS5 operators, SQL, path tricks, emoji, or exactly 500
characters. The report lands inside the data dir's ``reports/`` folder whatever the topic, and
the topic is stored verbatim (the SQL text is data, not SQL).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from app.research.plan import offline_plan
from app.runs.ids import default_thread_id
from app.storage.sqlite import SqliteResults
from tests.conftest import AS_OF, SMALL_TOPIC, run_cli_many
from workers.registry import WORKERS

LONG_TOPIC = ("zorblax relay copper envelopes " * 20)[:499] + "Z"  # exactly 500 characters

BAD = {
    "empty topic": ["research", ""],
    "whitespace topic": ["research", "  \t  \n "],
    "topic over 500 chars": ["research", "z" * 501],
    # ran, searched nothing and warned of nothing (a new user's trial): nothing to research
    "one-letter topic": ["research", "x"],
    "only one-letter words": ["research", "x  y z"],
    "only common words": ["research", "what is it"],
    "missing corpus folder": ["research", SMALL_TOPIC, "--corpus", "{tmp}/no-such-folder"],
    # an existing folder with nothing to index was refused only after the data dir was made
    "corpus folder with nothing to index": ["research", SMALL_TOPIC, "--corpus", "{tmp}/empty"],
    # an empty id ran on no thread and filed its rows under another one ("-")
    # an empty flag value (``--data-dir "$UNSET"``) silently meant the default: ./.data
    "empty data dir flag": ["research", SMALL_TOPIC, "--data-dir", ""],
    "empty thread id": ["research", SMALL_TOPIC, "--thread-id", ""],
    "thread id with a newline": ["research", SMALL_TOPIC, "--thread-id", "a\nb"],
    "as-of month 13": ["research", SMALL_TOPIC, "--as-of", "2026-13-45"],
    "as-of yesterday": ["research", SMALL_TOPIC, "--as-of", "yesterday"],
    "as-of not padded": ["research", SMALL_TOPIC, "--as-of", "2026-1-5"],
    # written YYYY-MM-DD, yet no such day: it said "must be a date written YYYY-MM-DD"
    "as-of February 30": ["research", SMALL_TOPIC, "--as-of", "2026-02-30"],
    "as-of year 3026": ["research", SMALL_TOPIC, "--as-of", "3026-01-01"],
    "as-of year 1969": ["research", SMALL_TOPIC, "--as-of", "1969-12-31"],
    # an empty --as-of silently meant today
    "empty as-of": ["research", SMALL_TOPIC, "--as-of", ""],
    # cut to 1000 without a word, and 1,000,000 wrote a 143 MB checkpoints file in 15 s
    "rounds above the bound": ["research", SMALL_TOPIC, "--rounds", "1000000"],
    # refused before the run as the README says, in a line of ~330 characters (every provider)
    "model of no provider": ["research", SMALL_TOPIC, "--model", "foo:bar"],
    "model with no name": ["research", SMALL_TOPIC, "--model", "openai:"],  # trial 23, F9
    "unknown crash point": ["research", SMALL_TOPIC, "--crash-at", "lunch"],
    "fail rate 2": ["research", SMALL_TOPIC, "--fail-rate", "2"],
    "max concurrency 0": ["research", SMALL_TOPIC, "--max-concurrency", "0"],
    # ran at most 128 workers at once, LangGraph's thread pool of a run (issue 21)
    "max concurrency past the pool": ["research", SMALL_TOPIC, "--max-concurrency", "129"],
    # the name won and the folder was dropped without a word (issue 21)
    "corpus and corpus name": ["research", SMALL_TOPIC, "--corpus", "{tmp}/empty",
                               "--corpus-name", "docs"],
}

HOSTILE = {
    "quotes": 'zorblax "relay" \'copper\' envelopes"',
    "fts5 operators": '"NEAR(a b)" OR * zorblax AND relay NOT ^envelopes',
    "sql injection": "zorblax'; DROP TABLE results; -- relay",
    "path traversal": "../../etc/passwd",
    "unicode and emoji": "Zorblax 🛰️ relay — ünïcödé 检查点 ✉️",
    "500 chars": LONG_TOPIC,
}


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def bad_runs(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[Path, subprocess.CompletedProcess[str]]]:
    base = tmp_path_factory.mktemp("bad-input")
    runs = {}
    for i, (name, args) in enumerate(BAD.items()):
        case = base / f"case{i}"
        case.mkdir()
        (case / "empty").mkdir()
        (case / "empty" / "diagram.png").write_bytes(b"\x89PNG")
        data_dir = case / "data"
        args = [a.replace("{tmp}", str(case)) for a in args]
        if "--as-of" not in args:
            args += ["--as-of", AS_OF]
        runs[name] = (data_dir, [*args, "--data-dir", data_dir])
    procs = run_cli_many({name: args for name, (_, args) in runs.items()})
    return {name: (runs[name][0], proc) for name, proc in procs.items()}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_error_line_and_writes_nothing(bad_runs, case: str) -> None:
    data_dir, proc = bad_runs[case]
    assert proc.returncode == 2, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{proc.stderr}"
    assert lines[0].startswith("error: "), lines[0]
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert not data_dir.exists(), f"bad input created {data_dir}: {list(data_dir.rglob('*'))}"


def test_bad_input_messages_say_what_is_wrong(bad_runs) -> None:
    said = {name: proc.stderr for name, (_, proc) in bad_runs.items()}
    assert "empty" in said["empty topic"]
    assert "500" in said["topic over 500 chars"]
    for case in ("one-letter topic", "only one-letter words", "only common words"):
        assert "no word to search for" in said[case], said[case]
    assert "'x'" in said["one-letter topic"] and "'what is it'" in said["only common words"]
    assert "no-such-folder" in said["missing corpus folder"]
    nothing = said["corpus folder with nothing to index"]
    assert "no indexable files: 1 file of other types" in nothing
    assert "2026-13-45" in said["as-of month 13"] and "no month 13" in said["as-of month 13"]
    assert "YYYY-MM-DD" in said["as-of yesterday"] and "YYYY-MM-DD" in said["as-of not padded"]
    feb30 = said["as-of February 30"]
    assert "2026-02-30" in feb30 and "no such date" in feb30 and "YYYY-MM-DD" not in feb30
    assert "February 2026 has 28 days" in feb30
    for case in ("as-of year 3026", "as-of year 1969"):
        assert "between 1970 and 2100" in said[case], said[case]
    assert "--as-of" in said["empty as-of"] and "empty" in said["empty as-of"]
    assert "lunch" in said["unknown crash point"]
    assert "--rounds must be <= 1000" in said["rounds above the bound"]
    provider = said["model of no provider"].strip()
    assert "'foo:bar': unknown provider" in provider and len(provider) < 160, provider
    assert "'openai:': no model name after the provider" in said["model with no name"]
    assert "--thread-id" in said["empty thread id"] and "empty" in said["empty thread id"]
    assert "control characters" in said["thread id with a newline"]
    assert "--fail-rate" in said["fail rate 2"]
    assert "--max-concurrency" in said["max concurrency 0"]
    assert "--max-concurrency must be <= 128" in said["max concurrency past the pool"]
    assert said["corpus and corpus name"].strip().endswith(
        "--corpus-name docs both choose the corpus: give one of them")


@pytest.fixture(scope="module")
def hostile_runs(small_corpus: Path, tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("hostile")
    dirs = {name: base / f"case{i}" / "data" for i, name in enumerate(HOSTILE)}
    procs = run_cli_many(
        {
            name: ["research", topic, "--corpus", small_corpus, "--as-of", AS_OF,
                   "--data-dir", dirs[name], "--quiet"]
            for name, topic in HOSTILE.items()
        }
    )
    return {name: (dirs[name], procs[name]) for name in HOSTILE}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_topic_works_and_report_stays_in_the_data_dir(hostile_runs, case: str) -> None:
    topic = HOSTILE[case]
    data_dir, proc = hostile_runs[case]
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr

    reports = (data_dir / "reports").resolve()
    written = [p for p in data_dir.parent.rglob("*") if p.is_file() and p.suffix == ".md"]
    assert len(written) == 1, written
    report = written[0].resolve()
    assert report.parent == reports, f"report escaped the data dir: {report}"
    assert not report.name.startswith(".") and "/" not in report.name
    assert f"  report: {report}" in proc.stdout
    text = report.read_text(encoding="utf-8")
    assert text.startswith("# Research report: ")
    assert " ".join(topic.split())[:150] in text

    thread_id = default_thread_id(topic, AS_OF)
    with SqliteResults.in_dir(data_dir) as store:
        rows = store.rows(thread_id=thread_id)
        assert store.duplicate_count() == 0
    assert len(rows) == len(WORKERS) * len(offline_plan(topic))
    assert {r["topic"] for r in rows} == {" ".join(topic.split())}  # stored verbatim
    assert all(r["status"] == "ok" for r in rows)


def test_the_long_topic_is_at_the_limit() -> None:
    assert len(" ".join(LONG_TOPIC.split())) == 500


def test_a_misspelt_variable_is_warned_about_and_the_command_still_runs(cli, tmp_path: Path):
    # issue 21 item 9: RESEARCH_ROUND=3 was ignored silently
    proc = cli("threads", "--data-dir", tmp_path / "data", env={"RESEARCH_ROUND": "3"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "warning: RESEARCH_ROUND is not a setting and is ignored; did you mean RESEARCH_ROUNDS?"]


@pytest.mark.parametrize("url", ["postgresql://u@127.0.0.1:1/db?password=topsecret",
                                 "postgresql://u@127.0.0.1:1/db?sslpassword=topsecret",
                                 "postgresql://u:top@secret@127.0.0.1:1/db",
                                 # issue 21: printed whole, the masking ended at the '/' or '?'
                                 "postgresql://u:top/secret@127.0.0.1:1/db",
                                 "postgresql://u:top?secret@127.0.0.1:1/db",
                                 "postgresql://u:12/to?psecret@127.0.0.1:1/db"])
def test_a_database_password_is_never_printed(tmp_path: Path, url: str) -> None:
    # a new user's trial: the connect error printed a query-string password in clear, and
    # masked user:p@ss@host as user:***@ss@host (libpq then printed 'ss@host' as the host)
    from tests.conftest import run_cli

    data = tmp_path / "d"
    for proc in (run_cli("threads", "--data-dir", data, "--database-url", url),
                 run_cli("threads", "--data-dir", data, env={"RESEARCH_DATABASE_URL": url})):
        # 2: a URL libpq cannot read; 75: a server out of reach, try later (trial 58, F4)
        assert proc.returncode in (2, 75), proc.stderr
        assert "secret" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_one_bad_setting_in_dotenv_blocks_only_what_uses_it(tmp_path: Path, small_corpus: Path):
    # a new user's trial: RESEARCH_SEARCH_K=abc in .env made every command fail, `threads`
    # and `research --search-k 3` included
    from tests.conftest import run_cli

    (tmp_path / ".env").write_text("RESEARCH_SEARCH_K=abc\n", encoding="utf-8")
    data, env = tmp_path / "data", {"RESEARCH_SEARCH_K": None}  # unset: .env supplies it
    refused = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--data-dir", data,
                      env=env, cwd=tmp_path)
    assert refused.returncode == 2 and not data.exists(), refused.stderr
    assert refused.stderr.strip() == (
        "error: RESEARCH_SEARCH_K must be a whole number, got 'abc' (set in .env)")
    flagged = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--data-dir", data,
                      "--search-k", "3", "--as-of", AS_OF, "--quiet", env=env, cwd=tmp_path)
    assert flagged.returncode == 0 and not flagged.stderr, flagged.stderr
    listed = run_cli("threads", "--data-dir", data, env=env, cwd=tmp_path)
    assert listed.returncode == 0 and SMALL_TOPIC in listed.stdout, listed.stderr
    assert "RESEARCH_SEARCH_K" in listed.stderr and "not used" in listed.stderr
