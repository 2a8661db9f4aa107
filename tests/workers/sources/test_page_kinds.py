"""Pages about other things than how the software works rank below its manual for a question
that does not ask about them (trial 123, F4; trial 121, F10): a catalogue of other projects
(pytest's plugin list, a Markdown list of links), a release's announcement
(``announce/release-2.9.0.html``), and a change log when the question's "changes" are the
asker's own ("keep the changes"). A question about a release, a plugin or an item by its name
still finds them."""

from __future__ import annotations

import gzip
from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus
from workers.sources.catalogues import CATALOGUE, catalogue_kind

_SUMMARIES = [
    ("quill-rerun", "Re-run only changed files in specified branch"),
    ("quill-rerunfailures", "quill plugin to re-run tests to eliminate flaky failures"),
    ("quill-picked", "Run the tests related to the changed files"),
    ("quill-spread", "quill plugin for distributed testing and loop-on-failing modes"),
] + [(f"quill-extra{i}", f"Fixtures number {i} for writing tests of a web service")
     for i in range(30)]

PLUGIN_LIST = (
    "<html><head><title>Plugin List</title></head><body><h1>Plugin List</h1>"
    "<p>Projects that match quill-* are considered plugins and are listed automatically.</p>"
    "<table><thead><tr><th>name</th><th>summary</th><th>last release</th></tr></thead><tbody>"
    + "".join(f'<tr><td><p><a class="reference external" href="https://pypi.org/project/{n}/">'
              f"{n}</a></p></td><td><p>{s}</p></td><td><p>May 25, 2022</p></td></tr>"
              for n, s in _SUMMARIES)
    + "</tbody></table></body></html>")
CACHE = (
    "<html><head><title>How to re-run failed tests</title></head><body>"
    "<h1>How to re-run failed tests and keep state between test runs</h1><h2>Usage</h2>"
    "<p>The cache plugin provides two command line options to rerun failures from the last "
    "quill invocation:</p><ul><li><p><code>--lf</code>, <code>--last-failed</code> - to only "
    "re-run the failures.</p></li><li><p><code>--ff</code>, <code>--failed-first</code> - to "
    "run the failures first and then the rest of the tests.</p></li></ul></body></html>")
DISCOVERY = (
    "<html><head><title>Good practices</title></head><body><h1>Good practices</h1>"
    "<h2>Conventions for test discovery</h2><p>In those directories, search for test_*.py "
    "or *_test.py files. From those files, collect test prefixed test functions.</p>"
    "</body></html>")
ANNOUNCE = (
    "<html><head><title>quill-2.9.0</title></head><body><h1>quill-2.9.0</h1>"
    "<p>quill is a mature testing tool.</p><h2>2.9.0 (compared to 2.8.7)</h2>"
    "<p>--lf and --ff now support long names: --last-failed and --failed-first respectively. "
    "Thanks @someone for the PR.</p><p>New --lf option behaviour fixed.</p></body></html>")


def _search(tmp_path: Path, files: dict[str, str | bytes], question: str) -> list[str]:
    root = tmp_path / "docs"
    for rel, text in files.items():
        if isinstance(text, bytes):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(text)
        else:
            write(root, rel, text)
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        return [p.doc_id for p in corpus.search(question, k=3)]


def test_a_plugin_list_ranks_below_the_manual(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"reference/plugin_list.html": PLUGIN_LIST,
                                     "how-to/cache.html": CACHE,
                                     "explanation/goodpractices.html": DISCOVERY}
    for question in ("How do I rerun only the tests that failed last time?",
                     "Which files does quill treat as tests?"):
        found = _search(tmp_path / str(len(question)), files, question)
        assert found and "reference/plugin_list.html" not in found[:1], (question, found)
    # a question about plugins, or one naming a plugin, still finds the list
    for question in ("Is there a plugin for distributed testing?", "What does quill-spread do?"):
        found = _search(tmp_path / str(len(question)), files, question)
        assert found[0] == "reference/plugin_list.html", (question, found)


def test_a_markdown_list_of_other_projects_is_a_catalogue() -> None:
    items = "\n".join(f"- [{n}](https://example.org/{n}) - {s}." for n, s in _SUMMARIES)
    source = f"# Awesome quill\n\nA list of plugins.\n\n{items}\n"
    text = "Awesome quill\n\nA list of plugins.\n\n" + "\n".join(
        f"- {n} - {s}." for n, s in _SUMMARIES)
    assert catalogue_kind(source, text, html=False) == CATALOGUE
    # the same list among a page's many paragraphs of its own is no catalogue
    assert catalogue_kind(source, text + "\n\nProse of the manual.\n" * 40, html=False) == ""
    # nor a list of links to the folder's own pages
    assert catalogue_kind(source.replace("https://example.org/", ""), text, html=False) == ""


def test_a_release_announcement_ranks_below_the_manual(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"announce/release-2.9.0.html": ANNOUNCE,
                                     "how-to/cache.html": CACHE}
    assert _search(tmp_path / "a", files, "What does --lf do?")[0] == "how-to/cache.html"
    found = _search(tmp_path / "b", files, "What changed in 2.9.0?")
    assert found[0] == "announce/release-2.9.0.html", found


CHANGELOG = "".join(
    f"Version v2.{n}.0; changes since v2.{n - 1}.0:\n\n"
    f"  Jane Doe (3):\n      gui: allow reverting selected lines of the last commit\n"
    f"      gui: undo the last commit and keep its changes staged\n"
    f"      reset: keep the changes when undoing a commit\n\n" for n in range(24, 30))
RESET = (
    "<html><head><title>git-reset(1)</title></head><body><h1>git-reset(1)</h1>"
    "<h2>EXAMPLES</h2><p>Undo a commit and redo: you committed too early. git reset --soft "
    "HEAD^ undoes the last commit but leaves the working tree and the index as they were, so "
    "your changes are kept.</p></body></html>")


def test_the_askers_own_changes_are_no_question_about_a_release(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"changelog.gz": gzip.compress(CHANGELOG.encode()),
                                     "git-reset.html": RESET}
    found = _search(tmp_path / "a", files, "How do I undo my last commit but keep the changes?")
    assert found[0] == "git-reset.html", found
    found = _search(tmp_path / "b", files, "What are the changes since v2.28.0?")
    assert found[0] == "changelog.gz", found
