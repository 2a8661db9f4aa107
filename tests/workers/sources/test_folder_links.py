"""A visible link to a folder or file the walk passes over (hidden) is how the user opts in to
it: it is indexed under the link's path, and no note says a path is indexed that is not (trial
13, finding 7b: ``notes -> .notes`` was skipped "as indexed under its own path", which the
hidden ``.notes/`` was not, while a file link to a hidden file was read)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from workers.sources import Corpus


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / ".notes").mkdir(parents=True)
    (root / ".notes" / "otters.md").write_text("The otter survey is done every August.\n")
    (root / ".vault" / "inner").mkdir(parents=True)
    (root / ".vault" / "inner" / "voles.md").write_text("Water voles are trapped in May.\n")
    (root / ".seals.md").write_text("Seal pups are counted in December.\n")
    (root / "notes").symlink_to(".notes")  # relative, as `ln -s .notes notes` makes it
    (root / "old-notes").symlink_to(root / ".notes")  # a second link to it
    (root / "inner").symlink_to(root / ".vault" / "inner")  # a folder inside a hidden one
    (root / "seals.md").symlink_to(".seals.md")
    return root


def test_a_link_to_a_hidden_folder_is_indexed_under_the_links_path(tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=_vault(tmp_path)) as corpus:
        assert [hit.doc_id for hit in corpus.search("otter survey", k=3)] == ["notes/otters.md"]
        assert [hit.doc_id for hit in corpus.search("water voles", k=3)] == ["inner/voles.md"]
        assert [hit.doc_id for hit in corpus.search("seal pups", k=3)] == ["seals.md"]
        followed = "followed, its files indexed under"
        assert corpus.notes == [
            ".notes/: passed over, a hidden folder",
            ".vault/: passed over, a hidden folder",
            f"inner/: a link to .vault/inner/, in the hidden folder .vault/: {followed} inner/",
            f"notes/: a link to the hidden folder .notes/: {followed} notes/",
            "old-notes/: skipped, a link to a folder indexed already (a loop, or a second "
            "link to it)",
            ".seals.md: passed over, a hidden file",
            "seals.md: a link to the hidden file .seals.md: indexed"]


def test_a_link_into_the_data_dir_is_named_as_such(tmp_path: Path) -> None:
    # The sibling: a link to a folder of the data dir (inside the corpus folder) was named
    # "a folder of the corpus, indexed under its own path"; the data dir is never indexed.
    root = tmp_path / "docs"
    (root / "data" / "reports").mkdir(parents=True)
    (root / "data" / "reports" / "kept.md").write_text("Heron census kept here.\n")
    (root / "herons.md").write_text("Heron census methods count nesting pairs.\n")
    (root / "reports").symlink_to(root / "data" / "reports")
    with Corpus.open(root / "data", folder=root) as corpus:
        assert {hit.doc_id for hit in corpus.search("heron census", k=5)} == {"herons.md"}
        assert corpus.notes == [
            "data/: skipped, the data dir of this app (its reports and indexes are not sources)",
            "reports/: skipped, a link into the data dir of this app (its reports and indexes "
            "are not sources)"]


def test_the_report_answers_from_a_linked_hidden_folder(tmp_path: Path) -> None:
    proc = run_cli("research", "When is the otter survey done?", "--as-of", AS_OF, "--corpus",
                   _vault(tmp_path), "--data-dir", tmp_path / "data", "--model", "offline",
                   "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert not summary.get("warnings"), summary["warnings"]
    assert not any("indexed under its own path" in note for note in summary["notes"])
    report = Path(summary["report_path"]).read_text("utf-8")
    answer = report.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "The otter survey is done every August." in answer, answer
    assert "notes/otters.md" in report


def test_a_link_to_a_folder_that_cannot_be_read_says_so(tmp_path: Path, monkeypatch) -> None:
    # The sibling: a link to a folder of the corpus that cannot be listed was "indexed under
    # its own path", beside that folder's own note "unreadable". Root reads every folder, so
    # the refusal is made where the walk lists and checks a folder.
    import os
    from collections import Counter

    from workers.sources.folder import folder_files

    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "x.md").write_text("Egrets nest in colonies.\n")
    (root / "a.md").write_text("Herons nest in colonies.\n")
    (root / "lnk").symlink_to(root / "sub")
    (root / "top").symlink_to(root)
    sub = os.path.realpath(root / "sub")
    listed, access = os.scandir, os.access

    def scandir(path: str = ".", *rest: object) -> object:
        if os.path.realpath(path) == sub:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return listed(path, *rest)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: os.path.realpath(path) != sub
                        and access(path, mode, **kw))
    notes: list[str] = []
    found = folder_files(root, Counter(), notes=notes)
    assert [rel for rel, _path, _st in found] == ["a.md"]
    assert notes == ["lnk/: skipped, a link to sub/, a folder of the corpus that cannot be read",
                     "top/: skipped, a link to the corpus folder itself (a loop)",
                     "sub/: skipped, unreadable (Permission denied)"]
