"""A PDF of the manual the folder's HTML pages hold is skipped and named; a PDF of its own
text stays: Valgrind's valgrind_manual.pdf.gz beside its html/ pages was cited where the page
was the one to open, and one entry from both copies (trial 106, F4, F5; trial 105, F4)."""

from __future__ import annotations

import gzip
from pathlib import Path

from tests.workers.sources.documents_helpers import make_pdf
from workers.sources import Corpus

_SENTENCES = [f"The heron census of colony {n} counts {n + 3} nesting pairs on the {side} "
              f"shore of the lake each spring, and the wardens record it in ledger {n}."
              for n, side in zip(range(1, 61), ["north", "south", "east", "west"] * 15,
                                 strict=True)]


def _lines(text: str, width: int = 70) -> str:
    """``text`` cut into lines as a PDF's page sets it."""
    out, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join([*out, line])


def _census(root: Path) -> list[str]:
    """Three HTML pages of the census under ``root/html``, and a PDF's six pages of them."""
    (root / "html").mkdir(parents=True)
    for part in range(3):
        body = "".join(f"<p>{s}</p>" for s in _SENTENCES[part * 20:(part + 1) * 20])
        (root / "html" / f"census-{part}.html").write_text(
            f"<html><head><title>Census part {part}</title></head><body><h1>Census part "
            f"{part}</h1>{body}</body></html>", encoding="utf-8")
    return [f"Heron manual {n + 1}\n" + _lines(" ".join(_SENTENCES[n * 10:(n + 1) * 10]))
            for n in range(6)]


def test_a_pdf_of_the_folders_pages_is_skipped_and_one_of_its_own_stays(tmp_path: Path) -> None:
    root = tmp_path / "doc"
    pages = _census(root)
    contents = "Contents\n" + "\n".join(f"{n} Heron census of colony {n} {n // 5 + 2}"
                                         for n in range(1, 30))  # its pages, 2 to 7
    appendix = _lines(" ".join(f"Appendix note {n}: the frobnicator limit is {4096 + n} "
                               f"widgets per harbour in year {2000 + n}." for n in range(12)))
    (root / "manual.pdf.gz").write_bytes(gzip.compress(make_pdf([contents, *pages, appendix])))
    own = [_lines(" ".join(f"Egret survey {n}: the egrets of marsh {n} fledge {n + 2} chicks "
                           f"in a dry year and {n + 4} in a wet one." for n in range(k, k + 12)))
           for k in range(0, 48, 12)]
    (root / "egrets.pdf").write_bytes(make_pdf(own))
    # a paper its notes quote but for its results keeps its results (trial 108, F3)
    (root / "paper.pdf").write_bytes(make_pdf(own[:3] + [_lines(
        "Results: the measured throughput was 7312 packets per second on the test bed.")]))
    (root / "notes.md").write_text("# Notes\n\n" + "\n\n".join(f"> {p}" for p in own[:3]))
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        cited = {p.doc_id.split(":")[0] for p in corpus.search("heron census nesting pairs",
                                                               k=20)}
        assert cited == {"html/census-0.html", "html/census-1.html", "html/census-2.html"}
        assert corpus.search("egrets fledge chicks wet year", k=1)[0].doc_id in (
            "egrets.pdf:p1", "notes.md")
        # the copy's page of text of its own stays, its contents page goes (trial 108, F1)
        assert corpus.search("frobnicator limit widgets", k=1)[0].doc_id == "manual.pdf.gz:p8"
        assert corpus.search("measured throughput packets", k=1)[0].doc_id == "paper.pdf:p4"
        notes = [n for n in corpus.notes if "a PDF of pages indexed" in n]
        assert notes == [
            "manual.pdf.gz: skipped, a PDF of pages indexed (83% of its text is in 3 files of "
            "html/; 1 of its 8 pages, text of its own, indexed)",
            "paper.pdf: skipped, a PDF of pages indexed (98% of its text is in notes.md; 1 of its "
            "4 pages, text of its own, indexed)"], notes


def test_a_copys_table_of_values_and_its_short_pages_of_its_own_stay(tmp_path: Path) -> None:
    # an appendix of lines ending in numbers was taken for a contents page, and a page too short
    # to sample ("... now listens on port 8731.") was dropped: the note said 100% (trial 113, F2)
    root = tmp_path / "doc"
    pages = _census(root)
    table = ("Appendix A: Limits and default values\n"
             "The wardens refuse new volunteers past a crew of 64\n"
             "Eggs a single nest may hold before the wardens tag it 5\n"
             "Seconds between two photographs of one nest 15\n"
             "Boats on the lake during the count at most 4\n"
             "Largest flock counted by hand rather than photographed 4096")
    short = "From the 2024 census on, the wardens file ledger 8731."  # sampled none
    (root / "manual.pdf").write_bytes(make_pdf(
        ["Heron census\nCensus part 1", *pages, table, short, "Ledger 9931: mislaid."]))
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        assert corpus.search("eggs nest tag", k=1)[0].doc_id == "manual.pdf:p8"
        assert corpus.search("2024 census ledger", k=1)[0].doc_id == "manual.pdf:p9"
        assert corpus.search("ledger 9931", k=1)[0].doc_id == "manual.pdf:p10"
        assert corpus.passage("manual.pdf:p1#0") is None  # a title page the pages hold
        notes = [n for n in corpus.notes if "a PDF of pages indexed" in n]
        assert notes == ["manual.pdf: skipped, a PDF of pages indexed (97% of its text is in 3 "
                         "files of html/; 3 of its 10 pages, text of its own, indexed)"], notes


def test_a_text_rendering_of_the_pages_is_skipped_and_one_page_quoted_in_a_text_stays(
        tmp_path: Path) -> None:
    # Trial 124, M1-F1: the Debian Reference's debian-reference.en.txt.gz, the whole manual as
    # text beside its HTML chapters, was indexed beside them (1,449 passages to their 986) and
    # cited in their place; its contents lines and drawn tables are not judged
    root = tmp_path / "doc"
    _census(root)
    rows = [(f"gauge-{n}", f"{n * 7}", f"the tide gauge of pier {n}") for n in range(8)]
    cells = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in rows)
    (root / "html" / "gauges.html").write_text(
        "<html><head><title>Gauges</title></head><body><h1>Gauges</h1><table><thead><tr>"
        f"<th>package</th><th>size</th><th>description</th></tr></thead>{cells}</table>"
        "</body></html>", encoding="utf-8")
    contents = "Contents\n\n" + "\n".join(f"    {n + 1}. Census part {n}" for n in range(3))
    grid = "\n".join(f"|{a:<9}|{b:<4}|{c[:12]:<12}|\n|{'':<9}|{'':<4}|{c[12:]:<12}|\n"
                     "+---------+----+------------+" for a, b, c in rows)
    body = "\n\n".join(f"Census part {part}\n\n" + _lines(" ".join(_SENTENCES[part * 20:
                                                                            (part + 1) * 20]))
                       for part in range(3))
    (root / "manual.txt.gz").write_bytes(gzip.compress(
        f"Heron manual\n\n{contents}\n\n{body}\n\nGauges\n\n{grid}\n".encode()))
    (root / "quoted.txt").write_text(  # one page's text, quoted: no rendering of the manual
        "Quoted from part 0\n\n" + _lines(" ".join(_SENTENCES[:20])) + "\n", encoding="utf-8")
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        cited = {p.doc_id.split(":")[0] for p in corpus.search("heron census nesting pairs",
                                                               k=30)}
        notes = [n for n in corpus.notes if "copy of pages indexed" in n]
    assert "manual.txt.gz" not in cited and "quoted.txt" in cited, cited
    assert notes == ["manual.txt.gz: skipped, a text copy of pages indexed (96% of its text "
                     "is in 3 files of html/)"], notes


def test_the_copy_note_counts_the_files_holding_it_by_folder(tmp_path: Path) -> None:
    # "debian-reference.en.txt.gz: skipped, ... is in apa.en.html and 14 more)": the first
    # file's name said little of what the copy repeats (trial 124, FA4)
    root = tmp_path / "doc"
    _census(root)
    for part in (0, 1):  # two pages at the folder's top, one in html/
        (root / "html" / f"census-{part}.html").rename(root / f"census-{part}.html")
    body = "\n\n".join(_lines(" ".join(_SENTENCES[part * 20:(part + 1) * 20]))
                       for part in range(3))
    (root / "manual.txt").write_text(f"Heron manual\n\n{body}\n", encoding="utf-8")
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        notes = [n for n in corpus.notes if "copy of pages indexed" in n]
    assert notes == ["manual.txt: skipped, a text copy of pages indexed (98% of its text is "
                     "in 3 files: 2 at the folder's top level, 1 of html/)"], notes
