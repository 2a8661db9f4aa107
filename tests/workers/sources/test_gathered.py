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
    assert any(n.startswith("all.html: not indexed, its text is that of 4 other files")
               for n in notes), notes


def test_what_only_the_gathering_page_holds_is_indexed(tmp_path):
    # trial 44, F7: SQLite's changes.html holds the notes of the releases before any
    # releaselog page; left out whole, a question on one of them got another release's note
    for name, text in MODULES.items():
        write(tmp_path / "api", name, page(name, text))
    old = ("Release 2.8.16 fixed a naming conflict between the old and the new header files, "
           "so that both versions can be linked into one program.")
    write(tmp_path / "api", "all.html", page("All", *MODULES.values(), old))
    with Corpus.open(tmp_path / "data", folder=tmp_path / "api") as corpus:
        hits = corpus.search("naming conflict header files", k=3)
        mkdir = corpus.search("recursive parent directories", k=5)
        notes = corpus.notes
    assert hits and hits[0].doc_id == "all.html" and "2.8.16" in hits[0].text
    assert {h.doc_id for h in mkdir} == {"fs.html"}  # the gathered copy is not indexed
    assert any(n.startswith("all.html: indexed in part, its text is that of 4 other files")
               for n in notes), notes


def test_pages_sharing_text_with_one_another_all_stay(tmp_path):
    # trial 44, F8: five sibling pages, each sharing one call-out with each of the others,
    # were all judged gathering pages, and the folder was refused as empty
    names = ["heron", "egret", "stork", "ibis", "crane"]
    shared = {frozenset(pair): f"The {pair[0]} and the {pair[1]} share nesting grounds in the "
              "reed beds each spring, where the census counts both from the same hides."
              for pair in ((a, b) for i, a in enumerate(names) for b in names[i + 1:])}
    for name in names:
        mine = [text for pair, text in shared.items() if name in pair]
        write(tmp_path / "birds", f"{name}.html",
              page(name, f"The {name} census starts on 3 April.", *mine))
    with Corpus.open(tmp_path / "data", folder=tmp_path / "birds") as corpus:
        hits = corpus.search("When does the heron census start?", k=3)
        indexed = " ".join(doc.text for name in names
                           if (doc := corpus.read(f"{name}.html", max_chars=10**6)))
    assert hits[0].doc_id == "heron.html" and "3 April" in hits[0].text
    assert all(text in indexed for text in shared.values())


FILTERS = [f"Filter number {n} of the chain reads each frame of its input and writes one frame "
           f"to its output, as its options number {n} say." for n in range(6)]
CROP = "Crop the input video to given dimensions."  # short: a repeated paragraph's length


def test_pages_gathering_one_large_page_with_others_are_found(tmp_path):
    # trial 69, F1/F2: FFmpeg's ffmpeg-all, ffplay-all and ffprobe-all each gather the filters
    # page (over half of each) and others; none was found gathering, so the crop filter's
    # description, on four pages, was stripped as a repeated paragraph from all of them
    shared = {"codecs.html": MODULES["fs.html"], "formats.html": MODULES["http.html"]}
    for name, text in shared.items():
        write(tmp_path / "manual", name, page(name, text))
    write(tmp_path / "manual", "filters.html", page("Filters", CROP, *FILTERS))
    for tool, own in (("ffmpeg", MODULES["process.html"]), ("ffplay", MODULES["stream.html"]),
                      ("ffprobe", "ffprobe gathers information from multimedia streams and "
                                  "prints it in human- and machine-readable form.")):
        write(tmp_path / "manual", f"{tool}.html", page(tool, own))
        write(tmp_path / "manual", f"{tool}-all.html",
              page(f"{tool} all", own, CROP, *FILTERS, *shared.values()))
    with Corpus.open(tmp_path / "data", folder=tmp_path / "manual") as corpus:
        hits = corpus.search("crop input video dimensions", k=5)
        notes = corpus.notes
    assert [h.doc_id for h in hits][:1] == ["filters.html"] and CROP in hits[0].text
    assert not {h.doc_id for h in hits} & {"ffmpeg-all.html", "ffplay-all.html",
                                          "ffprobe-all.html"}
    assert sum("(a page gathering them)" in n for n in notes) == 3, notes


def test_pages_of_one_text_and_a_sites_furniture_gather_nothing(tmp_path):
    # CMake's IMPORTED_*_CONFIG pages repeat the same two paragraphs; a page holding them and
    # a line of its own holds four such pages whole, and gathers none of them. A copyright
    # line on every page is no page's text (SQLAlchemy's faq/index.html was named gathering
    # 221 files, the pages its footer is on).
    same = ["Configuration names correspond to those provided by CMAKE_CONFIGURATION_TYPES "
            "or CMAKE_BUILD_TYPE when the project is configured.",
            "This property is used when loading settings for the IMPORTED target; a "
            "configuration-specific version of the property is looked up first."]
    footer = ("© Copyright 2000-2022 Kitware, Inc. and Contributors. Created using Sphinx "
              "4.5.0 with the theme the project provides.")
    for name in ("SONAME", "IMPLIB", "LOCATION", "OBJECTS"):
        write(tmp_path / "props", f"IMPORTED_{name}_CONFIG.html", page(name, *same, footer))
    write(tmp_path / "props", "IMPORTED_LIBNAME_CONFIG.html",
          page("LIBNAME", *same, "Only libraries named by the linker itself.", footer))
    for name, text in MODULES.items():
        write(tmp_path / "props", name, page(name, text, footer))
    with Corpus.open(tmp_path / "data", folder=tmp_path / "props") as corpus:
        notes = corpus.notes
    assert not [n for n in notes if "(a page gathering them)" in n], notes
