"""A page gathering other pages' text (Node.js's ``all.html``, the whole manual on one page) is
not indexed beside them (trial 43: it held 48% of the passages and answers cited it alone)."""

from __future__ import annotations

from tests.workers.sources.conftest import write
from workers.sources import Corpus

MODULES = {
    "fs.html": "fs.mkdir() asynchronously creates a directory; with recursive set to true, "
               "the parent directories are created as needed.",
    "http.html": "server.keepAliveTimeout is the number of milliseconds of inactivity a "
                 "server waits for more incoming data after it wrote the last response.",
    "process.html": "process.nextTick() adds the callback to the next tick queue, which is "
                    "processed after the current operation on the JavaScript stack ends.",
    "stream.html": "A readable stream stops reading from the underlying resource once its "
                   "internal buffer holds highWaterMark bytes, until they are consumed.",
}


def page(title: str, *paragraphs: str) -> str:
    body = "".join(f"<h2>{title} {n}</h2><p>{p}</p>" for n, p in enumerate(paragraphs))
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def test_a_page_of_the_other_pages_text_is_left_out_and_named(tmp_path):
    for name, text in MODULES.items():
        write(tmp_path / "api", name, page(name, text))
    write(tmp_path / "api", "all.html", page("All", *MODULES.values()))
    write(tmp_path / "api", "excerpt.html", page("Excerpt", MODULES["fs.html"],
                                                 "A page of its own says this, at length "
                                                 "enough to count as a paragraph of its own."))
    with Corpus.open(tmp_path / "data", folder=tmp_path / "api") as corpus:
        hits = corpus.search("recursive parent directories", k=5)
        notes = corpus.notes
    assert "all.html" not in {h.doc_id for h in hits}
    assert {"fs.html", "excerpt.html"} <= {h.doc_id for h in hits}  # includes one page: kept
    assert any(n.startswith("all.html: not indexed, its text is that of 5 other files")
               for n in notes), notes
