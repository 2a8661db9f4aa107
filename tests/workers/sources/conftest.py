"""Fixtures and helpers of the source tests: the package-docs corpus (built once per session),
and a small folder corpus with every kind of file the folder source must keep or skip."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

import workers.sources.folder as folder_mod
from workers.sources import (
    Corpus,
)

REPO = Path(__file__).resolve().parents[3]

HOSTILE_QUERIES = [
    "",
    "   ",
    '"',
    '""',
    '"unbalanced quote',
    "'",
    "AND OR NOT NEAR",
    "checkpoint AND",
    "OR",
    "NEAR(checkpoint writes, 2)",
    "*",
    "check*",
    "title:checkpoint",
    ":",
    "a:b:c",
    "((( checkpoint",
    ")",
    "-checkpoint",
    "- -- ---",
    "^checkpoint",
    "{title text}: state",
    "+",
    "checkpoint; DROP TABLE passages; --",
    "' OR 1=1 --",
    "\"; DELETE FROM passages WHERE 1=1; --",
    "x' UNION SELECT * FROM meta --",
    "ünïcödé naïve café Zürich",
    "日本語のテキスト 检查点",
    "🚀🔥 checkpoint 🧪",
    "\x00\x01\x02 checkpoint",
    "\\ / \\\\",
    "__ ___ _",
    "a",
    "the of and is",
    "checkpoint " * 3000,
    "x" * 10_000,
    " ".join(f"word{i}" for i in range(2000)),
    "%_%",
    "NULL",
    "\t\n\r",
]


# --------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="session")
def pkg_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corpus-pkg")


@pytest.fixture(scope="session")
def pkg(pkg_dir: Path):
    """The default-packages corpus, built once for the session."""
    started = time.perf_counter()
    corpus = Corpus.open(pkg_dir)
    corpus.build_wall_seconds = time.perf_counter() - started  # type: ignore[attr-defined]
    yield corpus
    corpus.close()


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def make_folder(root: Path) -> Path:
    """A small folder corpus whose sentences are known (and found nowhere else)."""
    write(
        root,
        "guide.md",
        """
        # Zebra guide

        The zebra protocol synchronizes quokka ledgers every night.

        Quokka ledgers are append-only.
        """,
    )
    write(root, "notes.txt", "Marmalade turbines spin counterclockwise during eclipses.\n")
    write(
        root,
        "docs/reference.rst",
        """
        Reference
        =========

        The pelican cache evicts sardines after ninety seconds.
        """,
    )
    write(
        root,
        "pkg/scheduler.py",
        '''
        """Flamingo scheduler: it balances lagoon shifts across the flock."""


        class Roster:
            """A roster pairs each flamingo with exactly one lagoon."""

            def rotate(self):
                """Rotate the roster so every flamingo visits the northern lagoon."""


        def _private_helper():
            """Platypus secrets must never be indexed from private helpers."""
        ''',
    )
    write(root, "pkg/plain.py", "OCELOT_CONSTANT = 'ocelot firmware checksum'\n")
    write(
        root,
        "site/page.html",
        """
        <html><head><title>Narwhal page</title><style>.x { color: red }</style></head>
        <body><h1>Narwhals</h1>
        <p>Narwhal tusks detect salinity &amp; temperature changes.</p>
        <script>var hiddenscriptword = 1;</script>
        <p>Second<br>line about <b>walrus</b> diplomacy.</p></body></html>
        """,
    )
    write(root, ".hidden/secret.md", "Gorgonzola hidden file must not be indexed.\n")
    write(root, "data.json", '{"armadillo": "json files are not indexed"}\n')
    (root / "big.txt").write_bytes(b"capybara " * (folder_mod.MAX_FILE_BYTES // 9 + 10))
    return root


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return make_folder(tmp_path / "docs-folder")


@pytest.fixture
def folder_corpus(folder: Path, tmp_path: Path):
    corpus = Corpus.open(tmp_path / "data", folder=folder)
    yield corpus
    corpus.close()


def cache_files(data_dir: Path) -> list[Path]:
    return sorted(data_dir.glob("corpus-*.sqlite"))




def traced_sql(monkeypatch: pytest.MonkeyPatch, module: object, needle: str) -> list[str]:
    """Each SQL statement holding ``needle`` that connections opened through ``module``'s
    ``sqlite3.connect`` run from now on (the list fills as they run)."""
    import sqlite3

    seen: list[str] = []
    real = sqlite3.connect

    def connect(*args, **kwargs):
        con = real(*args, **kwargs)
        con.set_trace_callback(lambda sql: needle in sql and seen.append(sql))
        return con

    monkeypatch.setattr(module.sqlite3, "connect", connect)  # type: ignore[attr-defined]
    return seen
