"""Reference entries labelled by their keyword: a heading written as the keyword and its
arguments (``inter <delay>``), as HAProxy's manual and many configuration references write
them. The index reads such entries as headings (:mod:`workers.sources.htmlpage`), the ranking
counts one the question names as a symbol named (:mod:`workers.sources.ranking`), and the
report keeps a neighbouring entry's sentences out (``app.research.neighbours``).

This module imports the standard library, :mod:`workers.sources.fences` and texinfo_defs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from workers.sources.fences import paragraphs
from workers.sources.texinfo_defs import DEFINITION, definition_names

__all__ = ["DEFINITION", "ENTRY_KEYWORD", "LABEL", "SECTION_LABELS", "SIGNATURE", "TYPE_FIRST",
           "definition_names", "entry_keywords", "entry_led", "entry_name", "field_row",
           "fielded_name", "label_name", "lower_described", "names_keyword", "opened_entry",
           "signature_name", "signatures_held", "typed_label", "unfielded",
           "without_arguments"]

ENTRY_KEYWORD = re.compile(r"([A-Za-z][\w.:-]*(?: [A-Za-z][\w.:-]*){0,3})\s+[<\[{]")
"""A reference entry's heading written as its keyword (up to four words) and arguments
(``inter <delay>``, ``option redispatch <interval>``, ``balance <algorithm> [ <arguments> ]``),
matched at its start; group 1 is the keyword. Several entries sharing one text are joined by
" / " (:mod:`workers.sources.htmlpage`)."""


LABEL = re.compile(r"^(?P<label>(?:[^.:;!?\n\[(]|\.(?=\S)|\[[^\]\n]{0,40}\]|\([^)\n]{0,40}\)|\()"
                   r"{1,80}?)(?::\s|(?<=[\w)])[ \t]\u2013[ \t](?=\S))")
"""A paragraph led by its entry's label, as a definition list's term gives it (the index joins
``<dt>`` and ``<dd>`` as ``term: description``): ``pop [--index] [<stash>]: Remove ...``; a
colon in brackets is the label's (Valgrind's ``--leak-check=<no|summary|yes|full> [default:
summary]: When enabled, ...``; Postfix's ``smtpd_helo_restrictions (default: empty): Optional
restrictions ...``, whose label was "smtpd_helo_restrictions (default", trial 71, F3). Sphinx
writes a parameter's entry with an en dash: ``request_timeout (float) – Timeout for entire
request in seconds, default 20 seconds`` (its default was answered by ``ca_certs``'s line,
trial 110, F3)."""
_ARGUMENTS = re.compile(r"\s*[\[<{(=].*$")
_OPTION = re.compile(r"--?[A-Za-z]")
"""A label that is a command-line option, whatever follows it (its value, its default)."""
SECTION_LABELS = frozenset(
    "symptom symptoms problem problems cause causes solution solutions fix workaround workarounds "
    "resolution remedy explanation question answer".split())
"""Labels of a problem/solution layout's parts, in any case: prose, no entries ("SYMPTOM: ...",
one, answered "How do I fix the database is locked error?", trial 119, F12)."""
_FIELD_LABELS = SECTION_LABELS | frozenset(
    "note notes example examples default defaults warning caution tip important see also type "
    "types description returns return raises yields args arguments parameters value values "
    "usage syntax since deprecated hint hints".split())
"""Labels of a paragraph that names no entry: a field of the one around it."""

_LIST_FIELDS = frozenset(("parameters", "arguments", "args", "params", "keyword arguments",
                          "other parameters"))
"""Field labels of a list of entries, which the index joins to its first entry as a definition
list's term ("Parameters: request_timeout (float) – Timeout ...")."""


def unfielded(paragraph: str) -> str:
    """``paragraph`` less a leading field label of a list of entries (:data:`_LIST_FIELDS`)
    when an entry's label follows it: Sphinx's first parameter, joined to "Parameters".

    Example:
        >>> unfielded("Parameters: url (str) – The URL."), unfielded("Parameters: see A.")
        ('url (str) – The URL.', 'Parameters: see A.')
    """
    found = LABEL.match(paragraph)
    if found is None or " ".join(found.group("label").lower().split()) not in _LIST_FIELDS:
        return paragraph
    rest = paragraph[found.end():].lstrip()
    return rest if LABEL.match(rest) else paragraph


def label_name(paragraph: str) -> str:
    """The name of the entry ``paragraph`` is led by (its :data:`LABEL` without the arguments
    after the name), or "" when it is led by none or by a field's label ("Note:", "Default:").

    Example:
        >>> label_name("pop [--index] [-q|--quiet] [<stash>]: Remove a single stashed state.")
        'pop'
        >>> label_name("--abort: Abort the rebase."), label_name("Note: this is slow.")
        ('--abort', '')
        >>> label_name("SYMPTOM: Every run stops."), label_name("solution: Delete the lock.")
        ('', '')
        >>> label_name("--leak-check=<no|full> [default: summary]: When enabled, ...")
        '--leak-check'
    """
    found = LABEL.match(paragraph.strip())
    if found is None:
        return ""
    name = _ARGUMENTS.sub("", found.group("label")).strip()
    return "" if " ".join(name.lower().split()) in _FIELD_LABELS else name


def typed_label(paragraph: str) -> bool:
    """Whether ``paragraph`` is led by a label of a name and its type or default in brackets
    (:data:`_BRACKETED_LABEL`: Postfix's ``smtpd_helo_restrictions (default: empty): ...``).

    Example:
        >>> typed_label("ssl (boolean): Enables SSL."), typed_label("pop [<stash>]: Remove it.")
        (True, False)
    """
    found = LABEL.match(paragraph.strip())
    return bool(found and _BRACKETED_LABEL.fullmatch(found.group("label").strip()))


_WORDED = re.compile(r"[A-Za-z]{2}")
LOWER_PROSE_WORDS = 12
"""A description in lower case of this many words or more, ended by a full stop, is a sentence
of its term's entry (:func:`lower_described`)."""


def lower_described(rest: str) -> bool:
    """Whether ``rest``, a term's description after its ``term:`` label, is a sentence that
    opens in lower case, as DocBook's definition lists write them: Linux-PAM's "requisite: like
    required, however, in the case that such a module returns a failure, control is directly
    returned to the application." was read as no entry, so as the tail of a sentence and a
    field listing, and never quoted for "What does the requisite control flag do?" (trial 127,
    F3). A short one ("clear: the rest.") stays a field's value.

    Example:
        >>> lower_described("like required, however, in the case that such a module returns "
        ...                 "a failure, control is returned."), lower_described("the rest.")
        (True, False)
    """
    rest = rest.strip()
    return (rest[:1].islower() and len(rest.split()) >= LOWER_PROSE_WORDS
            and rest.rstrip("\"')]").endswith((".", "!")))


def entry_led(paragraph: str) -> bool:
    """Whether ``paragraph`` opens with a reference entry's label and its description: a name of
    one word, or a keyword with its arguments, then ": " and a capital (``pop [--index]
    [<stash>]: Remove ...``, ``clear: Remove all the stash entries.``). Such a paragraph opening
    a passage starts an entry, not the tail of a sentence cut at the passage's start, though
    it opens with a lower-case word (trial 53: git-stash's ``pop`` entry was never quoted).

    Example:
        >>> entry_led("pop [--index] [<stash>]: Remove a single stashed state.")
        True
        >>> entry_led("and the values are: Red and Blue."), entry_led("clear: the rest.")
        (False, False)
        >>> entry_led("Windows: Run the installer."), entry_led("core.eol: Sets it.")
        (False, True)
        >>> entry_led("SAVEHIST: The maximum number of history events to save."), entry_led(
        ...     "TODO: Write this.")  # a variable in capitals (trial 115, F2a), a note
        (True, False)
        >>> entry_led("smtpd_helo_restrictions (default: empty): Optional restrictions.")
        True
        >>> entry_led("extra-dicts: (list) Extra dictionaries to use.")  # Texinfo's (Aspell's)
        True
        >>> entry_led("--previous: keep previous msgids of translated messages")  # groff's
        True
        >>> entry_led("ca_certs (str) – filename of CA certificates"), entry_led(
        ...     "Step one – then the rest.")  # Sphinx's parameter, a dash in prose
        (True, False)
    """
    found = LABEL.match(paragraph := paragraph.strip())
    if found is None or not label_name(paragraph):
        return False
    label, rest = found.group("label").strip(), paragraph[found.end():]
    first = TYPE_FIRST.sub("", rest)[:1]  # "extra-dicts: (list) Extra dictionaries ..."
    dashed = not found.group().rstrip().endswith(":")  # Sphinx's "name (type) – text"
    if dashed and not (_BRACKETED_LABEL.fullmatch(label) or "_" in label):
        return False  # "Step one – then the rest": prose
    worded = _WORDED.search(label) is not None  # a term, not a table's code ("-", "R")
    if not (first.isupper() or first.islower() and (
            _OPTION.match(label) or dashed or (worded and lower_described(rest)))):
        return False  # an option's entry may be in lower case (GNU's "--previous: keep ..."),
        # and so may a term's whole sentence (:func:`lower_described`)
    name = typed.group(1) if (typed := _BRACKETED_LABEL.fullmatch(label)) else label
    return bool(ENTRY_KEYWORD.match(label) or _OPTION.match(label)) or (
        " " not in name and _NAME_LIKE.search(name) is not None
        and name.lower() not in _PROSE_CAPITALS)


TYPE_FIRST = re.compile(r"^\([^()\n]{1,30}\)\s*")
"""A description that opens with its value's type in brackets (Aspell's "extra-dicts: (list)
Extra dictionaries to use.": trial 95, F1, its entries were none)."""
_NAME_ALONE = re.compile(r"[A-Za-z_][\w.:-]{1,60}")
_FIELD = re.compile(r"(?:Use|Type|Default|Scope|Context|Syntax|Values?|Status|Module|Since):"
                    r"[ \t]+\S[^\n]{0,80}")
"""An entry's field row ("Use: main", "Default: 100K")."""


def field_row(paragraph: str) -> bool:
    """Whether ``paragraph`` is one of an entry's field rows ("Use: main", "Default: 100K")."""
    return _FIELD.fullmatch(paragraph.strip()) is not None


def fielded_name(paragraphs: Sequence[str], at: int) -> str:
    """The name alone on ``paragraphs[at]`` when the paragraph after it is a field row: an
    entry's opening as Exim writes each option (``check_local_user``, then "Use: routers",
    "Type: boolean", "Default: false"), several to a passage; else ``""``.

    Example:
        >>> fielded_name(["check_local_user", "Use: routers", "When this option is true"], 0)
        'check_local_user'
        >>> fielded_name(["Logging", "Django uses Python's logging module."], 0)
        ''
    """
    name = paragraphs[at].strip()
    return name if (_NAME_ALONE.fullmatch(name) and at + 1 < len(paragraphs)
                    and field_row(paragraphs[at + 1])) else ""


def entry_name(paragraph: str) -> str:
    """The name of the reference entry ``paragraph`` opens (:func:`label_name`), when it opens
    one (:func:`entry_led`), else "": what the ranking, the offline model and the report take
    for the entry a sentence belongs to, one rule for all three.

    Example:
        >>> entry_name("pop [<stash>]: Remove it."), entry_name("Windows: Run the installer.")
        ('pop', '')
    """
    return label_name(paragraph) if entry_led(paragraph) else ""


_BRACKETED_LABEL = re.compile(r"([A-Za-z_][\w.-]{0,60})\s*\([^()\n]{1,40}\)")
"""A label of a name and its type or default in brackets: Postfix's ``smtpd_helo_restrictions
(default: empty)``, DocBook's ``ssl (boolean)``."""
_NAME_LIKE = re.compile(r"^[a-z]|[-_.:/0-9]|[a-z][A-Z]|^[A-Z]{2,}$")
"""A one-word label that names a thing of the software: lower-case (``clear``), written with a
dash, dot, digit or underscore (``--abort``, ``core.eol``, ``install_dir``), in CamelCase, or
in capitals, as a shell's variables are (zsh's ``SAVEHIST``, trial 115, F2a). A capitalised
word (``Windows:``, ``Summary:``) labels prose about it, not an entry (trial 56: "Windows: Run
the installer ..." made "on Windows" an entry asked); so do the capitals of
:data:`_PROSE_CAPITALS` ("TODO:", "NB:")."""
_PROSE_CAPITALS = frozenset(
    "a q nb ps fyi faq todo fixme xxx bug bugs hint danger attention update edit answer question "
    "ok yes no".split())
"""Words in capitals that label prose, not an entry ("NOTE:" is one of :data:`_FIELD_LABELS`)."""


SIGNATURE = re.compile(r"(?:[A-Z][a-z]+(?: [a-z]+)?:\s+|(?:(?:abstract|async|static) )?"
                       r"(?:method|function|classmethod|staticmethod|class|exception|"
                       r"coroutine|decorator) )?(?:new\s+)?"
                       r"((?:[A-Za-z_$][\w$-]*\.)*[A-Za-z_$][\w$]*)\(")
"""A reference entry's heading written as a call's signature, with its kind before it or not
(Node.js's ``util.promisify(original)``, ``Static method: Buffer.alloc(size[, fill])``,
``new stream.Writable([options])``, Sphinx's ``method sqlalchemy.orm.Session.expunge(instance)``,
Jinja's ``jinja-filters.truncate(s: str, ...)``: a qualifier may hold a hyphen); group 1 is
the function's name."""


def entry_keywords(heading: str) -> set[str]:
    """The keywords of the entries ``heading`` labels (:data:`ENTRY_KEYWORD`, or a call's
    :data:`SIGNATURE`; several joined by " / "), lower-cased. A plain word is no keyword:
    "Samples" is not, ``samples <n>`` is.

    Example:
        >>> sorted(entry_keywords("inter <delay> / fastinter <delay>")), entry_keywords("Usage")
        (['fastinter', 'inter'], set())
        >>> entry_keywords("option redispatch <interval> / no option redispatch")
        {'option redispatch'}
        >>> entry_keywords("Static method: Buffer.alloc(size[, fill])")
        {'buffer.alloc'}
        >>> entry_keywords("flushname name [view]")  # BIND's rndc command
        {'flushname'}
        >>> entry_keywords("Builtin: changequote ([start = ‘`’], [end = ‘'’])")  # Texinfo's
        {'changequote'}
    """
    if defined := definition_names(heading):
        return {name.lower() for name in defined}
    return {_without_placeholders(m[1].lower()) for part in heading.split(" / ")
            if (m := ENTRY_KEYWORD.match(part.strip()) or SIGNATURE.match(part.strip()))
            is not None}


_PLACEHOLDERS = frozenset(
    "name names value values file filename path dir directory number num count string str key "
    "zone view host hostname port address addr id type class expr expression pattern arg args "
    "level size seconds user group mode format list text".split())
"""Words an entry's heading writes for an argument with no brackets (BIND's ``flushname name
[view]``): the keyword stops before them, or "rndc flushname" named no entry, and two release
notes on it outranked the command's own (trial 75)."""


def _without_placeholders(keyword: str) -> str:
    """``keyword`` without the argument placeholders it ends with (:data:`_PLACEHOLDERS`), its
    first word always kept.

    Example:
        >>> _without_placeholders("flushname name"), _without_placeholders("show servers state")
        ('flushname', 'show servers state')
    """
    words = keyword.split(" ")
    while len(words) > 1 and words[-1] in _PLACEHOLDERS:
        words.pop()
    return " ".join(words)


def names_keyword(text: str, keywords: Iterable[str]) -> set[str]:
    """The ``keywords`` (lower-case, one or more words) ``text`` writes as whole words.

    Example:
        >>> sorted(names_keyword("What is option redispatch?", {"option redispatch", "inter"}))
        ['option redispatch']
    """
    low = " ".join(text.lower().split())
    return {k for k in keywords if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", low)}


def opened_entry(text: str, heading: str) -> str:
    """The name of the function whose reference entry the passage ``text`` opens: its section's
    ``heading`` is written as the call (:data:`SIGNATURE`; not a man page's ``git-gc(1)``) and
    is one of the passage's first three paragraphs (Sphinx writes the method's name as a
    heading, then the entry's signature: ``select_related()``, ``select_related(*fields)``); the
    name as written, its last dotted part (``QuerySet.filter(**kwargs)``: ``filter``); else "".
    Such a passage holds the entry's first sentence, what the function does, as a docstring's
    first passage does. Under no such heading, a signature alone on one of those paragraphs
    opens its entry too.

    Example:
        >>> opened_entry("select_related()\\n\\nselect_related(*fields)\\n\\nReturns a QuerySet.",
        ...              "select_related(*fields)")
        'select_related'
        >>> opened_entry("More on joins.", "select_related(*fields)"), opened_entry("x", "gc(1)")
        ('', '')
        >>> opened_entry("getline({lnum} [, {end}])\\n\\nWithout {end} the result is a String.", "")
        'getline'
    """
    name = signature_name(heading)
    opening = paragraphs(text)[:3]  # a fenced example is one paragraph: its calls open none
    if name and heading.strip() in opening:
        return name
    # a signature alone on its paragraph, under no heading of its own (Vim's help: its
    # "getline({lnum} [, {end}])" above "Without {end} the result is a String, ...")
    bare = next((p for p in opening if _BARE_SIGNATURE.fullmatch(p)), "")
    return signature_name(bare) if bare else ""


_BARE_SIGNATURE = re.compile(r"[A-Za-z_$][\w$.]{0,60}\([^()\n]{0,80}\)")
"""A paragraph that is a call's signature alone: ``getline({lnum} [, {end}])``."""


def signatures_held(text: str) -> set[str]:
    """The names of the functions whose signature stands alone on a paragraph of ``text``: the
    entries a passage of a reference holds, wherever it was cut (Vim's help puts each entry's
    signature on a line of its own, and a passage may open with the entry before).

    Example:
        >>> sorted(signatures_held("Return 0.\\n\\ngetline({lnum} [, {end}])\\n\\nWithout it"))
        ['getline']
    """
    if "(" not in text:  # the common case
        return set()
    return {signature_name(p) for p in paragraphs(text) if _BARE_SIGNATURE.fullmatch(p)} - {""}


def without_arguments(label: str) -> str:
    """``label`` without the argument list of the call it writes (:data:`SIGNATURE`), if any:
    a name among a signature's arguments is no name of its entry (Jinja's ``class
    jinja2.Template(source, ..., trim_blocks=False, ...)`` is not the ``trim_blocks``
    option's entry, trial 117, F2).

    Example:
        >>> without_arguments("class jinja2.Template(source, f=(1, 2), trim_blocks=False) [source]")
        'class jinja2.Template [source]'
        >>> without_arguments("trim_blocks (bool) –"), without_arguments("gc(1)")
        ('trim_blocks (bool) –', 'gc(1)')
    """
    found = SIGNATURE.match(label.strip())
    if found is None or not signature_name(label):  # a man page's section: git-gc(1)
        return label
    label, depth = label.strip(), 0
    for at in range(found.end() - 1, len(label)):
        depth += {"(": 1, ")": -1}.get(label[at], 0)
        if depth == 0:
            return f"{label[:found.end() - 1]}{label[at + 1:]}"
    return label[:found.end() - 1]


def signature_name(heading: str) -> str:
    """The name of the function an entry's ``heading`` writes as its call (:data:`SIGNATURE`),
    as written, its last dotted part; "" for any other heading and a man page's section
    (``git-gc(1)``, ``gc(1)``).

    Example:
        >>> signature_name("QuerySet.filter(**kwargs)"), signature_name("gc(1)")
        ('filter', '')
        >>> signature_name("jinja-filters.truncate(s: str)"), signature_name("git-gc(1)")
        ('truncate', '')
    """
    found = SIGNATURE.match(heading.strip())
    if found is None or re.match(r"\(\d+\)", heading.strip()[found.end() - 1:]):
        return ""
    return found[1].rpartition(".")[2]
