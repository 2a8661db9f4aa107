"""A setting's reference entry, from the run's own passages: its ``Default:`` row and the name
of the entry a passage belongs to (``tests/app/test_reference_entries.py``).

Reference manuals state a setting's default in a field of its entry, not in a sentence:
Apache's directive pages (``Syntax: KeepAliveTimeout num[ms]`` / ``Default: KeepAliveTimeout
5``), nginx's (``Default: keepalive_timeout 75s;``), tables with a Default column. The index
keeps each such row as a line of its own, under the entry's heading
(:mod:`workers.sources.htmlpage`, :mod:`workers.sources.tables`), but no reader of the passages
quotes it: it is a field, not a sentence. "What is the default X?" was answered from narrative
prose (a tuning page, a sentence on an old release) while X's own ``Default:`` row sat in the
retrieved passage. :func:`app.research.entry_rows.default_entries` makes that row a finding
the Answer leads with; this module reads the rows and the entries they belong to.

Pure: reads the rows it is given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.llm.offline.kind_sentences import STATES_DEFAULT, says_default
from app.llm.offline.markup import value_code
from app.llm.offline.sentences import split_sentences
from workers.sources.chunks import PARA_SPLIT
from workers.sources.entries import LABEL, entry_led, label_name, signature_name, typed_label
from workers.sources.query import word_forms
from workers.sources.quoted_names import QUOTED_KIND
from workers.sources.textsections import letter_line

__all__ = ["TERM", "default_rows", "description_rows", "entry_heading", "entry_label",
           "names_entry", "says_default", "unlabelled", "written_names"]

_NAME = re.compile(
    r"`(?P<quoted>[^`\s]{1,60})`"                     # `anything` quoted as code
    r"|(?<![\w-])(?P<flag>--?[A-Za-z][\w-]*)"          # -x, --keep-index
    rf"|{QUOTED_KIND}"                                 # the 'smartcase' option
    r"|\b(?P<scoped>[A-Za-z_][\w-]*(?:::[A-Za-z_][\w-]*)+)"  # Aptitude::Purge-Unused
    r"|\b(?P<dotted>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*(?:-\w+)*)+)\b"  # core.autocrlf
    r"|\b(?P<camel>[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*)\b"  # MaxRequestWorkers, maxAge
    r"|\b(?P<snake>[A-Za-z]\w*_\w+)\b"                 # cache_size
)
"""A word written as an identifier: quoted as code, a command-line flag, scoped with "::" (an
APT option, ``std::vector``: aptitude's ``Aptitude::Purge-Unused`` was no name, and its default
was answered by the --purge-unused option's, trial 81, F2), dotted, with a capital inside, or
with an underscore, or quoted before the word for its kind ("the 'smartcase' option", trial
126, F1). Plain words ("samples", "cherry-pick") are not: a question in
plain words is left to the relevance rules."""
_DEFAULT_LABEL = re.compile(r"default(?:\s+(?:value|setting))?s?", re.IGNORECASE)
"""A field label that gives the entry's default: ``Default``, ``Default value``."""
_DESCRIPTION_LABEL = re.compile(r"description", re.IGNORECASE)
"""A field label that gives what the entry is: ``Description``."""
_FIELD = re.compile(r"^(?P<label>[A-Za-z][A-Za-z ]{0,24}?)\s*:(?:\s+(?P<value>\S.*))?$")
"""A field row of one line: ``Default: KeepAliveTimeout 5.`` (its value may be on the next
line, as a table of label and value cells gives it)."""
_NAMED_ROW = re.compile(r"^(?P<name>[^\n—]{1,80}?) — (?P<fields>.+)$")
"""A table row under its headings (:func:`workers.sources.tables.row_sentence`):
``ServerLimit — Default: 256; Context: server config.``"""
_VALUE_TYPE = re.compile(
    r"(?:integer|int|string|str|word|boolean|bool|binary|array|list|number|float|double|size|"
    r"uid|gid|char|path|file|time|duration|enum|object)s?", re.IGNORECASE)
"""A table row's first cell that is its value's type, not the entry's name: rsyslog heads each
parameter (``queue.size``) above a row ``integer — default: 1000/50000; mandatory: no``, and
the row of ``queue.lightDelayMark``, "integer — default: 70% of queue.size", answered "What is
the default value of queue.size?" (trial 78, F4): such a row is the heading's."""
_LISTED = re.compile(
    r"^\s*(?:[-*+]\s+)?(?P<name>`[^`\n]{1,60}`|\**[A-Za-z_][\w.]{0,60}\**)"
    r"(?:(?:\s*\([^)\n]{0,40}\))?\s*(?: [-\u2013\u2014] |: )"
    r"|\s+(?:<[^<>\n]{1,60}>|\{[^{}\n]{1,60}\})\s+)"
    r"(?P<body>.*?(?:\bdefault(?:s|\s+values?)?\s+(?:to|is)\b|(?-i:\bDefault:\s*\S)).*)$",
    re.IGNORECASE)
"""A list item or an argument entry that names its setting, then says its default in a
sentence: ``* `max_age` - Sets a maximum time ... Defaults to `600`.``, a docstring's
``timeout (float): Seconds to wait. Defaults to 30.``, a definition list's ``gc.auto: When
there are ... The default value is 6700.`` (Git's manual), an option typed in brackets with a
``Default:`` field (Node.js's ``highWaterMark <number> Buffer level ... Default: 16384``)."""
_BRACKETED = re.compile(
    r"^\s*(?:[-*+]\s+)?(?P<name>`[^`\n]{1,60}`|\**[A-Za-z_][\w.]{0,60}\**)"
    r"\s*\(default:?\s+[^()\n]{1,60}\)\s*(?: [-\u2013\u2014] |: |$)", re.IGNORECASE)
"""An entry whose label gives its default in brackets: Postfix's postconf(5), ``mailbox_size_limit
(default: 51200000): The maximal size ...`` ("What is the default value of
mailbox_size_limit?" was answered by the entry's second sentence, trial 71, F2)."""
_MARKS = "¶#§ \t"
"""A permalink mark after a heading's text (``KeepAliveTimeout Directive ¶``)."""
_HEADING_WORDS = 8
_SIGNATURE_CHARS = 300
_TOKEN = re.compile(r"[A-Za-z0-9][\w.-]*")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def written_names(text: str) -> set[str]:
    """The identifiers ``text`` writes (:data:`_NAME`), lower-cased but a flag (``-X`` is not
    ``-x``), quotes dropped.

    Example:
        >>> sorted(written_names("What does the -X option of git cherry-pick do?"))
        ['-X']
        >>> sorted(written_names("ServerLimit Directive; core.eol and `max_age`"))
        ['core.eol', 'max_age', 'serverlimit']
        >>> sorted(written_names("What does `process.nextTick()` do? `fs.mkdir(path)`?"))
        ['fs.mkdir', 'process.nexttick']
        >>> written_names("When is the `'exit'` event emitted?")
        {'exit'}
        >>> written_names("What is the default of Aptitude::Purge-Unused?")
        {'aptitude::purge-unused'}
        >>> written_names("What does server.max-keep-alive-idle do?")  # lighttpd's (trial 84)
        {'server.max-keep-alive-idle'}
        >>> written_names("What does the 'smartcase' option do? 'Tis 'a' word.")  # Vim's
        {'smartcase'}
    """
    return {m.group("flag") or (m.group("kinded") or _CALL.sub(
        "", next(g for g in m.groups() if g))).lower() for m in _NAME.finditer(text)}


_CALL = re.compile(r"(?<=\w)\([^()]*\)$|^['\"]|['\"]$")
"""A call's brackets after a name quoted as code, and quotes around it: `process.nextTick()`
names what the text's ``process.nextTick`` does, `'uncaughtException'` the event the text
calls 'uncaughtException' (kept, no sentence named the question's name)."""


_SENTENCE_END = re.compile(r"[a-z]{3}[.!?] +[A-Z]")
"""A sentence ending inside a line, before the next one (``Timeout in milliseconds. Default:
0 (no timeout)``, Node.js's typed property line); "3. Usage" and "Ch. 2" are no such end."""


def _heading(paragraph: str) -> str:
    """``paragraph`` as a heading's text (its permalink mark dropped), or "" when it is no
    heading: more than one line, more than :data:`_HEADING_WORDS` words, ending a sentence
    (or holding the end of one) or a field label, or a letter's salutation or sign-off
    ("Dear heron counters: Ann Heron, census coordinator" was once an Answer). A call's
    signature on one line is a heading however many its words and quotes (Jinja's
    ``jinja-filters.truncate(s: str, length: int = 255, ..., end: str = '...')``, trial 73)."""
    line = paragraph.strip().rstrip(_MARKS).lstrip("# ").strip()
    if line and "\n" not in line and len(line) <= _SIGNATURE_CHARS and signature_name(line):
        return line  # a call's signature, however many its words (Jinja's truncate(s, ...))
    if (not line or "\n" in line or len(line.split()) > _HEADING_WORDS
            or line.endswith((".", "!", "?", ":", ";", ",")) or _SENTENCE_END.search(line)
            or letter_line(line)):
        return ""
    return line


def definition_term(paragraph: str) -> tuple[str, str] | None:
    """The term and the description of a plain-text definition list's entry, when
    ``paragraph`` is one: an identifier alone on its first line (a reST field's colons around
    it or not), every line below it indented; else None. lighttpd's ``server.max-keep-alive-idle``
    above "maximum number of seconds until a idling keep-alive connection is dropped", and
    ``:connection.kbytes-per-second:`` above its description, its "default: 0 (no limit)" the
    next paragraph (trial 84).

    Example:
        >>> definition_term(":server.kbytes-per-second:\\n  limit the throughput\\n  in kbyte/s")
        ('server.kbytes-per-second', 'limit the throughput in kbyte/s')
        >>> definition_term("Options\\n  are these") is None
        True
    """
    term, _, rest = paragraph.partition("\n")
    name = term.strip().strip(":")
    lines = rest.split("\n")
    if (rest.strip() and len(name.split()) == 1 and written_names(name) == {name.lower()}
            and all(line[:1] in (" ", "\t") for line in lines)):
        return name, " ".join(line.strip() for line in lines)
    return None


def entry_heading(text: str) -> str:
    """The heading a passage opens with (its section's, as the index keeps it at the start of
    the section's first passage), permalink mark dropped; "" when it opens with prose.

    Example:
        >>> entry_heading("KeepAliveTimeout Directive ¶\\n\\nDescription: Amount of time.")
        'KeepAliveTimeout Directive'
        >>> entry_heading("The server waits for the next request.")
        ''
        >>> entry_heading("Dear heron counters\\n\\n    Thank you for counting herons.")
        ''
    """
    first = PARA_SPLIT.split(text.strip(), maxsplit=1)[0]
    return "" if _FIELD.match(first.strip()) else _heading(first)


def entry_label(item: dict[str, Any]) -> str:
    """What a passage bullet is labelled by: the heading of the entry the passage opens
    (:func:`entry_heading`: "ServerTokens Directive"), else the heading of the section it is
    cut from when that names an identifier (:func:`written_names`: a later passage of the
    ``FallbackResource Directive`` entry), else its document's title. Labelled so,
    "core - Apache HTTP Server Version 2.4: This directive controls ..." named the page, every
    directive of it alike, and not the directive the sentence defines; so were an entry's
    passages after its first.

    Example:
        >>> entry_label({"title": "core - Apache HTTP Server", "text": "Timeout Directive ¶"
        ...              "\\n\\nThe time to wait."})
        'Timeout Directive'
        >>> entry_label({"title": "mod_dir", "heading": "FallbackResource Directive ¶",
        ...              "text": "A fallback handler can read REQUEST_URI."})
        'FallbackResource Directive'
    """
    if opened := entry_heading(str(item.get("text") or "")):
        return opened
    section = _heading(str(item.get("heading") or ""))
    return section if section and written_names(section) else str(item.get("title") or "")


def default_rows(text: str) -> list[tuple[str, str]]:
    """The ``Default:`` rows of a passage: ``(entry, row)`` each, ``entry`` the heading above
    the row in the passage ("" when none is) or the name a table row gives, ``row`` the row as
    the passage states it (a label alone on its line is joined to the value below it).

    Example:
        >>> default_rows("Timeout Directive ¶\\n\\nSyntax: Timeout seconds.\\n\\n"
        ...              "Default: Timeout 60.\\n\\nThe amount of time.")
        [('Timeout Directive', 'Default: Timeout 60.')]
        >>> default_rows("ServerLimit — Default: 256; Context: server config.")
        [('ServerLimit', 'ServerLimit — Default: 256; Context: server config.')]
        >>> default_rows("* `max_age` - Cache time in seconds. Defaults to `600`.")
        [('max_age', '`max_age` - Cache time in seconds. Defaults to `600`.')]
    """
    return _field_rows(text, _DEFAULT_LABEL)


def description_rows(text: str) -> list[tuple[str, str]]:
    """The ``Description:`` rows of a passage, as :func:`default_rows` gives ``Default:`` rows:
    a reference entry's own one-line definition (Apache's ``Description: Define a default URL
    for requests that don't map to a file or handler.``), or the first sentence of an entry
    labelled with its type or default in brackets (:func:`~workers.sources.entries.typed_label`:
    Postfix's ``smtpd_helo_restrictions (default: empty): Optional restrictions ...``; such a
    label reads as a field listing, never as a sentence, and "What does the
    smtpd_helo_restrictions parameter do?" was answered by a note further down, trial 71, F3).

    Example:
        >>> description_rows("FallbackResource Directive ¶\\n\\nDescription: Define a "
        ...                  "default URL.\\n\\nSyntax: FallbackResource local-url.")
        [('FallbackResource Directive', 'Description: Define a default URL.')]
        >>> description_rows("smtpd_helo_restrictions (default: no): Optional checks. See A.")
        [('smtpd_helo_restrictions', 'smtpd_helo_restrictions (default: no): Optional checks.')]
    """
    return _field_rows(text, _DESCRIPTION_LABEL)


def _field_rows(text: str, label: re.Pattern[str]) -> list[tuple[str, str]]:
    """The rows of a passage whose field label ``label`` matches whole, under their entry (see
    :func:`default_rows`); list items that say a default count for the ``Default`` label."""
    out: list[tuple[str, str]] = []
    entry = opened = ""  # opened: the heading the passage opens with, naming an identifier
    paragraphs = [p.strip() for p in PARA_SPLIT.split(text)]
    for index, paragraph in enumerate(paragraphs):
        if label is _DEFAULT_LABEL and (listed := _listed_defaults(paragraph)):
            out += listed
            continue
        if label is _DESCRIPTION_LABEL and typed_label(paragraph) and entry_led(paragraph):
            lead = LABEL.match(paragraph)  # an entry typed in brackets: its first sentence
            said = split_sentences(paragraph[lead.end():])[:1] if lead else []
            out += [(label_name(paragraph), f"{lead.group(0).strip()} {said[0]}")] if said else []
            continue
        named = _NAMED_ROW.match(paragraph)
        if named and "\n" not in paragraph and any(
                _labelled(field, label) for field in named.group("fields").split("; ")):
            name = named.group("name").strip()
            out.append((entry if _VALUE_TYPE.fullmatch(name) else name, paragraph))
            continue
        field = _FIELD.match(paragraph) if "\n" not in paragraph else None
        if field and label.fullmatch(field.group("label").strip()) and not (
                _SECTION_FLAG.fullmatch(paragraph)):
            value = field.group("value")
            if value is None:  # "Default:" then its value, a cell or a code block of its own
                following = paragraphs[index + 1] if index + 1 < len(paragraphs) else ""
                # a short code block (CACHES's dictionary naming LocMemCache, trial 124, M3-F1)
                following = value_code(following, _SIGNATURE_CHARS) or following
                if not following or "\n" in following or _FIELD.match(following):
                    continue
                paragraph = f"{paragraph} {following}"
            out.append((entry, paragraph))
        elif not field and (heading := _heading(paragraph) or _term(paragraph)):
            entry = heading
            named = written_names(entry) or TERM.fullmatch(entry)
            opened = entry if index == 0 and named else ""
        elif label is _DEFAULT_LABEL and entry and entry == opened:
            out += [(entry, said) for said in _said_defaults(paragraph)[:1]]
    return out


def _term(paragraph: str) -> str:
    """The term of a definition list's entry ``paragraph`` is (:func:`definition_term`), or ""."""
    found = definition_term(paragraph)
    return found[0] if found else ""


TERM = re.compile(r"[A-Za-z_][\w.-]{0,60}(?:\s*\([^()\n]{1,40}\))?")
"""An entry heading of one word, with its type in brackets or not: ``ssl (boolean)``, ``jit``."""
_SAYS_DEFAULT = STATES_DEFAULT
"""A sentence stating a default (:data:`app.llm.offline.kind_sentences.STATES_DEFAULT`): one rule
for the offline model's quotes and the report's reading of entries."""


def _said_defaults(paragraph: str) -> list[str]:
    """The sentences of ``paragraph`` that state a default ("The default is typically 128
    megabytes (128MB)", "Valid values are try (the default), on, and off."): in a passage that
    opens with an entry heading naming an identifier or one word (``ssl (boolean)``: the index
    cut the entry there), the
    entry's default, as a ``Default:`` row would give it (DocBook's entries, such as
    PostgreSQL's ``shared_buffers (integer)``, say it in prose).

    Example:
        >>> _said_defaults("Sets the buffers. The default is typically 128MB. Set at start.")
        ['The default is typically 128MB.']
        >>> _said_defaults("The limit is:\\n\\n- 90% with recursion yes (the default), or\\n"
        ...                "- 2 MB with recursion no.")
        []
    """
    return [s for s in split_sentences(paragraph)
            if _SAYS_DEFAULT.search(s) and not _GOES_ON.search(s)]


_GOES_ON = re.compile(r"(?:[,;]|\b(?:or|and))\s*$")
"""A list item that goes on in the next ("90% of physical memory for views with recursion set
to yes (the default), or" above "2 MB for views with recursion set to no.": BIND's
max-cache-size was answered by the first half, trial 75, F2): no sentence stating a default;
the list's lead-in quotes it whole."""


def _listed_defaults(paragraph: str) -> list[tuple[str, str]]:
    """The lines of ``paragraph`` that are a named entry saying its default (:data:`_LISTED`,
    :data:`_BRACKETED`), as ``(name, line)``: else "`max_age` - Sets a maximum time in seconds
    for browsers to cache CORS responses. Defaults to `600`." was cut before its default.

    Example:
        >>> _listed_defaults("mailbox_size_limit (default: 51200000): The maximal size. More.")
        [('mailbox_size_limit', 'mailbox_size_limit (default: 51200000): The maximal size.')]
    """
    out: list[tuple[str, str]] = []
    for line in paragraph.splitlines():
        if bracketed := _BRACKETED.match(line):  # the label and what the entry is
            said = split_sentences(line[bracketed.end():])[:1]
            line = " ".join([line[: bracketed.end()].strip(), *said])
        if match := bracketed or _LISTED.match(line):
            out.append((match.group("name").strip("`*"), line.strip().lstrip("-*+ ")))
    return out


def _labelled(field: str, label: re.Pattern[str]) -> bool:
    name, sep, value = field.partition(":")
    return bool(sep and value.strip() and label.fullmatch(name.strip())
                and not _SECTION_FLAG.fullmatch(f"{name.strip()}: {value.strip()}"))


_SECTION_FLAG = re.compile(r"defaults\s*:\s*(?:yes|no|x|-)\b.*", re.IGNORECASE)
"""A "defaults" column of yes/no flags: HAProxy's "May be used in sections — defaults: yes;
frontend: no; ..." names the ``defaults`` section a keyword may be used in, no default."""


def _shares(term: str, word: str) -> bool:
    return bool(word_forms(term) & word_forms(word))


def names_entry(subject: Sequence[str], label: str) -> set[str]:
    """The ``subject`` words (a question's, :func:`app.research.answer.subject_terms`) that
    name the entry ``label`` (its heading and its row): a whole word of it, inflections
    counted, or the words of one of its identifiers, every word spelled out ("keep alive
    timeout" names ``KeepAliveTimeout``). A word that is only a part of an identifier names
    another entry: "timeout" names ``Timeout``, never ``KeepAliveTimeout`` or
    ``keepalive_timeout`` (a neighbour's default is no answer).

    Example:
        >>> sorted(names_entry(["timeout"], "KeepAliveTimeout Directive KeepAliveTimeout 5"))
        []
        >>> sorted(names_entry(["keep", "alive", "timeout"], "KeepAliveTimeout 5"))
        ['alive', 'keep', 'timeout']
    """
    matched: set[str] = set()
    for token in _TOKEN.findall(label):
        token = token.strip(".-")
        matched |= {t for t in subject if _shares(t, token)}
        parts = [p.lower() for piece in token.split("_") for p in _PART.findall(piece)]
        if len(parts) > 1:
            spelled = {t for t in subject if any(_shares(t, p) for p in parts)}
            if all(any(_shares(t, p) for t in spelled) for p in parts):
                matched |= spelled
    return matched


def unlabelled(passage: dict[str, Any]) -> str:
    """A passage's text without its first paragraph when that is the label it is shown under
    (:func:`entry_label`): Werkzeug's ``RequestTimeout(description=None, response=None)``
    passage was shown as its signature twice, not as "Raise to signalize a timeout." (trial 75,
    F7).

    Example:
        >>> unlabelled({"title": "API", "text": "Timeout(d=None)\\n\\nRaise on a timeout."})
        'Raise on a timeout.'
    """
    text = str(passage["text"])
    head, _sep, rest = text.strip().partition("\n\n")
    label = " ".join(entry_label(passage).split())
    return rest if rest.strip() and " ".join(head.split()) == label else text
