"""What a subject *is*, from the run's own passages: the summary line of each documented symbol a
question names (else "What is BaseCheckpointSaver?" was answered by a
sentence about thread ids while "Base class for creating a graph checkpointer." sat in the
report's Top passages).

A docstring's first sentence says what its symbol is, without naming it ("Configuration for
retrying nodes." is ``RetryPolicy``): the report shows it under the symbol's name. Pure: reads
the rows it is given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.llm.offline.sentences import first_summary, summary_line
from app.research.citations import items
from app.research.reference import definition_term, entry_heading, written_names
from app.research.relevance import topic_terms
from workers.sources import Passage
from workers.sources.chunks import PARA_SPLIT
from workers.sources.entries import (
    LABEL,
    definition_names,
    entry_keywords,
    field_row,
    signature_name,
)
from workers.sources.names import NameKey, name_keys, named_symbols
from workers.sources.option_entries import option_heading
from workers.sources.query import symbol_name
from workers.sources.texinfo_defs import c_declaration

__all__ = ["LEANS", "definition_line", "definitions", "entry_definition", "of_asked",
           "own_symbol", "passage_entries", "plain_name"]

DEFINES = "defines"
"""The key of a definition item that holds the name of the symbol it defines."""


def own_symbol(title: str) -> str:
    """The name of the symbol a docstring's ``title`` documents itself, "" for a page, a file,
    or a member documented under its class's name (``Send.__init__`` says how to build a
    ``Send``, not what one is).

    Example:
        >>> own_symbol("langgraph.types.Send"), own_symbol("langgraph.types.Send.__init__")
        ('Send', '')
    """
    name = symbol_name(title)
    return name if name and title.rpartition(".")[2] == name else ""


_ENTRY_HEADINGS = 3
"""The most heading lines an entry's first passage opens with (Sphinx writes a method's name
as a heading, then its signature as the entry: ``select_related()``,
``select_related(*fields)``)."""


def entry_definition(text: str) -> tuple[list[str], str] | None:
    """The symbols an API entry's first passage is about and the sentence that says what they
    are: the passage (``text``) opens with the entry's heading written as a call
    (:data:`_SIGNATURE`) or as the identifier alone (:func:`_identifier`), and the first
    sentence after its headings (:func:`~app.llm.offline.sentences.first_summary`; a version
    note or a code block between them passed over) is the entry's summary line, as a
    docstring's first sentence is its symbol's (Django's "Returns a QuerySet that will “follow”
    foreign-key relationships ..." under ``select_related(*fields)``: "What does
    select_related() do?" opened with "Chaining select_related calls works ...", trial 60;
    CMake's "Add compile definitions to a target." under ``target_compile_definitions``: the
    Answer quoted the entry's third passage, trial 63). None for any other passage.

    Example:
        >>> entry_definition("select_related(*fields)\\n\\nReturns a QuerySet that follows keys.")
        (['select_related'], 'Returns a QuerySet that follows keys.')
        >>> entry_definition("BUILD_TYPE\\n\\nNew in version 3.5.\\n\\nSets the build type used.")
        (['BUILD_TYPE'], 'Sets the build type used.')
        >>> entry_definition("FetchContent\\n\\nNote\\n\\nThe guide is an overview of it.") is None
        True
        >>> entry_definition("dirCreateMode\\n\\nstring — default: 0700; mandatory: no.\\n\\n"
        ...                  "This is the same as FileCreateMode, but for directories.")
        (['dirCreateMode'], 'This is the same as FileCreateMode, but for directories.')
        >>> entry_definition("Logging\\n\\nDjango uses Python's logging module.") is None
        True
        >>> entry_definition("noauto\\n\\ndo not mount when mount -a is given")  # trial 87
        (['noauto'], 'do not mount when mount -a is given')
        >>> entry_definition("check_local_user\\n\\nUse: routers\\n\\nDefault: false\\n\\n"
        ...                  "When this option is true, Exim checks the user.")  # trial 86
        (['check_local_user'], 'When this option is true, Exim checks the user.')
        >>> entry_definition("Data type: ffi_type\\n\\nsize_t size: The size of the type.") is None
        True
    """
    return _entry_at(PARA_SPLIT.split(text.strip()), 0)[0]


def passage_entries(text: str) -> list[tuple[list[str], str]]:
    """Each entry the passage ``text`` holds, as :func:`entry_definition` reads the one it opens
    with: a passage of short entries holds several (curl's ``CURL-DISABLE.md``, one ``##
    `CURL_DISABLE_COOKIES` `` with its line each; the Answer to "What does CURL_DISABLE_COOKIES
    do?" quoted the passage's first, Alt-Svc's, trial 63, F2).

    Example:
        >>> passage_entries("# Buffers\\n\\n## `dyn_free`\\n\\n```c\\nvoid dyn_free(s);\\n```"
        ...                 "\\n\\nFree the memory it holds.\\n\\n## `dyn_add`\\n\\n"
        ...                 "Append a string to a buffer.")
        [(['dyn_free'], 'Free the memory it holds.'), (['dyn_add'], 'Append a string to a buffer.')]

    A plain-text definition list's term, its description indented on the lines below it, is
    an entry too (lighttpd's ``server.max-keep-alive-idle`` above "maximum number of seconds
    until a idling keep-alive connection is dropped", trial 84):

        >>> passage_entries("server.max-idle\\n  maximum number of seconds idle\\n\\n  Default: 30")
        [(['server.max-idle'], 'maximum number of seconds idle')]
    """
    found: list[tuple[list[str], str]] = []
    paragraphs = []
    for paragraph in PARA_SPLIT.split(text.strip()):
        if term := definition_term(paragraph):
            if line := first_summary(term[1]):
                found.append(([term[0]], line))
        else:
            paragraphs.append(paragraph)
    at = 0
    while at < len(paragraphs):
        entry, at = _entry_at(paragraphs, at)
        if entry is not None:
            found.append(entry)
    return found


def _entry_at(paragraphs: list[str], at: int) -> tuple[tuple[list[str], str] | None, int]:
    """The entry whose headings start at ``paragraphs[at]`` (see :func:`entry_definition`), or
    None, and the index of the paragraph after what was read (past ``at`` always)."""
    names: list[str] = []
    first = at
    while (at < len(paragraphs) - 1 and at - first < _ENTRY_HEADINGS
           and (heading := entry_heading(paragraphs[at]) or _definition_line(paragraphs[at])
                or _synopsis_line(paragraphs[at]))):
        if name := (signature_name(heading) or _identifier(heading) or _defined(heading)
                    or option_heading(heading) or _keyword(heading)):
            names.append(name)
        elif terms := _terms(heading):
            names += terms
        elif names:  # "Note" under the name: what follows is the note's, not the summary
            return None, at
        at += 1
    if not names:
        return None, max(at, first + 1)
    while at < len(paragraphs) - 1 and (_ADDED.fullmatch(paragraphs[at].strip())
                                        or _FIELD_ROW.fullmatch(paragraphs[at].strip())
                                        or field_row(paragraphs[at])
                                        or paragraphs[at].lstrip().startswith("```")):
        fences = paragraphs[at].count("```")  # a synopsis in a code block: to its closing fence
        while fences % 2 and at < len(paragraphs) - 1:
            at += 1
            fences += paragraphs[at].count("```")
        at += 1
    summary = paragraphs[at] if at < len(paragraphs) else ""
    label = LABEL.match(summary.strip())
    # a member's line is no summary: libffi's "Data type: ffi_type" above "size_t size: This
    # must be manually set to the size of the complex type." (trial 113, F5)
    member = label is not None and c_declaration(label["label"])
    line = first_summary(summary) if summary and not member else None
    return ((list(dict.fromkeys(names)), line) if line else None), at + 1


_ADDED = re.compile(r"(?:new|added) in (?:version |[A-Z][\w.]* )?v?\d[\w.]*\.?", re.IGNORECASE)
"""A version note alone in its paragraph: Sphinx's "New in version 3.5.", "New in Django 3.2."."""


_FIELD_ROW = re.compile(r"[^\n—]{1,80} — (?:[A-Za-z][\w ]{0,24}: [^;\n]*; )*"
                        r"[A-Za-z][\w ]{0,24}: [^\n]*")
"""A table row of fields under the entry's heading (rsyslog's ``string — default: 0700;
mandatory: no; obsolete legacy directive: $DirCreateMode.``): the entry's type and default, not
what it does (it led the Answer to "What does the dirCreateMode parameter do?", trial 78)."""


_DEFINED = re.compile(r"(?:\[[^\]\n]*\]\s*=\s*|\w+\s*=\s*)?"
                      r"(?![A-Z][a-z]+ )([A-Za-z_][\w.]*) \((?:[^()\n]|\([^()\n]*\))*\)")
"""A Texinfo definition's form: a call written with a space before its brackets, its results
perhaps assigned first (Octave's ``fzero (fun, x0)``, ``[x, fval] = fzero (...)``); a
capitalised word is a title's ("Introduction (draft)"), not a function's name."""



def _form_name(form: str) -> str:
    """The name one form of a Texinfo definition's line defines (:data:`_DEFINED`, or with its
    category, :func:`~workers.sources.entries.definition_names`: GNU m4's "Builtin: dnl", whose
    definition, "All characters, up to and including the next newline, are discarded ...", was
    a finding below "The expansion of dnl is void.", trial 101, F1), else ""."""
    if found := _DEFINED.fullmatch(form.strip()):
        return found.group(1)
    return next(iter(definition_names(form)), "")


def _definition_line(paragraph: str) -> str:
    """``paragraph`` when it is a Texinfo definition's line of forms, one line, each form parted
    by " / " and each one a call (:data:`_DEFINED`), else ""."""
    line = paragraph.strip()
    return line if "\n" not in line and all(map(_form_name, line.split(" / "))) else ""


def _defined(heading: str) -> str:
    """The name a Texinfo definition's line of forms (:func:`_definition_line`) defines, if its
    forms all name one, else ""."""
    names = set(map(_form_name, heading.split(" / ")))
    return names.pop() if len(names) == 1 and "" not in names else ""


def _identifier(heading: str) -> str:
    """``heading`` when it is one identifier and nothing else (written as code:
    :func:`~app.research.reference.written_names`, e.g. ``CMAKE_BUILD_TYPE``, ``fs.mkdir``,
    ``FetchContent``), else "" ("Logging", "Installation" are words, not names)."""
    name = heading.strip().strip("`")
    return name if len(name.split()) == 1 and written_names(name) == {name.lower()} else ""


_TERM = re.compile(r"[a-z][a-z0-9_.-]*|[A-Za-z][\w.-]*=")
"""A man page's list term: a lower-case word (fstab's ``noauto``) or a setting with its ``=``
(systemd's ``SystemMaxUse=``)."""


def _terms(heading: str) -> list[str]:
    """The terms a man page's list entry is headed by, one or several parted by commas (its
    description in the paragraphs below: docbook's and asciidoctor's ``.PP`` term, ``.RS``
    block), ``=`` dropped; else ``[]`` ("Logging" is a word, not a term).

    Example:
        >>> _terms("noauto"), _terms("SystemMaxUse=, SystemKeepFree="), _terms("Logging")
        (['noauto'], ['SystemMaxUse', 'SystemKeepFree'], [])
    """
    parts = [p.strip() for p in heading.strip().split(",")]
    return [p.rstrip("=") for p in parts] if all(_TERM.fullmatch(p) for p in parts) else []


def _synopsis_line(paragraph: str) -> str:
    """``paragraph`` when it is one line of a keyword and its arguments, closed by them (Zsh's
    ``setopt [ {+|-}options | {+|-}o option_name ] [ -m ] [ name ... ]``: too many words for
    a heading), else ""."""
    line = paragraph.strip()
    return line if ("\n" not in line and line.endswith(("]", ">", "}"))
                    and _keyword(line)) else ""


def _keyword(heading: str) -> str:
    """The one keyword ``heading`` labels with its arguments (Zsh's ``setopt [ {+|-}options |
    {+|-}o option_name ] [ -m ] [ name ... ]``, above "Set the options for the shell."), else "".

    Example:
        >>> _keyword("setopt [ -m ] [ name ... ]"), _keyword("inter <delay> / fastinter <delay>")
        ('setopt', '')
    """
    keywords = entry_keywords(heading)
    return next(iter(keywords)) if len(keywords) == 1 else ""


_KINDS = (r"(?:function|command|method|macro|procedure|builtin|option|filter|directive|"
          r"parameter|setting|variable|keyword|attribute|property|field|member|flag|constant|"
          r"argument|event|hook|statement|pragma)")
_WHAT_DOES = re.compile(rf"what\s+(?:does|do|did|is|are)\s+(?:the\s+|an?\s+)?"
                        rf"(?:(?P<tool>[a-z][\w.-]*)\s+)?(?!{_KINDS}\b|do\b)(?P<name>[a-z_][\w.]*)"
                        r"(?:\(\))?"
                        rf"(?:\s+{_KINDS})?(?:\s+(?:of|in|on|for)\s+(?:the\s+|an?\s+)?"
                        rf"[a-z][\w.-]*(?:\s+(?:object|class|module|instance))?)?"
                        rf"(?:\s+do)?\s*\??", re.IGNORECASE)


def plain_name(asked: str) -> str:
    """The plain word a "What does X do?" question asks about (see :func:`_plain_key`), as
    written, or "".

    Example:
        >>> plain_name("What does yyless do?"), plain_name("How do I scan a string?")
        ('yyless', '')
        >>> plain_name("What does pelican() do?"), plain_name("What did pelican do?")
        ('pelican', 'pelican')
    """
    keys = _plain_key(asked, topic_terms(asked))
    return keys[0].phrase if keys else ""


def _plain_key(asked: str, terms: Sequence[str]) -> tuple[NameKey, ...]:
    """The name a "What does X do?" question asks about when X is a plain word (Octave's
    "What does the fzero function do?": no capital, no underscore), as a name key, so that an
    entry a Texinfo definition heads (:func:`_defined`) answers it (trial 68, F1); a tool's
    command after the tool's name too ("What does rndc flushname do?": BIND's ``flushname name
    [view]`` entry, trial 75); else ().

    Example:
        >>> [k.key for k in _plain_key("What does rndc flushname do?", ["rndc", "flushname"])]
        ['flushname']

    An attribute "of" its object is asked the same way (psycopg2's "What is the autocommit
    attribute of a connection?" opened with ``set_session``'s parameter, trial 102, F2):

        >>> [k.key for k in _plain_key("What is the autocommit attribute of a connection?",
        ...                            ["autocommit", "attribute", "connection"])]
        ['autocommit']
    """
    found = _WHAT_DOES.fullmatch(" ".join(asked.split()))
    name = found.group("name") if found else ""
    if not name or name.lower() not in terms or not name.islower():
        return ()  # "Send" is name_keys' to read: spelled with a capital, it names no "send"
    return (NameKey(name.replace("_", ""), "", name),)


def definitions(rows_by_question: Sequence[tuple[str, Sequence[dict[str, Any]]]],
                asked: str) -> list[dict[str, Any]]:
    """The definitions of the symbols ``asked`` names (:func:`~workers.sources.names.name_keys`,
    spelled as asked: "Send" names ``Send``, not a method ``send``): for each, the summary line
    (:func:`app.llm.offline.sentences.summary_line`) of its first passage among the rows, or of
    an API entry a passage holds (:func:`passage_entries`), as a finding item citing that
    passage, with the symbol's name under :data:`DEFINES`. In the order the rows (sub-questions
    in plan order, passages in rank order) first give them, one per symbol, those spelled as
    ``asked`` first (``ctr_crypt`` before the macro ``CTR_CRYPT``).

    Args:
        rows_by_question: ``(sub-question, its rows)`` pairs, in plan order.
        asked: what the report answers (the topic, or a sub-question).
    """
    terms = topic_terms(asked)
    keys = name_keys(asked, terms)
    keys += tuple(k for k in _plain_key(asked, terms) if k.key not in {n.key for n in keys})
    if not keys:
        return []
    out: dict[str, dict[str, Any]] = {}
    for _question, rows in rows_by_question:
        found: list[tuple[dict[str, Any], list[str], str | None]] = []
        for item in items(list(rows), None, "passage"):
            if name := own_symbol(item["title"]):
                passage = Passage.from_dict(item)
                found.append((item, [name], summary_line(passage) if passage else None))
            # a page titled by one name ("dynbuf") may hold the entries of others
            found += [(item, *entry) for entry in passage_entries(str(item.get("text") or ""))]
        named = named_symbols(keys, terms, [name for _i, names, _l in found for name in names])
        for item, names, line in found:
            name = next((n for n in names if n in named), "")
            if line and name and name not in out:
                out[name] = {**item, "kind": "finding", "text": line, DEFINES: name}
    # a name spelled as asked first: Nettle's macro CTR_CRYPT answered "What does ctr_crypt
    # do?" before the function ctr_crypt (trial 105, F2)
    spelled = {word.rstrip(".") for word in re.findall(r"[A-Za-z_][\w.]*", asked)}
    return sorted(out.values(), key=lambda found: found[DEFINES] not in spelled)



def of_asked(found: list[dict[str, Any]], asked: set[str]) -> list[dict[str, Any]]:
    """``found`` (:func:`definitions`) less the definitions of the names the question writes
    beside the entries it asks (``asked``: :func:`~app.research.neighbours.asked_names`), when
    it asks some: "What does the maxdepth option of the toctree directive do?" asks maxdepth,
    and the Answer led with the template function's "`toctree`: A callable yielding the global
    TOC tree ..." (trial 125, F2). A name is asked when it holds an asked one or is held by one.

    Example:
        >>> [d[DEFINES] for d in of_asked([{DEFINES: "toctree"}, {DEFINES: "Pool.map"}],
        ...                              {"maxdepth", "map"})]
        ['Pool.map']
    """
    def held(part: str, whole: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", whole) is not None

    names = {name.casefold() for name in asked}
    return [d for d in found if not names or any(
        held(n, str(d[DEFINES]).casefold()) or held(str(d[DEFINES]).casefold(), n)
        for n in names)]

LEANS = re.compile(r"^\W*(?:it|\w+\s+it)\b(?!['\u2019])", re.IGNORECASE)
"""A sentence leaning on "it" for its entry: "Use it before ...", "Set it in the [remote]
section, for example timeout = 120." (shown under its name however it names it, trial 116)."""


def definition_line(item: dict[str, Any]) -> str:
    """The text an Answer shows for ``item``: a definition that does not name its symbol as it
    is written is shown under the name (``"`BaseCheckpointSaver`: Base class for ..."``); any
    other item's text as it is (one line, but a code block keeps its lines: trial 121, F6).

    Example:
        >>> definition_line({"text": "A message to send to a node.", DEFINES: "Send"})
        '`Send`: A message to send to a node.'
        >>> definition_line({"text": "Set it in [remote], as timeout = 9.", DEFINES: "timeout"})
        '`timeout`: Set it in [remote], as timeout = 9.'
    """
    name = item.get(DEFINES)
    text = item["text"].strip() if re.search(r"\n[ \t]*(?:```|~~~)", str(item["text"])) \
        else " ".join(str(item["text"]).split())
    if not name or (re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text)
                    and not LEANS.match(text)):
        return text  # named as written: "send to a node" does not name ``Send``
    return f"`{name}`: {text}"
