"""Input the CLI refuses before anything is written (exit 2): the topic, the paths, the
``--fail-worker`` names, flags that contradict each other."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.cli.exit_codes import BadInput
from app.research.topics import topic_problem
from app.settings.config import Settings
from app.settings.path_labels import label as path_label


def validate_topic(raw: str) -> str:
    """The topic as it prints (:func:`app.runs.ids.visible_topic`): its white space collapsed
    and its zero-width characters and soft hyphens dropped, so a topic pasted with them lands on
    the thread of the same topic typed without them.

    Raises:
        BadInput: what :func:`app.research.topics.topic_problem` finds: empty, too long, with
            control characters, or with no word to search for.
    """
    from app.runs.ids import visible_topic

    topic = visible_topic(raw)
    if why := topic_problem(topic):
        raise BadInput(why)
    return topic


def nearest_existing(path: Path) -> Path | None:
    """``path`` if it exists, else its nearest parent that does (None: not even the root)."""
    return next((p for p in (path, *path.parents) if p.exists()), None)


def writable(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (an existing folder), by trying: ``os.access``
    says yes to root on a read-only mount or in ``/proc``."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def check_writable_data_dir(settings: Settings) -> Path:
    """:func:`check_data_dir`, for a command that writes (``research``, ``resume``, ``review``,
    ``prune`` but its dry run): the data dir, or the folder it would be made in, must take new
    files.

    Raises:
        BadInput: it is a file, or cannot be written (read-only, no permission).
    """
    data_dir = check_data_dir(settings)
    existing = nearest_existing(data_dir)
    if existing is not None and not writable(existing):
        if existing != data_dir:  # nothing there to read: the folder it would be made in
            raise BadInput(f"data dir {data_dir} cannot be made: {existing} is not writable "
                           "(read-only or no permission)")
        raise BadInput(f"data dir {data_dir} is not writable (read-only or no permission); "
                       "threads, inspect and prune --dry-run still read it")
    for path in _own_files(settings, data_dir):
        if not _file_writable(path):  # it failed at the end, the whole run done, unsaved
            refuse_unwritable(path)
    if not settings.database_url:  # the thread locks (PostgreSQL leases are rows)
        check_writable_folder(data_dir / "locks")
    return data_dir


def refuse_unwritable(path: Path) -> None:
    """Refuse ``path``, a file or folder of the data dir a run writes, in one line.

    Raises:
        BadInput: always, naming ``path``.
    """
    raise BadInput(f"{path} is not writable (read-only or no permission): a run could not "
                   "save to it; threads, inspect and prune --dry-run still read it")


def check_writable_folder(folder: Path) -> None:
    """A folder of the data dir a run writes in (``locks/``, ``reports/``), refused when it
    exists and takes no new file (a read-only mount of it, or a file of that name): otherwise
    found only after every worker ran. A missing one is made in the data dir, which
    :func:`check_writable_data_dir` checks.

    Raises:
        BadInput: one line naming the folder.
    """
    if folder.exists() and not folder.is_dir():  # it said "not writable (read-only ...)"
        raise BadInput(f"{folder} is a file, not a folder: a run saves into it; move the "
                       "file aside")
    if folder.exists() and not writable(folder):
        refuse_unwritable(folder)


def _own_files(settings: Settings, data_dir: Path) -> list[Path]:
    """The SQLite files of ``data_dir`` a run of ``settings`` writes, with their WAL files,
    those that exist (a file may be read-only in a writable data dir)."""
    names = []
    if not settings.database_url:
        from app.storage.sqlite import CHECKPOINTS_DB, RESULTS_DB

        names += [CHECKPOINTS_DB, RESULTS_DB]
    if settings.web:
        from workers.sources.web import WEB_CACHE

        names.append(WEB_CACHE)
    if settings.mcp_config:
        from workers.mcp_record import MCP_CACHE

        names.append(MCP_CACHE)
    files = [data_dir / (name + tail) for name in names for tail in ("", "-wal", "-shm")]
    return [path for path in files if path.is_file()]


def _file_writable(path: Path) -> bool:
    """Whether ``path`` can be opened for writing, by trying (nothing is written): ``os.access``
    says yes to root on a read-only mount."""
    try:
        with open(path, "r+b"):
            return True
    except OSError:
        return False


def check_data_dir(settings: Settings) -> Path:
    """The data dir, refused when it, or the nearest part of its path that exists, is not a
    folder: ``--data-dir notes.txt/data`` can never be created; or when it goes through a link
    loop (:func:`resolved_path`), which every command that reads or writes a data dir asks
    here (``threads`` said "no threads yet", ``inspect`` "no thread", hostile trial H).

    Raises:
        BadInput: that part is a file, or the path is a link loop.
    """
    resolved_path(path_label("data_dir"), settings.data_dir)
    data_dir = Path(settings.data_dir)
    existing = nearest_existing(data_dir)
    if existing is not None and not existing.is_dir():
        where = "" if existing == data_dir else f": {existing}"
        raise BadInput(f"data dir {data_dir}{where} is a file, not a folder")
    return data_dir


def check_resolved_utf8(paths: Mapping[str, Any]) -> None:
    """Refuse a path (``paths``: by the flag that sets it; None: not set) that is UTF-8 as
    given but not once resolved: a link to, or a relative path in, a folder whose name is not
    (a Latin-1 system's ``caf\\xe9``). The run records resolved paths, and such a one ended
    it as "run failed: UnicodeEncodeError" (exit 1) after the corpus was indexed.

    Raises:
        BadInput: one line naming the path as given and as resolved
            (:func:`app.settings.spec.path_not_utf8`), or a path that is (or goes through) a
            link loop (:func:`resolved_path`).
    """
    from app.research.text import utf8_problem
    from app.settings.spec import path_not_utf8

    for label, given in paths.items():
        if given is None or utf8_problem(str(given)):
            continue  # unset, or refused as given already (app.settings.spec.parse_setting)
        resolved = str(resolved_path(label, given))
        check_not_dangling(label, given)
        if where := utf8_problem(resolved):
            raise BadInput(path_not_utf8(label, resolved, where, given=str(given)))


def resolved_path(label: str, given: Any) -> Path:
    """``given`` (a path a flag or variable ``label`` sets) resolved: ``~`` expanded, links
    followed.

    Raises:
        BadInput: the path is, or goes through, a symbolic link loop (a link to itself, or
            links that lead back to one another): it was ``run failed: RuntimeError: Symlink
            loop from '...'`` (exit 1) for every path flag (hostile trial H, F4).
    """
    try:
        return Path(given).expanduser().resolve()
    except (RuntimeError, OSError) as exc:  # RuntimeError up to Python 3.12, OSError ELOOP since
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            raise
        raise BadInput(f"{label} {given}: a symbolic link on this path points back to itself "
                       "(a link loop), so it leads to no file or folder; give the path "
                       "itself") from None


def check_not_dangling(label: str, given: Any) -> None:
    """Refuse ``given`` when it is a symbolic link to nothing that a run could not make: a
    folder the run creates (``--data-dir``, an ``--out`` ending in ``/``: ``mkdir`` of the
    link fails), or a file whose target's folder is missing. It was ``cannot create data dir
    X: File exists``, ``--run-log X exists and is not a run log of this app`` (it exists not),
    and with ``--out X/`` the whole run, then ``cannot write the report: File exists``
    (hostile trial H, F4).

    Raises:
        BadInput: one line naming the link and its missing target.
    """
    link = Path(given).expanduser()
    if not link.is_symlink() or link.exists():
        return
    target = link.parent / os.readlink(link)
    makes_folder = label in ("--data-dir", "RESEARCH_DATA_DIR") or str(given).endswith(("/", "\\"))
    if makes_folder or not target.parent.is_dir():
        raise BadInput(f"{label} {given} is a link to {target}, which does not exist: create "
                       "it, or give another path")


def validate_paths(settings: Settings) -> None:
    """Refuse unusable paths before anything is written: the data dir (its database files,
    ``locks/``), the corpus folder, ``--run-log``, the report's ``--out`` (or ``reports/``).

    Raises:
        BadInput: one line naming the path.
    """
    folder = settings.corpus_folder(settings.corpus_name)  # ConfigError: an unknown name
    check_resolved_utf8({path_label("data_dir"): settings.data_dir,
                         path_label("corpus"): folder, "--out": settings.report_out,
                         "--run-log": settings.run_log,
                         path_label("mcp_config"): settings.mcp_config})
    data_dir = check_writable_data_dir(settings)
    check_run_log(settings.run_log)
    if folder is not None:
        from workers.sources.folder import corpus_folder

        # CorpusError: missing, not a folder, empty (its data dir and reports aside)
        corpus_folder(folder, probe=True, max_file_bytes=settings.max_file_bytes,
                      data_dir=settings.data_dir, language=settings.corpus_language)
    out = settings.report_out
    if out is None:  # <data_dir>/reports/: checked with the data dir's other write targets
        from app.research.report_files import report_path

        check_writable_folder(report_path(None, data_dir, "report.md").parent)
        return
    from app.research.report_files import not_replaceable, report_path

    if Path(out).exists() and not Path(out).is_dir() and not out.endswith(("/", "\\")):
        if why := not_replaceable(Path(out)):
            raise BadInput(f"--out {out} {why}; refusing to overwrite it (name a new file, "
                           "or a folder)")

    folder = report_path(out, data_dir, "report.md").parent
    if folder.exists() and not folder.is_dir():
        raise BadInput(f"--out {out}: {folder} is a file, not a folder")
    existing = nearest_existing(folder)
    if existing is None or not existing.is_dir() or not writable(existing):
        raise BadInput(f"--out {out}: cannot write there")


def check_run_log(run_log: str | None) -> None:
    """``--run-log FILE`` must be a file that can be appended to, or one that can be made in an
    existing folder (it is opened only as workers finish: a bad path failed the run mid-map).
    A file that is there already must be empty or a run log of this app
    (:func:`workers.sources.walk.is_run_log`): any other is the user's, or a database.

    Raises:
        BadInput: one line naming the flag.
    """
    if run_log is None:
        return
    from workers.sources.walk import is_run_log

    path = Path(run_log).expanduser().resolve()  # a link's target
    if path.is_dir():
        raise BadInput(f"--run-log {run_log} is a folder; it takes a file (a line is appended "
                       "per worker task)")
    if path.exists():
        if not path.is_file():  # a FIFO hung the run at its first task
            raise BadInput(f"--run-log {run_log} is not a regular file; it takes a file (a "
                           "line is appended per worker task)")
        if not os.access(path, os.W_OK):
            raise BadInput(f"--run-log {run_log}: cannot write there (no permission)")
        if not is_run_log(path) and (path.stat().st_size or _app_file(path.name)):
            # else a user's .docx, a corpus file and results.sqlite were appended to; --out
            # never writes over what it did not write either (nor the data dir's empty WAL or
            # lock files)
            raise BadInput(f"--run-log {run_log} exists and is not a run log of this app (it "
                           "does not begin with one's lines); refusing to append to it (name "
                           "a new file)")
        return
    folder = path.parent
    if not folder.is_dir() or not writable(folder):
        raise BadInput(f"--run-log {run_log}: cannot write there ({folder} is not a writable "
                       "folder)")


def _app_file(name: str) -> bool:
    """Whether a file name is one of a data dir's own (a database, its WAL or journal, a
    lock): empty, it is still no run log."""
    return ".sqlite" in name or name.endswith((".lock", "-wal", "-shm", "-journal"))


def check_fail_workers(settings: Settings) -> None:
    """``--fail-worker`` must name registered workers.

    Raises:
        BadInput: an unknown name (the known ones are listed).
    """
    if not settings.fail_workers:
        return
    from app.runs.faults import parse_fail_worker
    from workers.registry import registered  # imports the agent stack: only when needed

    known = {w.name for w in registered(web=settings.web)}
    for spec in settings.fail_workers:
        name, _ = parse_fail_worker(spec)
        if name not in known:
            raise BadInput(f"--fail-worker: no worker {name!r}; known: {', '.join(sorted(known))}")


def check_flag_conflicts(flags: Mapping[str, Any]) -> None:
    """Refuse flags that contradict each other: ``--corpus DIR`` with ``--corpus-name NAME``
    (the name won, and the folder was dropped without a word). ``RESEARCH_CORPUS`` with
    ``--corpus-name`` is no contradiction: the variable is the default the name replaces.

    Args:
        flags: the settings given as flags (:func:`app.cli.parser.flag_overrides`).

    Raises:
        BadInput: one line naming both flags and their values.
    """
    if "corpus" in flags and "corpus_name" in flags:
        raise BadInput(f"--corpus {flags['corpus']} and --corpus-name {flags['corpus_name']} "
                       "both choose the corpus: give one of them")
