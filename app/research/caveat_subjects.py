"""Whether a caveat is about what was asked (:func:`elsewhere`): a limitation or a warning of
another subject is no caveat of the question's, however plainly it warns. A new user on
pytest's manual found "Although not recommended, you can use the --disable-warnings
command-line option to suppress the warning summary ..." as the Caveat of "How do I disable
output capturing?", and the deprecated ``msg`` parameter of ``pytest.exit`` as those of "What
does exit code 5 mean?" (trial 123, F9). Pure: word matching over one caveat."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from app.research.evidence import document_of
from app.research.reference import written_names
from app.research.topic_words import judged_terms, needed
from workers.sources.inflections import verb_forms
from workers.sources.query import mentions

__all__ = ["elsewhere", "on_subject"]

_REFERS = re.compile(
    r"^\W*(?:(?:note|notice|remember|beware|caution|warning|important)\b\W*(?:that\s+)?)?"
    r"(?:it|its|this|these|that|those|they|their|them|such|here|there|the\s+(?:former|latter|"
    r"above|same|option|setting|function|method|command|parameter|value))\b", re.IGNORECASE)
"""A caveat whose subject is its passage's ("It cannot be used twice.", "This limit can be
lowered at run-time ...", "Note that the option ..."): what it refers to is in the text around
it, so the words it names do not tell whose it is; it stays."""


def _named(terms: Sequence[str], subject: Sequence[str], text: str, at_least: int) -> bool:
    """Whether ``text`` names the question: ``at_least`` of its ``terms``, one of them a word
    of its ``subject``, an ``-e`` verb's forms counting
    (:func:`~workers.sources.inflections.verb_forms`: "disabled" names "disable", L2-F3)."""
    return (len(mentions(terms, text, verb_forms)) >= at_least
            and bool(mentions(subject, text, verb_forms)))


def elsewhere(terms: Sequence[str], subject: Sequence[str], text: str, heading: str = "",
              side: bool = False, names: Collection[str] = ()) -> bool:
    """Whether the caveat ``text`` (under its passage's ``heading``) is about another subject
    than the question's (its ``terms`` and ``subject``,
    :func:`app.research.subject_words.question_terms` and
    :func:`~app.research.subject_words.subject_terms`): neither it nor its heading names the
    question.
    A caveat of a document the report cites for nothing else (``side``) must name it (the
    words of the names it writes do not count, unless a name is one of the ``terms``:
    ``--disable-warnings`` is no mention of "disable"); one of a cited document need only name
    one of its words, its passage's subject being the report's. A caveat that refers to its
    context (:data:`_REFERS`) stays. No ``terms``: none is elsewhere.

    The words of how the question is asked (:func:`~app.research.topic_words.judged_terms`:
    "mean", "work", "use", "happen", a name of ``names`` aside) name no subject: "mean" of
    "What does exit code 5 mean?" kept any caveat saying "means" (L2-F2, after trial 123, F9).
    A caveat still needs as many of the question's words
    (:func:`~app.research.topic_words.needed`), now of its other words.

    Example:
        >>> terms = ["disable", "output", "capturing"]
        >>> elsewhere(terms, terms, "Although not recommended, you can use the --disable-warnings "
        ...           "option to suppress the warning summary from the test run output.",
        ...           "Disabling warnings summary", side=True)
        True
        >>> elsewhere(terms, terms, "Output capturing cannot be turned off in a fixture.",
        ...           "Setting capturing methods", side=True)
        False
        >>> terms = ["exit", "code", "mean"]  # "What does exit code 5 mean?"
        >>> elsewhere(terms, terms, "reason has a default value only because msg is deprecated.",
        ...           "exit(reason[, returncode=False, msg=None])")
        True
        >>> elsewhere(terms, terms, "It is deprecated.", "Miscellaneous"), elsewhere(
        ...     terms, terms, "An exit code above 127 is not portable.", "Miscellaneous")
        (False, False)
        >>> elsewhere(terms, terms, "Passing msg means a deprecation warning.", "Parameters")
        True
    """
    if not terms or _REFERS.match(text):
        return False
    at_least = needed(terms)
    terms, subject = judged_terms(terms, names), judged_terms(subject, names)
    at_least = min(at_least, len(terms))
    if _named(terms, subject, heading, at_least):
        return False
    if not side:
        return not mentions(terms, text, verb_forms)
    said = text
    for name in written_names(text):
        if name.lstrip("-").lower() not in terms:
            said = said.replace(name, " ")
    return not _named(terms, subject, said, at_least)


def on_subject(caveats: Iterable[dict[str, Any]], terms: Sequence[str], subject: Sequence[str],
               passages: Mapping[str, tuple[str, str, str]],
               cited: Collection[str], names: Collection[str] = ()) -> list[dict[str, Any]]:
    """``caveats`` less those about another subject (:func:`elsewhere`), each read under its
    passage's heading (``passages``: text, heading and title by ref,
    :func:`app.research.own.passages_by_ref`); a side one when its document is not ``cited``;
    ``names``: the question's words written as names
    (:func:`~app.research.topic_words.name_terms`)."""
    return [c for c in caveats if not elsewhere(
        terms, subject, str(c["text"]), passages.get(str(c.get("ref")), ("", "", ""))[1],
        document_of(c) not in cited, names)]
