"""The corpus the workers search: real text, indexed into SQLite FTS5 and ranked by bm25.

Two sources:

* **package docs** (the default): the docstrings of the public modules, classes, functions and
  methods of the installed packages in ``DEFAULT_PACKAGES`` plus Python's own pydoc topics
  (``pydoc_data.topics``). Docstrings are read by parsing the source files with :mod:`ast`, never
  by importing the submodules: fast, free of side effects, and deterministic.
* **a folder** (``Corpus.open(data_dir, folder=DIR)``): the ``.md``, ``.txt``, ``.rst``, ``.py``
  and ``.html`` files under ``DIR`` (not hidden, at most ``MAX_FILE_BYTES``, and not binary: no
  NUL byte and little undecodable text at the start). A file name that is not valid UTF-8 is
  indexed under an escaped ref (``b"n\\xe9e.md"`` is cited as ``n\\xe9e.md#0``). When nothing
  is left, the ``CorpusError`` says why (too large, binary, other types...).

Each document is split into paragraph-sized passages (at most ``MAX_PASSAGE_CHARS`` characters,
cut on paragraph, then sentence, then word boundaries). A passage's ``ref`` is
``"<doc_id>#<n>"``, e.g. ``"langgraph.types.RetryPolicy#0"``, ``"pydoc:for#1"`` or
``"docs/guide.md#2"``: short, unique and the same across rebuilds of the same inputs.

The index is built once and cached in the data dir as ``corpus-<kind>-<fingerprint>.sqlite``.
The fingerprint covers the package versions and the package source files (paths, sizes, mtimes)
or the folder's files (paths, sizes, mtimes), so a change rebuilds it. A build writes a temporary
file and ``os.replace``-s it into place, so a crash never leaves half an index and two processes
building at once both end up with a complete one; the temp files of killed builds are removed by
the next build (see ``_remove_orphan_temps``). Readers open the file read-only, from a small
pool of connections that any number of threads can share.

Search (``Corpus.search``) turns any text into word tokens, drops stopwords, quotes each token as
an FTS5 string and ORs them, so no input can be an FTS5 syntax error; FTS5's ``porter unicode61``
tokenizer stems both sides and its ``bm25`` ranks the passages over two columns: the passage text
and its document's title with identifiers split into words (``RetryPolicy`` -> "retry policy").

This module imports only the standard library.
"""

from __future__ import annotations

import ast
import hashlib
import html.parser
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import sqlite3
import stat
import textwrap
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DEFAULT_PACKAGES",
    "EXCLUDED_MODULES",
    "FOLDER_EXTENSIONS",
    "MAX_PASSAGE_CHARS",
    "Corpus",
    "CorpusError",
    "Document",
    "Passage",
    "chunk_text",
    "query_to_fts",
    "title_terms",
]

DEFAULT_PACKAGES: tuple[str, ...] = ("langgraph", "langchain_core", "langchain", "pydantic")
"""Top-level import names whose docstrings make up the default corpus."""

EXCLUDED_MODULES: tuple[str, ...] = ("pydantic.v1",)
"""Module prefixes left out of the package corpus (``pydantic.v1`` is a vendored copy of the old
major version: indexing it would answer questions about pydantic 2 with pydantic 1 docs)."""

FOLDER_EXTENSIONS: tuple[str, ...] = (".md", ".txt", ".rst", ".py", ".html")
"""File types indexed in folder mode (matched case-insensitively)."""

MAX_PASSAGE_CHARS = 800
"""Upper bound on a passage's length; passages are cut on paragraph/sentence/word boundaries."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""Folder files larger than this are skipped."""

SNIFF_BYTES = 8192
"""A folder file whose first ``SNIFF_BYTES`` bytes hold a NUL byte is binary and skipped."""

MAX_GARBAGE_SHARE = 0.25
"""A folder file whose first ``SNIFF_BYTES`` decoded characters are more than this share of
replacement characters (undecodable bytes) and control characters is binary and skipped."""

STALE_TMP_SECONDS = 15 * 60
"""A build's temp file this old (or whose builder process is gone) is an orphan of a killed build
and is removed by the next build."""

MIN_DOCSTRING_CHARS = 30
"""Docstrings shorter than this (after stripping) carry too little to be worth a passage."""

MAX_QUERY_TOKENS = 32
"""At most this many distinct query tokens are OR-ed into one FTS5 query."""

MAX_K = 50
"""``search`` returns at most this many passages whatever ``k`` asks for."""

_SCHEMA_VERSION = "3"  # bump when the index layout or the extraction rules change
_SKIP_DIRS = frozenset({"tests", "test", "__pycache__", "node_modules"})
_PUBLIC_DUNDERS = frozenset({"__init__", "__call__"})  # documented protocol methods worth keeping

_STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor not of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves
    """.split()
)


class CorpusError(Exception):
    """The corpus cannot be opened or used; the message is one line, fit to print to a user."""


class _NoText(CorpusError):
    """The sources yielded no passage at all."""


@dataclass(frozen=True)
class Passage:
    """One searchable chunk of a document.

    Attributes:
        ref: stable citation id of this passage, ``"<doc_id>#<n>"`` (n counts from 0).
        doc_id: the document: a qualified Python name, ``"pydoc:<topic>"`` or a relative path.
        title: human title, e.g. ``"langgraph.types.RetryPolicy"`` or a file name.
        source: where the text came from, e.g.
            ``"langgraph 1.2.24 docstring: langgraph.types.RetryPolicy"`` or ``"docs/guide.md"``.
        text: the passage text.
        score: relevance from ``Corpus.search`` (negated bm25, higher is better); 0.0 otherwise.
    """

    ref: str
    doc_id: str
    title: str
    source: str
    text: str
    score: float = 0.0


@dataclass(frozen=True)
class Document:
    """A whole document as returned by ``Corpus.read``: its passages joined by blank lines
    (possibly cut to ``max_chars``, in which case the cut is marked with ``[…]``)."""

    doc_id: str
    title: str
    source: str
    text: str


# --------------------------------------------------------------------------------------------
# Text helpers


_PARA_SPLIT = re.compile(r"\n[ \t]*\n+")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=\S)")


def _hard_split(text: str, limit: int) -> Iterator[str]:
    """Cut a text with no usable sentence boundary at whitespace (or at ``limit`` if none)."""
    while len(text) > limit:
        cut = text.rfind(" ", 0, limit + 1)
        if cut <= limit // 4:
            cut = text.rfind("\n", 0, limit + 1)
        if cut <= limit // 4:
            cut = limit
        head, text = text[:cut].rstrip(), text[cut:].lstrip()
        if head:
            yield head
    if text:
        yield text


def _pack(pieces: Iterable[str], limit: int, sep: str) -> list[str]:
    """Greedily pack pieces (each at most ``limit`` long) into chunks of at most ``limit``."""
    chunks: list[str] = []
    current = ""
    for piece in pieces:
        if not current:
            current = piece
        elif len(current) + len(sep) + len(piece) <= limit:
            current = f"{current}{sep}{piece}"
        else:
            chunks.append(current)
            current = piece
    if current:
        chunks.append(current)
    return chunks


def chunk_text(text: str, max_chars: int = MAX_PASSAGE_CHARS) -> list[str]:
    """Split ``text`` into passages of at most ``max_chars`` characters.

    Paragraphs (separated by blank lines) are packed together while they fit; a paragraph that is
    too long is split into sentences, and a sentence that is too long is cut at whitespace.
    Deterministic; returns ``[]`` for blank text.
    """
    pieces: list[str] = []
    for para in _PARA_SPLIT.split(text.replace("\r\n", "\n").replace("\r", "\n")):
        para = para.strip("\n").rstrip()
        if not para.strip():
            continue
        if len(para) <= max_chars:
            pieces.append(para)
            continue
        sentences: list[str] = []
        for sentence in _SENTENCE_SPLIT.split(para.strip()):
            sentences.extend(_hard_split(sentence, max_chars))
        pieces.extend(_pack(sentences, max_chars, " "))
    return [textwrap.dedent(chunk).strip() for chunk in _pack(pieces, max_chars, "\n\n")]


def query_to_fts(query: str) -> str | None:
    """Turn any user text into a safe FTS5 query, or None when nothing searchable is left.

    The text is lower-cased and split into word tokens; stopwords, one-character tokens and
    duplicates are dropped; at most ``MAX_QUERY_TOKENS`` are kept. Each token is quoted as an FTS5
    string (so ``AND``/``NEAR``/``*``/``:``/quotes are plain words) and the tokens are OR-ed, so
    bm25 ranks passages by how many (and how rare) query words they contain.
    """
    seen: dict[str, None] = {}
    for token in re.findall(r"\w+", query.lower()):
        if len(token) < 2 or token in _STOPWORDS or not any(c.isalnum() for c in token):
            continue
        seen.setdefault(token, None)
        if len(seen) >= MAX_QUERY_TOKENS:
            break
    if not seen:
        return None
    return " OR ".join('"' + token.replace('"', '""') + '"' for token in seen)


_IDENT_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def title_terms(title: str) -> str:
    """The searchable words of a title: the title itself plus its identifiers split into words,
    so ``"langgraph.types.RetryPolicy"`` is also found by "retry policy" and
    ``"get_state_history"`` by "state history"."""
    whole = set(re.findall(r"[^\W_]+", title.lower()))
    extra = dict.fromkeys(w.lower() for w in _IDENT_WORDS.findall(title))
    words = [w for w in extra if w not in whole]
    return f"{title} {' '.join(words)}" if words else title


class _HTMLText(html.parser.HTMLParser):
    """Collect the visible text of an HTML page, keeping block elements as paragraphs."""

    _BLOCK = frozenset(
        "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 "
        "h4 h5 h6 header hr li main nav ol p pre section table tbody td th thead tr ul".split()
    )
    _HIDDEN = frozenset({"script", "style", "noscript", "template", "head"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDDEN:
            self._hidden += 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in self._BLOCK:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)

    def text(self) -> str:
        raw = "".join(self.parts)
        paras = (" ".join(p.split()) for p in _PARA_SPLIT.split(raw))
        return "\n\n".join(p for p in paras if p)


def html_to_text(source: str) -> str:
    """Visible text of an HTML document (tags, scripts and styles removed), one paragraph per
    block element."""
    parser = _HTMLText()
    parser.feed(source)
    parser.close()
    return parser.text()


def _docstrings(tree: ast.Module, module: str) -> list[tuple[str, str, str]]:
    """``(qualified_name, kind, docstring)`` for the module and its public classes, functions and
    methods, in source order. Descends into classes and into ``if``/``try``/``with`` blocks, not
    into function bodies. Private names (leading ``_``) are skipped, except ``__init__`` and
    ``__call__``.
    """
    found: list[tuple[str, str, str]] = []
    doc = ast.get_docstring(tree, clean=True)
    if doc:
        found.append((module, "module", doc))

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = node.name
                if name.startswith("_") and name not in _PUBLIC_DUNDERS:
                    continue
                qual = f"{prefix}.{name}"
                text = ast.get_docstring(node, clean=True)
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                if text:
                    found.append((qual, kind, text))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, qual)
            elif isinstance(node, ast.If):
                visit(node.body, prefix)
                visit(node.orelse, prefix)
            elif isinstance(node, ast.Try):
                visit(node.body, prefix)
                for handler in node.handlers:
                    visit(handler.body, prefix)
                visit(node.orelse, prefix)
                visit(node.finalbody, prefix)
            elif isinstance(node, ast.With | ast.AsyncWith):
                visit(node.body, prefix)

    visit(tree.body, module)
    return found


# --------------------------------------------------------------------------------------------
# Sources: each yields documents (doc_id, title, source, text)


@dataclass(frozen=True)
class _Doc:
    doc_id: str
    title: str
    source: str
    text: str


def _package_roots(package: str) -> list[Path]:
    """The directories (or the single file) a top-level package is loaded from, without importing
    it. Raises CorpusError when the package is not installed."""
    if not package or "." in package:
        raise CorpusError(f"not a top-level package name: {package!r}")
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError) as exc:  # pragma: no cover - defensive
        raise CorpusError(f"cannot locate package {package!r}: {exc}") from None
    if spec is None:
        raise CorpusError(f"package {package!r} is not installed")
    if spec.submodule_search_locations:
        return sorted({Path(p) for p in spec.submodule_search_locations})
    if spec.origin and spec.origin.endswith(".py"):
        return [Path(spec.origin)]
    raise CorpusError(f"package {package!r} has no Python source to read docstrings from")


def _module_files(package: str) -> list[tuple[str, Path]]:
    """``(module_name, path)`` of the public, non-test source files of a package, sorted."""
    out: dict[str, Path] = {}
    for root in _package_roots(package):
        if root.is_file():
            out.setdefault(package, root)
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(
                d
                for d in dirnames
                if not d.startswith((".", "_")) and d not in _SKIP_DIRS and d.isidentifier()
            )
            rel = Path(dirpath).relative_to(root).parts
            for filename in sorted(filenames):
                if not filename.endswith(".py"):
                    continue
                stem = filename[:-3]
                if stem == "__init__":
                    parts = rel
                elif stem.startswith("_") or stem.startswith("test_") or not stem.isidentifier():
                    continue
                else:
                    parts = (*rel, stem)
                module = ".".join((package, *parts))
                if any(module == ex or module.startswith(ex + ".") for ex in EXCLUDED_MODULES):
                    continue
                out.setdefault(module, Path(dirpath) / filename)
    return sorted(out.items())


def _dist_label(package: str) -> str:
    """``"name version"`` of the distribution that provides a top-level package."""
    try:
        name = importlib.metadata.metadata(package)["Name"]
        return f"{name} {importlib.metadata.version(package)}"
    except importlib.metadata.PackageNotFoundError:
        return package


def _file_labels(package: str) -> dict[str, str]:
    """Map each source file (resolved path) of a package to the ``"dist version"`` that installed
    it; namespace packages such as ``langgraph`` are spread over several distributions."""
    labels: dict[str, str] = {}
    try:
        dists = importlib.metadata.packages_distributions().get(package, [])
    except Exception:  # pragma: no cover - defensive: broken metadata must not break the build
        dists = []
    for name in dict.fromkeys(dists):
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        label = f"{dist.metadata['Name']} {dist.version}"
        for file in dist.files or ():
            if str(file).endswith(".py"):
                labels.setdefault(os.path.realpath(dist.locate_file(file)), label)
    return labels


def _package_docs(packages: Sequence[str]) -> Iterator[_Doc]:
    """Docstring documents of the given packages, then the pydoc topics; identical docstrings
    are kept once (the first, in sorted module order)."""
    seen_text: set[str] = set()
    seen_id: set[str] = set()
    for package in packages:
        fallback = _dist_label(package)
        labels = _file_labels(package)
        for module, path in _module_files(package):
            try:
                tree = ast.parse(path.read_bytes(), filename=str(path))
            except (SyntaxError, ValueError, OSError):
                continue
            label = labels.get(os.path.realpath(path), fallback)
            for qual, _kind, doc in _docstrings(tree, module):
                doc = doc.strip()
                if len(doc) < MIN_DOCSTRING_CHARS or qual in seen_id:
                    continue
                digest = hashlib.blake2b(doc.encode(), digest_size=16).digest()
                if digest in seen_text:
                    continue
                seen_text.add(digest)
                seen_id.add(qual)
                yield _Doc(qual, qual, f"{label} docstring: {qual}", doc)
    yield from _pydoc_docs()


def _pydoc_docs() -> Iterator[_Doc]:
    try:
        from pydoc_data.topics import topics
    except ImportError:  # pragma: no cover - some distributions strip pydoc_data
        return
    version = platform.python_version()
    for name in sorted(topics):
        text = topics[name].strip()
        if len(text) >= MIN_DOCSTRING_CHARS:
            yield _Doc(
                f"pydoc:{name}",
                f"pydoc topic: {name}",
                f"Python {version} pydoc topic: {name}",
                text,
            )


_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def _safe_name(name: str) -> str:
    r"""``name`` made fit for UTF-8 text (SQLite, JSON, a terminal): bytes that were not UTF-8
    (which ``os`` hands over as lone surrogates) and control characters become ``\xNN``; other
    names are returned unchanged. ``b"n\xe9e.md"`` -> ``"n\\xe9e.md"``."""
    if not _UNSAFE_NAME.search(name):
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # surrogateescape'd byte
            out.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(ch)
    return "".join(out)


def _raw(text: str) -> bytes:
    """Bytes of any str, lone surrogates included (deterministic, never raises)."""
    return text.encode("utf-8", "surrogatepass")


def _folder_files(
    folder: Path, skipped: Counter[str] | None = None
) -> list[tuple[str, Path, os.stat_result]]:
    """``(ref_path, path, stat)`` of the indexable files under ``folder``, sorted.

    ``ref_path`` is the relative POSIX path, made safe by :func:`_safe_name` when the name is
    not valid UTF-8 (and suffixed ``~2``, ``~3``... should that collide with another file's), so
    refs stay unique and printable. Hidden files and directories, other file types, special files
    and files over ``MAX_FILE_BYTES`` are skipped and counted in ``skipped`` (keys ``hidden``,
    ``type``, ``special``, ``size``, ``unreadable``)."""
    if skipped is None:
        skipped = Counter()
    found: list[tuple[str, Path, os.stat_result]] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        kept = []
        for d in sorted(dirnames):
            if d.startswith("."):
                skipped["hidden"] += 1
            elif d != "__pycache__":
                kept.append(d)
        dirnames[:] = kept
        for filename in sorted(filenames):
            if filename.startswith("."):
                skipped["hidden"] += 1
                continue
            if not filename.lower().endswith(FOLDER_EXTENSIONS):
                skipped["type"] += 1
                continue
            path = Path(dirpath) / filename
            try:
                st = path.stat()
            except OSError:
                skipped["unreadable"] += 1
                continue
            if not stat.S_ISREG(st.st_mode):
                skipped["special"] += 1
            elif st.st_size > MAX_FILE_BYTES:
                skipped["size"] += 1
            else:
                found.append((path.relative_to(folder).as_posix(), path, st))
    found.sort(key=lambda item: _raw(item[0]))
    if not any(_UNSAFE_NAME.search(rel) for rel, _p, _st in found):
        return found
    # Names that need escaping come second: a file really named like an escaped one keeps its
    # name, the escaped one takes the next free "~n"; the order is sorted, so refs are stable.
    taken = {rel for rel, _p, _st in found if not _UNSAFE_NAME.search(rel)}
    out = []
    for rel, path, st in found:
        if _UNSAFE_NAME.search(rel):
            base = shown = _safe_name(rel)
            n = 1
            while shown in taken:
                n += 1
                shown = f"{base}~{n}"
            taken.add(shown)
            rel = shown
        out.append((rel, path, st))
    return out


_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _decode_text(raw: bytes) -> str | None:
    """The text of a file's bytes (UTF-8 with replacement, or UTF-16 with a BOM), or None when
    they look binary: a NUL byte in the first ``SNIFF_BYTES``, or more than
    ``MAX_GARBAGE_SHARE`` of replacement and control characters at the start of the text."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            return None
    elif b"\0" in raw[:SNIFF_BYTES]:
        return None
    else:
        text = raw.decode("utf-8-sig", errors="replace")
    sample = text[:SNIFF_BYTES]
    garbage = sample.count("\ufffd") + len(_CONTROL_CHARS.findall(sample))
    return None if garbage > MAX_GARBAGE_SHARE * len(sample) else text


def _python_file_text(source: str, rel: str) -> str:
    """The docstrings of a Python file (module first, then each public class/function headed by
    its name), or the file text when it has none or does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    module = Path(rel).stem
    sections = []
    for qual, kind, doc in _docstrings(tree, module):
        if kind == "module":
            sections.append(doc.strip())
        else:
            name = qual.split(".", 1)[1]
            sections.append(f"{name}{'()' if kind == 'function' else ''}:\n{doc.strip()}")
    return "\n\n".join(s for s in sections if s) or source


def _folder_docs(
    files: list[tuple[str, Path, os.stat_result]], skipped: Counter[str] | None = None
) -> Iterator[_Doc]:
    """The documents of ``files``; unreadable, binary and blank files are left out and counted in
    ``skipped`` (keys ``unreadable``, ``binary``, ``blank``)."""
    if skipped is None:
        skipped = Counter()
    for rel, path, _st in files:
        try:
            raw = path.read_bytes()
        except OSError:
            skipped["unreadable"] += 1
            continue
        text = _decode_text(raw)
        if text is None:
            skipped["binary"] += 1
            continue
        suffix = path.suffix.lower()
        if suffix == ".html":
            text = html_to_text(text)
        elif suffix == ".py":
            text = _python_file_text(text, rel)
        if text.strip():
            yield _Doc(rel, rel.rsplit("/", 1)[-1], rel, text)
        else:
            skipped["blank"] += 1


def _size_label(n: int) -> str:
    for unit, size in (("MB", 1024 * 1024), ("KB", 1024)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _nothing_indexable(shown: str, what: str, skipped: Counter[str]) -> str:
    """One line saying why a folder gave no passages, e.g. ``"corpus folder /x contains no
    indexable files: 1 file skipped as larger than 2 MB; indexable: .md .txt .rst .py .html"``."""
    reasons = []
    if skipped["size"]:
        big = _size_label(MAX_FILE_BYTES)
        reasons.append(f"{_plural(skipped['size'], 'file')} skipped as larger than {big}")
    if skipped["binary"]:
        reasons.append(f"{_plural(skipped['binary'], 'file')} skipped as binary")
    if skipped["blank"]:
        reasons.append(f"{_plural(skipped['blank'], 'file')} without text")
    if skipped["unreadable"]:
        reasons.append(f"{skipped['unreadable']} unreadable")
    if skipped["type"]:
        reasons.append(f"{_plural(skipped['type'], 'file')} of other types")
    if skipped["special"]:
        reasons.append(f"{skipped['special']} not regular files")
    if skipped["hidden"]:
        reasons.append(f"{skipped['hidden']} hidden")
    why = ", ".join(reasons) or "the folder is empty"
    exts = " ".join(FOLDER_EXTENSIONS)
    return f"corpus folder {shown} contains no indexable {what}: {why}; indexable: {exts}"


# --------------------------------------------------------------------------------------------
# Fingerprints


def _tree_signature(paths: Iterable[tuple[str, os.stat_result]]) -> str:
    h = hashlib.blake2b(digest_size=16)
    for rel, st in paths:
        h.update(_raw(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n"))
    return h.hexdigest()


def _package_fingerprint(packages: Sequence[str]) -> tuple[str, str]:
    """``(fingerprint, description_prefix)`` of the package corpus: versions, the package source
    files (paths, sizes, mtimes; catches namespace sub-distributions and editable installs), the
    Python version (pydoc topics) and the extraction rules."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"schema={_SCHEMA_VERSION};python={platform.python_version()};".encode())
    h.update(f"excluded={EXCLUDED_MODULES};min={MIN_DOCSTRING_CHARS};max={MAX_PASSAGE_CHARS}".encode())
    labels = []
    for package in packages:
        label = _dist_label(package)
        labels.append(label)
        files = []
        for root in _package_roots(package):
            if root.is_file():
                files.append((root.name, root.stat()))
                continue
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for filename in sorted(filenames):
                    if filename.endswith(".py"):
                        p = os.path.join(dirpath, filename)
                        with suppress(OSError):
                            files.append((os.path.relpath(p, root), os.stat(p)))
        h.update(f"\n{package}={label}:{_tree_signature(files)}".encode())
    pydoc = f"Python {platform.python_version()} pydoc topics"
    desc = f"package docs: {', '.join(labels)} + {pydoc}" if labels else pydoc
    return h.hexdigest(), desc


def _folder_fingerprint(folder: Path, files: list[tuple[str, Path, os.stat_result]]) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(_raw(f"schema={_SCHEMA_VERSION};max={MAX_PASSAGE_CHARS};folder={folder}\n"))
    # The real names (not the escaped refs), so renaming a file always rebuilds.
    tree = ((p.relative_to(folder).as_posix(), st) for _rel, p, st in files)
    h.update(_tree_signature(tree).encode())
    return h.hexdigest()


# --------------------------------------------------------------------------------------------
# Build


_DDL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE docs (
    doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, source TEXT NOT NULL, n_passages INTEGER NOT NULL
);
CREATE TABLE passages (
    id INTEGER PRIMARY KEY, ref TEXT NOT NULL UNIQUE, doc_id TEXT NOT NULL, seq INTEGER NOT NULL,
    title TEXT NOT NULL, source TEXT NOT NULL, text TEXT NOT NULL, terms TEXT NOT NULL
);
CREATE INDEX passages_doc ON passages (doc_id, seq);
CREATE VIRTUAL TABLE passages_fts USING fts5(
    terms, text, content='passages', content_rowid='id', tokenize='porter unicode61'
);
"""


def _build(path: Path, docs: Iterable[_Doc], meta: dict[str, str]) -> dict[str, str]:
    """Write a complete index to ``path`` atomically (temp file + ``os.replace``)."""
    started = time.perf_counter()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        con = sqlite3.connect(tmp)
        try:
            con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _DDL)
            doc_rows: list[tuple[str, str, str, int]] = []
            passage_rows: list[tuple[int, str, str, int, str, str, str, str]] = []
            seen_ids: set[str] = set()
            for doc in docs:
                if doc.doc_id in seen_ids:
                    continue
                chunks = chunk_text(doc.text)
                if not chunks:
                    continue
                seen_ids.add(doc.doc_id)
                doc_rows.append((doc.doc_id, doc.title, doc.source, len(chunks)))
                terms = title_terms(doc.title)
                for seq, chunk in enumerate(chunks):
                    passage_rows.append(
                        (
                            len(passage_rows) + 1,
                            f"{doc.doc_id}#{seq}",
                            doc.doc_id,
                            seq,
                            doc.title,
                            doc.source,
                            chunk,
                            terms,
                        )
                    )
            if not passage_rows:
                raise _NoText("no indexable text found")
            with con:
                con.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)", doc_rows)
                con.executemany(
                    "INSERT INTO passages VALUES (?, ?, ?, ?, ?, ?, ?, ?)", passage_rows
                )
                con.execute(
                    "INSERT INTO passages_fts (rowid, terms, text) "
                    "SELECT id, terms, text FROM passages ORDER BY id"
                )
                con.execute("INSERT INTO passages_fts (passages_fts) VALUES ('optimize')")
                meta = {
                    **meta,
                    "schema": _SCHEMA_VERSION,
                    "passages": str(len(passage_rows)),
                    "documents": str(len(doc_rows)),
                    "build_seconds": f"{time.perf_counter() - started:.3f}",
                    "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                }
                meta["description"] = f"{meta['description']} ({len(passage_rows):,} passages)"
                con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        finally:
            con.close()
        os.replace(tmp, path)
    finally:
        with suppress(FileNotFoundError):
            tmp.unlink()
    return meta


def _read_meta(path: Path) -> dict[str, str] | None:
    """The meta table of a finished index, or None when the file is missing or not an index."""
    if not path.is_file():
        return None
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return dict(con.execute("SELECT key, value FROM meta").fetchall())
        finally:
            con.close()
    except sqlite3.Error:
        return None


@contextmanager
def _build_lock(lock_path: Path) -> Iterator[bool]:
    """An advisory inter-process lock so concurrent openers build once (best effort: without
    ``fcntl`` both build, and the atomic replace still keeps the index whole). Yields whether
    the lock is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield False
        return
    with open(lock_path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


_TMP_NAME = re.compile(
    r"\.corpus-(?P<kind>[a-z]+-[0-9a-f]+)-[0-9a-f]+\.sqlite\.(?P<pid>[0-9]+)\.[0-9a-f]+\.tmp"
)


def _pid_alive(pid: int) -> bool:
    """Whether a process with this id runs on this host (True when it cannot be told)."""
    if pid <= 0:
        return False
    if pid == os.getpid() or os.name != "posix":  # os.kill(pid, 0) terminates it on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: it exists, owned by someone else
        return True
    return True


def _remove_orphan_temps(data_dir: Path, kind: str, locked: bool) -> None:
    """Best effort: delete the temp files that killed builds (SIGKILL, power cut) left behind.

    Builds of one source run under its lock, so while we hold it a temp file of the same source
    belongs to a dead builder: it goes when its pid is gone or it is older than
    ``STALE_TMP_SECONDS`` (the pid may have been reused). A temp file of another source may be
    a live build's (its lock is not ours, or the data dir is shared with another host): it goes
    only when its pid is gone *and* it is that old."""
    now = time.time()
    try:
        candidates = [p for p in data_dir.iterdir() if p.name.endswith(".tmp")]
    except OSError:
        return
    for tmp in candidates:
        match = _TMP_NAME.fullmatch(tmp.name)
        if match is None:
            continue
        try:
            old = now - tmp.stat().st_mtime > STALE_TMP_SECONDS
        except OSError:
            continue
        dead = not _pid_alive(int(match["pid"]))
        if (locked and match["kind"] == kind and (dead or old)) or (dead and old):
            with suppress(OSError):
                tmp.unlink()


# --------------------------------------------------------------------------------------------
# Corpus


_PASSAGE_COLS = "p.ref, p.doc_id, p.title, p.source, p.text"


class Corpus:
    """A read-only, thread-safe full-text index over package docs or a folder.

    Open it with :meth:`Corpus.open`; search with :meth:`search`; resolve citations with
    :meth:`passage` and :meth:`read`; :meth:`close` it when done (or use it as a context manager).
    Any number of threads may call it at once: each call borrows a read-only SQLite connection
    from a pool and returns it.
    """

    def __init__(self, path: Path, meta: dict[str, str], *, built: bool) -> None:
        """Use :meth:`Corpus.open`; this wraps an existing, complete index file."""
        self._path = Path(path)
        self._meta = dict(meta)
        self._built = built
        self._uri = f"{self._path.resolve().as_uri()}?mode=ro&immutable=1"
        self._cond = threading.Condition()
        self._free: list[sqlite3.Connection] = []
        self._all: list[sqlite3.Connection] = []
        self._closed = False
        # Keep one connection open for the corpus's lifetime: should the file be removed (a
        # newer build of a changed folder cleans up stale ones), threads share this one.
        self._release(self._connect())

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        data_dir: Path,
        folder: Path | None = None,
        packages: Sequence[str] = DEFAULT_PACKAGES,
    ) -> Corpus:
        """Open the cached index in ``data_dir``, building it first if missing or stale.

        Args:
            data_dir: directory for the cache (created if missing). The index lives in
                ``data_dir/corpus-<kind>-<fingerprint>.sqlite``.
            folder: index the ``.md/.txt/.rst/.py/.html`` files under this directory instead of
                the package docs.
            packages: top-level import names whose docstrings to index (package mode only);
                Python's pydoc topics are always added.

        Returns:
            An open Corpus; ``corpus.built`` says whether this call built the index.

        Raises:
            CorpusError: the folder is missing, is not a directory or holds no indexable text; a
                package is not installed; the data dir cannot be written.
        """
        data_dir = Path(data_dir).expanduser()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            shown = _safe_name(str(data_dir))
            raise CorpusError(f"cannot create data dir {shown}: {exc.strerror or exc}") from None
        for _attempt in range(3):
            try:
                return cls._open_once(data_dir, folder, packages)
            except sqlite3.Error:
                # The index vanished between its check and its opening: another process built a
                # newer one (the folder changed meanwhile) and cleaned this one up. Start over.
                continue
        shown = _safe_name(str(data_dir))
        raise CorpusError(f"corpus index in {shown} keeps changing while being opened")

    @classmethod
    def _open_once(
        cls, data_dir: Path, folder: Path | None, packages: Sequence[str]
    ) -> Corpus:
        skipped: Counter[str] = Counter()
        shown = ""
        if folder is not None:
            folder = Path(folder).expanduser().resolve()
            shown = _safe_name(str(folder))
            if not folder.exists():
                raise CorpusError(f"corpus folder not found: {shown}")
            if not folder.is_dir():
                raise CorpusError(f"corpus folder is not a directory: {shown}")
            files = _folder_files(folder, skipped)
            if not files:
                raise CorpusError(_nothing_indexable(shown, "files", skipped))
            fingerprint = _folder_fingerprint(folder, files)
            kind = "dir-" + hashlib.blake2b(_raw(str(folder)), digest_size=4).hexdigest()
            description = f"folder corpus: {shown} ({_plural(len(files), 'file')})"
            docs_factory = lambda: _folder_docs(files, skipped)  # noqa: E731
        else:
            packages = tuple(dict.fromkeys(packages))
            fingerprint, description = _package_fingerprint(packages)
            kind = "pkg-" + hashlib.blake2b(repr(packages).encode(), digest_size=4).hexdigest()
            docs_factory = lambda: _package_docs(packages)  # noqa: E731

        path = data_dir / f"corpus-{kind}-{fingerprint[:20]}.sqlite"
        meta = _read_meta(path)
        built = False
        if meta is None or meta.get("fingerprint") != fingerprint:
            with _build_lock(data_dir / f".corpus-{kind}.lock") as locked:
                meta = _read_meta(path)  # another process may have built it while we waited
                if meta is None or meta.get("fingerprint") != fingerprint:
                    _remove_orphan_temps(data_dir, kind, locked)
                    try:
                        meta = _build(
                            path,
                            docs_factory(),
                            {"fingerprint": fingerprint, "description": description, "kind": kind},
                        )
                    except _NoText as exc:
                        if folder is None:
                            raise CorpusError(str(exc)) from None
                        raise CorpusError(_nothing_indexable(shown, "text", skipped)) from None
                    except (OSError, sqlite3.Error) as exc:
                        where = _safe_name(str(path))
                        raise CorpusError(f"cannot build corpus index {where}: {exc}") from None
                    built = True
                    _remove_stale(data_dir, kind, keep=path)
        return cls(path, meta, built=built)

    # -- connections -------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
        self._all.append(con)
        return con

    def _release(self, con: sqlite3.Connection) -> None:
        with self._cond:
            if self._closed:
                con.close()
            else:
                self._free.append(con)
                self._cond.notify()

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._cond:
            if self._closed:
                raise CorpusError("corpus is closed")
            if self._free:
                con = self._free.pop()
            else:
                try:
                    con = self._connect()
                except sqlite3.Error:
                    # The file is gone (replaced by a newer build): share the live connections.
                    while not self._free:
                        self._cond.wait()
                        if self._closed:
                            raise CorpusError("corpus is closed") from None
                    con = self._free.pop()
        try:
            yield con
        finally:
            self._release(con)

    # -- queries -----------------------------------------------------------------------------

    def search(self, query: str, k: int = 5) -> list[Passage]:
        """The ``k`` passages that best match ``query``, best first (bm25; ``score`` is the
        negated bm25, so scores never increase down the list).

        Any text is accepted: it is reduced to word tokens (stopwords dropped) that are OR-ed, so
        FTS5 operators, quotes or SQL in the query are just words. Returns ``[]`` when nothing
        searchable is left or ``k < 1``; ``k`` is capped at ``MAX_K``. Passages whose text repeats
        a better-ranked one word for word (sync/async twins) are left out.
        """
        fts = query_to_fts(query if isinstance(query, str) else str(query))
        k = min(int(k), MAX_K)
        if fts is None or k < 1:
            return []
        sql = (
            f"SELECT {_PASSAGE_COLS}, bm25(passages_fts) AS rank "
            "FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid "
            "WHERE passages_fts MATCH ? ORDER BY rank, p.id LIMIT ?"
        )
        with self._connection() as con:
            rows = con.execute(sql, (fts, min(4 * k, 4 * MAX_K))).fetchall()
        # Docstrings copied between sync/async twins or between pydoc topics repeat passages
        # word for word: keep the best-ranked copy so k results carry k different texts.
        out: list[Passage] = []
        seen: set[str] = set()
        for row in rows:
            if row[4] in seen:
                continue
            seen.add(row[4])
            out.append(Passage(*row[:5], score=-float(row[5]) + 0.0))
            if len(out) == k:
                break
        return out

    def passage(self, ref: str) -> Passage | None:
        """The passage with this ref (``"<doc_id>#<n>"``), or None."""
        with self._connection() as con:
            row = con.execute(
                f"SELECT {_PASSAGE_COLS} FROM passages p WHERE p.ref = ?", (str(ref).strip(),)
            ).fetchone()
        return Passage(*row) if row else None

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> Document | None:
        """The document a passage ref (``"x#2"``) or a doc_id (``"x"``) belongs to, or None.

        The text is the document's passages joined by blank lines. When it is longer than
        ``max_chars`` it is cut to a window of whole passages (at least the first) that starts
        at the requested passage (for a ref) or the start (for a doc_id), widened backwards when
        room is left; each cut is marked ``[…]``.
        """
        key = str(ref_or_doc_id).strip()
        with self._connection() as con:
            doc = con.execute(
                "SELECT doc_id, title, source FROM docs WHERE doc_id = ?", (key,)
            ).fetchone()
            focus = 0
            if doc is None:
                hit = con.execute(
                    "SELECT doc_id, seq FROM passages WHERE ref = ?", (key,)
                ).fetchone()
                if hit is None:
                    return None
                focus = hit[1]
                doc = con.execute(
                    "SELECT doc_id, title, source FROM docs WHERE doc_id = ?", (hit[0],)
                ).fetchone()
            texts = [
                t
                for (t,) in con.execute(
                    "SELECT text FROM passages WHERE doc_id = ? ORDER BY seq", (doc[0],)
                )
            ]
        return Document(doc[0], doc[1], doc[2], _window(texts, focus, max_chars))

    def passage_count(self) -> int:
        """How many passages the index holds."""
        with self._connection() as con:
            return int(con.execute("SELECT count(*) FROM passages").fetchone()[0])

    def close(self) -> None:
        """Close every connection; later calls raise CorpusError. Idempotent."""
        with self._cond:
            self._closed = True
            conns, self._all, self._free = self._all, [], []
            self._cond.notify_all()
        for con in conns:
            with suppress(sqlite3.Error):
                con.close()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Corpus({self.description!r})"

    # -- properties --------------------------------------------------------------------------

    @property
    def description(self) -> str:
        """One line, e.g. ``"package docs: langgraph 1.2.24, ... (12,345 passages)"``."""
        return self._meta.get("description", str(self._path))

    @property
    def fingerprint(self) -> str:
        """Hash of the inputs the index was built from; it changes when they change."""
        return self._meta["fingerprint"]

    @property
    def path(self) -> Path:
        """The index file."""
        return self._path

    @property
    def built(self) -> bool:
        """True when this ``open`` built the index, False when it reused the cached one."""
        return self._built

    @property
    def meta(self) -> dict[str, str]:
        """The index's meta table (fingerprint, description, passages, build_seconds, ...)."""
        return dict(self._meta)


def _window(texts: list[str], focus: int, max_chars: int) -> str:
    """Join passages, keeping at most ``max_chars`` around passage ``focus``."""
    full = "\n\n".join(texts)
    if len(full) <= max_chars:
        return full
    focus = min(max(focus, 0), len(texts) - 1)
    lo = hi = focus
    size = len(texts[focus])
    while hi + 1 < len(texts) and size + 2 + len(texts[hi + 1]) <= max_chars:
        hi += 1
        size += 2 + len(texts[hi])
    while lo > 0 and size + 2 + len(texts[lo - 1]) <= max_chars:
        lo -= 1
        size += 2 + len(texts[lo])
    body = "\n\n".join(texts[lo : hi + 1])[: max(max_chars, 1)]
    return ("[…]\n\n" if lo > 0 else "") + body + ("\n\n[…]" if hi + 1 < len(texts) else "")


def _remove_stale(data_dir: Path, kind: str, keep: Path) -> None:
    """Best effort: delete older indexes of the same source (open handles keep working)."""
    for old in data_dir.glob(f"corpus-{kind}-*.sqlite"):
        if old != keep:
            with suppress(OSError):
                old.unlink()


def _main() -> None:  # pragma: no cover - manual benchmark: python -m workers.corpus DATA_DIR
    import sys

    data_dir = Path(sys.argv[1] if len(sys.argv) > 1 else ".corpus-bench")
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    t0 = time.perf_counter()
    corpus = Corpus.open(data_dir, folder=folder)
    t1 = time.perf_counter()
    print(json.dumps({"built": corpus.built, "open_seconds": round(t1 - t0, 3), **corpus.meta}))
    corpus.close()


if __name__ == "__main__":  # pragma: no cover
    _main()
