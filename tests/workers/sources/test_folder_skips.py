"""The folder source's skipped files: binary files with text extensions, blank and too-large
files, and the message when nothing is left to index (split from test_folder.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import workers.sources.folder as folder_mod
from workers.sources import Corpus, CorpusError


def test_binary_files_with_text_extensions_are_skipped(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    root = tmp_path / "bin"
    root.mkdir()
    (root / "random.md").write_bytes(rng.randbytes(20_000))
    (root / "no-nul.rst").write_bytes(bytes(b or 1 for b in rng.randbytes(20_000)))
    (root / "nuls.txt").write_bytes(b"gibberish words\0\0\0 more gibberish\0" * 50)
    (root / "image.html").write_bytes(b"\x89PNG\r\n\x1a\n" + rng.randbytes(5000))
    (root / "good.md").write_text("Real prose about gibberish detectors and walrus tusks.\n")
    (root / "utf16.txt").write_bytes("Walrus census in UTF-16 with a BOM.\n".encode("utf-16"))
    (root / "latin1.txt").write_bytes("Jalapeño walrus recipes from the café.".encode("latin-1"))
    with Corpus.open(tmp_path / "data", folder=root) as c:
        names = ["random.md", "no-nul.rst", "nuls.txt", "image.html", "good.md", "utf16.txt"]
        present = {n for n in [*names, "latin1.txt"] if c.passage(f"{n}#0") is not None}
        assert present == {"good.md", "utf16.txt", "latin1.txt"}
        assert c.search("census")[0].ref == "utf16.txt#0"
        assert c.meta["documents"] == "3"
        # the run prints this line: the binaries are named in the notes, not counted indexed
        assert "(3 files indexed, 4 more read but not indexed: see the notes)" in c.description


def test_the_file_count_leaves_out_blank_and_too_large_files(tmp_path: Path) -> None:
    root = tmp_path / "mixed"
    root.mkdir()
    (root / "good.md").write_text("Walrus census.\n")
    (root / "blank.md").write_text("  \n")
    (root / "big.txt").write_text("walrus " * 400)
    with Corpus.open(tmp_path / "data", folder=root, max_file_bytes=1000) as c:
        assert c.description.endswith("(1 file indexed, 1 more read but not indexed: see the "
                                      "notes) (1 passage)"), c.description
        assert sorted(c.notes) == ["big.txt: skipped, too large (2.7 KB > 1,000 bytes)",
                                   "blank.md: skipped, no text"]


def test_a_too_large_note_gives_both_sizes_in_one_unit(tmp_path: Path) -> None:
    # Trial 18, finding 16: "34.1 MB > 34,000,000 bytes" mixed units
    root = tmp_path / "sized"
    root.mkdir()
    (root / "good.md").write_text("Walrus census.\n")
    (root / "big.txt").write_text("walrus " * 3000)  # 21,000 bytes
    with Corpus.open(tmp_path / "data", folder=root, max_file_bytes=15_000) as c:
        assert "big.txt: skipped, too large (20.5 KB > 14.6 KB)" in c.notes, c.notes


def test_a_folder_of_only_binary_files_names_the_reason(tmp_path: Path) -> None:
    root = tmp_path / "bin"
    root.mkdir()
    (root / "a.md").write_bytes(b"\0" * 100)
    (root / "b.txt").write_bytes(b"\x00\x01\x02\x03" * 100)
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=root)
    message = str(info.value)
    assert "no indexable" in message and "2 files skipped as binary" in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("files", "reason"),
    [
        ({}, "empty"),
        ({"huge.md": None}, "1 file skipped as larger than 8 MB"),
        ({"huge.md": None, "x.json": "{}", "y.png": "x"}, "1 file skipped as larger than 8 MB"),
        ({"x.json": "{}", "y.png": "x"}, "2 files of other types"),
        ({".secret.md": "hidden"}, "1 hidden"),
        ({"blank.md": "  \n"}, "1 file without text"),
    ],
    ids=["empty", "only-too-big", "too-big-and-others", "other-types", "hidden", "blank"],
)
def test_no_indexable_files_message_says_why(
    tmp_path: Path, files: dict[str, str | None], reason: str
) -> None:
    root = tmp_path / "folder"
    root.mkdir()
    for name, text in files.items():
        if text is None:
            (root / name).write_bytes(b"y" * (folder_mod.MAX_FILE_BYTES + 1))
        else:
            (root / name).write_text(text)
    with pytest.raises(CorpusError) as info:
        Corpus.open(tmp_path / "data", folder=root)
    message = str(info.value)
    assert "no indexable" in message and str(root) in message and "\n" not in message
    assert reason in message, message
    indexable = "indexable: .md .markdown .txt .rst .py .html .htm .conf .cfg .ini .pdf .docx"
    assert indexable in message, message


def test_text_files_of_numbers_are_passed_over_as_data_whatever_their_name(
    tmp_path: Path,
) -> None:
    # gnuplot's examples/random-points (no extension) was 28 passages of numbers, while the
    # same data named .dat was passed over (trial 115, F12)
    root = tmp_path / "examples"
    root.mkdir()
    rows = "".join(f"0.{n:04d}8179890316\t-0.2288630{n}\t1.{n}e-3\t{n}\n" for n in range(200))
    (root / "random-points").write_text("# Uniform\tNormal\tLognormal\n" + rows)
    (root / "valley.txt").write_text("".join(f"{i} {j} 10\n" for i in range(9) for j in range(3)))
    (root / "README").write_text("The random-points file holds 200 samples of four "
                                 "distributions for the walrus histogram demo.\n")
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert {hit.doc_id for hit in c.search("random points uniform normal lognormal 0.0001",
                                               k=10)} <= {"README"}
        assert c.read("random-points") is None and c.read("valley.txt") is None
        assert c.notes == ["random-points: skipped, numbers (data, not prose)",
                           "valley.txt: skipped, numbers (data, not prose)"], c.notes


def test_a_table_under_a_title_or_a_header_of_words_is_read_not_passed_over(
    tmp_path: Path,
) -> None:
    # "AWG copper wire table" and its rows were skipped as "numbers (data, not prose)", and
    # "What is the diameter of 14 AWG wire?" got nothing (trial 119, F10)
    root = tmp_path / "tables"
    root.mkdir()
    rows = "".join(f"{n}   {3.2 / n:.3f}  {9.0 / n:.2f}  {n * 0.6:.3f}  {40 - n}\n"
                   for n in range(10, 26, 2))
    (root / "wire-gauge.txt").write_text(
        "AWG copper wire table\nAWG  diameter_mm  area_mm2  ohm_per_km  max_amps\n" + rows)
    releases = "".join(f"1.{n}     3.{n + 6}  3.{n + 7}  3.{n + 8}\n" for n in range(10))
    (root / "COMPATIBILITY").write_text("quill   Python\n" + releases)
    (root / "points").write_text("# Uniform\tNormal\n" + rows)  # a plot's data, its comment
    with Corpus.open(tmp_path / "data", folder=root) as c:
        assert c.read("wire-gauge.txt") is not None and c.read("COMPATIBILITY") is not None
        assert c.read("points") is None
        assert c.notes == ["points: skipped, numbers (data, not prose)"], c.notes
