"""A Texinfo definition's heading: its category, then the name it defines and perhaps its
arguments (GNU m4's "Builtin: dnl", Nettle's "Function: void * memxor (void *dst, const void
*src, size_t n)"). The ranking counts an entry so headed as the symbol named
(:func:`workers.sources.entry_match.entry_named`), and the report answers "What does dnl do?" with
the sentence below it (``app.research.definitions``).

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["DEFINITION", "c_declaration", "definition_names"]

_ARGS = r"\((?:[^()\n]|\([^()\n]*\))*\)"
_C_WORDS = r"(?:(?:const|volatile|unsigned|signed|struct|union|enum|long|short) +)*"
DEFINITION = re.compile(rf"(?P<category>[A-Z][a-z]+(?:-[a-z]+)?(?: [A-Za-z][a-z]+)?): "
                        rf"(?:(?P<name>[A-Za-z_][\w.-]*)(?: ?(?P<args>{_ARGS}))?|"
                        rf"(?:{_C_WORDS}[A-Za-z_]\w*(?: ?\*+)? ){{1,2}}\**"
                        rf"(?P<cname>[A-Za-z_]\w*) ?(?P<cargs>{_ARGS});?)")
"""A Texinfo definition's form: its category, then the name and perhaps its arguments after a
space (GNU m4's "Builtin: dnl", "Builtin: changequote ([start = ‘`’], [end = ‘'’])", "Optional
builtin: changeword (regex)", Emacs's "User Option: fill-column"), or a C function's type,
name and arguments (Nettle's "Function: void * memxor (void *dst, const void *src, size_t n)":
trial 105, F1; glibc's "Function: long int labs (long int number)", Nettle's "Function: int
rsa_pkcs1_sign(...)" and "...);": trial 113, F5); the name is group ``name`` or ``cname``, its
arguments ``args`` or ``cargs``."""


_KINDS = frozenset(
    "function macro variable option command form builtin built-in method constructor "
    "destructor class operator procedure primitive constant structure struct union enum "
    "typedef composite hook face interface property attribute slot signal instruction "
    "subroutine accessor predicate".split())
"""The last word of a Texinfo definition's category: a kind of thing a program defines ("User
Option", "Special Form", "Instance Variable", "Library function", "Optional builtin", m4's
"Composite"). Any other label is a title's ("Tutorial: backups", "Case study: compression",
"Exercise: void swap (int *a, int *b)"): Texinfo's @deffn takes any category, but its manuals
name kinds, and a Markdown guide's "## Case study: compression" made its story of a
photographer the Answer to "What does compression do?" (trial 113, F4)."""
_NOT_CATEGORIES = frozenset(
    "see also alias aliases by replaced renamed moved superseded related usage return returns "
    "default defaults deprecated example examples note notes".split())
"""Words of a label that make it a field of an entry ("See also: pelican", "Replaced by:
pelican", "Related command: sync", "Default option: zstd"), not a Texinfo definition's category
(trial 103, F6)."""
_TYPES = frozenset(["type", "data type", "function type"])
"""The categories of a type's definition: Texinfo's @deftp writes "Data type: ffi_type"
(libffi), libtool "Function Type:" and "Type: lt_dlhandle" (trial 113, F5); any other
"... type:" labels an entry's field ("Return type: int", "Column type: integer")."""


def _category(label: str) -> bool:
    """Whether ``label`` is a Texinfo definition's category: its last word a kind of thing
    (:data:`_KINDS`), no word of it a field's (:data:`_NOT_CATEGORIES`), or a type's
    (:data:`_TYPES`).

    Example:
        >>> _category("Builtin"), _category("User Option"), _category("Case study")
        (True, True, False)
        >>> _category("Related command"), _category("Data Type"), _category("Return type")
        (False, True, False)
    """
    words = label.lower().split()
    return " ".join(words) in _TYPES or (words[-1] in _KINDS
                                         and not set(words) & _NOT_CATEGORIES)


_PARAMETER = re.compile(r"(?:[^,()]|\([^()]*\))+")
"""One parameter of a list parted by commas, brackets kept whole (a callback's own list)."""
_QUOTED_OR_OPTIONAL = re.compile(r"\[[^\]\n]*\]|‘[^’\n]*’|\"[^\"\n]*\"|'[^'\n]*'")
_DEFAULT_OR_MORE = re.compile(r"\s*=\s*\S+|…|\.\.\.")


def _texinfo_arguments(args: str) -> bool:
    """Whether ``args`` (in their brackets) are a Texinfo definition's arguments, each one
    word: a name (m4's ``(name, [expansion])``, Octave's ``(fun, x0, …)``), with a default or
    optional (``[end = ‘'’]``) or not; a word or two of prose is a title's ("Command: sync
    (since 2.0)", "Function: backups (part 2)": trial 113, F4).

    Example:
        >>> _texinfo_arguments("([start = ‘`’], [end = ‘'’])"), _texinfo_arguments("(part 2)")
        (True, False)
        >>> _texinfo_arguments("(dir1 [dir2 ... dirN])"), _texinfo_arguments("(header …, [cmds])")
        (True, True)
    """
    inner = _QUOTED_OR_OPTIONAL.sub(" ", args.strip()[1:-1])
    return all(len(_DEFAULT_OR_MORE.sub(" ", arg).split()) <= 1
               for arg in _PARAMETER.findall(inner))


_C_PARAMETER = re.compile(rf"void|\.\.\.|…|[^,()]*\*[^,()]*|{_C_WORDS}[A-Za-z_]\w* +[A-Za-z_]\w*")
"""A C function's parameter: a type and a name (``const void *src``, ``size_t n``, ``long int
number``, ``enum nettle_mode mode``), ``void``, or more of them (``...``, ``…``: Texinfo's HTML
writes @dots{} as ``&hellip;``)."""
_C_CALLBACK = re.compile(rf"{_C_WORDS}[A-Za-z_]\w*(?: ?\*+)? ?\( ?\*+ ?[A-Za-z_]\w* ?\) ?"
                         r"(?P<args>\([^()]*\))")
"""A parameter that is a callback, its type, ``(*name)`` and its own parameters: libffi's
``void (*fun) (ffi_cif *cif, void *ret, void **args, void *user_data)``."""


def c_declaration(text: str) -> bool:
    """Whether ``text`` declares one C thing, a type and a name (:data:`_C_PARAMETER`): a
    parameter, or a struct's member as libffi's "Data type: ffi_type" lists them (``size_t
    size``, ``ffi_type **elements``).

    Example:
        >>> c_declaration("unsigned short alignment"), c_declaration("Prepare a closure")
        (True, False)
    """
    return _C_PARAMETER.fullmatch(" ".join(text.split())) is not None and text.strip() != "void"


def _c_parameters(args: str) -> bool:
    """Whether ``args`` (in their brackets) are a C function's parameters (:data:`_C_PARAMETER`,
    a callback's :data:`_C_CALLBACK` with its own), those in square brackets optional (glibc's
    ``(const char *filename, int flags[, mode_t mode])``): "Function: returns the sum (a, b)"
    and "Step: configure logging (optional)" are a handbook's headings, and defined ``sum`` and
    ``logging`` by the paragraph below them (trial 108, F6). Read from the last bracket, the
    callback's, libffi's ``ffi_prep_closure_loc`` defined nothing (trial 113, F5).

    Example:
        >>> _c_parameters("(ffi_closure *closure, void (*fun) (ffi_cif *cif, void *ret), "
        ...               "void *codeloc)"), _c_parameters("(a, b)")
        (True, False)
        >>> _c_parameters("(const char *filename, int flags[, mode_t mode])")
        True
    """
    params = [" ".join(p.split()) for p in _PARAMETER.findall(re.sub(r"[][]", " ", args[1:-1]))]
    return bool(params) and all(_C_PARAMETER.fullmatch(param) or (
        (callback := _C_CALLBACK.fullmatch(param)) and _c_parameters(callback["args"]))
        for param in params)


def _defined(form: str) -> str:
    """The name one form of a Texinfo definition's heading defines (:data:`DEFINITION`), its
    category one (:func:`_category`) and its arguments a definition's, else ""."""
    found = DEFINITION.fullmatch(form.strip())
    if found is None or not _category(found["category"]):
        return ""
    if found["category"] == "Type" and "_" not in (found["name"] or found["cname"]):
        return ""  # Exim's "Type: boolean" is an entry's field, libtool's "Type: lt_module" not
    if found["name"]:
        return found["name"] if _texinfo_arguments(found["args"] or "()") else ""
    return found["cname"] if _c_parameters(found["cargs"]) else ""


def definition_names(heading: str) -> list[str]:
    """The names a Texinfo definition's ``heading`` defines (:data:`DEFINITION`; several forms
    joined by " / "), each once; ``[]`` unless every form is one.

    Example:
        >>> definition_names("Composite: copy (source, dest) / Composite: rename (source, dest)")
        ['copy', 'rename']
        >>> definition_names("Builtin: dnl"), definition_names("Default: false")
        (['dnl'], [])
        >>> definition_names("See also: pelican"), definition_names("Replaced by: pelican")
        ([], [])
        >>> definition_names("Function: void * memxor (void *dst, const void *src, size_t n)")
        ['memxor']
        >>> definition_names("Function: const struct nettle_hash * nettle_lookup_hash (const "
        ...                  "char *name)"), definition_names("Summary: returns the hash")
        (['nettle_lookup_hash'], [])
        >>> definition_names("Function: returns the sum (a, b)"), definition_names(
        ...     "Function: int yarrow256_is_seeded (struct yarrow256_ctx *ctx)")
        ([], ['yarrow256_is_seeded'])

    A title's label is no category, whatever follows it (trial 113, F4):

        >>> definition_names("Tutorial: backups"), definition_names("Case study: compression")
        ([], [])
        >>> definition_names("Exercise: void swap (int *a, int *b)")
        []

    A type's category, a callback among the parameters, optional ones (trial 113, F5):

        >>> definition_names("Data type: ffi_type"), definition_names("Type: boolean")
        (['ffi_type'], [])
        >>> definition_names("Function: ffi_status ffi_prep_closure_loc (ffi_closure *closure, "
        ...                  "void (*fun) (ffi_cif *cif, void *ret), void *codeloc)")
        ['ffi_prep_closure_loc']
        >>> definition_names("Function: int open (const char *filename, int flags[, mode_t "
        ...                  "mode])"), definition_names("Function: int printf (const char *t, …)")
        (['open'], ['printf'])
    """
    names = [_defined(part) for part in heading.split(" / ")]
    return list(dict.fromkeys(names)) if all(names) else []
