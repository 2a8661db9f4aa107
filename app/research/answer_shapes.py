"""What a sentence says to the question's kind, beyond the kind it fits
(:mod:`app.research.sentence_kinds`): its subject is the very thing the kind asks for ("The only
difference ...", "The solution to this ..."), it says what to do, it points back to a sentence
not shown ("this", "these" as its subject), or it answers a yes/no question with a no. Used by
the report's Answer (:mod:`app.research.answer`) to order its candidates (trials 117 and 118).
Pure: regular expressions over one sentence.
"""

from __future__ import annotations

import re

from app.llm.offline.sentences import prose_sentences
from app.llm.offline.words import stems
from app.research.caveat_shapes import against
from app.research.caveats import asked_harm, warns
from app.research.sentence_kinds import INSTRUCTION
from app.research.sentence_subjects import subject_of
from app.research.versions import asks_version, history_row
from workers.sources.entries import entry_led
from workers.sources.leads import CALLED
from workers.sources.query import mentions, query_terms
from workers.sources.sentence_ends import NOTE_THAT, PLAIN_WORD

__all__ = ["answers_kind", "denies", "goes_after", "goes_on_from", "names_the_answer",
           "opens_document", "points_back", "says_what_to_do", "solution_part",
           "unnamed_default"]


_ANSWER_NOUNS = {
    "compare": r"differences?|distinctions?",
    "how": r"solutions?|fix|remedy|workaround|cure",
    "why": r"reasons?|rationale|motivation",
    "limitation": r"limitations?|restrictions?|drawbacks?|downsides?|shortcomings?",
}
"""The noun a question's kind (:func:`app.research.topics.topic_kind`) asks for: the answer
to "what is the difference ..." is a difference, to "how do I fix ..." a solution."""


def names_the_answer(kind: str, own: str) -> bool:
    """Whether a sentence's subject (``own``, :func:`subject_of`) is the thing the question's
    ``kind`` asks for (:data:`_ANSWER_NOUNS`): "The only difference is the higher default size
    of the main queue." answers a difference question, as "The solution to this is to add
    2147483647 ..." answers a how-to, though neither subject names the topic (rsyslog's
    direct answer was only under Findings, the problem statement led, trial 118, F2).

    Example:
        >>> names_the_answer("compare", "The only difference "), names_the_answer(
        ...     "how", "The solution to this "), names_the_answer("how", "The difference ")
        (True, True, False)
        >>> names_the_answer("compare", "The difference in size between the queues ")
        False
    """
    nouns = _ANSWER_NOUNS.get(kind)
    return bool(nouns) and re.match(
        rf"\W*(?:the|one|a|an)\s+(?:[\w-]+\s+){{0,2}}?(?:{nouns})\b(?:\s+(?:to|for|of|"
        rf"between)\s+(?:this|these|that|those|it|them)\b)?\W*$", own,
        re.IGNORECASE) is not None


def answers_kind(kind: str, own: str, text: str, asked: str) -> bool:
    """Whether ``text`` (its subject ``own``) is about the very thing the question ``asked``
    (of ``kind``) asks for: its subject is it (:func:`names_the_answer`), or, asked what a thing
    is, it names that thing as what it described ("This is known as being in detached HEAD
    state.", git-checkout's definition, :data:`~workers.sources.leads.CALLED`, trial 121, F2).

    Example:
        >>> answers_kind("what", "This ", "This is known as being in detached HEAD state.",
        ...              "What is detached HEAD state?")
        True
        >>> answers_kind("what", "This ", "This is known as the index.", "What is HEAD?")
        False
    """
    return names_the_answer(kind, own) or (kind in ("what", "topic")
                                           and _calls_asked(text, asked))


_GOES_ON_FROM = re.compile(
    r"(?:But|And|Yet|Or|Nor|(?:Even\s+)?Though|Although|While|Whilst),?\s+(?:this|that|these|"
    rf"those|it|its|such)\b|{NOTE_THAT}")
"""A sentence opening with a conjunction and a word pointing back goes on from one the Answer
does not show ("But this is an opposite of what crawler should do ..." led Scrapy's Answer to
"How can I make my crawler slow down automatically ...?", trial 89, F6), or with a concession
on it ("Though this is convenient, ..." led Django's "Which cache ...?", trial 124, M3-F3), or
a remark on it ("Note that this is different than ...", :data:`NOTE_THAT`, trial 124, FB2); a
default with no subject (:func:`unnamed_default`) is the default of an entry not shown.
One that points nowhere ("But there are some obscure cases where ...") stands alone."""
_NO_SUBJECT_DEFAULT = re.compile(r"Defaults?\s+(?:value\s+)?(?:is|are|to)\s")
"""A default with no subject ("Default is False."): :func:`unnamed_default`."""
_PRONOUN_SUBJECT = re.compile(
    r"(?:(?:as\s+of|in|on|at|for|with|under|after|before|since|from|by)\s+[^,;:]{1,40}?\s)?"
    r"(?:this|these|those|it|they)|that", re.IGNORECASE)
"""A subject that is a pronoun pointing back, after a phrase or not ("this" of "As of Jinja 2.4
this can also be a callable ..."); not a pronoun ending a longer subject ("The pages that ...",
"The X setting limits the size; packets past it are ...")."""
_DUMMY_IT = re.compile(
    r"\W*It(?:['’]s|\s+(?:is|was|may\s+be|can\s+be|would\s+be|will\s+be))\s+(?:not\s+)?"
    r"(?:also\s+)?"
    r"(?:possible|impossible|necessary|important|recommended|advisable|advised|best|better|"
    r"safe|unsafe|easy|easier|difficult|hard|useful|common|likely|unlikely|true|worth|"
    r"required|an?\s+(?:error|good\s+idea|mistake))\b", re.IGNORECASE)
"""An "it" that stands for the clause after it ("It is possible to obtain debugging
information ...", "It's best to ..."), pointing back to nothing."""


def points_back(text: str, asked: str = "", opening: bool = False) -> bool:
    """Whether ``text``, quoted alone, says its thing of one a sentence not shown named: it
    opens with a conjunction and a word pointing back (:data:`_GOES_ON_FROM`), or its subject
    (:func:`subject_of`) is a pronoun pointing back (:data:`_PRONOUN_SUBJECT`, not an "it"
    standing for a clause, :data:`_DUMMY_IT`), or it goes on from a sentence not shown
    (:func:`goes_on_from`). Such a sentence opens no Answer: "If
    RSYSLOG_DEBUGLOG is not set, this means no messages will be displayed at all." (trial
    118, F2) and Jinja's "As of Jinja 2.4 this can also be a callable ..." (trial 117, F9) led
    theirs. A subject naming its thing ("This option ...") says what it points to, and so does
    one whose sentence names what ``asked`` asks as what it described (:data:`CALLED`: "This
    is known as being in detached HEAD state.", git-checkout's definition, trial 121, F2).
    A document's ``opening`` sentence has nothing before it: its "This" is the document
    (NEWS.gz's "This is a terse description of the new features added to bash-5.2 ..." went
    after the manual's side sentences, trial 125, F3).

    Example:
        >>> points_back("As of Jinja 2.4 this can also be a callable."), points_back(
        ...     "If X is not set, this means no messages are shown."), points_back(
        ...     "But this is the opposite.")
        (True, True, True)
        >>> points_back("This option sets the size."), points_back(
        ...     "It is possible to obtain debug output."), points_back(
        ...     "The pages that are freed are reused.")
        (False, False, False)
        >>> q = "What is a detached HEAD?"
        >>> points_back("This is known as being in detached HEAD state.", q), points_back(
        ...     "This is known as being in detached HEAD state.")
        (False, True)
        >>> said = "This is a terse description of the new features."
        >>> points_back(said), points_back(said, opening=True)
        (True, False)
    """
    if asked and _calls_asked(text, asked):
        return False
    if _GOES_ON_FROM.match(text) or goes_on_from(text):
        return True
    own = subject_of(text).strip()
    return (bool(own) and not opening and _PRONOUN_SUBJECT.fullmatch(own) is not None
            and not _DUMMY_IT.match(text))


def unnamed_default(text: str, asked: str = "") -> bool:
    """Whether ``text`` states a default with no subject (:data:`_NO_SUBJECT_DEFAULT`): the
    default of an entry it does not name, so it points back to that entry, as
    :func:`points_back`'s sentences do, unless the Answer shows it under the entry's name
    ("`PS4`: Default is ‘+%N:%i> ’ ...", trial 115, F9; decided where the Answer ranks it,
    :func:`app.research.answer_rank.ranked`). One that names what ``asked`` asks as what it
    described does not (:func:`answers_kind`).

    Example:
        >>> unnamed_default("Default is False."), unnamed_default("The default is False.")
        (True, False)
    """
    return _NO_SUBJECT_DEFAULT.match(text) is not None and not (
        asked and _calls_asked(text, asked))


def _calls_asked(text: str, asked: str) -> bool:
    """Whether ``text`` names what it described (:data:`CALLED`) by every word ``asked``
    asks about (:func:`~workers.sources.query.query_terms`)."""
    terms = query_terms(asked)
    return bool(terms) and any(len(mentions(terms, found.group(1))) == len(terms)
                               for found in CALLED.finditer(text))


_RESTATES = re.compile(r"\W*(?:In\s+other\s+words|That\s+is(?:\s+to\s+say)?|I\.\s?e\.|"
                       r"Put\s+(?:another|differently)(?:\s+way)?|Said\s+differently),",
                       re.IGNORECASE)
"""A sentence saying again what the one before it said ("In other words, we'll no longer be in
detached HEAD state after this command.", an Answer's first bullet, trial 121, F2)."""
_BACK_PHRASE = re.compile(
    r"\W*(?:To|In|For|With|By|Under|After|Because\s+of|Despite|Given)\b[^,.;:]{0,40}?"
    r"\b(?:such(?:\s+an?)?\s+\w+|(?:this|that|these|those)\s+(?:cases?|situations?|"
    r"problems?|issues?|scenarios?|circumstances|reasons?|ends?|purposes?|points?|instances?))"
    r"[^,.;:]{0,30},\s", re.IGNORECASE)
"""An opening phrase whose case or problem a sentence before it told ("To cope with such a
situation, after the inner git bisect finds the next revision ..." opened the Answer to "What
does git bisect run do?", trial 121, F2; "In this case, ...", "For that reason, ...")."""
_CONNECTS = frozenset({"and", "or", "but", "nor", "yet", "so", "then", "which", "who", "whom",
                       "whose", "where", "while", "because", "as", "than", "that"})
"""A lower-case word that joins a sentence's part to one before it."""


def goes_on_from(text: str) -> bool:
    """Whether ``text`` goes on from a sentence not shown: it says that one again in other words
    (:data:`_RESTATES`), opens with a phrase naming that one's case (:data:`_BACK_PHRASE`),
    or is the rest of a sentence: it opens with a plain lower-case word
    (:data:`~workers.sources.sentence_ends.PLAIN_WORD`, not an identifier) that joins it to
    one before, or with no subject before its verb ("creates a new tag foo, which refers to
    commit f, leaving HEAD detached.", after a command in git-checkout's example, trial 121,
    F2). A lower-case command that is its subject ("git pull runs git fetch ...") stands.

    Example:
        >>> goes_on_from("creates a new tag foo, which refers to commit f."), goes_on_from(
        ...     "In other words, we are no longer detached."), goes_on_from(
        ...     "To cope with such a situation, the script can apply the patch.")
        (True, True, True)
        >>> goes_on_from("git pull runs git fetch first."), goes_on_from(
        ...     "dont-use-dicts: (boolean) Disable use of dictionaries."), goes_on_from(
        ...     "In addition, the default is 5."), goes_on_from("To build a URL, use url_for.")
        (False, False, False, False)
    """
    if _RESTATES.match(text) or _BACK_PHRASE.match(text):
        return True
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if not PLAIN_WORD.match(text) or not re.fullmatch(r"[a-z]+,?", first) or entry_led(text):
        return False  # an entry's label ("dont-use-other-dicts: (boolean) Disable ...") stands
    return first.rstrip(",") in _CONNECTS or not subject_of(text).strip()


_TO_MEND = re.compile(r"\W*(?:To|In\s+order\s+to)\s+(?:fix|solve|resolve|correct|remedy|avoid|"
                      r"prevent|work\s+around|recover\s+from|undo)\b[^.;:]{0,80},\s", re.IGNORECASE)
"""A sentence opening with the problem it mends ("To fix this, reload the zone ...")."""
_TO_DO = re.compile(
    r"\W*(?:To|In\s+order\s+to)\s+(?!(?:be|date|the|an?|my|our|your|his|her|its|their|this|"
    r"that|these|those|some|any|all|each|me|us|them|him|which|what|whom)\b)[a-z]+\b[^.;:]{0,80},"
    r"\s+(?!(?:and|or|but|which|who|whom|whose|while|as|so)\b)")
"""A sentence opening with the purpose it serves, then its main clause ("To require a
password for the web interface, set web_auth = on ..."): it says how to do that (trial 119,
F4). Not "To date, ...", "To the left, ...", "To my knowledge, ..."."""
_SOLUTION_LABEL = re.compile(r"\W*(?:solutions?|fix|workarounds?|resolution|remedy|answer|a):\s",
                             re.IGNORECASE)
"""The label of a problem/solution layout's part saying what to do ("SOLUTION:", trial 119)."""


def solution_part(text: str) -> bool:
    """Whether ``text`` is a problem/solution layout's solution (:data:`_SOLUTION_LABEL`)."""
    return _SOLUTION_LABEL.match(text) is not None


def says_what_to_do(text: str, own: str) -> bool:
    """Whether ``text`` (its subject ``own``, :func:`subject_of`) says what to do: its subject
    is the solution (:func:`names_the_answer`), it opens with what it mends ("To fix this,
    ...", :data:`_TO_MEND`), with the purpose it serves ("To require a password, set ...",
    :data:`_TO_DO`), under a solution's label (:data:`_SOLUTION_LABEL`) or it is an
    instruction (:data:`INSTRUCTION`). Asked how to do
    or fix something, such a sentence comes before one describing the problem ("Occasionally
    they make a mistake and set the serial number to a date in the future, ..." led BIND's
    Answer, "The solution to this is to add 2147483647 ..." not shown, trial 118, F2).

    Example:
        >>> says_what_to_do("The solution to this is to add 1.", "The solution to this ")
        True
        >>> says_what_to_do("To fix this, reload the zone.", ""), says_what_to_do(
        ...     "Set the SSLKEYLOGFILE variable.", "")
        (True, True)
        >>> says_what_to_do("To require a password, set web_auth = on.", "")
        True
        >>> says_what_to_do("They set the serial number by mistake.", "They ")
        False
        >>> says_what_to_do("SOLUTION: Delete it.", ""), says_what_to_do("SYMPTOM: It stops.", "")
        (True, False)
        >>> says_what_to_do("To date, no fix is known.", ""), says_what_to_do(
        ...     "To the left, the menu is shown.", "")
        (False, False)
    """
    return (names_the_answer("how", own) or _TO_MEND.match(text) is not None
            or _TO_DO.match(text) is not None
            or solution_part(text)
            or INSTRUCTION.match(text) is not None)


_YES_NO = re.compile(r"^\W*(?:can|could|may|must|should|shall|will|would|is|are|does|do)\s+"
                     r"(?!you\s+(?:explain|tell|describe|show)\b)\w", re.IGNORECASE)
"""A yes/no question ("Can I ...?", "Is it possible to ...?", "Does X ...?"); "Can you explain
how ...?" asks how."""
_DENIAL = re.compile(
    r"\b(?:cannot|can't|can\s+not|could\s+not|couldn't|must\s+not|mustn't|should\s+not|"
    r"shouldn't|may\s+not|shall\s+not|(?:is|are)\s+not\s+(?:possible|allowed|permitted)\s+to)"
    r"\s+(?:\w+ly\s+)?(?:be\s+)?(\w+)", re.IGNORECASE)
"""A modal denial and the verb it denies ("cannot normally be *edited*", "should not be
*edited*", "is not possible to *edit*")."""


def denies(question: str, text: str) -> bool:
    """Whether ``text`` answers the yes/no ``question`` with a no: it denies (:data:`_DENIAL`)
    a verb the question asks. BIND's "The zone files of dynamic zones cannot normally be edited
    by hand because ..." is the answer to "Can I edit the zone file of a dynamically updated
    zone by hand?", and was listed under Caveats while two lines on editing zones led the
    Answer (trial 118, F3). A question asking why not to do a thing is answered so too, by the
    advice against it (:func:`~app.research.caveat_shapes.against`, trial 121, F5).

    Example:
        >>> q = "Can I edit the zone file of a dynamic zone by hand?"
        >>> denies(q, "Zone files of dynamic zones cannot normally be edited by hand.")
        True
        >>> denies(q, "A journal file cannot be read."), denies("How do I edit it?", "No edits.")
        (False, False)
        >>> denies("Why shouldn't I edit the zone file?", "Do not edit the zone file by hand.")
        True
    """
    if not _YES_NO.match(question):
        return against(question, text)
    asked = stems(question)
    return any(stems(m.group(1)) & asked for m in _DENIAL.finditer(text))


def goes_after(asked: str, kind: str, quote: str, text: str,
               at: tuple[str, str] = ("", "")) -> bool:
    """Whether a candidate goes after the sentences that answer (``quote``, judged by its
    lead-in ``text``): a warning ("Caution: counts are unreliable in fog") answers a limitation
    question or the harm asked and no other (it is listed under Caveats); a sentence ending in
    a colon introduces the code or list after it ("On Windows, using fs.mkdir() on the root
    directory ... will result in an error:" led the answer to what fs.mkdir() does); a history
    row ("v18.19.0 — Changes: ...") unless a version is asked; one pointing back to a sentence
    not shown (:func:`points_back`; and a default with no subject, :func:`unnamed_default`,
    unless the Answer shows it under its entry's name: the Answer's rank decides,
    :func:`app.research.answer_rank.ranked`; ``at``: its ref and passage, to tell whether it
    opens its document, :func:`opens_document`).
    A warning is what the Caveats call one
    (:func:`~app.research.caveats.warns`), not any match of its words: SQLAlchemy's "And
    importantly, set expire_on_commit to False - ... This expiration should not be used ...",
    a recommendation the Caveats do not list, went after the answer as a warning (L2-F1 of
    trial 123, F9).

    Example:
        >>> fix = "And importantly, set expire_on_commit to False - it should not be used here."
        >>> goes_after("How do I avoid lazy loads?", "how", fix, fix)
        False
        >>> warned = "Autoflush should not be disabled in production."
        >>> goes_after("How do I avoid lazy loads?", "how", warned, warned)
        True
    """
    warning = kind != "limitation" and warns(text) and not asked_harm(asked, text)
    return (warning or quote.rstrip().endswith(":")
            or (history_row(text) and not asks_version(asked))
            or points_back(text, asked, opens_document(*at, quote)))


def opens_document(ref: str, passage: str, text: str) -> bool:
    """Whether ``text`` is the first sentence of its document: of its first passage (``ref``
    ``doc#0``, its ``passage`` text), the first prose sentence (a heading above it aside).

    Example:
        >>> opens_document("README#0", "Introduction\\n\\nThis is GNU Bash.", "This is GNU Bash.")
        True
        >>> opens_document("README#3", "This is GNU Bash.", "This is GNU Bash.")
        False
    """
    if not ref.endswith("#0"):
        return False
    first = prose_sentences(passage)[:1]
    return bool(first) and " ".join(first[0].split()) == " ".join(text.split())
