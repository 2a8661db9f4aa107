"""Every worker's items pass one ref check, in the node wrapper: an item whose ``ref`` names no
passage the run's sources know is dropped, counted in its row's ``dropped_unsourced`` and named
in a run note, never cited as a source (trial 21, finding 14: a plain-function worker's
``"ref": "nowhere#0"`` was listed in Sources as "4. `nowhere`: ...", exit 0, ``errors: 0``; so was
the forker's slip ``"ref": passage.doc_id``).

The worker is registered in the test (``workers.registry.WORKERS`` patched where the run reads
it) and the CLI runs in-process on the small corpus.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.storage.sqlite import SqliteResults
from state import Task
from tests.app.report_rows import listed_refs
from tests.conftest import AS_OF, SMALL_TOPIC
from workers.base import WorkerDeps, WorkerResult, WorkerSpec

GOOD = "The cited claim of the citer worker."
NOWHERE = "A claim citing nowhere, which the report must not show."
DOC_ID = "A claim citing a doc_id, which the report must not show."


def _citer(deps: WorkerDeps):
    """One item citing the top passage's ref, one ``nowhere#0``, one the passage's doc_id."""

    def run(task: Task) -> WorkerResult:
        top = deps.corpus.search(task["sub_question"], k=1)[0]
        cited = {"kind": "finding", "title": top.title, "source": top.source}
        return WorkerResult(items=[{**cited, "text": GOOD, "ref": top.ref},
                                   {**cited, "text": NOWHERE, "ref": "nowhere#0"},
                                   {**cited, "text": DOC_ID, "ref": top.doc_id}])

    return run


CITER = WorkerSpec(name="citer", kind="function", description="cites three refs", build=_citer)


def test_items_citing_unknown_refs_are_dropped_counted_and_noted(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    import workers.registry
    from app.cli import main

    monkeypatch.setattr(workers.registry, "WORKERS", (*workers.registry.WORKERS, CITER))
    data = tmp_path / "data"
    code = main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(data)])
    out = capsys.readouterr().out
    assert code == 0, out  # the good claims stand: the run is not a failure

    with SqliteResults.in_dir(data) as store:
        rows = store.rows()
    mine = [r for r in rows if r["worker"] == "citer"]
    assert mine and all(r["status"] == "ok" for r in mine)
    for row in mine:
        top = row["structured"]["items"]
        assert [i["text"] for i in top] == [GOOD]  # the two unknown refs dropped
        assert row["structured"]["dropped_unsourced"] == 2
    cited = {i["ref"] for r in rows if r["status"] == "ok" for i in r["structured"]["items"]}
    assert "nowhere#0" not in cited and all("#" in ref for ref in cited)

    report = Path(re.search(r"report written: (\S+)", out)[1]).read_text("utf-8")
    assert GOOD in report
    assert NOWHERE not in report and DOC_ID not in report
    sources = report.split("\n## Sources\n", 1)[1]
    assert "nowhere" not in sources
    # every passage Sources lists is a ref (doc#n), never a bare doc_id
    listed = [ref for line in sources.splitlines() if line.strip().startswith("- passages:")
              for ref in listed_refs(line)]
    assert listed and all("#" in ref for ref in listed), sources
    # the run says so, naming the worker and the refs
    notes = [line for line in out.splitlines() if line.strip().startswith("note:")]
    assert any("citer" in n and "'nowhere#0'" in n and "'zorblax.md'" in n for n in notes), out
    assert "'nowhere#0'" in report.split("\n## Notes\n", 1)[1]
