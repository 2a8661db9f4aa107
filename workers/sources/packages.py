"""The package-docs source (the default corpus): the docstrings of the public modules, classes,
functions and methods of installed packages, plus Python's own pydoc topics
(``pydoc_data.topics``).

Docstrings are read by parsing the source files with :mod:`ast`, never by importing the
submodules: fast, free of side effects, and deterministic. The fingerprint covers the package
versions and source files (paths, sizes, mtimes), so an upgrade rebuilds the index.

This module imports only the standard library.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import importlib.util
import os
import platform
import sys
from collections.abc import Iterator, Sequence
from contextlib import suppress
from pathlib import Path

from workers.sources.base import CorpusError, RawDoc
from workers.sources.chunks import MAX_PASSAGE_CHARS
from workers.sources.index import SCHEMA_VERSION, tree_signature

__all__ = [
    "DEFAULT_PACKAGES",
    "EXCLUDED_MODULES",
    "MIN_DOCSTRING_CHARS",
    "docstrings",
    "package_docs",
    "package_fingerprint",
]

DEFAULT_PACKAGES: tuple[str, ...] = (
    "langgraph", "langchain_core", "langchain", "pydantic", "asyncio",
)
"""Top-level import names whose docstrings make up the default corpus. ``asyncio`` is Python's
own (its tasks, cancellation, timeouts and queues are what LangGraph's async API builds on);
Python's pydoc topics are always added."""

EXCLUDED_MODULES: tuple[str, ...] = ("pydantic.v1",)
"""Module prefixes left out of the package corpus (``pydantic.v1`` is a vendored copy of the old
major version: indexing it would answer questions about pydantic 2 with pydantic 1 docs)."""

MIN_DOCSTRING_CHARS = 30
"""Docstrings shorter than this (after stripping) carry too little to be worth a passage."""

_SKIP_DIRS = frozenset({"tests", "test", "__pycache__", "node_modules"})
_PUBLIC_DUNDERS = frozenset({"__init__", "__call__"})  # documented protocol methods worth keeping


def docstrings(tree: ast.Module, module: str) -> list[tuple[str, str, str]]:
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
    """``"name version"`` of the distribution that provides a top-level package: its metadata's
    ``Name`` and ``Version`` headers, read without parsing the rest (a long description made
    ``importlib.metadata``'s full parse a third of each warm run's corpus check)."""
    try:
        dist = importlib.metadata.distribution(package)
        head = (dist.read_text("METADATA") or dist.read_text("PKG-INFO") or "").split("\n\n")[0]
        fields: dict[str, str] = {}
        for line in head.splitlines():  # the first of a repeated header, as email's parser
            if ": " in line:
                fields.setdefault(*line.split(": ", 1))
        if "Name" in fields and "Version" in fields:
            return f"{fields['Name'].strip()} {fields['Version'].strip()}"
        return f"{dist.metadata['Name']} {dist.version}"
    except importlib.metadata.PackageNotFoundError:
        if package in sys.stdlib_module_names:
            return f"Python {platform.python_version()} {package}"
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


def package_docs(packages: Sequence[str]) -> Iterator[RawDoc]:
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
            for qual, _kind, doc in docstrings(tree, module):
                doc = doc.strip()
                if len(doc) < MIN_DOCSTRING_CHARS or qual in seen_id:
                    continue
                digest = hashlib.blake2b(doc.encode(), digest_size=16).digest()
                if digest in seen_text:
                    continue
                seen_text.add(digest)
                seen_id.add(qual)
                yield RawDoc(qual, qual, f"{label} docstring: {qual}", doc, symbol=qual)
    yield from _pydoc_docs()


def _pydoc_docs() -> Iterator[RawDoc]:
    try:
        from pydoc_data.topics import topics
    except ImportError:  # pragma: no cover - some distributions strip pydoc_data
        return
    version = platform.python_version()
    for name in sorted(topics):
        text = topics[name].strip()
        if len(text) >= MIN_DOCSTRING_CHARS:
            # The topic's heading ('The "for" statement', 'Augmented assignment statements') is
            # in its title, so the title words, which search weights, name what it is about.
            heading = " ".join(text.splitlines()[0].split())
            title = f"pydoc topic: {name} ({heading})" if heading else f"pydoc topic: {name}"
            yield RawDoc(f"pydoc:{name}", title, f"Python {version} {title}", text)



def package_fingerprint(packages: Sequence[str]) -> tuple[str, str]:
    """``(fingerprint, description_prefix)`` of the package corpus: versions, the package source
    files (paths, sizes, mtimes; catches namespace sub-distributions and editable installs), the
    Python version (pydoc topics) and the extraction rules."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"schema={SCHEMA_VERSION};python={platform.python_version()};".encode())
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
            prefix = len(os.path.join(str(root), ""))  # a file's path from the root on
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for filename in sorted(filenames):
                    if filename.endswith(".py"):
                        p = os.path.join(dirpath, filename)
                        with suppress(OSError):
                            files.append((p[prefix:], os.stat(p)))
        h.update(f"\n{package}={label}:{tree_signature(files)}".encode())
    pydoc = f"Python {platform.python_version()} pydoc topics"
    desc = f"package docs: {', '.join(labels)} + {pydoc}" if labels else pydoc
    return h.hexdigest(), desc
