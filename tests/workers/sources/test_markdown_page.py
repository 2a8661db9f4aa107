"""Markdown files are read as Markdown (trial 20, FastAPI's docs: findings 3, 7, 8, 9, 10): a
file is titled by its front matter's ``title:`` or its first ``h1`` and cut at its headings, as
an HTML page is; a heading's attribute list, front matter, MkDocs admonition markers and
snippet includes are markup, not text; a link and inline HTML are read as their text."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from workers.sources import Corpus
from workers.sources.markdownpage import markdown_page

CENSUS = " ".join(f"Ringers at colony {n} read each ring they see from the hide." for n in range(9))
CORS = """\
# Heron Ringing (Bird Banding) { #heron-ringing }

[Ringing or "banding"](https://example.org/ringing) marks each heron with a numbered ring.

{census}

## Ring sizes { #ring-sizes .wide }

A grey heron takes a <abbr title="International Ring Size">IRS</abbr> 9 ring, as the
[Ring Sizes table](ring-sizes.md) says.

/// note | Technical Details

The ring is closed with pliers, never by hand.

///

{* ../../ringing/pliers.py hl[2,6:11] *}

#### Old rings

Old rings were made of aluminium.
""".replace("{census}", CENSUS)

LIMITS = """\
---
title: Colony visit limits
tags: [how-to, wardens]
---

# Visiting a colony

Wardens limit each colony to three visits per season.
"""


def test_markup_is_read_as_the_text_a_reader_sees() -> None:
    page = markdown_page(
        "---\ntitle: Gannet survey\n---\n\n# Gannets { #gannets }\n\n"
        "Count [the nests](nests.md) on <b>Bass Rock</b> ![a nest](nest.png)\n"
        "each June.<br>Then rest.\n\n"
        "!!! warning \"Careful\"\n    Never step on a nest.\n\n    Leave by noon.\n\n"
        "=== \"Boat\"\n\n    Land at the jetty.\n\n"
        "/// tip\n    attrs: {class: small}\n\nWear boots.\n\n///\n\n"
        "--8<-- \"shared/footer.md\"\n\n--8<--\nshared/a.md\nshared/b.md\n--8<--\n\n"
        "::: survey.Gannet\n    options:\n      members: true\n\n"
        "{% for site in sites %}{{ site }}{% endfor %}\n\n"
        "| Site | Nests |\n|---|---|\n| [Bass Rock](bass.md) | 150,000 |\n\n"
        "<table><tr><th>Site</th><th>Wardens</th></tr><tr><td>Ailsa</td><td>2</td></tr>"
        "</table>\n\n"
        "- one\n- two\n  1. nested\n\n"
        "```python\ncount = 1\n\n# a blank line above\n```\n\n"
        "    indented = True\n\n"
        "> Quoted <i>text</i>.\n\n<div class=\"termy\">\n\n</div>\n\n***\n\n"
        "Ends here. {: .lead }\n")
    assert page.title == "Gannet survey"  # the front matter's title, before the first h1's
    assert page.sections == (("Gannets", (
        "# Gannets\n\n"
        "Count the nests on Bass Rock each June.\nThen rest.\n\n"
        "Never step on a nest.\n\nLeave by noon.\n\n"
        "Land at the jetty.\n\n"
        "Wear boots.\n\n"
        "{{ site }}\n\n"  # a template's value is left as written: it may be all the line says
        "Bass Rock — Nests: 150,000.\n\n"
        "Ailsa — Wardens: 2.\n\n"
        "- one\n- two\n  1. nested\n\n"
        "```python\ncount = 1\n\n# a blank line above\n```\n\n"
        "```\nindented = True\n```\n\n"
        "Quoted text.\n\n"
        "Ends here.")),)


def test_a_fence_in_an_admonition_or_a_list_stays_code_and_its_markers_stay_text() -> None:
    page = markdown_page("!!! note\n    Run it:\n\n    ```sh\n    /// not a marker\n    ```\n\n"
                         "- step\n\n  ```\n  {* kept.py *}\n  ```\n")
    assert page.title == "" and page.text == (
        "Run it:\n\n```sh\n/// not a marker\n```\n\n- step\n  ```\n  {* kept.py *}\n  ```")


def test_a_file_nested_deeper_than_the_parser_reads_keeps_its_text() -> None:
    # markdown-it drops blocks nested past 20 levels, text and all
    for deep in ("> " * 25 + "Deepword in a quote.", "- " * 25 + "Deepword in a list."):
        page = markdown_page(f"# Nested\n\n{deep}\n\n| A | B |\n|---|---|\n| x | y |\n")
        assert "Deepword in a" in page.text and "x — B: y." in page.text, page.text


def test_short_sections_share_a_passage_that_starts_at_a_heading() -> None:
    # a search returns two passages of a document: a page of short sections cut into a passage
    # each lost the rest of the page (the small corpus's report lost its caveats)
    short = markdown_page("# Egrets\n\nEgrets roost.\n\n## Diet\n\nFish.\n\n## Limits\n\nNone.")
    assert short.sections == (("Egrets / Diet / Limits", "# Egrets\n\nEgrets roost.\n\n## Diet"
                                                         "\n\nFish.\n\n## Limits\n\nNone."),)
    long = markdown_page(f"# Egrets\n\n{CENSUS}\n\n## Diet\n\n{CENSUS}\n\n## Limits\n\nNone.")
    assert long.sections == (("Egrets", f"# Egrets\n\n{CENSUS}"),
                             ("Diet / Limits", f"## Diet\n\n{CENSUS}\n\n## Limits\n\nNone."))


def test_a_markdown_file_is_titled_and_cut_at_its_headings(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "guide").mkdir(parents=True)
    (folder / "guide" / "ringing.md").write_text(CORS, encoding="utf-8")
    (folder / "limits.md").write_text(LIMITS, encoding="utf-8")
    (folder / "plain.md").write_text("Egrets roost in willows.\n", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        # the h2 starts a passage (the two sections do not fit one); an h4 ("Old rings") cuts
        # no section
        [first, sizes] = [corpus.passage(f"guide/ringing.md#{n}") for n in range(2)]
        assert corpus.passage("guide/ringing.md#2") is None
        assert first.title == "Heron Ringing (Bird Banding)"
        assert first.text == ("# Heron Ringing (Bird Banding)\n\nRinging or \"banding\" marks "
                              f"each heron with a numbered ring.\n\n{CENSUS}")
        assert sizes.text == ("## Ring sizes\n\nA grey heron takes a IRS 9 ring, as the Ring "
                              "Sizes table says.\n\nThe ring is closed with pliers, never by "
                              "hand.\n\n#### Old rings\n\nOld rings were made of aluminium.")
        [hit] = corpus.search("colony visits wardens", k=1)
        assert (hit.ref, hit.title) == ("limits.md#0", "Colony visit limits")
        assert hit.text == ("# Visiting a colony\n\nWardens limit each colony to three visits "
                            "per season.")
        assert corpus.search("tags how-to") == []  # the front matter is not text
        assert corpus.passage("plain.md#0").title == "plain.md"  # no heading: its file name
        # the section headings are indexed: "sizes" is in the heading of passage 1 alone
        assert [p.ref for p in corpus.search("ring sizes", k=3)][0] == "guide/ringing.md#1"


def test_the_report_names_a_markdown_source_by_its_title(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "guide").mkdir(parents=True)
    (folder / "guide" / "ringing.md").write_text(CORS, encoding="utf-8")
    (folder / "limits.md").write_text(LIMITS, encoding="utf-8")
    proc = run_cli("research", "heron ring size", "--as-of", AS_OF, "--corpus", folder,
                   "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    sources = report.split("## Sources", 1)[1]
    assert "1. `guide/ringing.md`: Heron Ringing (Bird Banding)\n" in sources
    for markup in ("{ #", "](", "<abbr", "///", "{*"):
        assert markup not in report, markup
