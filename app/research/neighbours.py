"""Whose sentence is it: a sentence of a reference entry that speaks of "this option" or starts
with the entry's label is about that entry, whatever else it names (issue 19, section 3: a
sentence is only used for a subject the sentence itself names).

Reference manuals list entries side by side (a command's options, a config file's keys, a
module's directives), and a sentence of one entry often names its neighbour: ServerLimit's
entry says "use this directive only if you need to set MaxRequestWorkers higher than 256
(default)". Asked the default of MaxRequestWorkers, the Answer quoted it (as it
quoted ``core.eol``'s "Note that this value is ignored if core.autocrlf is set to true" for
``core.autocrlf``, and ``-e, --edit: With this option, git cherry-pick will let you edit the
commit message`` for ``-x``). :func:`about_neighbour` tells such a sentence by the names its
entry is labelled with: they name an identifier, and not the one asked.

Pure: regular expressions over the passage's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from app.llm.offline.headings import heading_of
from app.llm.offline.sentences import split_sentences
from app.research.reference import entry_heading, written_names
from app.research.rows import ok_items
from workers.sources.asking import asks_task, marked_words, set_words
from workers.sources.chunks import PARA_SPLIT
from workers.sources.commands import command_name, commands_named
from workers.sources.entries import (
    LABEL,
    entry_keywords,
    entry_name,
    fielded_name,
    names_keyword,
    without_arguments,
)
from workers.sources.names import writes_option
from workers.sources.option_entries import option_label
from workers.sources.quoted_names import quoted_label

__all__ = ["about_neighbour", "asked_names", "compound_neighbour", "description_of",
           "entry_names", "entry_of_asked",
           "other_command", "page_titles", "qualified_match", "sentence_entry",
           "speaks_of_its_entry", "written_names"]

_ANAPHOR = re.compile(
    r"\b(?:this|that|the\s+above)\s+(?:directive|option|flag|switch|setting|value|variable|"
    r"parameter|argument|command|subcommand|key|field|attribute|property|function|method|"
    r"macro|keyword|pragma)\b", re.IGNORECASE)
"""Words by which a sentence of an entry speaks of the entry itself."""


def asked_names(question: str, headings: Iterable[str], texts: Iterable[str] = ()) -> set[str]:
    """The entries ``question`` asks about: the identifiers it writes (:func:`written_names`),
    and its plain words that are the keyword of an entry among ``headings`` (the retrieved
    passages' sections) or the name of an entry leading a paragraph of ``texts`` (their text:
    ``pop [<stash>]: Remove ...``, :func:`~workers.sources.entries.entry_name`): "the inter
    server parameter" asks about ``inter <delay>`` (else ``fall``'s and ``rise``'s "This value
    defaults to 3" answered for it), "What does git stash pop do?" about ``pop`` (else
    ``apply``'s "Like pop, but ..." did, trial 53). A question asking how to do a task names an
    entry only by the words it writes as names (:func:`workers.sources.asking.marked_words`)
    or sets ("Can I set retries to 0?": :func:`~workers.sources.asking.set_words`, trial 116).

    Example:
        >>> sorted(asked_names("What is the default of inter?", ["fall <count>", "inter <d>"]))
        ['inter']
        >>> asked_names("What does pop do?", [], ["pop [<stash>]: Remove it.\\n\\nx: Y."])
        {'pop'}
        >>> asked_names("What does -bV do?", [], ["-bv: Verify.\\n\\n-bV: Show the version."])
        {'-bV'}
    """
    keywords = set().union(*(entry_keywords(h) for h in headings))
    names = {entry_name(paragraph) for text in texts for paragraph in PARA_SPLIT.split(text)}
    # an option is its case: Exim's -bV (the version) is not -bv (verify an address), trial 86
    keywords |= {n.lower() for n in names if n and not n.startswith("-")}
    options = {n for n in names if n.startswith("-") and writes_option(question, n)}
    named = names_keyword(question, keywords)
    if asks_task(question):  # "take a server out of rotation": no ``server`` entry asked
        marked = marked_words(question) | set_words(question)  # (trial 111, F1; 116, F3)
        named = {k for k in named if set(k.split()) <= marked}
    return written_names(question) | named | options


def entry_names(entry: str) -> set[str]:
    """The names an entry's label ``entry`` gives its entry, lower-cased: its keywords and the
    identifiers it writes, but not those of a call signature's arguments. Jinja's ``class
    jinja2.Template(source, ..., trim_blocks=False, ...)`` lists ``trim_blocks`` among its
    parameters and is not that option's entry: its "A compiled template that can be rendered."
    answered "What does the trim_blocks option do?", shown as "`trim_blocks`: A compiled
    template ..." (trial 117, F2).

    Example:
        >>> sorted(entry_names("class jinja2.Template(source, trim_blocks=False) [source]"))
        ['jinja2.template']
        >>> sorted(entry_names("core.eol")), sorted(entry_names("-e, --edit"))
        (['core.eol'], ['--edit', '-e'])
        >>> sorted(entry_names("'smartcase' 'scs' boolean (default off) global"))
        ['scs', 'smartcase']

    A label of quoted names (:func:`~workers.sources.quoted_names.quoted_label`) gives those
    names: Vim's options are labelled so, and "Override the 'ignorecase' option ..." was no
    sentence of the 'smartcase' entry it opens (trial 126, F1).
    """
    quoted = {name.lower() for name in quoted_label(entry)}  # Vim's "'smartcase' 'scs' ..."
    return quoted | entry_keywords(entry) | written_names(
        " / ".join(without_arguments(part) for part in entry.split(" / ")))


def sentence_entry(passage: str, sentence: str, heading: str = "") -> str:
    """The label of the entry ``sentence`` belongs to in ``passage``: its paragraph's leading
    ``label:`` (a definition list's term), else the option alone on a paragraph before it (a
    man page's ``-k --keep`` above "Keep (don't delete) input files ...": gzip's --keep was
    judged the passage's first option's, ``-f --force``, trial 76, F2), else the heading it
    sits under, else the heading
    the passage opens with, else ``heading`` (its section's, as the index keeps it: a later
    passage of a long entry does not repeat it); "" when none is known (or the sentence is not
    in the passage).

    Example:
        >>> sentence_entry("Options\\n\\n-e, --edit: With this option, you edit it. Or not.",
        ...                "Or not.")
        '-e, --edit'
        >>> sentence_entry("core.eol: Sets the line ending. This value is ignored.",
        ...                "This value is ignored.")
        'core.eol'
        >>> sentence_entry("ServerLimit Directive ¶\\n\\nUse this directive with care.",
        ...                "Use this directive with care.")
        'ServerLimit Directive'
        >>> sentence_entry("-f --force\\n\\nForce it.\\n\\n-k --keep\\n\\nKeep input files.",
        ...                "Keep input files.")
        '-k --keep'
    """
    option = ""  # the last option alone on its paragraph: a man page's "-k --keep"
    paragraphs = PARA_SPLIT.split(passage)
    for at, paragraph in enumerate(paragraphs):
        if sentence in paragraph:
            label = LABEL.match(paragraph.strip())
            if label:
                return label.group("label").strip()
            break
        # ssh's -L: four forms, a line each; Exim's options: a name above its field rows
        option = (option_label(paragraph) or fielded_name(paragraphs, at)
                  or (paragraph.strip() if quoted_label(paragraph) else "") or option)
    else:
        return ""
    return (option or heading_of(passage, sentence).rstrip("¶#§ \t") or entry_heading(passage)
            or heading.rstrip("¶#§ \t"))


def description_of(passage: str, sentence: str, asked: set[str], heading: str = "") -> str:
    """The name of the asked entry (one of ``asked``) whose description ``sentence`` opens in
    ``passage``: its paragraph starts with it, right below the entry's label
    (:func:`sentence_entry`); else "". Such a sentence's subject is the entry, whatever words
    open it: Vim's 'smartcase' entry opens "Override the 'ignorecase' option if ...", which the
    Answer put after the entry's closing "NOTE: This option is reset ..." (trial 126, F1).

    Example:
        >>> page = "'smartcase' 'scs' boolean\\n\\nOverride the 'ignorecase' option. Only then."
        >>> description_of(page, "Override the 'ignorecase' option.", {"smartcase"})
        'smartcase'
        >>> description_of(page, "Only then.", {"smartcase"})
        ''
    """
    entry = sentence_entry(passage, sentence, heading)
    names = sorted(entry_names(entry) & {a.lower() for a in asked}) if entry else []
    paragraphs = [p.strip() for p in PARA_SPLIT.split(passage)]
    opens = any(p.startswith(sentence.strip()[:80]) and above == entry.strip()
                for above, p in zip(paragraphs, paragraphs[1:], strict=False))
    return names[0] if names and opens else ""


def about_neighbour(sentence: str, passage: str, asked: set[str], heading: str = "",
                    title: str = "", alone: bool = False) -> bool:
    """Whether ``sentence`` (of ``passage``, cut from a section under ``heading`` of the
    document ``title``) is about an entry other than the one asked (:func:`sentence_entry`): it
    speaks of its entry ("this option", :data:`_ANAPHOR`) or starts with the entry's label,
    and that label writes identifiers, none of them one of ``asked``
    (:func:`written_names` of the question). False when the question writes no identifier,
    the entry is not known, or the document's title writes every one the question does (asked
    about ``mod_deflate``, its directives' entries are its own; asked about sphinx-build's
    ``-W``, its ``-w file`` entry is not, trial 81, F7). ``alone``: no retrieved passage has an
    entry of a name asked (:func:`entry_of_asked`); then a sentence stating one of them in
    another entry is its statement (:func:`_states_asked`).

    Example:
        >>> passage = "-e, --edit: With this option, you edit the message.\\n\\n-x: Adds a line."
        >>> about_neighbour("-e, --edit: With this option, you edit the message.", passage,
        ...                 {"-x"})
        True
        >>> about_neighbour("-x: Adds a line.", passage, {"-x"})
        False
    """
    titled = written_names(title) & asked  # the page of the name asked: its entries are its
    if not asked or (titled and not asked - titled):  # own, unless one of them is asked
        return False
    if _tail_before(passage, sentence, asked):
        return True
    sentence = sentence.strip().split("\n\n", 1)[0]  # a passage judged whole: by its opening
    entry = sentence_entry(passage, sentence, heading)
    typed = _TYPED.fullmatch(entry.strip())
    keywords = entry_keywords(entry)  # its own name, beside the options of its arguments
    names = ({typed.group(1).lower()} | keywords) if typed else entry_names(entry)
    # an entry labelled by its keyword and arguments (``fall <count>``) or by its name and type
    # (``IntervalStyle (enum)``) is a reference entry through and through: each of its
    # sentences is its own ("See also ... inter"; "The value postgres (which is the default)
    # ..." answered for DateStyle), not only those that speak of "this value"; so is one
    # labelled by an option (FFmpeg's "-itsscale scale (input,per-stream): Rescale input
    # timestamps. scale should be a floating point number.", a finding asked of -itsoffset)
    paragraphs = PARA_SPLIT.split(passage)  # or by its name above its field rows (Exim's)
    option = any(n.startswith("-") for n in names) or entry in {
        fielded_name(paragraphs, at) for at in range(len(paragraphs))}
    if _sibling_label(entry, sentence, paragraphs, asked):  # "verify:" beside "retries:"
        names, keywords = {entry.lower()}, {entry.lower()}  # its sentences are its own (116, F3)
    if not entry or not (keywords or typed or option or _ANAPHOR.search(sentence)
                         or sentence.startswith(entry)) or (
            alone and _states_asked(sentence, entry, asked)):
        return False
    return bool(names) and not qualified_match(names, asked)


def _states_asked(sentence: str, entry: str, asked: set[str]) -> bool:
    """Whether a sentence of ``sentence`` (a finding: one sentence or more) writes a name asked
    (:func:`written_names`) as its own statement: it neither speaks of its entry ("this option",
    :data:`_ANAPHOR`) nor is led by the entry's label. curl's "-Z, --parallel" section says "It
    will do up to `--parallel-max` concurrent transfers, with a default value of 50.", the one
    statement of ``--parallel-max``'s default, which has no entry of its own, and the Answer
    said no sentence was about it (trial 128, F1); ServerLimit's "use this directive only if
    you need to set MaxRequestWorkers ..." still speaks of its own entry.

    Example:
        >>> _states_asked("When this option is used, it runs. It will do up to `--max` at "
        ...               "once.", "-Z, --parallel", {"--max"})
        True
        >>> _states_asked("Use this option to set --max.", "-Z, --parallel", {"--max"})
        False
    """
    return any(qualified_match(written_names(part), asked) and not _ANAPHOR.search(part)
               and not part.startswith(entry) for part in split_sentences(sentence))


def entry_of_asked(passages: Iterable[tuple[str, str]], asked: set[str]) -> bool:
    """Whether one of ``passages`` (``(text, heading)`` pairs) has an entry labelled by a name
    of ``asked``: a part of its heading path, or a paragraph led by its label
    (:data:`~workers.sources.entries.LABEL`).

    Example:
        >>> entry_of_asked([("-Z, --fan: Spins. Up to --fan-max of them.", "Fans")], {"--fan-max"})
        False
        >>> entry_of_asked([("Sets the most fans.", "Fans / --fan-max")], {"--fan-max"})
        True
    """
    for text, heading in passages:
        labels = [*heading.split(" / "),
                  *(m.group("label") for p in PARA_SPLIT.split(text) if (m := LABEL.match(p)))]
        if any(qualified_match(entry_names(label), asked) for label in labels):
            return True
    return False


def _sibling_label(entry: str, sentence: str, paragraphs: list[str], asked: set[str]) -> bool:
    """Whether ``sentence`` lies in a list's entry labelled by one plain word (``entry``,
    "verify: ... Doubles the time of a run.") beside the entry asked, labelled alike
    ("retries: ..."): a list of settings, not a lone "Parameters:" paragraph."""
    def labelled(word: str, within: str = "") -> bool:
        return any(p.strip().lower().startswith(f"{word.lower()}:") and within in p
                   for p in paragraphs)
    return bool(_WORD.fullmatch(entry)) and labelled(entry, sentence) and any(
        a.lower() != entry.lower() and labelled(a) for a in asked)


def qualified_match(names: set[str], asked: set[str]) -> bool:
    """Whether one of ``names`` is one of ``asked``, or the same name qualified by its class or
    module: Tornado's entry ``IOLoop.add_callback(...)`` is the ``add_callback`` asked, and its
    "Note that this is the only method in IOLoop that makes this thread-safety guarantee; ..."
    was dropped as a neighbour's from the Caveats of "What is the difference between
    add_callback and spawn_callback?" (trial 113).

    Example:
        >>> qualified_match({"ioloop.add_callback"}, {"add_callback"})
        True
        >>> qualified_match({"ioloop.spawn_callback"}, {"add_callback"})
        False
    """
    return bool(names & asked) or any(
        n.endswith((f".{a}", f"::{a}")) or a.endswith((f".{n}", f"::{n}"))
        for n in names for a in asked)


def _tail_before(passage: str, sentence: str, asked: set[str]) -> bool:
    """Whether ``sentence`` is the tail of the entry before the one asked: the passage opens
    mid-entry (no heading above the sentence), and the first entry labelled after it is one of
    ``asked`` (FFmpeg's "A sync reference may not itself be synced to any other input.", the end
    of ``-isync``'s entry, was a Finding of ``-itsoffset``, whose label came next, trial 69)."""
    paragraphs = [p.strip() for p in PARA_SPLIT.split(passage)]
    at = next((i for i, p in enumerate(paragraphs) if sentence in p), None)
    if at is None or heading_of(passage, sentence) or entry_heading(passage):
        return False
    labels = [m.group("label") for p in paragraphs if (m := LABEL.match(p))]
    if not labels or any(LABEL.match(p) for p in paragraphs[: at + 1]):
        return False
    first = next(m.group("label") for p in paragraphs[at + 1:] if (m := LABEL.match(p)))
    return bool(written_names(first) & asked)


_TYPED = re.compile(r"([A-Za-z_][\w.-]{0,60})\s*\((?:[a-z][\w ]{0,30}|default: [^\n]*)\)")
"""An entry labelled by its name and its type, or its default: DocBook's ``IntervalStyle
(enum)``, Postfix's ``postscreen_helo_required (default: $smtpd_helo_required)`` (its default
names another entry, whose question its sentences answered, trial 85)."""
_QUESTION_WORD = re.compile(r"[\w.-]+")
_WORD = re.compile(r"[A-Za-z_][\w.-]{0,60}")
"""One word: the label of a definition list's entry ("verify: Whether each file is read back
..."), whose sentences ("Doubles the time of a run.") are its own, not the setting asked."""


def speaks_of_its_entry(own: str) -> bool:
    """Whether a sentence's subject (``own``) is its entry spoken of ("This option limits the
    maximum size ...", Exim's message_size_limit): a sentence no neighbouring entry claims
    (:func:`about_neighbour`) is then about the entry asked, as one naming it is.

    Example:
        >>> speaks_of_its_entry("This option "), speaks_of_its_entry("The value ")
        (True, False)
    """
    return _ANAPHOR.match(own.strip()) is not None


def compound_neighbour(heading: str, question: str, headings: Iterable[str]) -> bool:
    """Whether ``heading`` (a sentence's section) is one word that holds, as a part, another
    one-word heading among ``headings`` (the retrieved passages') that ``question`` names as a
    word: asked the default of ``set samples``, the section ``Isosamples`` is a neighbour of
    ``Samples``, and its "By default, sampling is set to 10 isolines" answered for it
    (gnuplot's manual: a PDF's entries are headed by plain words, which
    :func:`about_neighbour` does not read as labels). A name inside a longer one is another
    name, as ``Timeout`` is not ``KeepAliveTimeout``.

    Example:
        >>> compound_neighbour("Isosamples", "default of set samples?", ["Samples", "Bins"])
        True
        >>> compound_neighbour("Samples", "default of set samples?", ["Isosamples", "Samples"])
        False
    """
    word = heading.strip().rstrip("¶#§ \t").lower()
    if not word or " " in word:
        return False
    words = set(_QUESTION_WORD.findall(question.lower()))
    asked = {h.strip().lower() for h in headings if h and " " not in h.strip()} & words
    return any(name != word and name in word for name in asked)


def other_command(question: str, ref: str, title: str,
                  pages: Iterable[tuple[str, str]]) -> bool:
    """Whether the passage ``ref`` (titled ``title``) is the man page of a command other than
    the one ``question`` names, whose own page is among ``pages`` (``(doc_id, title)`` each:
    :func:`workers.sources.commands.commands_named`): git-submodule(1)'s "--rebase: This option
    is only valid for the update command." answered "What is git rebase?", git-fetch(1)'s
    ``--depth`` "What does git clone --depth do?" (trial 121, F1). A page no command's (a
    manual, a FAQ) is nobody's neighbour.

    Example:
        >>> pages = [("git-rebase.html", "git-rebase(1)"), ("git-submodule.html",
        ...          "git-submodule(1)"), ("user-manual.html", "Git User Manual")]
        >>> other_command("What is git rebase?", "git-submodule.html#31", "git-submodule(1)",
        ...               pages)
        True
        >>> [other_command("What is git rebase?", ref, title, pages) for ref, title in (
        ...     ("git-rebase.html#0", "git-rebase(1)"), ("user-manual.html#2", "Manual"))]
        [False, False]
    """
    doc = ref.split("#", 1)[0]
    named = _commands_named(question, tuple(pages))
    return bool(named) and doc not in named and bool(command_name(doc, title))


@lru_cache(maxsize=256)
def _commands_named(question: str, pages: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """:func:`~workers.sources.commands.commands_named`, made once per question and pages:
    :func:`other_command` asks it for every sentence of a report's candidates, with the same
    question and pages (:func:`page_titles`, one tuple per report)."""
    return frozenset(commands_named(question, pages))


def page_titles(rows: Iterable[Mapping[str, Any]]) -> tuple[tuple[str, str], ...]:
    """The documents of the rows' passages with their titles, ``(doc_id, title)`` each, once:
    the pages :func:`other_command` looks for the command asked among."""
    return tuple(dict.fromkeys(
        (str(item["ref"]).split("#", 1)[0], str(item.get("title") or ""))
        for _row, item in ok_items(rows)
        if isinstance(item, dict) and item.get("kind") == "passage" and item.get("ref")))
