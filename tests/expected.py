"""What a run is expected to produce, computed from the worker registry and the offline planner.

Nothing here hard-codes "3 workers" or "12 tasks": a fork that follows docs/extending.md (one more
worker in ``workers/registry.py``) keeps a green suite. Tests that describe the stock template on
purpose (the walkthrough page's excerpts) ask :func:`is_stock_registry` and skip otherwise.

Fault seeds: whether ``--fail-rate P --seed S`` fails an attempt is decided by the app's own
``app.runs.faults.FaultPlan.injects_failure``; :func:`first_ok_attempts` asks it (the formula is not
copied here) and :func:`find_seed` searches seeds with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

STOCK_WORKERS = ("docs_search", "analyst", "critic")
"""The workers of the template as shipped, in registry order."""

MAX_ATTEMPTS = 3
"""The app's default ``RESEARCH_MAX_ATTEMPTS`` (attempts per task in one round)."""


def worker_names() -> tuple[str, ...]:
    """The names of the registered workers, in registry order."""
    from workers.registry import WORKERS

    return tuple(w.name for w in WORKERS)


def is_stock_registry() -> bool:
    """True when ``workers/registry.py`` holds exactly the stock workers, in the stock order."""
    return worker_names() == STOCK_WORKERS


def not_stock_reason(what: str, names: Iterable[str] | None = None) -> str:
    """A skip reason for a check of ``what``, which describes the stock template (``names``: the
    registered workers, by default those of ``workers/registry.py``)."""
    names = worker_names() if names is None else tuple(names)
    return (f"{what} describes the stock template's workers ({', '.join(STOCK_WORKERS)}); this "
            f"registry has {', '.join(names)}")


def sub_questions(topic: str) -> list[str]:
    """The offline planner's sub-questions of ``topic``."""
    from app.research.plan import offline_plan

    return offline_plan(topic)


def expected_tasks(topic: str) -> int:
    """Tasks (= envelopes = DB rows) of one offline run of ``topic``: sub-questions x workers."""
    return len(sub_questions(topic)) * len(worker_names())


def first_ok_attempts(fail_rate: float, seed: int, topic: str, as_of: str, *,
                      round_: int = 1, max_attempts: int = MAX_ATTEMPTS) -> dict[str, int]:
    """For each envelope id of an offline run of ``topic``: the first attempt that
    ``--fail-rate fail_rate --seed seed`` lets through in round ``round_``
    (``max_attempts + 1`` when every attempt of the round fails), asked of ``FaultPlan``."""
    from app.runs.faults import FaultPlan
    from state import make_envelope_id

    plan = FaultPlan(fail_rate=fail_rate, seed=seed)
    out = {}
    for question in sub_questions(topic):
        for worker in worker_names():
            task = {"worker": worker, "sub_question": question, "topic": topic, "as_of": as_of,
                    "round": round_}
            attempt = 1
            while attempt <= max_attempts and plan.injects_failure(task, attempt):
                attempt += 1
            out[make_envelope_id(worker, question, as_of)] = attempt
    return out


def all_pass_in_round_one(attempts: Mapping[str, int], *, need: Iterable[int] = (),
                          max_attempts: int = MAX_ATTEMPTS) -> bool:
    """Every task succeeds within ``max_attempts`` in round 1, and some task succeeds on each
    attempt number in ``need`` (e.g. ``(2, 3)``: some retried once, some twice)."""
    values = set(attempts.values())
    return max(values) <= max_attempts and set(need) <= values


def find_seed(fits: Callable[[int], bool], start: int = 0, limit: int = 10_000) -> int:
    """The first seed from ``start`` on for which ``fits(seed)`` is true."""
    for seed in range(start, start + limit):
        if fits(seed):
            return seed
    raise AssertionError(f"no seed in [{start}, {start + limit}) fits")
