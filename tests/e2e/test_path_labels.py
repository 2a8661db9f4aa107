"""A refused path names what set it: its flag when given, else its variable. The path checks
named the flag whatever set the path: ``RESEARCH_DATA_DIR`` set to a link to nothing was refused
as ``--data-dir X is a link to ...`` to a user who gave no ``--data-dir`` (found with the
siblings of the role-model line that named a variable a served client had not set, hostile
trial H's closing note). Through the CLI in subprocesses."""
from __future__ import annotations

from pathlib import Path

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli


def _error(proc) -> str:
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    (line,) = proc.stderr.strip().splitlines()
    return line


def test_a_data_dir_the_variable_set_is_refused_by_its_name(tmp_path: Path,
                                                             small_corpus: Path) -> None:
    dangling = tmp_path / "data"
    dangling.symlink_to(tmp_path / "nowhere")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    research = ("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus)
    line = _error(run_cli(*research, env={"RESEARCH_DATA_DIR": str(dangling)}))
    assert line.startswith(f"error: RESEARCH_DATA_DIR {dangling} is a link to "), line
    line = _error(run_cli("threads", env={"RESEARCH_DATA_DIR": str(loop / "x")}))
    assert line.startswith(f"error: RESEARCH_DATA_DIR {loop / 'x'}: a symbolic link"), line
    # the flag given wins over the variable, and is named
    line = _error(run_cli(*research, "--data-dir", dangling,
                          env={"RESEARCH_DATA_DIR": str(tmp_path / "other")}))
    assert line.startswith(f"error: --data-dir {dangling} is a link to "), line


def test_a_data_dir_the_env_file_set_is_refused_by_its_variable(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    (tmp_path / ".env").write_text(f"RESEARCH_DATA_DIR={loop}/x\n", encoding="utf-8")
    line = _error(run_cli("threads", cwd=tmp_path, env={"RESEARCH_DATA_DIR": None}))
    assert line.startswith(f"error: RESEARCH_DATA_DIR {loop}/x: a symbolic link"), line


def test_an_mcp_config_the_variable_set_is_refused_by_its_name(tmp_path: Path,
                                                                small_corpus: Path) -> None:
    # read when the run starts its MCP servers (app.graph.sources.start_mcp), past the checks
    missing = tmp_path / "mcp.json"
    research = ("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                "--data-dir", tmp_path / "data")
    line = _error(run_cli(*research, env={"RESEARCH_MCP_CONFIG": str(missing)}))
    assert line == f"error: RESEARCH_MCP_CONFIG {missing}: cannot read it (No such file or " \
                   "directory)", line
    line = _error(run_cli(*research, "--mcp-config", missing))
    assert line.startswith(f"error: --mcp-config {missing}: cannot read it"), line
