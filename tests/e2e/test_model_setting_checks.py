"""A model setting no provider can build is treated as any bad setting, by every command
(hostile trial H): ``RESEARCH_MODEL=foo`` went unsaid by ``threads``, ``inspect`` and ``prune``,
which warn about a bad ``RESEARCH_ROUNDS`` ("not used by this command"), and was refused by
``research`` only when the model was built. The form of a model spec is now checked by the
settings' declarations (``check=``, :mod:`app.settings.model_spec`), so each command checks
what it uses, strictly, and warns about the rest, from one place. Through the CLI in
subprocesses.
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

BAD = [("RESEARCH_MODEL", "foo", "unknown provider"),
       ("RESEARCH_WORKER_MODEL", "bogus:x", "unknown provider"),
       ("RESEARCH_REPORT_MODEL", "openai:", "no model name after the provider"),
       ("RESEARCH_ROUNDS", "two", "must be a whole number")]  # the sibling it now matches


@pytest.mark.parametrize(("name", "value", "why"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("command", [["threads"], ["prune", "--dry-run"], ["inspect", "x"]],
                         ids=" ".join)
def test_a_bad_model_setting_is_warned_about_by_the_commands_that_read_threads(
        tmp_path, name, value, why, command):
    (tmp_path / "data").mkdir()
    proc = run_cli(*command, "--data-dir", tmp_path / "data", env={name: value})
    warned = [line for line in proc.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warned) == 1, proc.stderr
    assert warned[0].startswith(f"warning: {name}") and why in warned[0], warned
    assert warned[0].endswith("(set in the environment); not used by this command"), warned


@pytest.mark.parametrize(("name", "value", "why"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_model_setting_is_refused_by_research_before_anything_runs(
        tmp_path, small_corpus, name, value, why):
    data = tmp_path / "data"
    proc = run_cli("research", "Zorblax relay", "--corpus", small_corpus, "--data-dir", data,
                   env={name: value})
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith(f"error: {name}") and why in line, line
    assert line.endswith("(set in the environment)") and not data.exists(), line


@pytest.mark.parametrize("spec", ["m" * 100_000, "openai:" + "m" * 100_000, "m" * 100_000 + ":"],
                         ids=["name", "provider-and-name", "provider-only"])
def test_a_huge_model_spec_is_cut_in_its_line(spec):
    """A served client's 100 KB ``model`` (or a flag's) is not echoed whole: every line naming a
    model spec shows it as any setting's value is shown (``app.settings.spec.shown``); found by
    tests/app/test_client_config.py once the spec was checked by its declaration."""
    from app.runs.faults import parse_fail_worker
    from app.settings.model_spec import check_model_spec

    for check in (check_model_spec, parse_fail_worker):
        try:
            check(spec)
        except ValueError as exc:
            line = str(exc)
            assert len(line) < 400 and "characters)" in line, line[:400]
