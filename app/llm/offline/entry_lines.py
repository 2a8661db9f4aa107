"""Which entry a passage's sentence belongs to, as the offline analyst reads it: the entry its
paragraph opens or a label above it names (an option's forms, a keyword's), and a man page's NAME
line, the entry of the command the page documents ("git-cherry-pick - Apply the changes
introduced by some existing commits": what "What does git cherry-pick do?" asks, never quoted
while git-rev-list(1)'s ``--cherry`` entry was, trial 121, F1). Moved from
:mod:`app.llm.offline.sentences`, which quotes them."""

from __future__ import annotations

import re

from workers.sources.chunks import PARA_SPLIT
from workers.sources.entries import entry_keywords, entry_name
from workers.sources.option_entries import option_heading, option_label
from workers.sources.quoted_names import quoted_label

__all__ = ["entry_at", "name_line", "paragraph_at"]

_NAME_LINE = re.compile(r"([\w.+-]+(?:,[ \t]*[\w.+-]+)*)[ \t]+[-\u2013\u2014][ \t]+\w")
"""A man page's NAME line: the command's name (or names, "gzip, gunzip, zcat"), a dash and what
it does ("git-clone - Clone a repository into a new directory")."""


def paragraph_at(text: str, offset: int) -> str:
    """The paragraph of ``text`` that holds ``offset``, from its start."""
    return text[text.rfind("\n\n", 0, offset) + 1:].lstrip()


def entry_at(text: str, offset: int) -> str:
    """The name of the entry the paragraph of ``text`` holding ``offset`` belongs to: the one
    it opens (:func:`workers.sources.entries.entry_name`), else the one a label paragraph above
    it names: an option's forms (:func:`workers.sources.entries.option_label`, its first
    form's name: ssh's "Specifies that connections to the given TCP port ..." is ``-L``'s) or
    a keyword and its arguments (BIND's ``flushname name [view]`` above "This command flushes
    the given name ...", which lost to two release notes saying "rndc flushname", trial 75),
    or a label of quoted names, its first (Vim's ``'smartcase' 'scs' boolean ...``, trial 126,
    F1: :func:`~workers.sources.quoted_names.quoted_label`); else "".

    Example:
        >>> entry_at("-L port:host:hostport\\n-L socket\\n\\nSpecifies that.", 35)
        '-L'
        >>> entry_at("flushname name [view]\\n\\nThis command flushes the name.", 30)
        'flushname'
        >>> entry_at("'smartcase' 'scs' boolean (default off) global\\n\\nOverride it.", 50)
        'smartcase'
    """
    paragraph = paragraph_at(text, offset)
    if name := entry_name(paragraph):
        return name
    label = ""
    for above in PARA_SPLIT.split(text[:text.rfind("\n\n", 0, offset) + 1]):
        if option := option_label(above):
            label = option_heading(option.split()[0])
        elif quoted := quoted_label(above):  # Vim's "'smartcase' 'scs' boolean ...": its name
            label = quoted[0]
        elif "\n" not in above.strip() and len(above) <= 80 and (
                keywords := entry_keywords(above.strip())) and len(keywords) == 1:
            label = next(iter(keywords))
    return label


def name_line(text: str, offset: int, sentence: str) -> str:
    """The command's name when ``sentence``, at ``offset`` of ``text``, is a man page's NAME
    line (:data:`_NAME_LINE`, the paragraph after a heading ``NAME``, as git-doc's HTML and a
    groff page in a ``<pre>`` have it), its names' words apart; else "". Such a line is whole
    without a full stop, and is the command's own entry: it says what the command is.

    Example:
        >>> line = "git-cherry-pick - Apply the changes"
        >>> page = f"git-cherry-pick(1) Manual Page\\n\\nNAME\\n\\n{line}"
        >>> name_line(page, page.index(line), line)
        'git cherry pick'
        >>> name_line("Usage\\n\\nfrob - Run it", 7, "frob - Run it")  # under no NAME heading
        ''
    """
    cut = text.rfind("\n\n", 0, offset)
    before = PARA_SPLIT.split(text[:cut].rstrip())[-1:] if cut > 0 else []
    found = _NAME_LINE.match(sentence.strip())
    if found is None or [b.strip().strip("#").strip().upper() for b in before] != ["NAME"]:
        return ""
    return " ".join(re.findall(r"[^\W_]+", found[1]))
