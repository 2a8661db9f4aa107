"""``python -m app research --help`` lists the registered workers with their descriptions (as
docs/extending.md says), whatever ``workers/registry.py`` holds."""

from __future__ import annotations


def test_research_help_lists_every_registered_worker(cli):
    from workers.registry import WORKERS

    proc = cli("research", "--help")
    assert proc.returncode == 0, proc.stderr
    lines = [" ".join(line.split()) for line in proc.stdout.splitlines()]
    section = lines[next(i for i, line in enumerate(lines) if line.startswith("workers ")) + 1:]
    kinds = {"function": "Plain function:", "agent": "create_agent:"}  # from WorkerSpec.kind
    for spec in WORKERS:
        said = f"{spec.name} {kinds[spec.kind]} {' '.join(spec.description.split())}"
        assert said in section, proc.stdout


def test_help_names_no_internal_dest(cli):
    # a new-user trial read "--out SETTING_REPORT_OUT" and "--seed SETTING_SEED"
    for command in ("research", "resume", "review", "threads", "inspect", "prune"):
        proc = cli(command, "--help")
        assert proc.returncode == 0, proc.stderr
        assert "SETTING_" not in proc.stdout, proc.stdout
    assert "--out OUT" in cli("research", "--help").stdout
