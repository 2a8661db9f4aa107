"""A question naming a command is answered from the command's own man page, not from another
command's option that shares a word with it (trial 121, F1): over git-doc, "What is git
rebase?" ranked git-submodule(1)'s "--rebase: This option is only valid for the update
command." first, "What does git cherry-pick do?" git-rev-list(1)'s ``--cherry-pick`` passages,
and git-cherry-pick(1)'s NAME line ("git-cherry-pick - Apply the changes introduced by some
existing commits") came fourth."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus


def _man_html(name: str, summary: str, sections: list[tuple[str, str]]) -> str:
    """A man page as git-doc's asciidoc writes it in HTML."""
    body = "".join(f"<h2>{heading}</h2><div class='sectionbody'>{html}</div>"
                   for heading, html in sections)
    return (f"<html><head><title>{name}(1)</title></head><body><h1>{name}(1) Manual Page</h1>"
            f"<h2>NAME</h2><div class='sectionbody'><p>{name} - {summary}</p></div>{body}"
            "</body></html>")


def _options(entries: list[tuple[str, str]]) -> str:
    return "<div class='dlist'><dl>" + "".join(
        f"<dt class='hdlist1'>{label}</dt><dd><p>{text}</p></dd>" for label, text in entries
    ) + "</dl></div>"


REBASE = _man_html("frob-rebase", "Reapply shards on top of another base vault", [
    ("SYNOPSIS", "<pre>frob rebase [-i] [--onto &lt;newbase&gt;] [&lt;upstream&gt;]</pre>"),
    ("DESCRIPTION", "<p>If a vault is given, frob rebase switches to it first. All shards "
                    "made since the upstream are saved to a temporary area and written again "
                    "one by one on top of the new base.</p>"),
    ("OPTIONS", _options([("--onto &lt;newbase&gt;", "Starting point at which to write the "
                                                     "new shards.")]))])
SUBMODULE = _man_html("frob-submodule", "Initialize, update or inspect nested vaults", [
    ("DESCRIPTION", "<p>Inspects, updates and manages nested vaults of a vault.</p>"),
    ("OPTIONS", _options([
        ("--rebase", "This option is only valid for the update command. Rebase the current "
                     "vault onto the shard recorded in the outer vault; when the rebase fails "
                     "you resolve it with frob rebase. If the key update is set to rebase, "
                     "this option is implicit, and a rebase is the default."),
        ("--merge", "This option is only valid for the update command.")]))])


def _folder(tmp_path: Path, pages: dict[str, str]) -> Path:
    root = tmp_path / "docs"
    for name, page in pages.items():
        write(root, name, page)
    return root


def test_the_command_asked_is_answered_by_its_own_page_and_its_name_line(
        tmp_path: Path) -> None:
    root = _folder(tmp_path, {"frob-rebase.html": REBASE, "frob-submodule.html": SUBMODULE})
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What is frob rebase?", k=4)
        assert found[0].ref == "frob-rebase.html#0", [(p.ref, p.text[:50]) for p in found]
        assert "Reapply shards on top of another base vault" in found[0].text
        # the other command's option is a neighbour: found, below the command's own page
        assert any(p.doc_id == "frob-submodule.html" for p in found)
        assert [p.score for p in found] == sorted((p.score for p in found), reverse=True)


CLONE = _man_html("frob-clone", "Copy a vault into a new folder", [
    ("DESCRIPTION", "<p>Copies a vault into a newly created folder.</p>"),
    ("OPTIONS", _options([
        ("--quiet", "Operate quietly."),
        ("--depth &lt;depth&gt;", "Create a shallow copy with a history truncated to the given "
                                  "number of shards.")]))])
FETCH = _man_html("frob-fetch", "Download shards from another vault", [
    ("OPTIONS", _options([
        ("--depth=&lt;depth&gt;", "Limit fetching to the given depth of shards from the tip of "
                                  "each remote history. If fetching into a shallow vault made "
                                  "by frob clone with --depth=&lt;depth&gt;, deepen or shorten "
                                  "the history to the given depth."),
        ("--deepen=&lt;depth&gt;", "Like --depth, but the depth counts from the shallow "
                                   "boundary, not the tip, of each remote history.")]))])


def test_an_option_of_the_command_asked_is_its_own_pages(tmp_path: Path) -> None:
    # git-clone(1)'s --depth, not git-fetch(1)'s, answers "What does git clone --depth do?"
    root = _folder(tmp_path, {"frob-clone.html": CLONE, "frob-fetch.html": FETCH})
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What does frob clone --depth do?", k=4)
        assert found[0].doc_id == "frob-clone.html", [(p.ref, p.text[:50]) for p in found]
        assert "shallow copy" in found[0].text


def _troff(name: str, summary: str, body: str) -> str:
    return (f'.TH "{name.upper()}" "1"\n.SH "NAME"\n{name} \\- {summary}\n'
            f'.SH "DESCRIPTION"\n{body}\n')


def test_a_troff_man_page_of_the_command_asked_leads(tmp_path: Path) -> None:
    # the same rule for a man page's troff source (git-cherry-pick.1.gz), titled by its NAME
    pick = _troff("frob-cherry-pick", "Apply the changes of some existing shards",
                  "Given one or more existing shards, apply the change each one introduces.")
    revs = _troff("frob-rev-list", "List shards in reverse order", "\n".join(
        [".TP", "\\-\\-cherry\\-pick", "Omit any shard that brings the same change as a "
         "cherry pick of another shard: a cherry pick, and a cherry, and a pick are one.",
         ".TP", "\\-\\-cherry", "A synonym for \\-\\-cherry\\-pick with marks: cherry picks "
         "are marked, each cherry pick once."]))
    root = _folder(tmp_path, {"frob-cherry-pick.1": pick, "frob-rev-list.1": revs})
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What does frob cherry-pick do?", k=4)
        assert found[0].ref == "frob-cherry-pick.1#0", [(p.ref, p.text[:50]) for p in found]


def test_a_page_of_other_words_or_a_one_word_command_is_no_command_asked() -> None:
    from workers.sources.commands import command_name, commands_named

    assert command_name("clones.html", "Shallow clones") == ""  # no man page
    pages = [("git.html", "git(1)"), ("git-clone.html", "git-clone(1)"),
             ("git-fetch.html", "git-fetch(1)")]
    assert commands_named("What does git clone --depth do?", pages) == {"git-clone.html"}
    assert commands_named("What is the difference between git fetch and git clone?",
                          pages) == {"git-clone.html", "git-fetch.html"}
    assert commands_named("How do I clone a repository with git?", pages) == set()
