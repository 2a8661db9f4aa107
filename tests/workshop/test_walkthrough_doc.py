"""docs/walkthrough.md never drifts from the scripts: every command in it runs, and every line of
every output excerpt it shows appears in the real output.

The page is parsed into steps (``## Step N: ...``), each with one ```bash block (commands of the
form ``uv run python scripts/NAME.py [args]``, run here as ``sys.executable scripts/NAME.py``
from the repository root) and one ```text block (the excerpt). An excerpt line matches an
output line when both are equal with surrounding whitespace stripped; ``...`` lines are elisions.
The scripts run in parallel (they use their own temp dirs), so the whole page costs about as
much as its slowest step.

The excerpts show the stock template's output (workers ``docs_search``, ``analyst``,
``critic``). After a fork adds a worker (docs/extending.md), every script must still run and end
with a PASS verdict, but the excerpt check is skipped: its counts and rows describe three
workers.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.expected import is_stock_registry, not_stock_reason

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "walkthrough.md"
COMMAND = re.compile(r"^uv run python (scripts/[\w.-]+\.py)(.*)$")
SCRIPT_TIMEOUT = 300.0
"""Generous: step 7 runs the app six times, and the suite shares two cores with other tests."""


@dataclass(frozen=True)
class Step:
    number: int
    title: str
    commands: tuple[tuple[str, ...], ...]  # argv after the interpreter: ("scripts/x.py", ...)
    excerpt: tuple[str, ...]


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def parse_steps(text: str) -> list[Step]:
    """The steps of the page, in order."""
    parts = re.split(r"^## Step (\d+): (.*)$", text, flags=re.MULTILINE)
    steps = []
    for number, title, body in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        body = re.split(r"^## ", body, maxsplit=1, flags=re.MULTILINE)[0]  # up to the next section
        bash, excerpt = _blocks(body, "bash"), _blocks(body, "text")
        assert len(bash) == 1 and len(excerpt) == 1, (
            f"step {number} needs exactly one ```bash and one ```text block")
        commands = []
        for line in bash[0].splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            match = COMMAND.match(line)
            assert match, f"step {number}: not a `uv run python scripts/...` command: {line!r}"
            commands.append((match.group(1), *shlex.split(match.group(2))))
        lines = tuple(s.strip() for s in excerpt[0].splitlines() if s.strip() not in ("", "..."))
        steps.append(Step(int(number), title.strip(), tuple(commands), lines))
    return steps


STEPS = parse_steps(DOC.read_text("utf-8"))


def _run(argv: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=SCRIPT_TIMEOUT, check=False)


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def outputs() -> dict[tuple[str, ...], subprocess.CompletedProcess[str]]:
    """Every command of the page, run once (in parallel)."""
    commands = list(dict.fromkeys(c for step in STEPS for c in step.commands))
    with ThreadPoolExecutor(max_workers=min(4, len(commands))) as pool:
        return dict(zip(commands, pool.map(_run, commands), strict=True))


def test_the_page_covers_every_walkthrough_script_in_order():
    assert [s.number for s in STEPS] == list(range(1, len(STEPS) + 1))
    in_doc = [c[0] for s in STEPS for c in s.commands]
    on_disk = sorted(p.relative_to(ROOT).as_posix()
                     for p in (ROOT / "scripts").glob("walkthrough_*.py"))
    assert sorted(in_doc) == on_disk
    assert len(on_disk) == 10


def test_the_code_the_page_quotes_is_the_code():
    """Each ```python block of the page is a verbatim excerpt of a module of the app."""
    sources = "\n".join(p.read_text("utf-8") for folder in ("app", "workers", "state")
                        for p in sorted((ROOT / folder).rglob("*.py")))
    blocks = _blocks(DOC.read_text("utf-8"), "python")
    assert blocks, "the page quotes no code"
    for block in blocks:
        assert block in sources, (
            f"the page quotes code that is not in app/, workers/ or state/:\n{block}")


def test_the_readme_links_the_walkthrough():
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "[docs/walkthrough.md](docs/walkthrough.md)" in readme


def _shown(run: subprocess.CompletedProcess[str]) -> str:
    return f"\n--- stdout ---\n{run.stdout}\n--- stderr ---\n{run.stderr[-3000:]}"


def _lines(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line.strip() for line in run.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("step", STEPS, ids=[f"step{s.number}" for s in STEPS])
def test_step_runs_and_passes(step: Step, outputs):
    """Whatever workers are registered: exit 0 and exactly one verdict line, a PASS, last."""
    for command in step.commands:
        run = outputs[command]
        assert run.returncode == 0, f"{' '.join(command)} exited {run.returncode}{_shown(run)}"
        lines = _lines(run)
        assert lines and lines[-1].startswith("verdict: PASS - "), (
            f"{' '.join(command)} did not end with a PASS verdict{_shown(run)}")
        assert sum(line.startswith("verdict: ") for line in lines) == 1


@pytest.mark.skipif(not is_stock_registry(), reason=not_stock_reason("docs/walkthrough.md"))
@pytest.mark.parametrize("step", STEPS, ids=[f"step{s.number}" for s in STEPS])
def test_step_shows_its_excerpt(step: Step, outputs):
    for command in step.commands:
        run = outputs[command]
        shown, lines = _shown(run), _lines(run)
        missing = [line for line in step.excerpt if line not in set(lines)]
        assert not missing, (
            f"step {step.number} ({step.title}): the page shows lines the script does not "
            f"print: {missing}{shown}")
