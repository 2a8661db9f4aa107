"""Trial 125, F7: where PYTHONDONTWRITEBYTECODE is set and the environment holds no bytecode,
every run compiled LangGraph and LangChain anew (10-45 s before its first line) and nothing
said why; a run now says, once per run, how to compile them once."""
from __future__ import annotations

import py_compile
import subprocess
import sys

from app.cli.bytecode import uncompiled_note


def _package(tmp_path, monkeypatch, name: str) -> str:
    package = tmp_path / name
    package.mkdir()
    (init := package / "__init__.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return str(init)


def test_an_environment_without_bytecode_is_told_how_to_compile_it(tmp_path, monkeypatch):
    init = _package(tmp_path, monkeypatch, "uncompiled_probe_pkg")
    note = uncompiled_note(writes_bytecode=False, probe="uncompiled_probe_pkg")
    assert note and "PYTHONDONTWRITEBYTECODE" in note and "uv sync --compile-bytecode" in note
    py_compile.compile(init)  # what `uv sync --compile-bytecode` writes
    assert uncompiled_note(writes_bytecode=False, probe="uncompiled_probe_pkg") is None


def test_no_note_where_python_writes_bytecode_or_the_library_is_missing(tmp_path, monkeypatch):
    _package(tmp_path, monkeypatch, "uncompiled_probe_pkg2")
    assert uncompiled_note(writes_bytecode=True, probe="uncompiled_probe_pkg2") is None
    assert uncompiled_note(writes_bytecode=False, probe="no_such_package_here") is None


def test_the_flag_is_read_from_the_interpreter():
    # -B is PYTHONDONTWRITEBYTECODE's flag; a probe with no bytecode is the package just made
    code = ("import sys, tempfile, pathlib; d = tempfile.mkdtemp(); "
            "p = pathlib.Path(d, 'probe_b_pkg'); p.mkdir(); (p / '__init__.py').write_text(''); "
            "sys.path.insert(0, d); from app.cli.bytecode import uncompiled_note; "
            "print(uncompiled_note(probe='probe_b_pkg') is not None)")
    flagged = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True, text=True,
                             check=True)
    assert flagged.stdout.strip() == "True", flagged.stderr
