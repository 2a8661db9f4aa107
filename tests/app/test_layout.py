"""``app/`` is grouped by role, and the roles import downwards only (docs/architecture.md,
"Layout and import rules"): the domain and the services below it never reach up into the wiring
that composes them, so a reader finds each concern in one guess and can lift a layer out.

* ``app.settings``, ``app.storage``, ``app.llm`` and ``app.research`` import none of
  ``app.graph``, ``app.server``, ``app.cli``;
* ``app.graph`` and ``app.runs`` import neither ``app.server`` nor ``app.cli``;
* a wait or gate is imported from the module that defines it (``workers.waits``,
  ``workers.pacing``, ``app.llm.provider``: none re-exports another's), never a private name.

Every import counts, those inside functions included (parsed, not run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UPPER = {"graph", "server", "cli"}
RULES = {
    "settings": UPPER, "storage": UPPER, "llm": UPPER, "research": UPPER,
    "graph": {"server", "cli"}, "runs": {"server", "cli"},
}


def _imports(path: Path) -> set[str]:
    """The ``app.X`` packages a module imports (X only)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module
                 else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        found |= {n.split(".")[1] for n in names if n.startswith("app.") and n.count(".") >= 1}
    return found


@pytest.mark.parametrize("package", sorted(RULES))
def test_a_role_never_imports_the_roles_that_compose_it(package: str) -> None:
    modules = sorted((ROOT / "app" / package).rglob("*.py"))
    assert modules, f"app/{package}/ is gone: update docs/architecture.md and this test"
    wrong = {str(m.relative_to(ROOT)): sorted(_imports(m) & RULES[package]) for m in modules}
    assert not {m: w for m, w in wrong.items() if w}, f"app/{package} reaches up into {wrong}"


def test_every_module_of_app_belongs_to_a_role() -> None:
    loose = sorted(p.name for p in (ROOT / "app").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "errors.py"], loose


def test_no_node_reads_the_run_context_without_the_operators_defaults() -> None:
    # Trial 38, problem 1: ``runtime.context`` is what the client sent over the *declared*
    # defaults (rounds=2 while the operator set RESEARCH_ROUNDS=4); a node reads its choices
    # with ``res.context(runtime)`` (app.graph.resources.Resources.context). The CLI always
    # sends a full context, so only LangGraph Server would show the mistake.
    reads = []
    for path in sorted((ROOT / "app" / "graph" / "nodes").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr == "context"
                    and isinstance(node.value, ast.Name) and node.value.id == "runtime"):
                reads.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not reads, f"read the run's choices with res.context(runtime): {reads}"


def test_each_wait_and_gate_is_imported_from_the_module_that_defines_it() -> None:
    # Review 47, finding 8: workers.pacing re-exported every stop-aware wait of workers.waits
    # (its private _SLICE included) and app.llm.provider re-exported pacing, so one function
    # came from two or three modules and a reader could not tell which one owned it.
    import app.llm.provider
    import workers.pacing
    import workers.waits

    owners = {"workers.pacing": workers.pacing, "workers.waits": workers.waits,
              "app.llm.provider": app.llm.provider}
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        if {".venv", ".git"} & set(path.relative_to(ROOT).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module in owners):
                continue
            for alias in node.names:
                defined = getattr(getattr(owners[node.module], alias.name, None), "__module__",
                                  node.module)
                if alias.name.startswith("_") or defined != node.module:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {alias.name} from "
                                 f"{node.module} (defined in {defined})")
    assert not wrong, wrong
