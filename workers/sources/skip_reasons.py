"""How the refusal of a folder with nothing to index says why: each reason its files were
skipped, counted, and the way on for those that have one (:func:`nothing_indexable`). Split from
:mod:`workers.sources.folder`, which re-exports it. Standard library and this package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from workers.sources import documents
from workers.sources.filekinds import FOLDER_EXTENSIONS
from workers.sources.fileread import MAX_FOLDER_GZIP_BYTES
from workers.sources.text import plural, size_label

__all__ = ["INDEXABLE", "nothing_indexable"]

MAX_FILE_BYTES = 8 * 1024 * 1024
"""The text files' default size limit (:data:`workers.sources.folder.MAX_FILE_BYTES`)."""


_SKIP_REASONS = (
    ("size", "{files} skipped as larger than {sizes}"),
    ("binary", "{files} skipped as binary"),
    ("expands", "{files} skipped as expanding past "
                f"{documents.MAX_DOCX_XML_BYTES // 2**20} MB of XML (.docx)"),
    ("encrypted", "{files} skipped as encrypted"),
    ("gz_size", "{files} decompressing to more than {sizes}"),
    ("blank", "{files} without text"),
    ("data", "{files} of numbers (data, not prose)"),
    ("redirect", "{files} that only redirect to another page"),
    ("link_page", "{files} of links to other pages (tables of contents, indexes)"),
    ("unreadable", "{n} unreadable"),
    ("corrupt", "{files} not readable as gzip (corrupt, truncated or empty)"),
    ("nested", "{files} compressed twice (a gzip file inside a gzip file)"),
    ("type", "{files} of other types"),
    ("special", "{n} not regular files"),
    ("hidden", "{n} hidden"),
    ("own", "{n} written by this app (its data dir, its reports)"),
    ("link", "{n} links to folders indexed otherwise"),
    ("copy", "{n} copies of files indexed"),
    ("translation", "{n} translations of pages indexed"),
    ("budget", "{files} past the "
               f"{size_label(MAX_FOLDER_GZIP_BYTES)} a folder's .gz files decompress to in all"),
)
"""How :func:`nothing_indexable` says each reason a file was skipped, in its order."""

_WAYS_ON = (
    ("size", "--max-file-bytes raises the size limit"),
    ("gz_size", "--max-file-bytes raises the size limit"),
    ("nested", "a file compressed twice is read once it is decompressed once (zcat x.gz > y.gz)"),
    ("encrypted", "a decrypted copy of a PDF is read (qpdf --decrypt)"),
    ("type", "a text file of another type is read once named .txt"),
    ("hidden", "a visible link to a hidden file or folder opts in to it (ln -s .notes notes)"),
)
"""What indexes the files skipped for a reason, said after the reasons in their order
(the refusal of nginx's docs was clear and early, and named no way forward)."""

INDEXABLE = (f"{' '.join(FOLDER_EXTENSIONS)}, other text files (README, changelog, "
             "run.sh) and man pages (ls.1), each of them also gzip-compressed (.gz)")
"""What a folder's files are indexed as, as the refusal of a folder says it."""


NAMED_NOTES = 3
"""How many of a refused folder's notes its error line names."""


def nothing_indexable(
    shown: str, what: str, skipped: Counter[str], max_file_bytes: int = MAX_FILE_BYTES,
    notes: Sequence[str] = (),
) -> str:
    """One line saying why a folder gave no passages, the first :data:`NAMED_NOTES` of its
    ``notes`` (which file, and why: a page cut at its nesting depth, then found without text,
    was "1 file without text" and no name; trial 61, F7), and the way on for the files
    skipped where there is one, e.g. ``"corpus folder /x contains no indexable files: 1 file
    skipped as larger than 8 MB (big.txt: skipped, too large (9 MB > 8 MB)); indexable: .md
    .txt ... (.gz); to index them: --max-file-bytes raises the size limit"``."""
    doc_limit = documents.size_limit(".pdf", max_file_bytes)
    sizes = f"{size_label(max_file_bytes)} ({size_label(doc_limit)} for .pdf/.docx)"
    reasons = [template.format(files=plural(skipped[key], "file"), n=skipped[key], sizes=sizes)
               for key, template in _SKIP_REASONS if skipped[key]]
    why = ", ".join(reasons) or "the folder is empty"
    if notes:
        more = f"; {len(notes) - NAMED_NOTES} more" if len(notes) > NAMED_NOTES else ""
        why += f" ({'; '.join(notes[:NAMED_NOTES])}{more})"
    ways = "; ".join(dict.fromkeys(way for key, way in _WAYS_ON if skipped[key]))
    return (f"corpus folder {shown} contains no indexable {what}: {why}; indexable: {INDEXABLE}"
            + (f"; to index them: {ways}" if ways else ""))
