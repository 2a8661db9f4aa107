"""A ``<pre>`` block's text: prose laid out by hand, or code to keep as written (Git's
listings and terminal transcripts were joined into one line and read as sentences; HAProxy's
manual writes its prose in ``<pre>``: ``tests/workers/sources/test_html_pre.py``).

This module imports the standard library, :mod:`workers.sources.hyphens`,
:mod:`workers.sources.pre_entries` (a reference entry laid out by hand),
:mod:`workers.sources.rsttext` (a docstring's reST read as its words) and
:mod:`workers.sources.stopwords`.
"""

from __future__ import annotations

import re
from collections import Counter

from workers.sources.hyphens import compounds, dehyphenated
from workers.sources.pre_entries import attribute_lines, hanging_entry
from workers.sources.rsttext import rst_inline
from workers.sources.stopwords import STOPWORDS

__all__ = ["LONG_PRE_LINES", "fenced", "help_words", "opening_prose", "option_rows", "pre_blocks",
           "prose_lines", "reads_as_prose"]

_BACKTICKS = re.compile("`{3,}")
_PROMPTS = frozenset({"$", "%", "#", ">", ">>>", "C:\\>", "PS>"})
"""Shell and interpreter prompts: a line led by one is a command typed."""
_WORD = re.compile(r"[A-Za-z]{2,}")
_SENTENCE_END = re.compile(r"[a-z)\"'][.!?](?:\s|$)")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_HELP_TAG = re.compile(r"(?<!\S)\*[^\s*|]+\*(?!\S)")
_HELP_LINK = re.compile(r"\|([^\s|]+)\|")
_LEADING_BLANKS = re.compile(r"^(?:[ \t]*\n)+")

LONG_PRE_LINES = 40
"""A ``<pre>`` of more lines than this that does not read as prose whole is judged block by
block (:func:`pre_blocks`)."""


def reads_as_prose(text: str) -> bool:
    """Whether a ``<pre>``'s text is prose laid out by hand rather than code: letters make at
    least 85% of its visible characters, its lines hold five words or more on average, and a
    sentence ends in it; and no line starts with a prompt (``$``), nor do many start with the
    same word (``hint:`` after ``hint:``: a transcript). HAProxy's manual writes every
    keyword's description in a ``<pre class="text">`` (read as paragraphs, as before); a
    listing, a command sequence or a terminal transcript is none of that.

    Example:
        >>> reads_as_prose('The "fall" parameter states that a server is dead after count\\n'
        ...                'failed checks. This value defaults to 3 if unspecified.')
        True
        >>> reads_as_prose("$ git add frotz.c filfre.c\\n$ git reset <3>")
        False
        >>> reads_as_prose("Enable logging of HTTP request, session state and timers")
        True
        >>> reads_as_prose("make install prefix=/usr")
        False
        >>> reads_as_prose("Options Indexes FollowSymLinks ExecCGI MultiViews")
        False
        >>> reads_as_prose("Report the JavaScript errors of the browser console")
        True
    """
    visible = "".join(text.split())
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if not visible or not lines:
        return False
    firsts = Counter(words[0] for words in lines)
    if firsts.most_common(1)[0][1] >= max(2, 0.3 * len(lines)) or _PROMPTS & set(firsts):
        return False  # "hint: ..." line after line, "$ git ...": a transcript, a listing
    letters = sum(c.isalpha() for c in visible)
    words = len(_WORD.findall(text))
    return (letters >= 0.85 * len(visible) and words >= 5 * len(lines)
            and bool(_SENTENCE_END.search(text) or (_TITLE_LINE.fullmatch(text.strip())
                                                    and _words_not_names(text))))


def _words_not_names(line: str) -> bool:
    """Whether a line of plain words (:data:`_TITLE_LINE`) reads as words, not as a directive:
    it writes no word as a name (:data:`_NAME_CASE`), or it is a sentence naming one, most of
    its words lower-case and two or more of them function words ("Enable the use of OpenSSL
    engines for cryptographic operations" was quoted as code, trial 119, F11; Apache's
    ``Options Indexes FollowSymLinks ExecCGI MultiViews`` has none, trial 116, F8).

    Example:
        >>> _words_not_names("Load and run a LuaJIT script file when the process starts")
        True
        >>> _words_not_names("Header always set X-Content-Type-Options nosniff")
        False
    """
    if not _NAME_CASE.search(line):
        return True
    words = line.split()
    lower = [word.strip(",;") for word in words if word.islower()]
    return 2 * len(lower) > len(words) and len(set(lower) & STOPWORDS) >= 2


_TITLE_LINE = re.compile(r"[A-Z][a-z]+(?:,? [A-Za-z][\w'-]*){4,}")
"""One line of plain words, the first capitalised, without a full stop: what an entry is, as
HAProxy's keywords say it ("Enable logging of HTTP request, session state and timers" was
quoted as code, trial 111, F5). A line with a word written as a name (a capital inside it:
``FollowSymLinks``, ``X-Content-Type-Options``) is a directive, not words (Apache's
``Options Indexes FollowSymLinks ExecCGI MultiViews`` lost its code fence, trial 116, F8)."""
_NAME_CASE = re.compile(r"[a-z][A-Z]|\w-[A-Z]")


def opening_prose(text: str, blocks: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    """A short ``<pre>``'s blocks (``text`` not prose whole; ``blocks``: its
    :func:`pre_blocks`): the paragraphs of prose it opens with, then the rest as one code
    block; one that opens with code is code whole, ``[(False, text)]`` (a listing and its
    comment lines: SQLite's FTS examples). HAProxy writes its sections in ``<pre>``, and "2.5.
    Time format", a paragraph and a table of units ("1m = 60s = 60000ms"), read as code whole:
    "What time units are supported?" quoted it only as code, and fc_rtt's unit led its Answer
    (trial 127, F9).

    Example:
        >>> opening_prose("Units are:\\n\\n- s : 1s = 1000ms", [(True, "Units are:"),
        ...                                                    (False, "- s : 1s = 1000ms")])
        [(True, 'Units are:'), (False, '- s : 1s = 1000ms')]
        >>> opening_prose("-- a comment\\nx = 1", [(False, "x = 1")])
        [(False, '-- a comment\\nx = 1')]
    """
    lead = next((n for n, (prose, _block) in enumerate(blocks) if not prose), len(blocks))
    if lead == 0:
        return [(False, text)]
    code = "\n\n".join(block for _prose, block in blocks[lead:])
    return [*blocks[:lead], *([(False, code)] if code else [])]


def pre_blocks(text: str) -> list[tuple[bool, str]]:
    """A long ``<pre>``'s blocks (parted by blank lines), each ``(reads as prose, text)``: a
    text file in an HTML wrapper (each of Vim's help pages is one ``<pre>``: 10,031 of its
    12,942 passages were one code block, its options' descriptions in them, trial 71). A prose
    block's Vim help markup is read as the words it shows: a ``*tag*`` (a jump target, the
    entry's name again) is left out, a ``|link|`` is its name; a word a man page broke at a
    line's end is whole again (unless the block writes it with its hyphen on one line), and a
    line heading the block is a paragraph of its own (:func:`_headed`). A block that is no
    prose whole but a reference entry whose description is (:func:`workers.sources.
    pre_entries.hanging_entry`: Vim's ``q{0-9a-zA-Z"}  Record typed characters ...``) is its
    term and its description, two prose blocks.

    Example:
        >>> text = ("\\t\\t*'so'*\\n'scrolloff' 'so'\\tnumber\\t(default 0, see |defaults.vim|)\\n"
        ...         "\\tMinimal number of screen lines to keep above and below the cursor.\\n"
        ...         "\\tThis makes some context visible around where you are working.\\n\\n"
        ...         "\\t:set so=5\\n\\t:set so&")
        >>> [(prose, block.split()[0]) for prose, block in pre_blocks(text)]
        [(True, "'scrolloff'"), (True, 'Minimal'), (False, ':set')]
        >>> "|" in pre_blocks(text)[0][1]
        False
    """
    out = []
    keep = compounds([text]) if "-\n" in text else frozenset()
    for block in _BLANK_LINE.split(text):
        if not block.strip():
            continue
        if not reads_as_prose(block):
            entry = hanging_entry(help_words(block), reads_as_prose)
            out += ([(True, entry[0]), (True, prose_lines(entry[1]))] if entry
                    else [(False, block)])  # an entry's term line no longer makes it code
            continue
        if rows := option_rows(block):
            out += [(True, row) for row in rows]
            continue
        block = _LEADING_BLANKS.sub("", rst_inline(help_words(block)))  # a docstring's reST
        out += [(True, part) for part in _headed(dehyphenated(block.rstrip(), keep))]
    return out


_FORM = r"[-+]{1,2}[A-Za-z0-9](?:\{[^}\s]*\}|[^\s,{])*"
_OPTION_ROW = re.compile(rf"[ \t]{{0,8}}(?P<label>{_FORM}(?:,?[ \t]{_FORM}"
                         r"|[ \t](?:\{[^}\s]*\}|[A-Za-z_<\[][^\s,]*))*),?"
                         r"(?:[ \t]{2,}(?P<text>\S.*))?")
"""A line of a command's option listing (``--help``): its forms, perhaps a value's name, then
two blanks or more and what it does, or nothing (it goes on the lines below)."""


def option_rows(block: str) -> list[str]:
    """The rows of a command's option listing (a ``--help`` output: an option a line, what it
    does from a column on, wrapped onto lines indented to it), each as ``label: what it does``
    as the index writes a definition list's row, a heading line ("general:") its own row; []
    when ``block`` is no such listing (fewer than two options, or a line of another kind).
    Read as prose, pytest's listing was one run-on paragraph, "--runxfail Report the results
    of xfail tests as if they were not marked --lf, --last-failed Rerun only the tests that
    failed at the last run ...", and its ``fd|sys|no`` read as Vim's links, "fdsysno"
    (trial 123, F3).

    Example:
        >>> option_rows("general:\\n  -x, --exitfirst       Exit instantly on first error\\n"
        ...             "  --lf, --last-failed   Rerun only the tests that failed (or\\n"
        ...             "                        all if none failed)\\n  --fixtures, --funcargs\\n"
        ...             "                        Show available fixtures")
        ['general:', '-x, --exitfirst: Exit instantly on first error', \
'--lf, --last-failed: Rerun only the tests that failed (or all if none failed)', \
'--fixtures, --funcargs: Show available fixtures']
        >>> option_rows("Use -x to stop early.\\n  It is faster.")
        []
    """
    rows: list[list[str]] = []
    lines = [line for line in block.split("\n") if line.strip()]
    for at, line in enumerate(lines):
        if found := _OPTION_ROW.fullmatch(line.rstrip()):
            rows.append([found.group("label"), found.group("text") or ""])
        elif rows and _indent(line) >= 12:  # the description goes on, indented to its column
            rows[-1][1] = f"{rows[-1][1]} {line.strip()}".strip()
        elif at == 0 and line.rstrip().endswith(":") and len(line.split()) <= 6:
            rows.append([line.strip(), ""])  # "general:", "options:": the listing's heading
        else:
            return []
    options = [(label, said) for label, said in rows if not label.endswith(":")]
    if len(options) < 2 or not all(said for _label, said in options):
        return []
    return [f"{label}: {said}" if said else label for label, said in rows]


def help_words(text: str) -> str:
    """``text`` with Vim's help markup read as the words it shows: a ``*tag*`` (a jump target)
    left out, a ``|link|`` its name.

    Example:
        >>> help_words("The |indent()| function. *fold-expr*")
        'The indent() function. '
    """
    return _HELP_LINK.sub(r"\1", _HELP_TAG.sub("", text))


def prose_lines(text: str) -> str:
    """A ``<pre>`` of prose as the words it shows: Vim's help markup read (:func:`help_words`)
    and each word a man page broke at a line's end whole again, its hyphen kept when the
    ``<pre>`` writes the word with it on one line (:func:`workers.sources.hyphens.
    dehyphenated`: Postfix's man pages are each one ``<pre>``, "to con- tact" was quoted,
    trial 114, F3).

    Example:
        >>> prose_lines("the |trivial-rewrite| daemon; each queue subdirec-\\n   tory of the\\n"
        ...             "   trivial-\\n   rewrite(8) server")
        'the trivial-rewrite daemon; each queue subdirectory of the\\n   trivial-rewrite(8) server'
    """
    text = rst_inline(help_words(text))
    return dehyphenated(text, compounds([text])) if "-\n" in text else text


def _headed(block: str) -> list[str]:
    """A prose block, its first line apart when it heads the rest: short, no sentence, and
    less indented than every line under it, but not a hanging indent (:func:`_word_columns`):
    a man page's ``DESCRIPTION``, Vim's ``'scrolloff' 'so'  number  (default 0)`` above its
    description (joined, they read as one sentence, "DESCRIPTION The postsuper(1) command does
    ...", trial 71, F5). Attribute lines under such a heading are the heading's
    (:func:`workers.sources.pre_entries.attribute_lines`: "global or local to window" was the
    start of the 'scrolloff' option's first sentence, trial 126, F1)."""
    first, _, rest = block.partition("\n")
    under = [_indent(line) for line in rest.split("\n") if line.strip()]
    if (not under or len(first.split()) > 12 or _SENTENCE_END.search(first)
            or _indent(first) >= min(under) or min(under) in _word_columns(first)):
        return [block]  # a hanging indent is no heading: its lines go on from the first
    lines = [line for line in rest.split("\n") if line.strip()]
    if attributes := attribute_lines(lines, min(under)):  # "global" under an option's name
        first = " ".join([first.strip(), *(line.strip() for line in attributes)])
        rest = "\n".join(lines[len(attributes):])
    return [first, rest]


def _word_columns(line: str) -> set[int]:
    """The columns at which a word of ``line`` after its first starts (tabs at 8): a change log
    entry's text column ("784.   [bug]           nsupdate and other programs would not quit
    properly" over "                       if some signals were blocked by the caller.": read as
    a heading and its text, BIND's entry was quoted from "if some signals", trial 75, F1).

    Example:
        >>> sorted(_word_columns("784.   [bug]   nsupdate would not quit"))
        [7, 15, 24, 30, 34]
    """
    spread = line.expandtabs(8)
    return {m.start() for m in re.finditer(r"(?<=\s)\S", spread)}


def _indent(line: str) -> int:
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def fenced(code: str) -> str:
    """A ``<pre>``'s text as a fenced code block, its lines as written (trailing blanks and
    blank edges dropped): a listing or a terminal transcript joined into one line read as a
    sentence ("$ edit <1> $ git add frotz.c ..." and "! [rejected] ... hint: ..." were a
    report's findings). The fence is longer than any run of backticks in it.
    The chunker never cuts inside it (:mod:`workers.sources.fences`), and the offline model
    reads no sentence from it.

    Example:
        >>> print(fenced("\\n  x = 1  \\n"))
        ```
          x = 1
        ```
    """
    lines = [line.rstrip() for line in code.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        return ""
    fence = "`" * max(3, 1 + max((len(m) for m in _BACKTICKS.findall(code)), default=0))
    return "\n".join([fence, *lines, fence])
