"""What a corpus holds now, by content, without opening or building its index: the fingerprint
a thread's run recorded (``Corpus.content_fingerprint``) to compare with, so that a command that
only reads threads (``prune``) can tell whether an unfinished thread could still be resumed."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from workers.sources import folder as folder_source
from workers.sources.fingerprint import content_fingerprint
from workers.sources.packages import DEFAULT_PACKAGES, package_fingerprint

__all__ = ["current_content_fingerprint"]


def current_content_fingerprint(data_dir: Path | str, folder: Path | str | None = None,
                                packages: Sequence[str] = DEFAULT_PACKAGES, *,
                                max_file_bytes: int, as_folder: Path | str | None = None,
                                language: str | None = None) -> str:
    """The content fingerprint :meth:`workers.sources.Corpus.open` would give the corpus now:
    a folder's indexable files' names and bytes (walked as the index walks them: ``data_dir``
    and the app's reports left out, files over ``max_file_bytes`` skipped), or the packages'.
    Reads every indexable file of a folder; writes nothing. ``as_folder``: the fingerprint the
    same files would have had at that place (a folder moved from there). ``language``: of a
    manual in several, the one indexed (:mod:`workers.sources.languages`).

    Raises:
        CorpusError: the folder is gone, is no directory, or holds nothing to index.
    """
    if folder is None:
        return package_fingerprint(tuple(dict.fromkeys(packages)))[0]
    resolved, _shown, files = folder_source.corpus_folder(
        folder, max_file_bytes=max_file_bytes, data_dir=Path(data_dir).expanduser(),
        language=language)
    return content_fingerprint(resolved, files, max_file_bytes,
                               as_folder=None if as_folder is None else Path(as_folder))
