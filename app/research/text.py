"""One line of text for a report bullet, a progress line, a review summary or a prompt.

The one owner of "flatten whitespace, cut to a length, mark the cut": the report, the synthesis
prompt, the review payload and the terminal progress all call :func:`clip`, so a claim is cut the
same way wherever it is shown. (``textwrap.shorten`` cuts at word boundaries and gives back only
its placeholder when the first word is longer than the width, e.g. a long URL: a claim would
vanish instead of being cut.) Pure text handling, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from workers.sources.base import code_span

__all__ = ["BIDI_CONTROLS", "BLOCK_LINES", "ELLIPSIS", "bullet", "clip", "clip_middle",
           "clip_quote", "unlabelled_claim", "utf8_problem", "visible", "visible_text", "wording"]

BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Invisible characters that reorder how text is displayed (the "Trojan Source" family)."""

ELLIPSIS = "…"
"""What ends a cut text (one character, counted in the limit)."""


_FENCE_OPEN = re.compile(r"^[ \t]*(?:```|~~~)[^\n`]*$", re.MULTILINE)
"""A fenced block's fence line, its info string with it: on one line, a block is a code span
only with backticks and without the language ("```sh pip install" read as the command ``sh
pip install``; a ``~~~`` block joined onto a line was no code at all: trial 52, F8 and F9)."""
_FENCED = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n`]*\n(?P<code>.*?)\n[ \t]*(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL)
"""A closed fenced block: on one line, the code span of its code (:func:`code_span`: "Finally,
run ``` $ git bisect reset ``` to ...", three backticks inline, trial 121, F11)."""

BLOCK_LINES = 12
"""The most lines of a code block a report's bullet shows (:func:`bullet`; the rest is an
ellipsis), and so the most a how-to's sentence ending in a colon is quoted with
(:mod:`app.llm.offline.code_quotes`). This module imports no model: the CLI's light commands
read it."""


def clip(text: Any, limit: int) -> str:
    """``text`` on one line (every run of whitespace, newlines included, becomes one space),
    at most ``limit`` characters: a longer one is cut after its last whole word (mid-word only
    when that would lose more than a third: trial 63's "GNUInstallDirs` varia…"), trailing
    spaces dropped, and ends in :data:`ELLIPSIS`.

    Args:
        text: anything; ``str()`` of it is used (None gives ``"None"``).
        limit: the most characters the result may have, the ellipsis included (>= 1).

    Raises:
        ValueError: ``limit`` is less than 1.

    Example:
        >>> clip("  a\\n b  c ", 10)
        'a b c'
        >>> clip("one two three", 9)
        'one two…'
        >>> clip("abcdef", 4), clip("the variable names", 14)
        ('abc…', 'the variable…')
        >>> clip("Run\\n\\n~~~sh\\npip install foo\\n~~~\\n\\nfirst.", 60)
        'Run `pip install foo` first.'

    A code span the cut leaves open is closed after the ellipsis (pytest's "... if necessary:
    `import psutil…" left the rest of the report's line as code, trial 79, F7):

        >>> clip("It is found by `import psutil; psutil.Process()` here.", 30)
        'It is found by `import…`'
    """
    if limit < 1:
        raise ValueError(f"clip needs a limit of at least 1 character, got {limit}")
    flat = str(text)
    if "```" in flat or "~~~" in flat:
        flat = _FENCE_OPEN.sub("``` ", _FENCED.sub(_span_of, flat))
    flat = " ".join(flat.split())
    if len(flat) <= limit:
        return flat
    cut, closer = flat[: limit - 1], ""
    for _ in range(2):  # the closing backticks take room too
        cut = flat[: limit - 1 - len(closer)]
        if (space := cut.rfind(" ")) >= (limit - 1) * 2 // 3:  # at a word's end: not "varia…"
            cut = cut[:space]
        closer = "`" * _open_span(cut.rstrip())
    return cut.rstrip() + ELLIPSIS + closer


def _span_of(block: re.Match[str]) -> str:
    return code_span(" ".join(block["code"].split()))


def _quoted_block(text: str) -> re.Match[str] | None:
    """The first closed fenced block of ``text`` that holds more than one line of code."""
    return next((b for b in _FENCED.finditer(text) if "\n" in b["code"].strip("\n")), None)


def clip_quote(text: Any, limit: int) -> str:
    """:func:`clip`, but a quote of code of several lines keeps them: the text before the first
    such fenced block is clipped to ``limit``, the block follows as it is (for :func:`bullet`),
    what follows it is left out. Python's "def page_not_found(e): return ..." squashed onto
    one line could be neither read nor copied (trial 121, F6).

    Example:
        >>> clip_quote("Use:\\n\\n```\\na = 1\\nb = 2\\n```\\n\\nThen.", 9)
        'Use:\\n\\n```\\na = 1\\nb = 2\\n```'
        >>> clip_quote("Use:\\n\\n```\\na = 1\\n```", 40)
        'Use: `a = 1`'
    """
    text = str(text)
    block = _quoted_block(text)
    if block is None:
        return clip(text, limit)
    return f"{clip(text[:block.start()], limit)}\n\n{block.group(0).strip()}".lstrip()


def bullet(text: Any, mark: str, limit: int) -> str:
    """A report's bullet of ``text`` cited by ``mark`` (``"[2]"``): ``- text [2]`` on one line
    (:func:`clip`), but a block of several lines of code it quotes is kept as a fenced block
    under the bullet's line, its lines and indentation as its source writes them, at most
    :data:`BLOCK_LINES` of them; its text after the block follows it,
    clipped (trial 121, F6).

    Example:
        >>> print(bullet("Use:\\n\\n```\\ndef f(e):\\n    return 1\\n```\\n\\nto go.", "[1]", 80))
        - Use: [1]
        <BLANKLINE>
          ```
          def f(e):
              return 1
          ```
        <BLANKLINE>
          to go.
    """
    text = str(text)
    block = _quoted_block(text)
    if block is None:
        return f"- {clip(text, limit)} {mark}".rstrip()
    lines = block["code"].strip("\n").split("\n")
    lines = lines[:BLOCK_LINES] + ([ELLIPSIS] if len(lines) > BLOCK_LINES else [])
    fence = "`" * max([3, *(len(run) + 1 for run in re.findall(r"`+", block["code"]))])
    code = "\n".join(f"  {line}".rstrip() for line in lines)
    lead = clip(text[:block.start()], limit)
    out = f"- {lead} {mark}\n\n  {fence}\n{code}\n  {fence}" if lead else (
        f"- {fence}\n{code}\n  {fence}\n\n  {mark}")
    rest = clip(text[block.end():], limit) if text[block.end():].strip() else ""
    return f"{out}\n\n  {rest}" if rest else out


def _open_span(text: str) -> int:
    """The length of the backtick run that opens a code span ``text`` does not close, else 0
    (a span closes at the next run of as many backticks: CommonMark).

    Example:
        >>> _open_span("a `b` and ``c"), _open_span("a `b` c")
        (2, 0)
    """
    opened = 0
    for run in re.findall(r"`+", text):
        if not opened:
            opened = len(run)
        elif len(run) == opened:
            opened = 0
    return opened


_PRINTED_REFERENCE = re.compile(r"\bsection\s+[\d.]*\d\s*\[([^\]]*)\]\s*,?\s*page\s+\d+",
                                re.IGNORECASE)
"""Texinfo's printed cross-reference, ``Section 5.2 [Bash Variables], page 78``: its node name
is what its HTML and Info copies write (``Bash Variables``)."""
_SEE = re.compile(r"\(\s*(?:see|cf\.?)\s[^()]*(?:\([^()]*\)[^()]*)*\)", re.IGNORECASE)
"""A cross-reference parenthesis, ``(see Bash Variables)``, ``(see SHELL BUILTIN COMMANDS
below)``: each copy of a manual points at its own layout."""
_MEANT = re.compile(
    r"(?P<flag>(?<!\w)[-+\u2212]{1,2}\w+)"  # a flag or a signed number: -e, +e, --posix, -1
    r"|(?<=\d)[.,:/\u2013-](?=\d)|(?<=\de)[-+](?=\d)"  # 1.5 is not 15, 1e-3 is not 1e3
    r"|[!=<>^~|&%]|(?<=\s)[-+*/](?=\s)"  # operators: != is not ==, n - 1 is not n + 1
    r"|\w+")
"""What :func:`wording` keeps of a sentence: its words (case folded), and the marks that change
what it says: a flag's or a number's sign (its case kept: ``-L`` is not ``-l``), the marks
between a number's digits, operators. Every other mark is layout: spacing, quotes, a hyphen
that broke a word at a line's end."""


@lru_cache(maxsize=65536)
def wording(text: str) -> str:
    """What two copies of one sentence share: its words, without their spacing, case,
    ligatures, punctuation, hyphens (a word broken at a line's end) or cross-reference
    parentheses; what changes a meaning kept (:data:`_MEANT`: ``set -e`` is not ``set +e``,
    ``--posix`` not ``posix``, ``-L`` not ``-l``, ``1e-3`` not ``1e3``, ``a != b`` not
    ``a == b``; ``x²`` not ``x2``: no compatibility folding but the case folding of ligatures).
    One manual in several formats (HTML, PDF, man page, Info) says a sentence with a PDF's
    broken spacing ("tw oadjacent"), a ligature ("ﬁles"), a hyphen at a line break,
    typographic quotes, or its own kind of cross-reference ("(see Bash Variables)" beside
    "(see Section 5.2 [Bash Variables], page 78)"): such copies are one sentence, which a
    report says once. Same words, not similar ones: "the exit status of the last command" is
    another sentence than "the return status of the last command". Texinfo's printed reference
    form is the one its manual gives for ``@xref``/``@pxref`` in print ("Section N [Node],
    page P"); normalizing text before comparing it is the first step of near-duplicate
    detection (Broder, "On the resemblance and containment of documents", 1997), here
    without its shingles: only equal texts match.

    Args:
        text: one sentence or claim, as a bullet would show it (any length).

    Returns:
        a key: equal keys are the same words; ``""`` for text without a letter or digit.

    Example:
        >>> wording("two adjacent *s match all files (see Bash Variables).") == wording(
        ...     "tw oadjacent ‘*’sm atch all ﬁles (see Section 5.2 [Bash Variables], page 78).")
        True
        >>> wording("Its in-vocation is checked.") == wording("Its invocation is checked.")
        True
        >>> wording("The limit is 1.5 s.") == wording("The limit is 15 s."), wording("-1 ok")
        (False, '-1ok')
        >>> wording("Use set -e to stop.") == wording("Use set +e to stop.")
        False
        >>> wording("Note: The pool checks it.") == wording("The pool checks it.")  # trial 123
        True
    """
    text = _SEE.sub(" ", _PRINTED_REFERENCE.sub(r"\1", unlabelled_claim(text)))
    return "".join(m.group(0).replace("\u2212", "-") if m.group("flag")
                   else m.group(0).replace("\u2013", "-").casefold()
                   for m in _MEANT.finditer(text))


_LABEL = re.compile(r"^\W*(?:notes?|warning|caution|danger|important|attention|tip|hint)\s*:\s*",
                    re.IGNORECASE)


def unlabelled_claim(text: str) -> str:
    """``text`` without the admonition's label opening it ("Note: ", "Warning: "): a copy of a
    sentence one page writes in a note says what the other page's says. SQLAlchemy's "The pool
    "pre_ping" handler ... does not consult this event ..." was an Answer bullet from one page
    and, as "Note: The pool ...", a Top passage from another (trial 123, F7, X2).

    Example:
        >>> unlabelled_claim("Note: The pool checks it."), unlabelled_claim("Notes are kept.")
        ('The pool checks it.', 'Notes are kept.')
    """
    return _LABEL.sub("", text, count=1)


def clip_middle(text: Any, limit: int) -> str:
    """:func:`clip`, but a longer ``text`` keeps its start and its end, cut in the middle: a
    note listing files says its count and why after the list ("... and 229 more: skipped, the
    source of a page indexed"), and the end is what a reader needs (clipped at its end, the
    report's copy of such a note stopped at the tenth file name).

    Example:
        >>> clip_middle("a1 a2 a3 a4 a5 a6: skipped", 16)
        'a1 a2 … skipped'
    """
    flat = clip(text, max(len(str(text)), 1))
    if len(flat) <= limit:
        return flat
    head = (limit - 3) // 2
    tail = limit - 3 - head
    return f"{flat[:head].rstrip()} {ELLIPSIS} {flat[len(flat) - tail:].lstrip()}"


def visible(text: str) -> str:
    r"""``text`` with its control characters (C0, DEL, C1) and bidi controls
    (:data:`BIDI_CONTROLS`) written as escapes: what a terminal is given of text a user or a
    state edit wrote (an ESC starts a terminal command; U+202E reverses what follows it).

    Example:
        >>> visible("a\x1bb \u202ec"), visible("déjà vu")
        ('a\\x1bb \\u202ec', 'déjà vu')
    """
    if not any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in text):
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS
                   else ch for ch in text)


def visible_text(text: str) -> str:
    r"""``text`` of several lines with what :func:`visible` escapes escaped, but its newlines and
    tabs kept: a report's markdown (a source's passage may carry an ANSI or OSC escape sequence,
    which a terminal showing the file, ``cat`` or a markdown viewer, would run).

    Example:
        >>> visible_text("a\tb\n\x1b]0;title\x07\r\n")
        'a\tb\n\\x1b]0;title\\x07\\r\n'
    """
    return "\n".join("\t".join(visible(part) for part in line.split("\t"))
                     for line in text.split("\n"))


def utf8_problem(raw: str) -> str | None:
    """Where ``raw`` (an argument or an environment value, which Python decodes with
    ``surrogateescape``) is not valid UTF-8, e.g. ``"byte 0xe9 at position 3"``; None when it is.

    Example:
        >>> utf8_problem("caf\\udce9"), utf8_problem("café")
        ('byte 0xe9 at position 3', None)
    """
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(raw[exc.start])
        what = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        return f"{what} at position {exc.start}"
    return None
