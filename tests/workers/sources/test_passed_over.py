"""What a folder's walk passes over is named in the notes, and ``.htm`` and ``.markdown`` files
are read as HTML and markdown (trial 12, finding 7: a hidden ``.notes/`` folder, a hidden file,
``.htm`` and ``.markdown`` files were skipped without a word, and the report said the sources
say nothing)."""

from __future__ import annotations

from pathlib import Path

from workers.sources.corpus import Corpus


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / ".notes").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / ".notes" / "otters.md").write_text("The otter survey is every August.\n")
    (root / ".seals.md").write_text("Seal pups are counted in December.\n")
    (root / "gannets.markdown").write_text("| Bird | Dive |\n|---|---|\n| Gannet | 30 metres |\n")
    (root / "cormorants.htm").write_text("<html><head><title>Cormorants</title></head><body>"
                                         "<p>Cormorants dry their wings on the buoys.</p>")
    (root / "sub" / "kingfisher.md").write_text("The kingfisher box is checked in June.\n")
    for name in ("a.png", "b.png", "c.csv"):
        (root / name).write_bytes(b"\x89PNG")
    return root


def test_hidden_files_and_other_types_are_named_in_the_notes(tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=_folder(tmp_path)) as corpus:
        assert corpus.notes == [".notes/: passed over, a hidden folder",
                                ".seals.md: passed over, a hidden file",
                                "3 files passed over, of types not indexed (.png x2, .csv x1)"]


def test_htm_and_markdown_files_are_read_as_html_and_markdown(tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=_folder(tmp_path)) as corpus:
        [hit] = corpus.search("cormorants wings buoys", k=1)
        assert (hit.ref, hit.title) == ("cormorants.htm#0", "Cormorants")
        assert "<p>" not in hit.text
        [hit] = corpus.search("gannet dive", k=1)
        assert hit.ref == "gannets.markdown#0" and "Gannet — Dive: 30 metres." in hit.text
