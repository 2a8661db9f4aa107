"""``python -m app research --help`` lists the registered workers with their descriptions (as
docs/extending.md says), whatever ``workers/registry.py`` holds."""

from __future__ import annotations


def test_research_help_lists_every_registered_worker(cli):
    from workers.registry import WORKERS

    proc = cli("research", "--help")
    assert proc.returncode == 0, proc.stderr
    lines = [" ".join(line.split()) for line in proc.stdout.splitlines()]
    section = lines[next(i for i, line in enumerate(lines) if line.startswith("workers ")) + 1:]
    for spec in WORKERS:
        assert f"{spec.name} {' '.join(spec.description.split())}" in section, proc.stdout
