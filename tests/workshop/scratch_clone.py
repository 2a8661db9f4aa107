"""A scratch copy of the repository, for tests that apply a docs/extending.md recipe to it.

A recipe is proven by doing it: apply its edits to a copy (never to the checkout under test),
check which files changed, and run tests in the copy with the same interpreter, so the copy's
``state``, ``workers`` and ``app`` are the ones imported.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FORK_HINT = ("docs/extending.md shows this recipe against the template's code. In the template "
             "this failure means the page drifted: fix the page. In a fork whose code around "
             "these lines changed (or that already applied the recipe), update the page's "
             "example to your code, or delete this test.")
"""Said by every recipe test whose recipe no longer fits the tree it runs in."""


def repo_files(root: Path = ROOT) -> list[str]:
    """The files git would put in a commit of the working tree: tracked and untracked, minus
    what ``.gitignore`` excludes and what was deleted."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, check=True,
    ).stdout.decode("utf-8", "surrogateescape")
    return sorted({name for name in out.split("\0") if name and (root / name).is_file()})


def scratch_clone(dest: Path, root: Path = ROOT) -> Path:
    """Copy the repository's files into ``dest`` (created) and return it."""
    for name in repo_files(root):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)
    return dest


def changed_files(clone: Path, root: Path = ROOT) -> set[str]:
    """Files of ``clone`` that differ from ``root`` (added, removed or edited)."""
    here, there = set(repo_files(root)), {
        str(p.relative_to(clone)) for p in clone.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts
    }
    return (here ^ there) | {
        name for name in here & there if not filecmp.cmp(root / name, clone / name, shallow=False)
    }


EXTENDING = ROOT / "docs" / "extending.md"


def recipe_section(heading: str) -> str:
    """The text of the ``## {heading}`` section of docs/extending.md, up to the next one."""
    text = EXTENDING.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text,
                      re.DOTALL | re.MULTILINE)
    assert match, f"docs/extending.md has no '## {heading}' section"
    return match.group(1)


def recipe_diffs(section: str) -> tuple[list[str], set[str]]:
    """The section's ```diff blocks, and the files its "this recipe touches A, B, nothing
    else" sentence names."""
    diffs = re.findall(r"^```diff\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert diffs, "the recipe shows no ```diff block"
    named = re.search(r"[Tt]his recipe touches (.*?), nothing else", " ".join(section.split()))
    assert named, "the recipe should say which files it touches"
    return diffs, set(re.findall(r"`([^`]+)`", named.group(1)))


def apply_diffs(clone: Path, diffs: list[str]) -> None:
    """``git apply`` each diff in ``clone``; fail with :data:`FORK_HINT` when one does not fit."""
    for diff in diffs:
        applied = git_apply(clone, diff)
        assert applied.returncode == 0, (f"the page's diff no longer applies:\n"
                                         f"{applied.stderr}\n{FORK_HINT}")


def diff_files(diff: str) -> set[str]:
    """The files a unified diff edits (its ``+++ b/PATH`` lines)."""
    return set(re.findall(r"^\+\+\+ b/(\S+)", diff, re.MULTILINE))


def git_apply(clone: Path, diff: str) -> subprocess.CompletedProcess[str]:
    """``git apply`` a unified diff inside ``clone`` (a plain folder: no repository needed)."""
    return subprocess.run(["git", "apply", "--verbose", "-"], cwd=clone, input=diff,
                          capture_output=True, text=True)


def run_pytest(clone: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run pytest inside ``clone`` with this interpreter, the clone first on ``sys.path``."""
    env = {**os.environ, "PYTHONPATH": str(clone)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the copy's own bytecode, compiled once per copy
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-n0", "-p", "no:cacheprovider", *args],
        cwd=clone, env=env, capture_output=True, text=True, timeout=timeout,
    )


def apply_recipe(heading: str, dest: Path, *, regenerates_readme: bool) -> Path:
    """Apply the ``## {heading}`` recipe of docs/extending.md to a scratch copy at ``dest``, as
    the page says (its diffs, then ``scripts/update_readme.py`` when ``regenerates_readme``),
    and check that exactly the files the page names changed. Returns the copy."""
    section = recipe_section(heading)
    diffs, promised = recipe_diffs(section)
    touched = set().union(*map(diff_files, diffs))
    if regenerates_readme:
        assert "scripts/update_readme.py" in section
        touched |= {"README.md"}
    assert promised == touched, (promised, touched)
    clone = scratch_clone(dest)
    apply_diffs(clone, diffs)
    if regenerates_readme:
        readme = subprocess.run([sys.executable, "scripts/update_readme.py"], cwd=clone,
                                env={**os.environ, "PYTHONPATH": str(clone)},
                                capture_output=True, text=True, timeout=300)
        assert readme.returncode == 0, readme.stderr
    assert changed_files(clone) == promised
    return clone
