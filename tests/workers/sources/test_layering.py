"""The sources' layering: workers never import app, and the local sources need only the stdlib."""
from __future__ import annotations

import ast
import os
import sys

import workers.sources.corpus as corpus_mod
from tests.workers.sources.conftest import (
    REPO,
)


def test_workers_never_import_app() -> None:
    for path in sorted((REPO / "workers").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name != "app" and not name.startswith("app."), f"{path} imports {name}"


def test_sources_need_only_the_standard_library() -> None:
    # The local sources run anywhere Python does: every module of the package (one file per
    # concern since the split of workers/corpus.py) imports only the standard library and itself,
    # except documents.py, which reads PDF and .docx files with their libraries (and
    # pdfspacing.py, which rewrites a PDF page's content stream for pypdf, and pdf_samples.py,
    # which reads a sample of a long PDF's pages with it), tavily.py,
    # which calls Tavily through its client, searxng.py, which calls SearXNG with requests,
    # web_requests.py, which reads their answers and errors, htmlpage.py, htmlfurniture.py,
    # htmltables.py and linkpages.py, which read HTML with lxml, and markdownpage.py, which
    # parses Markdown with markdown-it-py and its front matter with PyYAML.
    allowed = {"documents.py": {"pypdf", "docx"}, "pdfspacing.py": {"pypdf"},
               "pdf_samples.py": {"pypdf"},
               "tavily.py": {"requests", "tavily"}, "searxng.py": {"requests"},
               "web_requests.py": {"requests"},
               "htmlpage.py": {"lxml"}, "htmlfurniture.py": {"lxml"}, "htmltables.py": {"lxml"},
               "linkpages.py": {"lxml"}, "markdownpage.py": {"markdown_it", "yaml"}}
    modules = sorted((REPO / "workers" / "sources").glob("*.py"))
    assert {p.name for p in modules} >= {"base.py", "corpus.py", "folder.py", "index.py"}
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if not node.module.startswith("workers.sources"):
                    imported.add(node.module.split(".")[0])
        extra = allowed.get(path.name, set())
        assert imported <= set(sys.stdlib_module_names) | {"__future__"} | extra, (
            path.name, imported)
    assert os.path.basename(corpus_mod.__file__) == "corpus.py"

