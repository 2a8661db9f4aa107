"""A note for the environment that compiles its libraries in every run.

Where ``PYTHONDONTWRITEBYTECODE`` is set (some containers and CI images set it) Python writes
no ``.pyc`` files, and ``uv sync`` writes none by default, so every run compiles LangGraph's and
LangChain's ~800 modules from source: about 10 s of a run on a loaded 2-core machine, before its
first line (trial 125, F7). ``uv sync --compile-bytecode`` once writes them, whatever the
variable says, and later ``uv run``s leave them in place (as ``.ci/run`` does). Setting
``compile-bytecode`` in ``pyproject.toml`` instead would compile the whole environment again at
every ``uv run`` (uv issue 12202).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

__all__ = ["PROBE", "uncompiled_note"]

PROBE = "langchain_core"
"""A library every run imports; its package's bytecode stands for the environment's."""


def uncompiled_note(writes_bytecode: bool | None = None, probe: str = PROBE) -> str | None:
    """One line advising ``uv sync --compile-bytecode``, or None: Python writes bytecode
    (``writes_bytecode``, default ``not sys.flags.dont_write_bytecode``), or ``probe``'s
    ``__init__`` already has its ``.pyc``, or ``probe`` is not installed. Looks the package up
    without importing it.

    Example:
        >>> uncompiled_note(writes_bytecode=True) is None
        True
    """
    if writes_bytecode is None:
        writes_bytecode = not sys.flags.dont_write_bytecode
    if writes_bytecode:
        return None
    spec = importlib.util.find_spec(probe)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    try:
        cached = importlib.util.cache_from_source(spec.origin)
    except NotImplementedError:  # no bytecode caching in this interpreter
        return None
    if Path(cached).is_file():
        return None
    return ("note: Python writes no bytecode here (PYTHONDONTWRITEBYTECODE) and the environment "
            "has none, so every run compiles LangGraph and LangChain anew (seconds): run "
            "`uv sync --compile-bytecode` once")
