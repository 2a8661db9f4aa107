"""A Texinfo definition's heading ("Builtin: dnl", "Function: void * memxor (void *dst, ...)")
names what its entry defines (:func:`workers.sources.entries.definition_names`); a title's
label and colon do not, in a Markdown guide or anywhere ("Case study: compression" defined
compression by a story of a photographer, trial 113, F4)."""

from __future__ import annotations

import pytest

from workers.sources.entries import definition_names


@pytest.mark.parametrize(("heading", "names"), [
    ("Builtin: dnl", ["dnl"]),
    ("Optional builtin: changeword (regex)", ["changeword"]),
    ("Builtin: changequote ([start = ‘`’], [end = ‘'’])", ["changequote"]),
    ("Composite: forloop (iterator, start, end, text)", ["forloop"]),
    ("Macro: AC_CHECK_LIB (library, function, [action-if-found], [action-if-not-found])",
     ["AC_CHECK_LIB"]),
    ("Macro: AC_CONFIG_MACRO_DIRS (dir1 [dir2 ... dirN])", ["AC_CONFIG_MACRO_DIRS"]),
    ("Macro: AC_CONFIG_HEADERS (header …, [cmds], [init-cmds])", ["AC_CONFIG_HEADERS"]),
    ("Variable: CFLAGS", ["CFLAGS"]),
    ("Constant: SHA256_DIGEST_SIZE", ["SHA256_DIGEST_SIZE"]),
    ("Function: void * memxor (void *dst, const void *src, size_t n)", ["memxor"]),
    ("Function: int asn1_parser2tree (const char *file, asn1_node *definitions, char "
     "*error_desc)", ["asn1_parser2tree"]),
])
def test_a_texinfo_definition_names_what_it_defines(heading: str, names: list[str]) -> None:
    assert definition_names(heading) == names


@pytest.mark.parametrize("heading", [
    "Tutorial: backups",
    "Case study: compression",
    "Exercise: void swap (int *a, int *b)",
    "Step: configure (optional)",
    "Command: sync (since 2.0)",
    "Related command: sync",
    "Windows: setup",
])
def test_a_titles_label_is_no_category(heading: str) -> None:
    assert definition_names(heading) == []
