"""A page is searched for a catalogue's items only when it may hold enough of them: each item
leads with a link to another site, written with ``//``, so a page with fewer than ``MIN_ITEMS``
of those is no catalogue unsearched (731 of sqlite3-doc's 766 pages were searched by the items'
pattern, character by character, for nothing; issue 19, section 4). A page with as many is
judged as before."""

from __future__ import annotations

import re

import pytest

from workers.sources import catalogues
from workers.sources.catalogues import CATALOGUE, MIN_ITEMS, catalogue_kind

_ROW = '<tr><td><a href="https://pypi.org/p{0}/">p{0}</a></td><td>a plugin</td></tr>'


def _page(items: int) -> tuple[str, str]:
    """A table of ``items`` plugins, each linking to its site, and its text."""
    source = "<table>" + "".join(_ROW.format(n) for n in range(items)) + "</table>"
    return source, "\n".join(f"p{n} — a plugin" for n in range(items))


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the items' pattern was asked of."""
    asked: list[str] = []
    pattern = catalogues._HTML_ITEM

    class Spy:
        def findall(self, source: str) -> list[str]:
            asked.append(source)
            return pattern.findall(source)

    monkeypatch.setattr(catalogues, "_HTML_ITEM", Spy())
    return asked


def test_a_page_with_too_few_links_elsewhere_is_no_catalogue_unsearched(
        searched: list[str]) -> None:
    source, text = _page(MIN_ITEMS - 1)
    assert len(re.findall("//", source)) == MIN_ITEMS - 1
    assert catalogue_kind(source, text, html=True) == ""
    assert searched == []


def test_a_page_with_enough_is_searched_and_judged_as_before(searched: list[str]) -> None:
    source, text = _page(MIN_ITEMS)
    assert catalogue_kind(source, text, html=True) == CATALOGUE
    assert searched == [source]
    assert catalogue_kind(source, text + "\nProse of the manual." * 40, html=True) == ""
