"""What a ``--corpus`` folder walk leaves out or follows (:mod:`workers.sources.walk`): the app's
own output (its data dir, its reports) is never a source; a symlinked sub-folder is followed
once; every folder or file left out is named in the notes, also when the index is reused."""
from __future__ import annotations

import shutil
from pathlib import Path

from app.research.report import ReportInput, render_markdown
from workers.sources import Corpus
from workers.sources.walk import is_own_report

HERON = "Heron census methods count nesting pairs at colonies each spring.\n"


def _indexed(tmp_path: Path, folder: Path, query: str) -> tuple[list[str], list[str]]:
    """The documents a search of ``folder``'s corpus finds for ``query``, and its notes."""
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        return sorted({p.doc_id for p in corpus.search(query, k=10)}), corpus.notes


def _report(topic: str = "heron census", replaced: bool = False) -> str:
    return render_markdown(ReportInput(
        topic=topic, as_of="2026-11-30", model_label="offline", thread_id="heron-census-x",
        sub_questions=[f"What is {topic}?"], rows=[],
        planned=["What do herons eat?"] if replaced else None))


def test_a_report_of_the_app_is_recognised_by_its_head_not_its_name(tmp_path: Path) -> None:
    (tmp_path / "mine.md").write_text(_report(), encoding="utf-8")
    (tmp_path / "theirs.md").write_text("# Research report: herons\n\nMy own notes.\n", "utf-8")
    assert is_own_report(tmp_path / "mine.md")
    assert not is_own_report(tmp_path / "theirs.md")  # a user's file of the same title
    # a report on a plan replaced at review has a Topic line first: it was not recognised, so
    # it was indexed as a source, and --out refused to write it again
    replaced = tmp_path / "replaced.md"
    replaced.write_text(_report(replaced=True), encoding="utf-8")
    assert "\n- Topic: heron census" in replaced.read_text(encoding="utf-8")
    assert is_own_report(replaced)


def test_a_report_in_the_corpus_folder_is_skipped_and_named(tmp_path: Path) -> None:
    # Issue 21 (trial 6, finding 7): with --out inside --corpus the next run indexed the
    # previous report and cited it as its source 1.
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "herons.md").write_text(HERON, encoding="utf-8")
    (papers / "heron-census-x.md").write_text(_report(), encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=papers) as corpus:
        assert {p.doc_id for p in corpus.search("heron census", k=10)} == {"herons.md"}
        assert corpus.notes == [
            "heron-census-x.md: skipped, a report of this app (it would cite itself)"]


def test_the_data_dir_inside_the_corpus_folder_is_skipped_and_named(tmp_path: Path) -> None:
    (tmp_path / "herons.md").write_text(HERON, encoding="utf-8")
    data = tmp_path / "data"
    (data / "notes").mkdir(parents=True)
    (data / "notes" / "kept.md").write_text("Heron census kept here.\n", encoding="utf-8")
    with Corpus.open(data, folder=tmp_path) as corpus:
        assert {p.doc_id for p in corpus.search("heron census", k=10)} == {"herons.md"}
        assert corpus.notes == ["data/: skipped, the data dir of this app (its reports and "
                                "indexes are not sources)"]


def test_a_symlinked_folder_is_followed_once_and_links_back_in_are_named(
        tmp_path: Path) -> None:
    # Issue 21 (trial 6, finding 8): a symlinked sub-folder was skipped without a note.
    outside, papers = tmp_path / "outside", tmp_path / "papers"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "linked.md").write_text("Heron census from a linked folder.\n", "utf-8")
    (papers / "real").mkdir(parents=True)
    (papers / "real" / "plain.md").write_text(HERON, encoding="utf-8")
    (papers / "linkdir").symlink_to(outside / "sub")
    (papers / "again").symlink_to(outside / "sub")  # a second link to the same folder
    (papers / "inside").symlink_to(papers / "real")  # back into the corpus
    (outside / "sub" / "loop").symlink_to(outside)  # a loop through the followed folder
    with Corpus.open(tmp_path / "data", folder=papers) as corpus:
        found = {p.doc_id for p in corpus.search("heron census", k=10)}
        assert found == {"again/linked.md", "real/plain.md"}, found
        already = "skipped, a link to a folder indexed already (a loop, or a second link to it)"
        assert corpus.notes == [  # in walk order; a link leading out is followed and named
            f"again/: a link to {outside / 'sub'}, outside the folder: followed",
            "inside/: skipped, a link to real/, a folder of the corpus, indexed under its own "
            "path",
            f"linkdir/: {already}", f"again/loop/: {already}"]


def test_the_notes_of_a_reused_index_name_what_is_skipped_now(tmp_path: Path) -> None:
    # A file skipped before reading changes no fingerprint: the reused index kept the notes of
    # its build, so the report written into the folder since went unnamed.
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "herons.md").write_text(HERON, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=papers) as first:
        assert first.built and first.notes == []
    (papers / "report.md").write_text(_report(), encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=papers) as second:
        assert not second.built and second.fingerprint == first.fingerprint
        assert second.notes == ["report.md: skipped, a report of this app (it would cite itself)"]


def test_a_file_reached_by_two_names_is_indexed_once_under_its_own(tmp_path: Path) -> None:
    # Trial 7: a symlinked file pointing at another file of the corpus was indexed twice (two
    # refs, the same text); a hard link is the same file too.
    papers = tmp_path / "papers"
    (papers / "sub").mkdir(parents=True)
    (papers / "sub" / "herons.md").write_text(HERON, encoding="utf-8")
    (papers / "a-link.md").symlink_to(papers / "sub" / "herons.md")  # sorts before its target
    (papers / "z-hard.md").hardlink_to(papers / "sub" / "herons.md")
    outside = tmp_path / "outside.md"
    outside.write_text("Heron census from a file outside the corpus.\n", encoding="utf-8")
    (papers / "out-1.md").symlink_to(outside)
    (papers / "out-2.md").symlink_to(outside)  # two links to one file outside: one is kept
    found, notes = _indexed(tmp_path, papers, "heron census")
    assert found == ["out-1.md", "sub/herons.md"], found
    assert notes == [
        "a-link.md: skipped, the same file as sub/herons.md (a link to it), indexed once",
        "z-hard.md: skipped, the same file as sub/herons.md (a link to it), indexed once",
        "out-2.md: skipped, the same file as out-1.md (a link to it), indexed once",
        # trial 10: links to /etc/passwd and /etc/shadow were indexed without a word
        f"out-1.md: a link to {outside}, outside the folder: indexed"]


def test_a_run_log_in_the_corpus_folder_is_skipped_and_named(tmp_path: Path) -> None:
    # Trial 7: ``--run-log`` inside the corpus folder was indexed by the next run.
    from app.runs.faults import FaultPlan
    from state import make_envelope_id

    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "herons.md").write_text(HERON, encoding="utf-8")
    plan = FaultPlan(run_log=papers / "run-log.txt")
    for worker in ("docs_search", "analyst"):  # as a run writes it
        plan.on_done(None, {"envelope_id": make_envelope_id(worker, "heron census?",
                                                            "2026-11-30"),
                            "attempts": 1, "status": "ok"})
    assert "docs_search:2026-11-30:" in (papers / "run-log.txt").read_text("utf-8")
    with Corpus.open(tmp_path / "data", folder=papers) as corpus:
        assert {p.doc_id for p in corpus.search("docs_search analyst ok", k=10)} <= {
            "herons.md"}
        assert corpus.notes == ["run-log.txt: skipped, a run log of this app (--run-log)"]


def test_a_page_and_its_markup_source_are_indexed_once_as_the_page(tmp_path: Path) -> None:
    # Trial 26, finding 7: git-doc ships git-rebase.html beside its AsciiDoc git-rebase.txt;
    # both were indexed, cited as two sources, each sentence said twice, AsciiDoc markup quoted.
    docs = tmp_path / "docs"
    (docs / "_sources").mkdir(parents=True)
    page = "<html><head><title>{t}</title></head><body><h1>{t}</h1><p>{p}</p></body></html>"
    (docs / "heron-census.html").write_text(page.format(t="Heron census", p=HERON), "utf-8")
    (docs / "heron-census.txt").write_text(f"heron-census(1)\n===\n\n{HERON}linkgit:x[1]\n",
                                           encoding="utf-8")
    (docs / "colonies.htm").write_text(page.format(t="Colonies", p=HERON), encoding="utf-8")
    (docs / "_sources" / "colonies.rst.txt").write_text(f"Colonies\n===\n\n{HERON}", "utf-8")
    (docs / "census-notes.txt").write_text(f"Field notes. {HERON}", encoding="utf-8")  # no page
    # trial 63, F1: Sphinx keeps a subfolder's sources under the top _sources/ (CMake's 1,933)
    (docs / "guide").mkdir()
    (docs / "_sources" / "guide").mkdir()
    (docs / "guide" / "rookery.html").write_text(page.format(t="Rookery", p=HERON), "utf-8")
    (docs / "_sources" / "guide" / "rookery.rst.txt").write_text(f"Rookery\n===\n\n{HERON}",
                                                                  "utf-8")
    found, notes = _indexed(tmp_path, docs, "heron census nesting pairs")
    assert found == ["census-notes.txt", "colonies.htm", "guide/rookery.html",
                     "heron-census.html"], found
    assert notes == [
        "_sources/colonies.rst.txt: skipped, the source of a page indexed (colonies.htm)",
        "_sources/guide/rookery.rst.txt: skipped, the source of a page indexed "
        "(guide/rookery.html)",
        "heron-census.txt: skipped, the source of a page indexed (heron-census.html)"]


def test_a_text_file_beside_a_page_that_does_not_hold_its_text_is_indexed(tmp_path: Path) -> None:
    # Trial 27: release notes in redirect.txt beside a redirect.html that only redirects were
    # skipped as its source, and _sources/v1.2.txt was taken for the source of v1.html
    docs = tmp_path / "docs"
    (docs / "_sources").mkdir(parents=True)
    (docs / "redirect.html").write_text(
        '<html><head><meta http-equiv="refresh" content="0; url=new.html"></head></html>',
        encoding="utf-8")
    (docs / "redirect.txt").write_text(f"Release notes. {HERON}", encoding="utf-8")
    (docs / "v1.html").write_text("<html><body><p>Version one of the egret guide.</p></body>"
                                  "</html>", encoding="utf-8")
    (docs / "_sources" / "v1.2.txt").write_text(f"Version 1.2 notes. {HERON}", "utf-8")
    with Corpus.open(tmp_path / "data", folder=docs) as corpus:
        found = sorted({p.doc_id for p in corpus.search("heron census nesting pairs", k=10)})
        assert found == ["_sources/v1.2.txt", "redirect.txt"], found
        assert not any("source of a page" in note for note in corpus.notes), corpus.notes


def test_a_fragment_a_page_source_includes_is_indexed_as_that_page(tmp_path: Path) -> None:
    # Trial 53, A3: git-doc ships AsciiDoc fragments (pretty-formats.txt, cmds-*.txt) that the
    # pages' sources include; indexed alone, their raw markup was cited in place of the page
    docs = tmp_path / "docs"
    (docs / "config").mkdir(parents=True)
    page = "<html><head><title>{t}</title></head><body><h1>{t}</h1><p>{p}</p></body></html>"
    formats = "'%Cred':: switch colour to red when a heron census is printed"
    (docs / "heron-log.html").write_text(page.format(t="heron-log", p=f"{HERON} {formats}"),
                                         encoding="utf-8")
    (docs / "heron-log.txt").write_text(
        f"heron-log(1)\n===\n\n{HERON}\ninclude::census-formats.txt[]\n"
        "include::config/colours.txt[]\ninclude::{build_dir}/x.txt[]\n", encoding="utf-8")
    (docs / "census-formats.txt").write_text(f"{formats}\ninclude::nested.txt[]\n", "utf-8")
    (docs / "nested.txt").write_text("'%Cblue':: switch colour to blue for a heron census\n",
                                     encoding="utf-8")
    (docs / "config" / "colours.txt").write_text("census.colour:: heron census colours\n",
                                                 encoding="utf-8")
    (docs / "census-design.txt").write_text(f"How the heron census is kept. {HERON}", "utf-8")
    found, notes = _indexed(tmp_path, docs, "heron census colour")
    assert found == ["census-design.txt", "heron-log.html"], found
    assert notes == [
        "heron-log.txt: skipped, the source of a page indexed (heron-log.html)",
        "census-formats.txt: skipped, included in a page indexed (heron-log.html)",
        "config/colours.txt: skipped, included in a page indexed (heron-log.html)",
        "nested.txt: skipped, included in a page indexed (heron-log.html)"]


def test_a_page_and_a_fragment_included_in_part_stay(tmp_path: Path) -> None:
    # Trial 56, F6 and F7: a file included in part ([lines=1..4]) was left out whole, and a
    # source that includes its own page left the page out
    docs = tmp_path / "docs"
    docs.mkdir()
    page = "<html><head><title>{t}</title></head><body><h1>{t}</h1><p>{p}</p></body></html>"
    (docs / "census.html").write_text(page.format(t="census", p=HERON), encoding="utf-8")
    (docs / "census.txt").write_text(f"census(1)\n===\n\n{HERON}\ninclude::census.html[]\n"
                                     "include::colours.txt[lines=1..2]\n", encoding="utf-8")
    (docs / "colours.txt").write_text("Herons are grey.\nEgrets are white.\n\nThe census "
                                      "colour of a heron nest is blue.\n", encoding="utf-8")
    found, notes = _indexed(tmp_path, docs, "heron census colour nest")
    assert found == ["census.html", "colours.txt"], found
    assert notes == ["census.txt: skipped, the source of a page indexed (census.html)"]


def test_a_sphinx_sites_own_pages_are_not_indexed(tmp_path: Path) -> None:
    # trial 68, F6: Flask's 404.html ("The page you requested does not exist.") was a finding
    # of a question on custom error pages; search.html and the indexes say nothing either
    docs = tmp_path / "docs"
    docs.mkdir()
    page = "<html><head><title>{t}</title></head><body><h1>{t}</h1><p>{p}</p></body></html>"
    (docs / "errorhandling.html").write_text(page.format(t="Error handling", p=HERON), "utf-8")
    for name, text in (("404.html", "The page you requested does not exist. " + HERON),
                       ("search.html", "Searching for multiple words. " + HERON),
                       ("genindex.html", "heron census (in module census). " + HERON)):
        (docs / name).write_text(page.format(t=name, p=text), encoding="utf-8")
    plain = tmp_path / "plain"  # no Sphinx build: a page named search.html is a page
    shutil.copytree(docs, plain)
    (docs / "searchindex.js").write_text("Search.setIndex({})", encoding="utf-8")
    found, notes = _indexed(tmp_path, docs, "heron census nesting pairs")
    assert found == ["errorhandling.html"], found
    assert notes[-1] == ("404.html, genindex.html, search.html: skipped, pages the site's "
                         "generator made for itself (search, indexes, page not found, site "
                         "map)"), notes
    found, _ = _indexed(tmp_path / "other", plain, "heron census nesting pairs")
    assert found == ["404.html", "errorhandling.html", "genindex.html", "search.html"], found


def test_a_sphinx_sites_highlighted_module_source_is_not_indexed(tmp_path: Path) -> None:
    # trial 89, F9: a third of Celery's passages were viewcode's `_modules/` pages, and their
    # docstrings, raw reST (":meth:`~@AsyncResult.get`"), were quoted beside the API page's copy
    docs = tmp_path / "docs"
    (docs / "_modules" / "heron").mkdir(parents=True)
    page = "<html><head><title>{t}</title></head><body><h1>{t}</h1>{b}</body></html>"
    (docs / "census.html").write_text(page.format(t="heron.census", b=f"<p>{HERON}</p>"),
                                      encoding="utf-8")
    source = (f'<div class="highlight"><pre>def count():\n    """{HERON} See :meth:`nest`."""'
              '</pre></div>')
    (docs / "_modules" / "index.html").write_text(page.format(t="Overview: module code",
                                                             b="<p>All modules for which code "
                                                               "is available</p>"), "utf-8")
    (docs / "_modules" / "heron" / "census.html").write_text(
        page.format(t="Source code for heron.census", b=source), encoding="utf-8")
    plain = tmp_path / "plain"  # no Sphinx build: a folder named _modules is a folder
    shutil.copytree(docs, plain)
    (docs / "searchindex.js").write_text("Search.setIndex({})", encoding="utf-8")
    found, notes = _indexed(tmp_path, docs, "heron census nesting pairs")
    assert found == ["census.html"], found
    assert notes[-1] == ("_modules/heron/census.html, _modules/index.html: skipped, the "
                         "highlighted source of the modules the API pages document (Sphinx's "
                         "viewcode)"), notes
    found, _ = _indexed(tmp_path / "other", plain, "heron census nesting pairs")
    assert "_modules/heron/census.html" in found, found



def test_an_mkdocs_sites_own_pages_are_not_indexed(tmp_path: Path) -> None:
    # trial 94, F8: Python-Markdown's MkDocs site kept its 404.html ("404 Page not found"),
    # search.html ("Please activate JavaScript ...") and sitemap.html (a list of links)
    docs = tmp_path / "docs"
    (docs / "search").mkdir(parents=True)
    page = "<html><head><title>{t}</title></head><body><h1>{t}</h1><p>{p}</p></body></html>"
    (docs / "reference.html").write_text(page.format(t="Reference", p=HERON), "utf-8")
    for name, text in (("404.html", "404 Page not found. " + HERON),
                       ("search.html", "Please activate JavaScript to search. " + HERON),
                       ("sitemap.html", "Reference. Heron census. " + HERON)):
        (docs / name).write_text(page.format(t=name, p=text), encoding="utf-8")
    (docs / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")
    found, notes = _indexed(tmp_path, docs, "heron census nesting pairs")
    assert found == ["reference.html"], found
    assert notes[-1].startswith("404.html, search.html, sitemap.html: skipped, pages the site's "
                                "generator made for itself"), notes


def test_a_sphinx_source_is_its_pages_whatever_its_first_lines_hold(tmp_path: Path) -> None:
    # trial 106, F1: three of cryptography's sources open with 4 KB of base64 test data, none
    # of it on the page; indexed beside their pages, their raw reST was an Answer
    docs = tmp_path / "docs"
    (docs / "_sources").mkdir(parents=True)
    (docs / "searchindex.js").write_text("Search.setIndex({})", "utf-8")
    theme = "<link rel='stylesheet' href='_static/theme.css'>" * 60  # a Sphinx page's head
    (docs / "crl.html").write_text(f"<html><head>{theme}</head><body><h1>CRL</h1><p>A revocation "
                                   "list names the certificates an issuer withdrew.</p></body>"
                                   "</html>", "utf-8")
    data = "\n".join(f"    MIIBtDCBnQIBATANBgkqhkiG9w0BAQsFADAnMQswC{i:04d}" for i in range(120))
    (docs / "_sources" / "crl.rst.txt").write_text(
        f"CRL\n===\n\n.. testsetup::\n\n{data}\n\nA revocation list names the certificates an "
        ":term:`issuer` withdrew.\n", "utf-8")
    found, notes = _indexed(tmp_path, docs, "revocation list certificates issuer")
    assert found == ["crl.html"], found
    assert "_sources/crl.rst.txt: skipped, the source of a page indexed (crl.html)" in notes
    # no Sphinx build (no searchindex.js), or a page that is a stub: the content decides
    # (trial 108, F4, F5: field notes under _sources/, a source whose page redirects)
    (docs / "searchindex.js").unlink()
    found, notes = _indexed(tmp_path / "again", docs, "revocation list certificates issuer")
    assert found == ["_sources/crl.rst.txt", "crl.html"], found
