"""Files deleted while a folder is indexed are counted once, by the build that reads them: the
corpus line's "N more read but not indexed" and the notes' "skipped, unreadable" line count the
same files (hostile trial H: a folder emptied during indexing said "69 more read but not
indexed" on its corpus line and "10 files and 89 more: skipped, unreadable" in its notes, the
walk having noted 30 files gone before its ``stat`` too). The deletions come at two moments,
as an ``rm -r`` beside a run makes them: after the walk listed the folder and before it looked
at each file, and while the build reads the files (its progress callback, which the CLI's
display is). A link to nothing, left there by a user, is still noted."""
from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import workers.sources.folder as folder_module
from workers.sources import Corpus

TEXT = "# Page {n}\n\nThe zorblax relay moves glimmer packets between moon stations ({n}).\n"


def _unreadable_count(notes: list[str]) -> int:
    """How many files the notes name as skipped unreadable, grouped or one a line."""
    count = 0
    for note in notes:
        if "skipped, unreadable" not in note:
            continue
        more = re.search(r" and (\d+) more: skipped", note)
        named = note.split(": skipped", 1)[0].split(" and ", 1)[0]
        count += len(named.split(", ")) + (int(more.group(1)) if more else 0)
    return count


def test_files_deleted_while_indexing_are_counted_once(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for n in range(30):
        (folder / f"page{n:02d}.md").write_text(TEXT.format(n=n), encoding="utf-8")
    (folder / "dangling.md").symlink_to(tmp_path / "nowhere.md")  # the user's own broken link
    (folder / "old").mkdir()  # a folder deleted after its parent was listed, before its own
    (folder / "old" / "notes.md").write_text(TEXT.format(n=99), encoding="utf-8")
    listed = folder_module.walk_folders

    def walk_then_delete(*args: object, **kwargs: object) -> Iterator[tuple[str, list[str]]]:
        for dirpath, filenames in listed(*args, **kwargs):
            for name in filenames[1:6]:  # gone after the listing, before each file's stat
                (Path(dirpath) / name).unlink()
            if (Path(dirpath) / "old").exists():
                shutil.rmtree(Path(dirpath) / "old")
            yield dirpath, filenames

    monkeypatch.setattr(folder_module, "walk_folders", walk_then_delete)
    deleted: list[str] = []

    def progress(done: int, total: int, reading: str) -> None:
        if done == 2 and not deleted:  # gone while the build reads the folder
            for path in sorted(folder.glob("page2*.md")):
                path.unlink()
                deleted.append(path.name)

    with Corpus.open(tmp_path / "data", folder, progress=progress) as corpus:
        description, notes = corpus.description, corpus.notes
    assert len(deleted) == 10
    line = re.search(r"\((\d+) files indexed, (\d+) more read but not indexed", description)
    assert line is not None, description
    indexed, not_indexed = int(line.group(1)), int(line.group(2))
    assert indexed == 30 - 5 - 10, description
    assert not_indexed == 10, description
    assert any(n.startswith("dangling.md") for n in notes) or "dangling.md" in " ".join(notes)
    # the files the notes say were not read are those the corpus line counts, and the link
    assert _unreadable_count(notes) == not_indexed + 1, notes
