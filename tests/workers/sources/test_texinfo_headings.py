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


@pytest.mark.parametrize(("heading", "names"), [
    ("Function: ffi_status ffi_prep_closure_loc (ffi_closure *closure, ffi_cif *cif, void "
     "(*fun) (ffi_cif *cif, void *ret, void **args, void *user_data), void *user_data, void "
     "*codeloc)", ["ffi_prep_closure_loc"]),
    ("Data type: ffi_type", ["ffi_type"]),
    ("Data Type: po_message_t", ["po_message_t"]),
    ("Function Type: int lt_dlpreload_callback_func (lt_dlhandle handle)",
     ["lt_dlpreload_callback_func"]),
    ("Type: lt_dlhandle", ["lt_dlhandle"]),
    ("Function: int printf (const char *template, …)", ["printf"]),
    ("Function: int open (const char *filename, int flags[, mode_t mode])", ["open"]),
    ("Function: long int labs (long int number)", ["labs"]),
    ("Function: int f (enum nettle_mode mode)", ["f"]),
    ("Function: int rsa_pkcs1_sign(const struct rsa_private_key *key, size_t length, mpz_t s)",
     ["rsa_pkcs1_sign"]),
    ("Function: int des_check_parity (size_t length, const uint8_t *key);", ["des_check_parity"]),
    ("User Option: fill-column", ["fill-column"]),
])
def test_a_c_or_type_definition_names_what_it_defines(heading: str, names: list[str]) -> None:
    # each gave [] (trial 113, F5): a callback's own parameters were read as the function's,
    # "type" was a field's word, "…", "[, mode_t mode]", "long int" and "enum x" no parameter
    assert definition_names(heading) == names


@pytest.mark.parametrize("heading", [
    "Type: boolean", "Return type: int", "Column type: integer", "Function: int getchar ()",
])
def test_a_fields_type_is_no_definition(heading: str) -> None:
    assert definition_names(heading) == []
