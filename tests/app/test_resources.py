"""What nodes look up from their run's context (``app/resources.py``): heavy objects once per
distinct setting, per-run objects once per run, and a server's defaults under a partial context.
"""

from __future__ import annotations

from pathlib import Path

import app.resources
from app.config import RunContext, Settings
from app.resources import Resources
from tests.conftest import AS_OF, SMALL_TOPIC


def test_a_run_builds_each_model_once(tmp_path: Path, small_corpus: Path, monkeypatch):
    # issue 12: "models built twice per run (cli.py and run.py)"
    from app.run import RunRequest, run_research

    built: list[str] = []
    real = app.resources.make_model

    def counting(spec, settings):
        built.append(spec)
        return real(spec, settings)

    monkeypatch.setattr(app.resources, "make_model", counting)
    settings = Settings(data_dir=tmp_path / "data", corpus=small_corpus, model="offline",
                        retry_interval=0.01)
    summary = run_research(RunRequest(topic=SMALL_TOPIC, as_of=AS_OF), settings)
    assert summary.ok and summary.outcome == "ok"
    assert built == ["offline"]  # three roles, one spec, one model, built once


def test_a_partial_context_takes_the_servers_settings_for_the_rest(tmp_path: Path):
    defaults = RunContext(data_dir=str(tmp_path / "server-data"), rounds=4, model="offline")
    resources = Resources(defaults=defaults)
    assert resources.context(None) is defaults
    merged = resources.context(RunContext(rounds=1, search_k=9))  # e.g. {"rounds": 1, ...}
    assert merged.rounds == 1 and merged.search_k == 9
    assert merged.data_dir == defaults.data_dir and merged.model == "offline"
    assert Resources().context(None) == RunContext()


def test_a_served_graph_refuses_a_context_that_would_crash_the_server(tmp_path: Path):
    import pytest

    from app.config import ConfigError

    defaults = RunContext(data_dir=str(tmp_path / "server-data"))
    served = Resources(defaults=defaults, served=True)
    with pytest.raises(ConfigError, match="crash_at"):
        served.context(RunContext(crash_at="report"))
    assert served.context(RunContext(fail_rate=0.5)).fail_rate == 0.5  # the other faults: fine
    assert Resources(defaults=defaults).context(RunContext(crash_at="report")).crash_at



def test_worker_deps_carry_every_setting_a_worker_reads(tmp_path: Path, small_corpus: Path):
    # Every WorkerDeps field named like a RunContext setting must reach the workers with the
    # run's value and be part of the cache key: a LangGraph Server process serves many runs,
    # and a forker's new setting that is passed on but not keyed (or the reverse) would give
    # one run another run's value. The loop covers a field added later without a new test.
    from dataclasses import fields

    from workers.base import WorkerDeps

    base = RunContext(data_dir=str(tmp_path / "data"), corpus=str(small_corpus), model="offline")
    resources = Resources(defaults=base)
    shared = resources.worker_deps(resources.context(None))
    settings = {f.name for f in fields(RunContext)}
    carried = [f.name for f in fields(WorkerDeps) if f.name in settings]
    assert {"search_k", "max_attempts", "retry_interval"} <= set(carried)
    for name in carried:
        value = getattr(base, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue  # a switch such as ``web`` needs more than a changed number
        changed = value + 1
        deps = resources.worker_deps(resources.context(RunContext(**{name: changed})))
        assert getattr(deps, name) == changed, name
        assert getattr(shared, name) == value, name
        assert deps.corpus is shared.corpus  # the heavy objects are still shared
    assert resources.worker_deps(resources.context(None)) is shared
