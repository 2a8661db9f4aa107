"""A file swapped after the folder was listed is read through its open handle, checked there
(a regular file, its size) and never past its limit (trial 36, F2: once a run printed
``indexing``, a file swapped for a link to ``/dev/zero`` took 5 GB and a MemoryError, a FIFO
blocked the run in ``open()`` until it was killed, and a 300 MB file was read past an 8 MB
limit)."""
from __future__ import annotations

import gzip
import os
import signal
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.workers.sources.documents_helpers import make_pdf
from workers.sources.fingerprint import content_fingerprint
from workers.sources.folder import folder_docs, folder_files

LIMIT = 4096


class Blocked(Exception):
    """A read blocked (no OSError: a reader that catches those would go on to block again)."""


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    """A read that blocks (a FIFO) fails the test in 20 s instead of hanging the suite."""
    def hung(_signum: int, _frame: object) -> None:
        raise Blocked("blocked reading a swapped file")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _swap(path: Path, how: str) -> None:
    path.unlink()
    if how == "zero":
        path.symlink_to("/dev/zero")
    elif how == "fifo":
        os.mkfifo(path)
    else:  # a bigger file (a log grown since): past the limit
        big = b"heron nests\n" * LIMIT
        path.write_bytes(gzip.compress(big) if path.name.endswith(".gz") else big)


@pytest.mark.parametrize(("name", "how"), [
    (name, how) for name in ("zzz", "notes.txt", "changelog.gz", "manual.pdf")
    for how in ("zero", "fifo", "big") if (name, how) != ("manual.pdf", "big")])  # 32 MB: slow
def test_a_file_swapped_after_the_listing_is_named_never_read_without_a_bound(
    tmp_path: Path, how: str, name: str
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.md").write_text("Heron census: herons nest in colonies.\n")
    text = b"Heron census\n\n    zzz says herons nest early.\n"
    if name.endswith(".gz"):
        (root / name).write_bytes(gzip.compress(text))
    elif name.endswith(".pdf"):
        (root / name).write_bytes(make_pdf(["Herons nest early, says the manual."]))
    else:
        (root / name).write_bytes(text)
    files = folder_files(root, max_file_bytes=LIMIT)
    assert [rel for rel, _p, _st in files] == ["a.md", name]
    _swap(root / name, how)
    assert content_fingerprint(root, files, LIMIT)  # hashed without blocking or reading without end
    skipped: Counter[str] = Counter()
    notes: list[str] = []
    docs = list(folder_docs(files, skipped, notes, max_file_bytes=LIMIT))
    assert [doc.doc_id for doc in docs] == ["a.md"]
    if how == "big":
        size = "decompresses to more than 4 KB" if name.endswith(".gz") else "48 KB > 4 KB"
        assert notes == [f"{name}: skipped, too large ({size})"], notes
        assert skipped["gz_size" if name.endswith(".gz") else "size"] == 1
    else:
        assert notes == [f"{name}: skipped, not a regular file"], notes
        assert skipped["special"] == 1
