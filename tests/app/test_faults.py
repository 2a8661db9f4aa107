"""Fault injection is reproducible per seed, independent of scheduling, and fresh per round."""

from __future__ import annotations

import pytest

from app.runs.faults import FaultPlan, InjectedWorkerError, parse_crash_at, parse_fail_worker
from workers.errors import TransientWorkerError, is_transient


def _task(round_: int = 1, question: str = "q") -> dict:
    return {"worker": "analyst", "sub_question": question, "topic": "t", "as_of": "2026-11-30",
            "round": round_}


def _failures(plan: FaultPlan, round_: int) -> list[bool]:
    out = []
    for i in range(200):
        try:
            plan.on_attempt(_task(round_, f"q{i}"), attempt=1)
            out.append(False)
        except TransientWorkerError as exc:
            assert is_transient(exc)  # the RetryPolicy retries injected failures
            out.append(True)
    return out


def test_same_seed_same_failures_and_rate_is_respected():
    first = _failures(FaultPlan(fail_rate=0.5, seed=7), 1)
    assert first == _failures(FaultPlan(fail_rate=0.5, seed=7), 1)
    assert 60 < sum(first) < 140
    assert first != _failures(FaultPlan(fail_rate=0.5, seed=8), 1)


def test_a_new_round_draws_afresh():
    # otherwise a task that used up its attempts in round 1 would fail identically in round 2
    assert _failures(FaultPlan(fail_rate=0.5, seed=7), 1) != _failures(
        FaultPlan(fail_rate=0.5, seed=7), 2
    )


def test_fail_worker_until_a_round():
    plan = FaultPlan(fail_workers={"analyst": 1})
    with pytest.raises(InjectedWorkerError):
        plan.on_attempt(_task(1), attempt=1)
    plan.on_attempt(_task(2), attempt=1)  # recovers in round 2
    assert not is_transient(InjectedWorkerError("x"))


@pytest.mark.parametrize("bad", ["map", "map:x", "persist", "report:1", "nowhere"])
def test_bad_crash_points_are_rejected(bad):
    with pytest.raises(ValueError):
        parse_crash_at(bad)


def test_crash_points_parse():
    assert parse_crash_at("map:3") == ("map", 3)
    assert parse_crash_at("persist-commit") == ("persist-commit", 0)
    assert parse_crash_at(None) is None


def test_fail_worker_specs_parse_in_one_place():
    # The setting's check, the fault plan and the CLI's name check all read it through this.
    assert parse_fail_worker("analyst") == ("analyst", 0)
    assert parse_fail_worker("analyst:2") == ("analyst", 2)
    for bad in ("", ":1"):
        with pytest.raises(ValueError, match="NAME or NAME:ROUNDS"):
            parse_fail_worker(bad)
    # trial 10: "critic:0" failed in every round, as if no ROUNDS were given
    for bad in ("analyst:x", "analyst:-1", "analyst:0", "analyst:00", "analyst:"):
        with pytest.raises(ValueError, match="ROUNDS must be a whole number from 1"):
            parse_fail_worker(bad)
    from app.settings.config import ConfigError
    from app.settings.env import load_settings

    with pytest.raises(ConfigError, match="ROUNDS must be a whole number from 1"):
        load_settings(env={}, env_file=None).with_overrides(fail_workers=("analyst:0",))


def test_workers_reaching_a_crash_point_together_print_one_kill_line(monkeypatch, capsys):
    """``map:0`` with four workers starting at once printed the kill line up to four times."""
    import threading

    import app.runs.faults

    kills: list[int] = []
    monkeypatch.setattr(app.runs.faults.os, "kill", lambda pid, sig: kills.append(sig))
    monkeypatch.setattr(app.runs.faults, "_KILLING", threading.Lock())
    plan = FaultPlan(crash_at=("map", 0))
    threads = [threading.Thread(target=plan.on_attempt, args=(_task(1, f"q{i}"), 1), daemon=True)
               for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=1.0)  # with the real SIGKILL the blocked ones die with the process
    err = capsys.readouterr().err
    assert err.count("crash-at map:0: sending SIGKILL") == 1, err
    assert len(kills) == 1


def test_a_crash_point_is_reached_by_a_finishing_worker_when_no_attempt_starts_later(
        monkeypatch):
    """``map:9`` of 12 at concurrency 4: every attempt started before the 9th finished."""
    import app.runs.faults

    killed: list[str] = []
    monkeypatch.setattr(app.runs.faults, "_hard_kill", killed.append)
    plan = FaultPlan(crash_at=("map", 2))
    for i in range(3):
        plan.on_attempt(_task(1, f"q{i}"), 1)  # all three start before any finishes
    envelope = {"envelope_id": "e", "attempts": 1, "status": "ok"}
    plan.on_done(_task(1, "q0"), envelope)
    plan.on_done(_task(1, "q1"), envelope)
    assert killed == []
    plan.on_done(_task(1, "q2"), envelope)  # two have finished: the third dies before returning
    assert killed == ["map:2"]


def test_unreached_says_why_only_when_a_crash_point_is_set():
    assert FaultPlan().unreached() is None
    assert "--crash-at report was never reached" in FaultPlan(crash_at=("report", 0)).unreached()


def test_a_future_callback_failing_after_its_executor_shut_down_logs_no_traceback(caplog):
    # A worker that raises ends LangGraph's step and shuts the executor down while its siblings
    # finish; their done-callbacks then fail to schedule the saving of their writes, and
    # concurrent.futures logged that as a whole traceback under the run's one error line.
    from concurrent.futures import Future, ThreadPoolExecutor

    import app.runs.stream  # noqa: F401  (installs the filter, as every CLI run does)

    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    future: Future = Future()
    future.add_done_callback(lambda _: pool.submit(print))
    with caplog.at_level("ERROR", logger="concurrent.futures"):
        future.set_result(None)
    assert not caplog.records
    future = Future()
    future.add_done_callback(lambda _: 1 / 0)  # any other failing callback is still logged
    with caplog.at_level("ERROR", logger="concurrent.futures"):
        future.set_result(None)
    assert [r.exc_info[0] for r in caplog.records] == [ZeroDivisionError]


class _YieldingLock:
    """A lock that, once released, lets the other threads run before its releaser goes on: the
    widest a gap between two critical sections can be."""

    def __init__(self) -> None:
        import threading
        self._lock = threading.Lock()

    def __enter__(self):
        self._lock.acquire()
        return self

    def __exit__(self, *exc) -> None:
        import time
        self._lock.release()
        time.sleep(0.02)


def test_workers_finishing_together_past_the_crash_point_all_die(monkeypatch):
    """``map:K``: of workers finishing together when K-1 had finished, exactly one is counted as
    the K-th and every other one reaches the kill. The check and the count were two steps, so
    two workers could both see K-1, both count, and end the run past K with nothing killed (a CI
    run ended ``map:8`` of 9 tasks with 9 finished)."""
    import threading

    import app.runs.faults

    killed: list[str] = []
    monkeypatch.setattr(app.runs.faults, "_hard_kill", killed.append)
    plan = FaultPlan(crash_at=("map", 8), _lock=_YieldingLock())
    plan._finished = 7
    envelope = {"envelope_id": "e", "attempts": 1, "status": "ok"}
    start = threading.Barrier(4)

    def finish() -> None:
        start.wait()
        plan.on_done(_task(1, "q"), envelope)

    threads = [threading.Thread(target=finish) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert killed == ["map:8"] * 3  # one counted as the 8th, three past it
