"""A Texinfo definition's heading: its category, then the name it defines and perhaps its
arguments (GNU m4's "Builtin: dnl", Nettle's "Function: void * memxor (void *dst, const void
*src, size_t n)"). The ranking counts an entry so headed as the symbol named
(:func:`workers.sources.ranking.entry_named`), and the report answers "What does dnl do?" with
the sentence below it (``app.research.definitions``).

This module imports only the standard library.
"""

from __future__ import annotations

import re

__all__ = ["DEFINITION", "definition_names"]

_ARGS = r" \((?:[^()\n]|\([^()\n]*\))*\)"
DEFINITION = re.compile(rf"(?P<category>[A-Z][a-z]+(?: [a-z]+)?): "
                        rf"(?:(?P<name>[A-Za-z_][\w.]*)(?P<args>{_ARGS})?|"
                        rf"(?:(?:const |unsigned |struct )?[A-Za-z_]\w*(?: ?\*+)? ){{1,2}}\**"
                        rf"(?P<cname>[A-Za-z_]\w*)(?P<cargs>{_ARGS}))")
"""A Texinfo definition's form: its category, then the name and perhaps its arguments after a
space (GNU m4's "Builtin: dnl", "Builtin: changequote ([start = ‘`’], [end = ‘'’])", "Optional
builtin: changeword (regex)"), or a C function's type, name and arguments (Nettle's "Function:
void * memxor (void *dst, const void *src, size_t n)": trial 105, F1); the name is group
``name`` or ``cname``, its arguments ``args`` or ``cargs``."""


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
    "default defaults deprecated example examples note notes type types".split())
"""Words of a label that make it a field of an entry ("See also: pelican", "Replaced by:
pelican", "Related command: sync", "Default option: zstd", "Type: boolean"), not a Texinfo
definition's category (trial 103, F6)."""


def _category(label: str) -> bool:
    """Whether ``label`` is a Texinfo definition's category: its last word a kind of thing
    (:data:`_KINDS`), no word of it a field's (:data:`_NOT_CATEGORIES`).

    Example:
        >>> _category("Builtin"), _category("User option"), _category("Case study")
        (True, True, False)
        >>> _category("Related command"), _category("Tutorial")
        (False, False)
    """
    words = label.lower().split()
    return words[-1] in _KINDS and not set(words) & _NOT_CATEGORIES


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


_C_PARAMETER = re.compile(r"void|\.\.\.|[^,()]*\*[^,()]*|\s*(?:const |unsigned |struct )?"
                          r"[A-Za-z_]\w*(?: ?\*+ ?| )[A-Za-z_]\w*(?:\[\w*\])?\s*")


def _c_parameters(form: str) -> bool:
    """Whether a definition's arguments are a C function's parameters, each a type and a name
    (``const void *src``, ``size_t n``) or ``void``: "Function: returns the sum (a, b)" and
    "Step: configure logging (optional)" are a handbook's headings, and defined ``sum`` and
    ``logging`` by the paragraph below them (trial 108, F6)."""
    args = form[form.rfind("(") + 1:form.rfind(")")]
    return all(_C_PARAMETER.fullmatch(arg.strip()) for arg in args.split(","))


def _defined(form: str) -> str:
    """The name one form of a Texinfo definition's heading defines (:data:`DEFINITION`), its
    category one (:func:`_category`) and its arguments a definition's, else ""."""
    found = DEFINITION.fullmatch(form.strip())
    if found is None or not _category(found["category"]):
        return ""
    if found["name"]:
        return found["name"] if _texinfo_arguments(found["args"] or "()") else ""
    return found["cname"] if _c_parameters(found[0]) else ""


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
    """
    names = [_defined(part) for part in heading.split(" / ")]
    return list(dict.fromkeys(names)) if all(names) else []
