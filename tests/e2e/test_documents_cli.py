"""``research --corpus DIR`` over PDFs and .docx files: the report cites file and page, and a
PDF that cannot be read is a note in the report and the summary, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from tests.workers.sources.documents_helpers import encrypt_pdf, make_docx, make_pdf

TOPIC = "heron census"


def test_pdf_and_docx_folder_is_researched_and_cited(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "survey.pdf").write_bytes(make_pdf([
        "Introduction\nThis survey covers the river birds of the valley.",
        "The heron census is taken every spring by volunteers who count nests along the river.",
    ]))
    make_docx(docs / "methods.docx", ["Methods", "Each heron census team walks one mile of bank "
                                      "and records every occupied nest it sees."])
    (docs / "locked.pdf").write_bytes(encrypt_pdf(make_pdf(["Heron secrets."]), "pw"))
    (docs / "broken.pdf").write_bytes(b"%PDF-1.7\nnot really")

    proc = run_cli("research", TOPIC, "--as-of", AS_OF, "--corpus", docs,
                   "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"]
    assert "locked.pdf: skipped, encrypted (needs a password)" in summary["notes"]
    assert any(n.startswith("broken.pdf: skipped") for n in summary["notes"])

    report = Path(summary["report_path"]).read_text("utf-8")
    sources = report.split("## Sources", 1)[1]
    assert "`survey.pdf:p2`: survey.pdf, page 2\n   - passages: `survey.pdf:p2#0`" in sources
    # titled by its file name alone: listed once, not "`methods.docx`: methods.docx" (5749e38)
    assert "`methods.docx`\n   - passages: `methods.docx#0`" in sources, sources
    assert "locked.pdf" not in sources and "Heron secrets" not in report
    assert "locked.pdf: skipped, encrypted (needs a password)" in report.split("## Notes", 1)[1]
