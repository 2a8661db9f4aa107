"""A page's text is read in time linear in its elements (issue 19, section 4: >= 10 MB/s of
HTML). libxslt evaluates a template's match pattern once per candidate element, so a pattern
whose predicate looks at the element's parent or siblings costs each element its whole list:
``dl[dt[@id or .//a[@name or @id]]]/dt`` made SQLite's requirements.html (one ``<dl>`` of 6,954
children) take 7 of sqlite3-doc's 9 seconds of page reading. Such facts are marked on the tree
once, in Python (``data-research-next``, ``data-research-entries``), and the patterns read the
marks. No timing here (speed lives in ``scripts/bench_index.py``): the patterns' shape is checked,
and the marks are checked to give the entries the old patterns gave."""

from __future__ import annotations

import re

from lxml import etree

from workers.sources.htmlpage import html_page, stylesheet_source

_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_NOT_LOCAL = re.compile(r"following|preceding|ancestor|parent::|\.\.|(?:^|[\[(|\s])/")


def _patterns() -> list[str]:
    sheet = etree.XML(stylesheet_source().encode("utf-8"))
    return [t.get("match") for t in sheet.iter(f"{_XSL}template") if t.get("match")]


def _predicates(step: str) -> list[str]:
    """The bracketed predicates of one location step, outermost first."""
    found, depth, start = [], 0, 0
    for i, char in enumerate(step):
        if char == "[":
            depth, start = depth + 1, (i if depth == 0 else start)
        elif char == "]":
            depth -= 1
            if depth == 0:
                found.append(step[start + 1:i])
    return found


def _steps(path: str) -> list[str]:
    """``path`` cut at the ``/`` outside brackets."""
    steps, depth, current = [], 0, ""
    for char in path:
        depth += (char == "[") - (char == "]")
        if char == "/" and depth == 0:
            steps.append(current)
            current = ""
        else:
            current += char
    return [*steps, current]


def _elements_in(predicate: str) -> list[str]:
    """The element names a predicate tests (its words but attributes, quoted text, operators)."""
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", predicate)
    return [w for w in re.findall(r"(?<![@\w-])[A-Za-z_][\w-]*", bare)
            if w not in ("or", "and", "not")]


def test_no_match_pattern_tests_a_parent_or_a_sibling() -> None:
    patterns = _patterns()
    assert len(patterns) > 10  # the stylesheet was read
    for pattern in patterns:
        for alternative in pattern.split("|"):
            *above, last = _steps(alternative.strip())
            for step in above:  # asked again for every matched child: its attributes only
                for predicate in _predicates(step):
                    assert not _elements_in(predicate), (pattern, step)
            for predicate in _predicates(last):
                assert not _NOT_LOCAL.search(predicate), (pattern, predicate)


def test_the_shape_that_was_quadratic_is_caught() -> None:
    """The check fails on the pattern it guards against (so it cannot pass by reading nothing)."""
    *above, _last = _steps("dl[dt[@id or .//a[@name or @id]]]/dt[@data-research-next='dd']")
    assert above == ["dl[dt[@id or .//a[@name or @id]]]"]
    assert _elements_in(_predicates(above[0])[0]) == ["dt", "a"]
    assert not _elements_in("@data-research-next='dd' or @id")
    assert _NOT_LOCAL.search("following-sibling::*[1][self::dd]")


def _anchored_list(anchor: str) -> str:
    terms = "".join(f"<dt>{anchor.format(n=n)}</dt><dd><p>Entry {n} sets the quota{n} limit.</p>"
                    "</dd>" for n in range(3))
    return f"<html><body><h2>Parameters</h2><dl>{terms}</dl><p>After the list.</p></body></html>"


def test_a_list_of_anchored_terms_is_read_as_entries() -> None:
    """Each anchored term heads its own entry, by a named anchor inside it (Postfix's
    postconf.5.html, trial 85, F1) or by its own ``id``; a list of plain terms is one section."""
    for anchor in ('<b><a name="q{n}">quota{n}</a> (default: no)</b>', '<a id="q{n}">quota{n}</a>'):
        headings = [h for h, _ in html_page(_anchored_list(anchor)).sections]
        assert [h for h in headings if h.startswith("quota")] == [
            "quota0 (default: no)", "quota1 (default: no)", "quota2 (default: no)"
        ] if "default" in anchor else ["quota0", "quota1", "quota2"], headings
    plain = html_page(_anchored_list("quota{n}")).sections
    assert [h for h, _ in plain] == ["Parameters"], plain
