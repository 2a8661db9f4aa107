"""The report's folder replaced by a file mid-run: one line saying which file, and that nothing
was lost (hostile trial H, F3).

Found through the CLI: ``research TOPIC`` (or with ``--out DIR/``) whose ``reports/`` folder
(or ``DIR``) was removed and a file made in its place while the workers ran ended, after
"persisted 3 envelope(s)", in ``error: run failed: FileExistsError: [Errno 17] refusing to
overwrite the report's path: it cannot be read (Not a directory): '.../x.md'``: a Python
exception's words, "overwrite" where nothing was there, and no word that the rows were saved.
The next run's refusal said ``reports is not writable (read-only or no permission)`` of a file.
Here the folder is replaced inside the run (as the report is rendered, before it is written),
in process, deterministically.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.results_db import db_rows


def _replace_folder_on_render(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make ``folder`` a file as the report node renders the report (after ``persist``)."""
    import shutil

    import app.graph.nodes.report as node

    render = node.render_markdown

    def render_then_replace(*args: object, **kwargs: object) -> str:
        shutil.rmtree(folder, ignore_errors=True)
        folder.write_text("not a folder\n", encoding="utf-8")
        return render(*args, **kwargs)

    monkeypatch.setattr(node, "render_markdown", render_then_replace)


@pytest.mark.parametrize("out", [None, "elsewhere/"])
def test_a_report_folder_replaced_by_a_file_mid_run_is_said_in_one_line(
        out: str | None, tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main
    from app.runs.ids import default_thread_id

    data = tmp_path / "data"
    folder = tmp_path / out.rstrip("/") if out else data / "reports"
    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
            "--data-dir", str(data), *(["--out", f"{tmp_path}/{out}"] if out else [])]
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    with monkeypatch.context() as patch:
        _replace_folder_on_render(patch, folder)
        assert main(args) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == (f"error: the report could not be written to {folder / thread}.md ({folder} "
                    "is a file, not a folder); nothing was lost: the results are saved, and "
                    "the same command writes the report once its folder takes files"), line
    rows = db_rows(data, thread)
    assert rows and all(r["status"] == "ok" for r in rows)

    if out is None:  # the next run names the file before anything runs
        assert main(args) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line == (f"error: {folder} is a file, not a folder: a run saves into it; move "
                        "the file aside")
    folder.unlink()
    assert main(args) == 0
    assert (folder / f"{thread}.md").is_file()
    assert db_rows(data, thread) == rows or len(db_rows(data, thread)) == len(rows)
