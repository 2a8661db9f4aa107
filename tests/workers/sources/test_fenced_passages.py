"""No passage starts or ends inside a fenced code block (trial 20, finding 7: 78 of FastAPI's
2,167 passages did, and a ```` ```mermaid ```` diagram line labelled a report's passage; 280 of
the package docs' 4,073 docstring passages did too): a fenced block is one paragraph to the
chunker (and to the folder's boilerplate filter), and one too long for a passage is cut into
parts fenced again."""

from __future__ import annotations

import re
from pathlib import Path

from workers.sources import Corpus
from workers.sources.chunks import chunk_text

_FENCE = re.compile(r"^\s*(?:```|~~~)", re.MULTILINE)
CODE = "\n\n".join(f"nests_{i} = count(colony_{i})" for i in range(12))
PROSE = "The heron census counts nests in spring. " * 12


def test_a_fenced_block_with_blank_lines_is_one_passages_paragraph() -> None:
    for text in (f"{PROSE}\n\n```python\n{CODE}\n```\n\nAfter the code.",  # Markdown
                 f"Count nests.\n\n    Example:\n        ```python\n{CODE}\n"
                 "        ```\n\n    Returns the count."):  # a docstring's indented fence
        chunks = chunk_text(text, 400)
        assert all(len(_FENCE.findall(c)) % 2 == 0 for c in chunks), chunks
        assert [c for c in chunks if CODE in c], chunks


def test_a_fenced_block_too_long_for_a_passage_is_cut_into_fenced_parts() -> None:
    code = "\n".join(f"nests_{i} = count(colony_{i})" for i in range(60))
    parts = [c for c in chunk_text(f"{PROSE}\n\n```python\n{code}\n```", 400) if "nests_" in c]
    assert len(parts) > 1 and all(len(p) <= 400 for p in parts)
    assert all(p.startswith("```python\n") and p.endswith("\n```") for p in parts)
    assert "\n".join(p[len("```python\n"):-len("\n```")] for p in parts) == code


def test_a_heading_underlined_with_tildes_opens_no_fence() -> None:
    # reStructuredText (Python's pydoc topics): read as a fence, the text from one heading's
    # underline to the next was one block, and a passage began with an underline
    rst = "Value Patterns\n~~~~~~~~~~~~~~\n\n" + "A value pattern. " * 30 + "\n\nNext\n~~~~"
    assert chunk_text(rst, 400)[0].startswith("Value Patterns\n~~~~")


def test_code_repeated_across_a_folder_is_not_stripped_as_boilerplate(tmp_path: Path) -> None:
    # a console block's last lines, the same on a fifth of FastAPI's pages, were stripped as
    # boilerplate (a paragraph repeated across the folder), and its fence never closed
    run = "```console\n$ heron count --all\n\nINFO: counting nests (Press CTRL+C to quit)\n```"
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(5):
        (folder / f"colony{i}.txt").write_text(
            f"Colony {i} keeps a nest count.\n\n{run}\n\nColony {i} is counted.\n", "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        for i in range(5):
            document = corpus.read(f"colony{i}.txt")
            assert document is not None and run in document.text, document
