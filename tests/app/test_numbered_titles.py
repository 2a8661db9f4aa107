"""A page titled by what the question asks about is the thing's own entry, its numbering aside:
Exim's "Chapter 16 - The accept router" ranked first for "What does the accept router do?",
but "Chapter 16" kept its title from naming the router alone, and the report cited only the
chapter on routing that mentions an accept return (trial 73, F3)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli

OWN = ("<html><head><title>Chapter 16 - The quill router</title></head><body>"
       "<h1>Chapter 16 - The quill router</h1><p>The quill router has no private options of "
       "its own. A transport is required to be defined by the generic transport option. The "
       "most common use of this driver is for setting up deliveries to local mailboxes. For "
       "example:</p><pre>localusers:\n  driver = quill\n  transport = local_delivery</pre>"
       "<p>The domains condition in this example checks the domain of the address.</p>"
       "</body></html>")
ROUTING = ("<html><head><title>Chapter 3 - How mail is routed</title></head><body>"
           "<h1>Chapter 3 - How mail is routed</h1><h2>10. Running an individual router</h2>"
           "<p>A router returns one of these:</p><dl><dt>quill</dt><dd><p>The router quills "
           "the address, and either assigns it to a transport or generates new addresses. "
           "Processing the original address ceases unless the unseen option is set on the "
           "router. When unseen is set, the address is passed to the next router. Normally, "
           "however, a quill return marks the end of routing.</p></dd><dt>decline</dt><dd><p>"
           "The router declines the address, which is passed to the next router.</p></dd></dl>"
           "</body></html>")


def test_the_chapter_titled_by_the_thing_is_cited_first(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "ch-the_quill_router.html").write_text(OWN, encoding="utf-8")
    (folder / "ch-how_mail_is_routed.html").write_text(ROUTING, encoding="utf-8")
    for i in range(4):
        (folder / f"ch-other{i}.html").write_text(
            f"<html><head><title>Chapter {5 + i} - Logging {i}</title></head><body><p>Log "
            f"lines of kind {i} are written to the main log.</p></body></html>", encoding="utf-8")
    proc = run_cli("research", "What does the quill router do?", "--as-of", AS_OF, "--corpus",
                   folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    sources = report.split("## Sources\n", 1)[1]
    assert sources.lstrip().startswith("1. `ch-the_quill_router.html`"), report
