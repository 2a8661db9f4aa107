"""A tool's command documented as an entry whose heading writes its arguments without brackets
(BIND's rndc: ``flushname name [view]`` above "This command flushes the given name from the
view's DNS cache ..."): "What does rndc flushname do?" was answered by two release notes ("rndc
flushname did not work for name server names longer than 16 bytes. This has been fixed."),
for three reasons, each a kind: the entry's keyword was read as "flushname name", so the
question named no entry; a page titled "Release Notes" was no change log, its file being
``notes.html``; and neither the offline model nor the Answer took "flushname" for the name the
question asks after the tool's (trial 75)."""

from __future__ import annotations

from pathlib import Path

from tests.app.report_rows import first_answer
from workers.sources.rank_factors import change_log_factor


def _entry(command: str, args: str, text: str) -> str:
    return (f'<dl class="std option"><dt class="sig sig-object std" id="cmdoption-rndc-arg-'
            f'{command}"><span class="sig-name descname"><span class="pre">{command}</span>'
            f'</span><span class="sig-prename descclassname"> {args}</span></dt><dd><p>{text}'
            f'</p></dd></dl>\n')


MANPAGE = ("<html><head><title>Manual Pages — Quill 9 documentation</title></head><body>"
           "<h1>Manual Pages</h1><h2>qndc - name server control utility</h2><p>qndc controls "
           "the operation of a name server.</p>"
           + _entry("flush", "", "This command flushes all of the server's caches.")
           + _entry("flushname", "name [view]", "This command flushes the given name from the "
                    "view's DNS cache and, if applicable, from the view's address database.")
           + _entry("flushtree", "name [view]", "This command flushes the given name, and all "
                    "of its subdomains, from the view's DNS cache.")
           + "</body></html>")
NOTES = ("<html><head><title>Release Notes — Quill 9 documentation</title></head><body>"
         "<h1>Release Notes</h1><h2>Bug Fixes</h2><ul><li><p>Fix qndc flushname for longer "
         "name server names.</p><p>qndc flushname did not work for name server names longer "
         "than 16 bytes. This has been fixed.</p></li><li><p>qndc flushname now flushes the "
         "bad server cache too.</p></li></ul></body></html>")


def test_a_page_titled_as_release_notes_is_a_change_log() -> None:
    assert change_log_factor("notes.html", ["flushname"], "Release Notes — Quill 9") < 1
    assert change_log_factor("intro.html", ["proxy"], "History of proxies") == 1


def test_the_commands_entry_answers_not_the_release_notes(tmp_path: Path) -> None:
    report, first = first_answer(tmp_path, {"manpages.html": MANPAGE, "notes.html": NOTES},
                                 "What does qndc flushname do?")
    assert "This command flushes the given name from the view's DNS cache" in first, report
