"""A file a Sphinx build's page offers for download and shows is indexed once, as the page
(trial 125, F12: Sphinx's ``_downloads/.../example_google.py`` and
``usage/extensions/example_google.html`` hold the same text, and both were indexed)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from workers.sources.folder import folder_files

SOURCE = '''"""Heron census docstrings.

The census module counts nesting pairs along the estuary every spring, and its
functions document their arguments in the Google style.
"""


def count(nests):
    """Count the nesting pairs of the colony's nests."""
'''


def _build(root: Path, sphinx: bool = True) -> Path:
    (root / "usage").mkdir(parents=True)
    (root / "_downloads" / "1db8").mkdir(parents=True)
    (root / "_downloads" / "9f2c").mkdir(parents=True)
    if sphinx:
        (root / "searchindex.js").write_text("Search.setIndex({})")
    shown = SOURCE.replace("<", "&lt;").replace('"', "&quot;")
    (root / "usage" / "census.html").write_text(
        "<html><head><title>Example census</title></head><body><p>Download: "
        f'<a href="../_downloads/1db8/census.py">census.py</a></p><pre>{shown}</pre></body></html>')
    (root / "_downloads" / "1db8" / "census.py").write_text(SOURCE)
    (root / "_downloads" / "9f2c" / "tally.py").write_text('"""Tally sheets for the census."""\n')
    return root


def test_a_download_a_page_shows_is_indexed_as_the_page(tmp_path: Path) -> None:
    notes: list[str] = []
    skipped: Counter[str] = Counter()
    found = [rel for rel, _p, _st in folder_files(_build(tmp_path / "html"), skipped,
                                                  notes=notes)]
    assert found == ["_downloads/9f2c/tally.py", "usage/census.html"], found  # tally: no page
    assert notes[-1] == ("_downloads/1db8/census.py: skipped, a download whose text a page "
                         "shows (usage/census.html)"), notes
    assert skipped["copy"] == 1


def test_a_downloads_folder_outside_a_sphinx_build_is_indexed(tmp_path: Path) -> None:
    found = [rel for rel, _p, _st in folder_files(_build(tmp_path / "notes", sphinx=False))]
    assert "_downloads/1db8/census.py" in found, found
