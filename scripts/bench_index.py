"""Benchmark the folder index build on HTML: its throughput next to a plain read of the same files.

Run it::

    uv run python scripts/bench_index.py                       # Debian's HTML manuals, if installed
    uv run python scripts/bench_index.py --folder DIR          # your own folder of .html files
    uv run python scripts/bench_index.py --generate 20         # 20 MB of generated HTML pages

What it measures (issue 19, section 4: the target is >= 10 MB/s of HTML on the project's 2-core
machine): in one process, on one folder,

* **read**: every ``.html`` file read into memory (``Path.read_bytes``), after one untimed warm-up
  read, so both timings see a warm page cache;
* **build**: ``Corpus.open`` on a fresh data dir (walk, read, lxml parse, navigation stripping,
  chunking, the SQLite FTS5 insert and optimize), the whole build the user waits for, with the
  file readers (lxml, pypdf, python-docx) imported beforehand: an import is paid once per
  process, and where bytecode is not cached (``PYTHONDONTWRITEBYTECODE``) pypdf's alone costs
  more than a second, which would be counted against the one PDF of sqlite3-doc's folder.

It prints each one's MB/s (MB = 10**6 bytes of HTML) and the ratio build / read: what parsing and
indexing cost over reading; then the build's CPU time, all its threads and its helper processes
counted (the pages are parsed by the building process and ``--helpers`` helper processes, default
``workers.sources.page_pool.HELPERS``: :mod:`workers.sources.page_pool`), and the load average
before and after: on a shared machine the wall clock also counts other processes'
turns, so ``--repeat N`` builds N times and reports the fastest build.

The default folder is the first of the Debian packages' HTML found (``sqlite3-doc``:
/usr/share/doc/sqlite3, ``git-doc``: /usr/share/doc/git-doc); without any of them, or with
``--generate MB``, it writes manual-like pages (a title, navigation, headings, paragraphs, a
table) into a temp dir. Exit status 2 with a one-line error on a bad folder; it
never gates on the speed.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEBIAN_HTML = (Path("/usr/share/doc/sqlite3"), Path("/usr/share/doc/git-doc"))
_WORDS = ("checkpoint thread state graph node edge reducer channel stream interrupt resume "
          "config schema value default setting option index query table column row commit "
          "branch merge rebase remote fetch write read lock journal page cache").split()


def html_files(folder: Path) -> list[Path]:
    """The ``.html`` files under ``folder`` (any depth), sorted."""
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".html" and p.is_file())


def generate(folder: Path, megabytes: float, seed: int = 19) -> None:
    """Write manual-like HTML pages (about 40 KB each) until ``megabytes`` MB are written."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    written, n = 0, 0
    while written < megabytes * 1e6:
        n += 1

        def sentence() -> str:
            return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 20))).capitalize()

        body = []
        for h in range(6):
            body.append(f"<h2>Section {h} {rng.choice(_WORDS)}</h2>")
            body += [f"<p>{'. '.join(sentence() for _ in range(4))}.</p>" for _ in range(8)]
            cells = "".join(f"<td>{rng.choice(_WORDS)}</td>" for _ in range(4))
            body.append(f"<table><tr>{cells}</tr><tr>{cells}</tr></table>")
        page = (f"<html><head><title>Page {n}: {rng.choice(_WORDS)}</title>"
                "<style>p { margin: 0 }</style></head><body>"
                "<div class='nav'><a href='p'>Prev</a> <a href='u'>Up</a> <a href='h'>Home</a> "
                f"<a href='n'>Next</a></div><h1>Page {n}</h1>{''.join(body)}"
                "<div class='footer'>Copyright the authors. Generated for the benchmark.</div>"
                "</body></html>")
        data = page.encode()
        (folder / f"page{n:05d}.html").write_bytes(data)
        written += len(data)


def measure(folder: Path, data_dir: Path, repeat: int = 1) -> dict[str, float]:
    """Time a plain read of the folder's HTML files and a full index build of the folder (the
    fastest of ``repeat`` builds, each into a fresh data dir under ``data_dir``); the CPU time
    is the build's process time (every thread's) and its helper processes' (waited for by the
    build)."""
    import docx  # noqa: F401 - warm-up imports: see the module docstring
    import pypdf  # noqa: F401

    import workers.sources.htmlpage  # noqa: F401
    from workers.sources import Corpus

    files = html_files(folder)
    if not files:
        raise SystemExit(f"bench_index: no .html files under {folder}")
    total = sum(len(p.read_bytes()) for p in files)  # warm-up: both timings see a warm cache
    started = time.perf_counter()
    for path in files:
        path.read_bytes()
    read_s = time.perf_counter() - started
    builds = []
    for n in range(max(1, repeat)):
        started, cpu = time.perf_counter(), time.process_time() + _children_cpu()
        with Corpus.open(data_dir / f"build{n}", folder=folder) as corpus:
            builds.append((time.perf_counter() - started,
                           time.process_time() + _children_cpu() - cpu, corpus.passage_count()))
    build_s, build_cpu, passages = min(builds)
    mb = total / 1e6
    return {"files": len(files), "mb": mb, "read_s": read_s, "build_s": build_s,
            "read_mbs": mb / max(read_s, 1e-9), "build_mbs": mb / max(build_s, 1e-9),
            "build_cpu_s": build_cpu, "build_cpu_mbs": mb / max(build_cpu, 1e-9),
            "passages": passages}


def _children_cpu() -> float:
    """CPU seconds of this process's finished child processes (the build's helpers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, help="a folder of .html files to index")
    parser.add_argument("--generate", type=float, metavar="MB",
                        help="index this many MB of generated HTML instead")
    parser.add_argument("--helpers", type=int, metavar="N",
                        help="helper processes that parse pages beside the build (default: "
                             "HELPERS, one per other core)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="build N times and report the fastest (default 1)")
    args = parser.parse_args(argv)
    if (args.helpers is not None and args.helpers < 0) or args.repeat < 1:
        print("bench_index: --helpers must be at least 0, --repeat at least 1", file=sys.stderr)
        return 2
    from workers.sources import folder as folder_source

    if args.helpers is not None:
        folder_source.HELPERS = args.helpers
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        if args.folder is not None:
            folder = args.folder.expanduser()
            if not folder.is_dir():
                print(f"bench_index: not a folder: {folder}", file=sys.stderr)
                return 2
            what = str(folder)
        else:
            found = [d for d in DEBIAN_HTML if d.is_dir() and html_files(d)]
            if found and args.generate is None:
                folder, what = found[0], str(found[0])
            else:
                folder = Path(tmp) / "html"
                generate(folder, args.generate if args.generate is not None else 20.0)
                what = "generated HTML"
        m = measure(folder, Path(tmp) / "data", args.repeat)
    print(f"folder: {what} ({m['files']:,} files, {m['mb']:.1f} MB, "
          f"{m['passages']:,} passages)")
    print(f"{'step':<8}{'seconds':>9}{'MB/s':>10}")
    print(f"{'read':<8}{m['read_s']:>9.3f}{m['read_mbs']:>10.1f}")
    print(f"{'build':<8}{m['build_s']:>9.3f}{m['build_mbs']:>10.1f}")
    print(f"build / read time: {m['build_s'] / max(m['read_s'], 1e-9):.1f}x")
    helpers = folder_source.HELPERS
    helped = f"{helpers} helper process{'' if helpers == 1 else 'es'}"
    print(f"build CPU: {m['build_cpu_s']:.3f} s, all threads and helpers ({m['build_cpu_mbs']:.1f} "
          f"MB per CPU second; {helped}; load average "
          f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
