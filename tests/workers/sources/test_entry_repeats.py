"""A class entry's own opening passage is the one a search gives, not a later passage that only
repeats its heading: Sphinx's API pages close a class's member lists with a rubric ("These
methods can be overridden in concrete builder classes:", "Attributes"), and each text after a
member list was a passage headed by the class again, its first line the class's name; asked
"What is the sphinx.builders.Builder class?", the search gave two such repeats and never
"This is the base class for all builders." (trial 125, leftover 4)."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus


def _member(name: str, text: str) -> str:
    return (f'<dl class="py method"><dt class="sig sig-object py" id="grist.mills.Mill.{name}">'
            f'<span class="sig-name descname"><span class="pre">{name}</span></span>()</dt>'
            f"<dd><p>{text}</p></dd></dl>")


PAGE = ('<html><head><title>Mill API</title></head><body><h1>Mill API</h1><p>Expand this.</p>'
        '<dl class="py class"><dt class="sig sig-object py" id="grist.mills.Mill">'
        '<em class="property"><span class="pre">class</span> </em>'
        '<span class="sig-prename descclassname"><span class="pre">grist.mills.</span></span>'
        '<span class="sig-name descname"><span class="pre">Mill</span></span></dt>'
        "<dd><p>This is the base class for all mills.</p>"
        "<p>These attributes should be set on mill classes:</p>"
        + _member("grind", "Turn the grain of one sack into flour.")
        + '<p class="rubric">These methods can be overridden in a subclass:</p>'
        + _member("sift", "Part the flour from the bran.")
        + '<p class="rubric">Attributes</p>'
        + _member("stones", "The stones the mill turns.")
        + "</dd></dl></body></html>")


def test_a_class_entry_is_found_by_its_opening_not_by_a_repeat_of_its_heading(
        tmp_path: Path) -> None:
    root = tmp_path / "html"
    root.mkdir()
    (root / "millapi.html").write_text(PAGE, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What is the grist.mills.Mill class?", k=4)
        assert "This is the base class for all mills." in found[0].text, [
            (p.ref, p.text) for p in found]
