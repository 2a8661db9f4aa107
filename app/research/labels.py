"""What a passage bullet is labelled by in a report: its entry's label
(:func:`app.research.reference.entry_label`), else the heading of the section the passage is
cut from when that tells more than its page's title (on a file titled by its own name, a PDF,
any heading does).
"""

from __future__ import annotations

import re
from typing import Any

from app.research.reference import entry_heading, entry_label
from app.research.text import clip
from workers.sources.chunks import PARA_SPLIT

__all__ = ["MAX_LABEL_CHARS", "shown_label"]

MAX_LABEL_CHARS = 70
"""A label is shown in at most this many characters, as the Sources list shows a passage's
heading: a constructor's whole signature, 190 characters of ``__init__(timeout=30,
maxread=2000, ...)``, stood before each of pxssh's sentences (trial 102, F8)."""



def shown_label(item: dict[str, Any]) -> str:
    """The label a passage bullet (``item``: a passage with ``ref``, ``title``, ``heading`` and
    ``text``) is shown under: :func:`~app.research.reference.entry_label`, but where that is the
    document's title, the heading of the section the passage lies in when it tells more
    (:func:`_tells`). The title named the page, not the section, on one-page manuals and
    chaptered ones alike: "bashref.pdf: In an interactive shell, ..." (trial 97, R2), "Syscmd
    (GNU M4 1.4.19 macro processor)" (trial 101, F9), and "Libtool: If you think libtool should
    let some flag through ..." under "13.1 Why does libtool strip link flags ...?", "HAProxy
    version 2.6.12 - Management Guide: If the new process manages to bind ..." under "4.
    Stopping and restarting HAProxy" (trial 113): entry_label takes a section's heading only
    when it names an identifier. At most :data:`MAX_LABEL_CHARS` (:func:`_short`).

    Example:
        >>> shown_label({"ref": "docs/bashref.pdf:p96#0", "title": "bashref.pdf",
        ...              "heading": "Bash Variables", "text": "In an interactive shell, ..."})
        'Bash Variables'
        >>> shown_label({"ref": "libtool.html#345", "title": "Libtool", "heading": "13.1 Why "
        ...              "does libtool strip link flags?", "text": "If you think libtool ..."})
        '13.1 Why does libtool strip link flags?'
        >>> shown_label({"ref": "ssh.1#4", "title": "ssh — OpenSSH remote login client",
        ...              "heading": "DESCRIPTION", "text": "ssh connects and logs into ..."})
        'ssh — OpenSSH remote login client'
        >>> shown_label({"ref": "api.html#9", "title": "API", "text": "unsafe_hash "
        ...              "(Optional[bool]) –\\n\\nAlthough not recommended, you can ..."})
        'unsafe_hash (Optional[bool])'
        >>> shown_label({"ref": "Syscmd.html#2", "title": "Syscmd (GNU M4 macro processor)",
        ...              "heading": "Builtin: syscmd (shell-command)", "text": "By default, ..."})
        'Builtin: syscmd (shell-command)'
        >>> shown_label({"ref": "api/pxssh.html#16", "title": "pxssh", "text": "__init__("
        ...              "timeout=30, maxread=2000, searchwindowsize=None, logfile=None, cwd=None,"
        ...              " env=None)\\n\\nThe echo attribute may be set to False."})
        '__init__(…)'
        >>> shown_label({"ref": "builtins.md#4", "title": "builtins.md", "text": "cd -\\n\\n"
        ...              "Changes to the previous directory."})
        'cd -'
        >>> shown_label({"ref": "directives.html#7", "title": "Directives", "heading": ".. "
        ...              "toctree::", "text": "A numeric maxdepth option may be given."})
        '.. toctree'
        >>> shown_label({"ref": "CHANGES.gz#1", "title": "CHANGES.gz", "text": "2. Changes to "
        ...              "Readline\\n\\n3. New Features in Bash\\n\\n------------\\nThis "
        ...              "document details the changes between bash-5.2-rc3 and rc2."})
        'CHANGES.gz'
        >>> shown_label({"ref": "CHANGES.gz#1", "title": "CHANGES.gz", "text": "1. Changes to "
        ...              "Bash\\n\\n2. Changes to Readline\\n\\na. Fixed a bug in search."})
        '2. Changes to Readline'
    """
    label = entry_label(item)
    if (opened := _opened_by(str(item.get("text") or ""))) is not None:
        label = opened or entry_label({**item, "text": ""})
    title = str(item.get("title") or "")
    heading = " ".join(str(item.get("heading") or "").split()).rstrip(_MARKS)
    document = str(item.get("ref") or "").split("#", 1)[0].rsplit(":p", 1)[0]
    if heading and label == title and (title == document.rsplit("/", 1)[-1]
                                       or _tells(heading, title)):
        label = heading
    return _short(_COLON_END.sub("", _DASH_END.sub("", label)))


def _opened_by(text: str) -> str | None:
    """The heading over a passage's prose when the heading opening it heads none of it: the
    last of the headings opening it (an empty section's heading, then its next one's), or ""
    when a rule line parts them from the prose (a changelog's next entry); None when the
    opening heading heads the prose below it, or none opens it. "2. Changes to Readline: This
    document details the changes between this version, bash-5.2-rc3, and the previous version"
    labelled the next release's entry of bash's CHANGES by an empty section of the one before
    (trial 125, F11, B6)."""
    last = None
    for number, paragraph in enumerate(PARA_SPLIT.split(text.strip())):
        if _RULE_LINE.match(paragraph.strip()):
            return "" if number else None
        if not (heading := entry_heading(paragraph)):
            return None if number <= 1 else last
        last = heading
    return None


_RULE_LINE = re.compile(r"[-=*_~#]{8,}[ \t]*(?:\n|$)")
"""A line drawn across a plain-text file: what follows is another part (a release's entry)."""

_COLON_END = re.compile(r"(?<=[^\s:])\s*:+$")
"""Colons a label ends with: the bullet puts its own after it. A reST directive's name, as
Sphinx shows it (``.. toctree::``), was shown as ".. toctree:::" (trial 125, F11, S4); so was
a heading that ends in a colon ("Example::")."""

_DASH_END = re.compile(r"\s+[–—]+\s*$|(?<=[)\]])\s+-{1,2}\s*$")
"""A dash a label ends with that only leads to its text: a Sphinx field's "name (type) –"
(attrs' "unsafe_hash (Optional[bool]) –: Although not recommended ...", trial 109, F8), or
hyphens after such a field's bracket. A hyphen after a word is a command's argument, kept:
"cd -" and "git checkout -" were labelled "cd" and "git checkout" (trial 113, F10)."""

_MARKS = "¶#§ "
"""A permalink mark after a heading's text (``HTTP Purging ¶``)."""

_PARTS = frozenset("""name synopsis description options option examples example environment
files notes caveats bugs diagnostics authors author copyright history standards see also
reporting exit status return value values configuration introduction overview contents table
of summary usage details preface abstract index notice""".split())
"""The words of a heading that names a part every document may have, not its subject (a man
page's ``DESCRIPTION``, ``SEE ALSO``; ``Introduction``, ``Overview``): the title says more."""


def _tells(heading: str, title: str) -> bool:
    """Whether a section's ``heading`` tells more than its page's ``title``: some part of it
    (a passage across sections has ``A / B``) has words of its own, neither the title's nor a
    part's every document has (:data:`_PARTS`). A Texinfo page's "5.2 Bash Variables" under
    "Bash Variables (Bash Reference Manual)" does not; "HTTP Purging" under "Purging and
    banning" does.

    Example:
        >>> _tells("HTTP Purging", "Purging and banning"), _tells("OPTIONS", "gzip(1)")
        (True, False)
        >>> _tells("5.2 Bash Variables", "Bash Variables (Bash Reference Manual)")
        False
        >>> _tells("ssh — OpenSSH remote login client / SYNOPSIS", "ssh — OpenSSH remote login "
        ...        "client")
        False
    """
    own = set(_WORD.findall(title.casefold()))
    for part in heading.split(" / "):
        words = set(_WORD.findall(part.casefold()))
        if part.strip() != title.strip() and words - own - _PARTS:
            return True
    return False


_WORD = re.compile(r"[^\W\d_](?:[\w'’-]*\w)?")
"""A word of a heading or a title, numbers (a section's "5.2") aside."""


def _short(label: str) -> str:
    """``label`` in at most :data:`MAX_LABEL_CHARS`: a longer one that ends with a bracket
    without what that bracket holds, said to be left out (a signature's arguments,
    "pexpect.run(…)"; a Texinfo page title's manual, "How can I match C-style comments? (…)"),
    else clipped: cut at 70 characters, such labels ended mid-argument and mid-title,
    "pexpect.run(command, timeout=30, ..., events=None,…" (trial 104, R3). A bracket inside
    it stays (it was cut at the first: "Never call fork(…)", trial 108, F8). So does one
    followed by a signature's tail (:data:`_TAIL`): a return annotation, kept when it fits, a
    Sphinx "[source]" or a C prototype's ";", dropped ("quillsync.Client.open(path: str, ...
    timeout: float =…" was cut mid-argument, trial 113).

    Example:
        >>> _short("pexpect.run(command, timeout=30, withexitstatus=False, events=None, "
        ...        "extra_args=None, logfile=None)")
        'pexpect.run(…)'
        >>> _short("How can I match C-style comments? (Lexical Analysis With Flex, for Flex "
        ...        "2.6.4)")
        'How can I match C-style comments? (…)'
        >>> _short("Never call fork() in a threaded relay; call posix_spawn (see below) from "
        ...        "plugins instead")
        'Never call fork() in a threaded relay; call posix_spawn (see below)…'
        >>> _short("quillsync.Client.open(path: str, mode: str = 'r', retries: int = 5, "
        ...        "timeout: float = 30.0) -> Client [source]")
        'quillsync.Client.open(…) -> Client'
        >>> _short("int quill_open(const char *path, int flags, unsigned int retries, "
        ...        "double timeout);")
        'int quill_open(…)'
    """
    if len(label) <= MAX_LABEL_CHARS:
        return label
    tail = _TAIL.search(label)
    body = label[:tail.start()] if tail else label
    if body.endswith(")") and (opened := _opening(body)) > 0:
        head = body[:opened]
        if len(head) < MAX_LABEL_CHARS - 4:
            short = f"{head.rstrip()} (…)" if head.endswith(" ") else f"{head}(…)"
            returns = " ".join(tail.group("returns").split()) if tail and tail.group(
                "returns") else ""
            return f"{short} {returns}" if returns and len(
                short) + len(returns) < MAX_LABEL_CHARS else short
    return clip(label, MAX_LABEL_CHARS)


_TYPE = r"[\w.]+(?:\[[^()]*?\])?"
_TAIL = re.compile(rf"(?<=\))\s*(?P<returns>->\s*{_TYPE}(?:\s*\|\s*{_TYPE})*)?"
                   r"\s*(?:\[source\]|;)?\s*$")
"""What may follow a signature's closing bracket: its return annotation ("-> Client"), the
"[source]" link Sphinx writes after it, a C prototype's ";"."""


def _opening(label: str) -> int:
    """Where the bracket that closes ``label`` opens (-1 when none does)."""
    depth = 0
    for at in range(len(label) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(label[at], 0)
        if depth == 0:
            return at
    return -1
