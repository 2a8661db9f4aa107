"""Interrupt many runs mid-map-step at once and count the ones that do not stop.

Each run is ``python -m app research`` on a tiny corpus with transient failures (so the map step
is under way for a while), sent SIGINT or SIGTERM as soon as its first worker result is printed.
A run must exit 130 (SIGINT) or 143 (SIGTERM) within ``--timeout`` seconds; one that does not is
a hang: it is sent SIGABRT, and Python's ``faulthandler`` prints every thread's stack, which
this script shows. Several runs go at once (``--parallel``) because a hang needs load to show.

This is how the hang fixed in ``app/runs/stop.py`` was found and measured (1 of 30 interrupted runs
hung before, 0 of 84 after); it is a stress script, not a test: the suite's
``tests/e2e/test_retry_and_interrupt.py`` checks one interrupted run of each signal.

Run: ``uv run python scripts/stress_interrupts.py --runs 10 --parallel 3`` (offline; about a
minute). Exit code 1 when any run hung.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.cli_env import clean_env  # noqa: E402 - the tests' clean environment, one owner

EXPECTED = {signal.SIGINT: 130, signal.SIGTERM: 143}


def interrupt_one(corpus: Path, signum: int, timeout: float) -> tuple[str, str]:
    """One interrupted run: ``("ok", "")``, ``("exit N", stderr)`` or ``("hang", stacks)``."""
    with tempfile.TemporaryDirectory(prefix="stress-") as tmp:
        args = ["research", "Zorblax relay", "--corpus", str(corpus), "--data-dir",
                f"{tmp}/data", "--as-of", "2026-11-30", "--fail-rate", "0.6", "--seed", "5",
                "--max-concurrency", "1"]
        proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "app", *args],
                                cwd=ROOT, env=clean_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("["):  # the first worker result: the map step is under way
                break
        proc.send_signal(signum)
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            _, err = proc.communicate(timeout=30)
            return "hang", err
        if proc.returncode != EXPECTED[signum]:
            return f"exit {proc.returncode}", err
        return "ok", ""


def main(argv: list[str] | None = None) -> int:
    """Run the stress; print one line per outcome and the stacks of the first hang."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per signal (default 10)")
    parser.add_argument("--parallel", type=int, default=3, help="runs at once (default 3)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds a run may take to stop (default 60)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="stress-corpus-") as tmp:
        corpus = Path(tmp)
        for i in range(3):
            (corpus / f"z{i}.md").write_text(
                f"# Zorblax relay {i}\n\nThe zorblax relay keeps ledger {i} at station {i}. "
                "Relays forward copper envelopes.\n", encoding="utf-8")
        jobs = [s for s in (signal.SIGINT, signal.SIGTERM) for _ in range(args.runs)]
        with ThreadPoolExecutor(max_workers=args.parallel) as pool:
            results = list(pool.map(lambda s: (s, *interrupt_one(corpus, s, args.timeout)),
                                    jobs))
    hangs = [err for _, outcome, err in results if outcome == "hang"]
    for signum in (signal.SIGINT, signal.SIGTERM):
        outcomes = [outcome for s, outcome, _ in results if s == signum]
        counts = {o: outcomes.count(o) for o in sorted(set(outcomes))}
        print(f"{signal.Signals(signum).name}: {len(outcomes)} runs: {counts}")
    if hangs:
        print("\nstacks of the first hang:\n" + hangs[0][-6000:])
    return 1 if hangs or any(o != "ok" for _, o, _ in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
