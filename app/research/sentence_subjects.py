"""A sentence's own subject: the words before its first verb (:func:`subject_of`), what the
sentence is about, as the report's Answer and its judges of a sentence's kind
(:mod:`app.research.sentence_kinds`) read it. Pure: regular expressions over one sentence.
"""

from __future__ import annotations

import re

from app.llm.offline.headings import passage_headings
from workers.sources.inflections import irregular_base

__all__ = ["opened_section", "section_subject", "subject_of"]

_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|cannot|may|might|will|would|should|must|means|"
    r"refers|returns|does|do|sets|gets|makes|causes|uses|allows|lets|controls|stands|provides|"
    r"enables|offers|supports|contains|includes|handles|implements|defines|specifies|measures|"
    r"produces|generates|creates|runs|converts|checks|adds|removes|marks|keeps|holds|stores|"
    r"maintains|manages|represents|describes|determines|indicates|tells|performs|builds|"
    r"shows|displays|prints|writes|reads|sends|applies)\b",
    re.IGNORECASE,
)
"""The first verb of a sentence ends its subject ("The default cache size *is* -2000"; "The
application context *keeps* track of ...", whose subject was not found, so Flask's definition
was taken for no sentence about the application context, trial 121, F2)."""
_NOT_A_VERB = r"(?!(?:\w*(?:ss|us|is|ics|'s)|this|its|has|was|does|as)\b)"
_UNLISTED_VERB = re.compile(
    rf"(?<=\S)\s+(?:\w+ly\s+)?{_NOT_A_VERB}[a-z]\w*[a-z]s\s+"
    r"(?:the|an?|its|their|this|these|those|your)\b"
    rf"|(?<=\S)\s+\w+ly\s+{_NOT_A_VERB}[a-z]\w*[a-z]s\b")
"""A verb no list names, by its shape, when the listed ones find none: a word in -s (not
"class", "status", "analysis", "physics") before an article or determiner ("The Sane Lists
extension *alters the* behavior ..."), or after an adverb in -ly ('The "sectnum" directive
*automatically numbers* sections ...'). Trial 94, F3: without a subject such a definition did
not count as about the thing asked, and a usage line led the Answer."""
_CONTRACTED = re.compile(
    r"\b(?:it|that|this|there|here|what|who|he|she)(?P<verb>['’]s)\b"
    r"|\b(?:they|we|you|these|those|it|that|this|he|she)(?P<verb2>['’](?:re|ll|d|ve))\b",
    re.IGNORECASE)
"""A pronoun's verb contracted onto it ("That’s done by a shell ...", "They're kept"): the
verb starts at the apostrophe, and the pronoun is the subject. Without it "That’s done by a
shell not the command you are spawning." (python-pexpect-doc's FAQ) had the words up to
"are" for its subject, no pronoun pointing back, and led an Answer that never said what
"That" was (trial 127, F1). A noun's "'s" is its possessive, no verb ("The server's name")."""
_CLAUSE = re.compile(r"^\W*(?:when|whenever|if|unless|once|after|before|while|although|"
                     r"though|because|since|as\s+long\s+as|until)\b[^,]*(,)?", re.IGNORECASE)
"""A leading subordinate clause ("When auto_vacuum is enabled, ..."), to its comma if any."""


_ROW = re.compile(r"([^—\n]{1,120}?) — ")
"""A table's row as the index writes it, its name first (:mod:`workers.sources.tables`)."""
_LABEL = re.compile(r"\W*[A-Z][a-z]+:\s")
"""A one-word label ("Returns: ...", a docstring's section): no verb, as in "Returns a tuple"."""
_PLURAL_LEAD = re.compile(r"(?!(?:Does|Has|Is|Was)\b)[A-Z][a-z]+s")
"""A sentence's first word that may be a plural noun though a verb's form ("Writes", "Uses")."""
_AFTER_NOUN = frozenset("""to from at in into of on onto by for with within without through
    under over per across between during""".split())
"""Prepositions that follow such a noun ("Writes to the log are ...") where a verb takes its
object ("Returns a tuple")."""
_OWN_CLAUSE = re.compile(r"[,;:()]|\b(?:and|or|but|nor|then|that|which|who|whom|whose|what|how|"
                         r"why|whether|if|when|where|while|unless|until|once|since|before|after|"
                         r"because|though|although|whereas|than|so|as|it|they|we|you)\b",
                         re.IGNORECASE)
"""What opens a clause with a verb of its own: a verb after it is no noun's ("Returns cached
values if they are fresh", "Reads from stdin and writes ...")."""


def subject_of(sentence: str) -> str:
    """The words before a sentence's first verb: what the sentence is about ("The TEMP
    database" of "The TEMP database has a default cache size of 0 pages"); "" when no verb is
    found (a heading or a fragment, "Partial Sorting Using An Index (a.k.a.", states nothing).
    A leading subordinate clause is not the subject: the words after its comma are, and
    without a comma the subject is not told ("When auto_vacuum is enabled for a database
    free pages may be reclaimed" is not about auto_vacuum alone). A table's row is about the
    name before its dash ("pg_size_pretty ( bigint ) → text — Converts a size ...": a verb of
    its description is no end of a subject). A verb no list names is found by its shape
    (:data:`_UNLISTED_VERB`).

    Example:
        >>> subject_of("The TEMP database has a default cache size of 0 pages.")
        'The TEMP database '
        >>> subject_of("pg_size_bytes ( text ) → bigint — Converts a size into bytes.")
        'pg_size_bytes ( text ) → bigint'
        >>> subject_of("The Sane Lists extension alters the behavior of lists.")
        'The Sane Lists extension'
        >>> subject_of("The suEXEC feature provides users the ability to run CGI programs.")
        'The suEXEC feature '
        >>> subject_of("The application context keeps track of the application-level data.")
        'The application context '

    A first word that may be a plural noun or a verb ("Writes", "Returns") is told by the
    sentence's shape (:func:`_first_verb`):

        >>> subject_of("Writes stored at the checkpoint are pending."), subject_of(
        ...     "Returns a tuple of the values."), subject_of("Returns: The value is cached.")
        ('Writes stored at the checkpoint ', '', 'Returns: The value ')
    """
    if row := _ROW.match(sentence):
        return row.group(1)
    clause = _CLAUSE.match(sentence)
    if clause:
        if clause.group(1) is None:
            return ""
        sentence = sentence[clause.end():]
    match = _first_verb(sentence)
    end = match.start() if match else None
    contracted = _CONTRACTED.search(sentence)
    if contracted and (end is None or contracted.start() < end):
        end = contracted.start("verb" if contracted.group("verb") else "verb2")
    return sentence[:end] if end is not None else ""


def _first_verb(sentence: str) -> re.Match[str] | None:
    """The verb that ends ``sentence``'s subject (:func:`subject_of`): the first :data:`_VERB`
    (or :data:`_UNLISTED_VERB`) past a one-word label (:data:`_LABEL`, "Returns: ..."), unless
    it is the sentence's first word, a plural noun by the sentence's shape: a participle or a
    preposition after it and a later verb with no clause between (:data:`_OWN_CLAUSE`).
    "Writes stored at the target checkpoint itself are pending ..." (DeltaChannelHistory's,
    L1-F1) was read as a sentence with no subject, its first word as its verb, so only
    :func:`~app.research.sentence_kinds.predicated` saw what it was about."""
    label = _LABEL.match(sentence)
    start = label.end() if label else 0
    match = _VERB.search(sentence, start) or _UNLISTED_VERB.search(sentence, start)
    if match is None or sentence[start:match.start()].strip("\"'`*_ ") or not (
            _PLURAL_LEAD.fullmatch(match.group())):
        return match
    after = sentence[match.end():].split(maxsplit=1)[:1]
    word = after[0].lower() if after else ""
    if not (word in _AFTER_NOUN or (word.endswith("ed") and len(word) > 4)
            or irregular_base(word)):
        return match
    later = _VERB.search(sentence, match.end())
    between = sentence[match.end():later.start()] if later else ""
    if later is None or len(between.split()) > 10 or _OWN_CLAUSE.search(between):
        return match
    return later


_DEICTIC = re.compile(r"\W*(?:this|these|it|they)\W*", re.IGNORECASE)
"""A subject that is a bare pronoun: what it stands for is said before the sentence."""


def section_subject(own: str, sentence: str, passage: str) -> str:
    """``own`` (``sentence``'s subject, :func:`subject_of`), or the title of the section the
    sentence opens when ``own`` is a bare pronoun ("This", "It"): a section's first sentence
    speaks of what its heading names. curl's ALTSVC.md opens "# Alt-Svc cache file format" with
    "This is a text based file with one line per entry ...", the format asked; its subject
    "This" named nothing, and the page's first line ("curl features support for the Alt-Svc:
    HTTP header.") answered "What is the Alt-Svc cache file format?" (trial 128, F6).

    Example:
        >>> page = "# Relay\\n\\nIt hops.\\n\\n# Relay log format\\n\\nThis is a text file."
        >>> section_subject("This ", "This is a text file.", page)
        'Relay log format'
        >>> section_subject("This ", "This is a text file.", "# Relay\\n\\nIt hops. This is a "
        ...                 "text file.")
        'This '
    """
    if not _DEICTIC.fullmatch(own):
        return own
    at = passage.find(sentence)
    if at < 0:
        return own
    for end, title in reversed(passage_headings(passage)):
        if end <= at:  # the last heading before it, and nothing between them
            return title if title and not passage[end:at].strip() else own
    return own


def opened_section(sentence: str, passage: str) -> str:
    """The title of the section ``sentence`` opens with a bare pronoun for its subject
    (:func:`section_subject`), the label that tells a reader what "This" is; "" for any other.

    Example:
        >>> opened_section("This is a text file.", "# Relay log format\\n\\nThis is a text file.")
        'Relay log format'
        >>> opened_section("The log is a text file.", "# Relay log\\n\\nThe log is a text file.")
        ''
    """
    own = subject_of(sentence)
    title = section_subject(own, sentence, passage)
    return "" if title == own else title
