"""What the report counts as a caveat (issue 19: caveats are limitations and warnings, never
repeats of findings): a sentence in words of caution (:func:`cautions`), a warning
(:func:`warns`), a harm the question asks about (:func:`asked_harm`), and the run's claims that
are one (:func:`caution_claims`). The ``## Caveats`` section that lists them is
:mod:`app.research.caveat_section`'s."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from app.llm.offline.sentences import heading_of
from app.research.caveat_shapes import (
    AVOIDED,
    against,
    defaulted,
    described,
    example,
    granted,
    neutral,
    plain,
    pointer,
    recommends,
)
from app.research.citations import claim_key, items, once
from app.research.rows import ok_items
from app.research.text import wording
from app.research.versions import history_row

__all__ = ["ASKS_CAUTION", "CAUTION", "HARM", "WARNING", "asked_harm", "caution_claims",
           "cautionary", "cautions", "unreassured", "warnings_found", "warns",
           "without_setting_names"]

CAUTION = re.compile(
    r"\b" + AVOIDED + r"\b|"
    r"\b(?:not|never|no longer|cannot|can't|don't|doesn't|won't|isn't|aren't|must|"
    r"(?:can|could|may|might|will|would|must|should|does|do|is|are|was|were)\s+only|"
    r"only\s+(?:if|when|whenever|in|on|for|with|within|after|before|once|while|where|by|from|"
    r"under|one|available|supported|works?|applies|apply|affects?|valid|allowed|possible)|"
    r"deprecated|deprecation|warn|warning|warnings|avoid|limit|limits|limited|limitation|"
    r"limitations|"
    r"fail|fails|failed|failure|error|errors|raise|raises|unless|however|beware|careful|"
    r"unsupported|caveat|caveats|risk|unsafe|lost|lose|loses|overwrite|overwritten|instead)\b",
    re.IGNORECASE,
)
"""Words of a limitation or warning: a caveat without one is a finding, not a caveat. "only" is
one where it restricts ("can only proxy HTTP", "only if", "only one"), not where it describes
(BIND's "Controls whether the server only adds records ... when they are required", the entry's
own summary, and "The only required argument to waitress-serve ..." were Caveats, trial 75).
"limited" is one ("The order between options and arguments is limited for chained commands.",
Click's critic's caveat, was none, and the Caveats said no limitation was found under an Answer
quoting it, trial 128, F2); "not limited to" is none (:data:`_IDIOM`)."""
_SETTING_NAME = re.compile(r"(?:^|(?<=[.;]\s))`?[\w.\-]+`? — (?=[^:;\n—]{1,40}:\s)")
"""A table row's name that is one identifier, before its first ``heading: cell``
(:func:`workers.sources.tables.row_sentence`: ``limit — default: 100.``): a setting's name,
whatever word it is. Prose led by a label ("Warning — the relay overheats ...") is no row: the
label stays."""


def cautions(text: str) -> bool:
    """Whether ``text`` says a word of caution (:data:`CAUTION`), a table row's one-identifier
    name left out: a rate limiter's ``limit — default: 100.`` row is a setting, not a
    limitation (it was once listed under Caveats); a row named in words
    ("Maximum length of a string — Default: 1000000000") still states a limit.

    A row of an entry's version history (:func:`~app.research.versions.history_row`:
    "v7.0.0 — Changes: Runtime deprecation.") says what changed when, no caution.

    Example:
        >>> cautions("limit — default: 100. window_seconds — default: 60."), cautions(
        ...     "limit — default: 100; note: never above 1000.")
        (False, True)
        >>> cautions("Warning — the relay overheats above 40 degrees.")
        True
        >>> cautions("v15.4.0 — Changes: No longer experimental.")
        False
        >>> cautions("If this option is not specified, the time defaults to 90 days.")
        False
        >>> cautions("-quiet — Description: suppress all warning messages.")
        False
        >>> cautions("It might be faster: it is possible to limit the search to the buffer's end.")
        False
        >>> cautions("In general, this fixes the problem and should not be an issue for most.")
        False
        >>> cautions("Compression may limit throughput to 10 MB/s on older CPUs.")
        True
        >>> cautions("max_redirects (int) – Limit for follow_redirects, default 5.")
        False
        >>> cautions("Each line holds more, including, but not limited to, the timers.")
        False
        >>> cautions("The order of options and arguments is limited for chained commands.")
        True
        >>> cautions("A secret key must also be provided."), cautions(
        ...     "A secret key must also be provided, or the cookies are silently dropped.")
        (False, True)
        >>> cautions("Nor does it inherit any of the performance limitations of the query.")
        False
    """
    said = described(plain(without_setting_names(text)))
    said = _MESSAGES.sub(" ", _DEFAULT_CLAUSE.sub(" ", said))
    said = granted(neutral(_LIMIT_OFFERED.sub(" ", _LIMIT_NAMED.sub(" ", said))))
    said = unreassured(_IDIOM.sub(" ", said))
    said = said if _CONSEQUENCE.search(said) else _STEP.sub(" ", said)
    return (not history_row(text) and not example(text) and not pointer(text)
            and not recommends(text) and bool(CAUTION.search(said)))


def unreassured(text: str) -> str:
    """``text`` less a reassurance (:data:`_REASSURING`: "this should not be an issue for most
    users"), unless a contrast follows it ("... is not a problem for reads, but concurrent
    writers corrupt the spool": a warning, trial 103, F4).

    Example:
        >>> unreassured("So this should not be an issue for most users.")
        'So this   for most users.'
        >>> unreassured("A key name, though it need not be hierarchical; thus, a.b is one.")
        'A key name, though it   be hierarchical; thus, a.b is one.'
    """
    return _REASSURING.sub(lambda m: m.group(0) if _CONTRAST.search(text, m.end()) else " ",
                           text)


_DEFAULT_CLAUSE = re.compile(
    r"\b(?:if|when)\s+(?:this|that|the|it|no|none)\b[^,.;:]{0,60}?\b(?:is|are)\s+not\s+"
    r"(?:specified|given|set|provided|supplied|present|passed|configured)\b", re.IGNORECASE)
"""A clause that says when a default applies ("If this option is not specified, the
expiration time is taken from gc.reflogExpire, which in turn defaults to 90 days."): its "not"
is no caution (trial 53 found the sentence under Caveats, beside the Answer it repeats)."""


_LIMIT_OFFERED = re.compile(r"\b(?:to|you\s+(?:can|could|may)|can(?:\s+also)?)\s+limit\b",
                            re.IGNORECASE)
""""Limit" as what a thing lets one do ("it is possible to limit the search to the end of the
buffer"): a feature, not a limitation (pexpect's expect_exact, trial 102, F6), as what it can
do ("The Exim daemon can limit the number of simultaneous incoming connections", a Caveat of
Exim's connection question, trial 117, F8); "compression may limit throughput" is one (trial
103, F3)."""

_NEGATED = (r"(?:(?:should|will|would|does|do|is|are|need)\s+not|shouldn't|won't|wouldn't|"
            r"isn't|doesn't|don't)")
_REASSURING = re.compile(
    rf"\b{_NEGATED}\s+(?:be\s+)?(?:an?\s+)?(?:issue|problem|concern)\b"
    rf"|\b(?:you|users?|people|we|one)\s+(?:\w+\s+)?{_NEGATED}\s+(?:ever\s+)?(?:see|notice|"
    r"encounter|experience|run\s+into|have\s+to\s+worry)\b"
    r"|\b(?:(?:should|will|would|do|does|shall)\s+)?(?:never|not)\s+(?:ever\s+)?need(?:s|ed)?\b"
    r"|\bneed\s+not\b|\bneedn't\b|\bonly\s+(?=(?:used|needed|useful|relevant)\s+(?:in|by|for|"
    r"with)\s+(?:a\s+)?(?:very\s+)?(?:few|rare|some|special|unusual)\b)"
    r"|\b(?:(?:blank|empty|comment)\s+lines?|comments?|whitespace)\b(?:[^.;]|\.(?=\S)){0,40}?\b(?:is|are)\s+"
    r"(?:silently\s+)?ignored\b", re.IGNORECASE)
"""A reassurance ("this should not be an issue for most users", "so you should not see
them"): its "not" is no caution (pexpect's delaybeforesend note was the Caveat of "What is
delaybeforesend?", trial 102, F6; Valgrind's suppressions, trial 107, R8); nor is a need
denied ("Most users will never need to restart the daemon by hand.", "you should never need
it") or a rare use ("This is only used in very few tests"; both were Caveats, trial 113), nor
what is meant to be ignored ("Blank lines and comment lines ... are silently ignored.", the
only Caveat of a reload question, trial 116, F6; "Unknown options are silently ignored" is
one). Not seeing is the reader's reassurance only: "The daemon does not notice when the
destination disk fills up" is a limitation (trial 113)."""
_CONTRAST = re.compile(r"\b(?:but|unless|except|however|although|though|whereas|while|yet|if|"
                       r"when|provided|as\s+long\s+as|so\s+long\s+as)\b|"
                       r";(?!\s*(?:thus|so|hence|therefore|e\.g\.|i\.e\.)\b)",
                       re.IGNORECASE)
"""A contrast or a condition after a reassurance keeps its caution: "Interrupting a transfer is
not a problem if --partial is set." warns of what happens without it (trial 113). One before
it does not ("The keyword key is followed by a key name, which must be a valid domain name,
though it need not actually be hierarchical; thus, ...", BIND's, a Caveat of a TSIG question,
trial 118, F4), nor a semicolon that draws a conclusion ("; thus, ...")."""


_MESSAGES = re.compile(r"\b(?:warning|error)s?\s+messages?\b", re.IGNORECASE)
"""The messages a program prints, named as a thing an option handles ("-quiet: suppress all
warning messages", "-regard-warnings: pay attention to warning messages"): no caution (trial
72 found both under an ImageMagick report's Caveats)."""


_LIMIT_NAMED = re.compile(
    r"^\W*(?:`?[\w.\-]+(?:=?`*<[^<>\s]{1,30}>`*)?`?\s*(?:\([^()]{0,40}\))?\s*[–—:-]\s*)?"
    r"(?:the\s+|a\s+)?(?:(?:upper|maximum|max|hard|soft)\s+)?limits?(?=\s+(?:for|on|of|to|"
    r"the|\w+ing)\b)", re.IGNORECASE)
""""Limit" naming what a setting is or does, at the start of its entry's description
("max_redirects (int) – Limit for follow_redirects, default 5."; "--depth=<depth>: Limit
fetching to the specified number of commits", git's, trial 121, F5): the setting, not a
limitation (a neighbour entry's default was the Caveat of Tornado's "What is the default
request_timeout of HTTPRequest?", trial 113)."""
_IDIOM = re.compile(r"\b(?:but\s+)?not\s+(?:limited|restricted)\s+to\b|\bnot\s+only\b|"
                    r"\bwhether\s+or\s+not\b|\bif\s+not\s+all\b|"
                    r"\b(?:what|which)\s+(?:\w+\s+){1,2}?must\b", re.IGNORECASE)
"""Idioms whose "not" limits nothing: HAProxy's "each log line turns into a much richer format
including, but not limited to, the HTTP request, ..." (what ``option httplog`` does) was the
Caveat of "What does option httplog do?" (trial 113); nor does a "must" in an indirect
question, which tells where a requirement is stated (Apache's "... will contain an Override
section, specifying what value must be in AllowOverride ...", a Caveat of "Why are my
.htaccess files being ignored?", trial 113)."""
_STEP = re.compile(r"\bmust\b(?!\s+(?:not|never|only|(?:\w+\s+)?be\s+avoided)\b|n't)", re.I)
"""A requirement: a step of a task, what one must also provide ("A secret key must also be
provided.", of HAProxy's "enable dynamic-cookie", a Caveat of a cookie persistence question,
trial 113), or a rule of syntax ("If the address list contains white space, it must be enclosed
in quotes.", "... a key name, which must be a valid domain name", Exim's and BIND's, trial 117,
F8; trial 118, F4): a requirement is a caveat when it says what happens without it
(:data:`_CONSEQUENCE`), or forbids ("must not", "must be avoided") or restricts ("must only")."""
_CONSEQUENCE = re.compile(r"\b(?:otherwise|or\s+else|else|silently|ignored|before|after|"
                          r"unless|only|to\s+(?:fully|properly|correctly|reliably)\s+work|"
                          r"or\s+(?:later|newer|higher|above)|at\s+least\s+(?:version\s+)?v?\d)\b|"
                          r",\s*or\b", re.IGNORECASE)
"""What happens without a requirement, what it is needed for working at all ("To fully
work, rsyslogd must run while the file is rotated.", rsyslog's imfile, trial 118), or the
least version it needs ("Clients must use quill 1.4 or later to connect over TLS.", trial 120,
F8): then it is a caveat."""


def without_setting_names(text: str) -> str:
    """``text`` without the one-identifier names of its table rows (``limit — ``, ``warning —
    ``): what a row says, not what its setting is called, tells what kind of sentence it is.

    Example:
        >>> without_setting_names("warning — default: on. limit exceeded — meaning: full.")
        'default: on. limit exceeded — meaning: full.'
    """
    return _SETTING_NAME.sub("", text)
ASKS_CAUTION = re.compile(
    r"\b(?:limitations?|caveats?|warnings?|pitfalls?|deprecat\w*|drawbacks?|risks?|gotchas?)\b",
    re.IGNORECASE,
)
"""A sub-question asking for caveats: its section shows its cautionary claims first."""
WARNING = re.compile(
    r"^\W*(?:caution|warning|danger|important|deprecated)\s*:|^\s*(?:\u26a0|\U0001f6a8|\u2757|"
    r"\u26d4|\U0001f6d1)|^\s*!!!\s*(?:warning|danger|"
    r"caution|deprecated)\b|\b(?:in\s+beta|beta\s+(?:feature|release|version|api)s?|experimental|"
    r"deprecated|at\s+your\s+own\s+risk|"
    r"(?:may|might|is\s+subject\s+to|are\s+subject\s+to)\s+change)\b|"
    # advice against ("is not recommended", "should never"), a harm it may cause, a risk
    r"^\W*(?:do\s+not|don't|never)\s+(?!mind\b)\w|"  # "Do not enable debug mode in production."
    r"\b(?:not\s+(?:be\s+)?recommended|(?:strongly\s+)?discouraged|should\s+(?:not|never)|"
    r"recommended\s+not\s+to|watch\s+out|be\s+careful|" + AVOIDED + r"|"
    r"(?:may|might)\s+(?:want|wish)\s+to\s+avoid|"
    r"in\s+no\s+(?:event|case)\s+should|"
    r"(?:may|might|can|could|will)\s+(?:\w+\s+){0,2}?(?:cause|result\s+in|lead\s+to)\s+"
    r"(?:\w+\s+){0,3}?(?:problems?|issues?|errors?|failures?|crash(?:es)?|corruption|"
    r"data\s+loss|deadlocks?|degradation|slowdowns?|denial\s+of\s+service|segfaults?|"
    r"segmentation\s+faults?)|"
    r"security\s+(?:risks?|holes?|problems?|issues?|vulnerabilit(?:y|ies))|"
    r"(?:is|are)\s+(?:unsafe|insecure|dangerous)|"
    # a failure that goes unnoticed: the program does not see it, or says nothing of it
    r"(?:(?:does|do|will|would|can)\s+not|doesn't|don't|won't|cannot|can't)\s+(?:\w+\s+)?"
    r"(?:notice|detect)|silently\s+(?:ignor|drop|discard|truncat|overwrit|fail|lost)\w*|"
    r"(?:is|are)\s+(?:(?:then|simply)\s+)?(?:left\s+empty|silently\s+\w+))\b",
    re.IGNORECASE,
)
"""A warning whoever quoted it: a sentence labelled as one ("Caution: ...", ``!!! warning``, a
warning sign: ⚠ 🚨 ❗ ⛔ 🛑), one that says its subject is unstable ("in beta", "may change"),
advises against something ("is not recommended", "should not", "recommended not to", "Do not
...": Flask's "Do not enable debug mode when deploying in production." led "How do I enable
DEBUG?", "Watch out!": Sphinx's "Watch out! This operation overwrites translations" was a finding
beside "No limitations or warnings were found", trial 81, F6; "you may want to avoid", "is best
avoided": bup's "you may want to avoid this option if you're paranoid" stood in an Answer above
the same words, trial 96, F1), or names a harm or a risk it may bring ("may cause performance
problems", "a security risk"), or a failure that goes unnoticed ("The daemon does not notice when
the destination disk fills up, and the last files it wrote are left empty.", "is silently
ignored": a plain Finding of the hostile folder F's reload question, whose only Caveat was "Most
users will never need to restart the daemon by hand.", trial 113). A reader of the
passages may quote it as a finding; the report lists it under Caveats all the same, and an
Answer quotes it after the answer (Caveats said "No limitations or warnings were found"
under a quoted "Caution:" and a method "in beta" that "may change", and under "Setting X to
a high value may cause performance problems" leading the Answer, and "... is not recommended"
among the findings)."""


HARM = re.compile(
    r"\b(?:crash\w*|security|insecure|vulnerab\w*|exploit\w*|cve|corrupt\w*|deadlock\w*|"
    r"leak\w*|overflow\w*|disclos\w*|denial|limit\w*|deprecat\w*|fail\w*|errors?|"
    r"unsupported|unsafe)\b", re.IGNORECASE)
"""Words of a harm or a limit a question may ask about ("Which release fixed the *security*
hole where a file could *crash* a worker?", "Which setting *limits* how large a request body
may be?"): the words a warning or a caveat names it by."""


def asked_harm(question: str, text: str) -> bool:
    """Whether ``text`` names a harm or a limit (:data:`HARM`) that ``question`` asks about:
    then a :data:`WARNING` or a caveat it states is the answer, not a caveat beside it (the
    changelog entry of the crash asked about was listed under Caveats, and the Answer gave
    another release's entry; "The LimitRequestBody directive allows the user to set a limit
    on ..." was a caveat of "Which setting limits how large ...?").

    Example:
        >>> asked_harm("Which release fixed the crash?", "A crafted file might cause a crash.")
        True
        >>> asked_harm("What does mp4 do?", "A crafted file might cause a crash.")
        False
    """
    asked = {m.group(0).lower()[:4] for m in HARM.finditer(question)}
    return (bool(asked) and any(m.group(0).lower()[:4] in asked for m in HARM.finditer(text))
            or against(question, text))  # "Why shouldn't I X?": "you should not X"


def warns(text: str) -> bool:
    """Whether ``text`` is a warning (:data:`WARNING`): not an example's scenario
    (:func:`example`), nor a pointer, nor what a shape of sentence says without caution
    (:mod:`app.research.caveat_shapes`, trial 114, F6; trial 115, F10). The same test tells
    whether the Answer quoted a warning: "The Answer above quotes the only limitations or
    warnings found" stood under an Answer that quoted none (trial 123, F9).

    Example:
        >>> warns("Setting it high may cause performance problems.")
        True
        >>> warns("See the TLS README, which explains what should not be logged.")
        False
    """
    return (bool(WARNING.search(unreassured(defaulted(plain(text)))))
            and not example(text) and not pointer(text) and not recommends(text))


def warnings_found(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The findings of ``rows`` that are warnings (:func:`warns`), each claim once."""
    return [f for f in items(rows, None, "finding") if warns(str(f["text"]))]


def caution_claims(rows: Sequence[dict[str, Any]]) -> set[str]:
    """The claims (their :func:`app.research.text.wording`: a copy in another document is the
    same claim) of the caveats that state a
    limitation or warning: in words of caution (:data:`CAUTION`), or under a heading that names
    one (``## Known limitations``) in their passage, as the run's passages show it; and of the
    findings that are warnings (:func:`warnings_found`)."""
    texts = {item["ref"]: str(item.get("text") or "") for _row, item in ok_items(rows)
             if item.get("kind") == "passage" and item.get("ref")}
    return {wording(claim_key(c)[0]) for c in items(rows, None, "caveat")
            if cautions(c["text"])
            or ASKS_CAUTION.search(heading_of(texts.get(c["ref"], ""), c["text"]))
            } | {wording(claim_key(f)[0]) for f in warnings_found(rows)}


def cautionary(found: list[dict[str, Any]], claims: set[str],
               cited: Collection[str] = ()) -> list[dict[str, Any]]:
    """The items of ``found`` that state a limitation or warning (:func:`cautions`, or one of
    the run's cautionary ``claims``, :func:`caution_claims`), each claim once: of its copies in
    several documents, the one of a document in ``cited`` (:func:`app.research.citations.once`)."""
    return once([item for item in found if wording(claim_key(item)[0]) in claims
                 or cautions(item["text"])], cited=cited)
