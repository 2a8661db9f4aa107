"""Shapes of a sentence whose words of caution caution nothing (:mod:`app.research.caveats`):
a pointer to another text, a default stated with how to change it, an indirect question
naming what a setting lists, a setting's own description. Each was listed under a report's
Caveats (trial 114, F6, on Postfix's and Click's manuals; trial 115, F10, on zsh's)."""

from __future__ import annotations

import re

from app.llm.offline.words import stems

__all__ = ["AVOIDED", "against", "defaulted", "described", "example", "granted", "neutral",
           "plain", "pointer", "recommends"]

_POINTER = re.compile(
    r"^\W*(?:(?:for\s+(?:more|further|details|examples?|information)\b[^,.;:]{0,60},\s*)?"
    r"(?:see|refer\s+to|consult|read)\s|see\s+also\b)", re.IGNORECASE)
"""A sentence that sends the reader elsewhere ("See RFC 2606 for examples of domain names that
are guaranteed not to be owned by anyone.", "For details, see the TLS README."): what it says
of the other text is no limitation of this one."""

_DEFAULT_STATE = re.compile(
    r"\bby\s+default\b,?\s+[^,.;:]{0,60}?\b(?:is|are)\s+not\b|"
    r"\bhowever,?\s+(?=to\s+\w+|if\s+you\s+(?:want|wish|need)\b|you\s+can\b)", re.IGNORECASE)
"""A default told with how to change it ("By default, options are not required, however to
make an option required, simply pass in required=True ...": Click's answer to making an option
required, listed as its Caveat, trial 114, F6): its "not" is the default, its "however" the
turn to the task."""

_WHAT_IS_LISTED = re.compile(
    r"\b(?:specif(?:y|ies|ied)|lists?|controls?|determines?|selects?|says?|tells?|decides?)\s+"
    r"(?:what|which)\s+(?:\w+\s+){1,3}?(?:should|must|may|can|will|do|does|is|are)"
    r"(?:\s+not|n't)\b", re.IGNORECASE)
"""An indirect question naming what a setting lists ("The masquerade_exceptions configuration
parameter specifies what user names should not be subjected to address masquerading.", the
Caveat of Postfix's "What is address masquerading?", trial 114, F6): it tells what the
setting holds, no warning."""

_WITHIN = re.compile(r"\b(?:within|inside|between)\s+(?:the|its|their|these|those|set)\s+"
                     r"(?:\w+\s+)?limits?\b", re.IGNORECASE)
"""A range a value keeps to ("adjusting up or down to lie within the limits", how Postfix
sets its next retry time, the Caveat of "How long does Postfix keep retrying a message?" once
bounce_queue_lifetime's description no longer was, trial 114, F6): no limitation."""

_ENTRY_HEAD = re.compile(r"^\W*`?[\w.\-]+`?\s*\([^()]{1,40}\)\s*[–—:-]?\s*")
"""A reference entry's head: a setting's name and its default or type in parentheses
(postconf(5)'s "bounce_queue_lifetime (5d) Consider a bounce message as undeliverable, when
delivery fails ...")."""
_SUBJECT_WORDS = re.compile(r"\b(?:fail|fails|failed|failure|failures|error|errors|limit|"
                            r"limits|raise|raises|lost|lose|loses)\b", re.IGNORECASE)
"""Words that, in an entry's description, name what its setting governs (a failure it
handles, the limit it is): the Caveat of "How long does Postfix keep retrying a message?" was
bounce_queue_lifetime's own description, the closest thing to its answer (trial 114, F6)."""

_ABSENT = re.compile(
    r"^\W*(?:if|when)\s+(?:no\s+[^,.;:]{0,40}?\b(?:is|are)|(?:this|that|the|it)\b[^,.;:]{0,60}?"
    r"\b(?:is|are)\s+not)\s+(?:specified|given|set|provided|supplied|present|passed)\b"
    r"[^,.;:]{0,40},", re.IGNORECASE)
"""A sentence opening with what happens when nothing is given ("If no arguments are
specified, the history list is left empty ...", zsh's ``fc -p``, a Caveat of "What is
SAVEHIST?", trial 115, F10): what it then says is the default, left empty by the user's own
choice, no failure unnoticed."""
_LEFT_EMPTY = re.compile(r"\b(?:is|are)\s+(?:(?:then|simply)\s+)?left\s+empty\b", re.IGNORECASE)
_SCENARIO = re.compile(r"^\W*(?:(?:for\s+(?:example|instance)|e\.g\.|as\s+an\s+example),?\s+)?"
                       r"(?:suppose|imagine|let's\s+say|say\s+that|assume)\b", re.IGNORECASE)
"""An example that sets up a scenario ("For example, suppose ..."): an example, whatever harm
its scenario names."""


def example(text: str) -> bool:
    """Whether ``text`` sets up an example's scenario (:data:`_SCENARIO`: "For example, suppose
    the Markdown text for a page should not contain any headers higher than level 3", a Caveat
    of Python-Markdown's "What is the default baselevel of the toc extension?", trial 113): its
    "should not" is what the example supposes, no warning. An example that states a limitation
    ("For instance, the flag is not supported on Windows.") is one.

    Example:
        >>> example("For example, suppose the text should not contain any headers.")
        True
        >>> example("For instance, the flag is not supported on Windows.")
        False
    """
    return bool(_SCENARIO.match(text))


def pointer(text: str) -> bool:
    """Whether ``text`` points the reader to another text (:data:`_POINTER`).

    Example:
        >>> pointer("See RFC 2606 for examples of domain names that are guaranteed not to be "
        ...         "owned by anyone.")
        True
        >>> pointer("For details, see the TLS README."), pointer("Seeding is not supported.")
        (True, False)
    """
    return bool(_POINTER.match(text))


def plain(text: str) -> str:
    """``text`` less the words of caution that, in its shape, caution nothing: a default and
    the turn to changing it (:data:`_DEFAULT_STATE`), an indirect question's negation
    (:data:`_WHAT_IS_LISTED`), a range kept to (:data:`_WITHIN`), the failure or limit an
    entry's description names (:data:`_SUBJECT_WORDS` after :data:`_ENTRY_HEAD`).

    Example:
        >>> plain("By default, options are not required, however to make it so, pass x.")
        '  required,  to make it so, pass x.'
        >>> plain("It specifies what user names should not be masqueraded.")
        'It   be masqueraded.'
        >>> plain("bounce_queue_lifetime (5d) Consider it undeliverable when delivery fails.")
        'bounce_queue_lifetime (5d) Consider it undeliverable when delivery  .'
    """
    said = _WITHIN.sub(" ", _WHAT_IS_LISTED.sub(" ", _DEFAULT_STATE.sub(" ", text)))
    return _SUBJECT_WORDS.sub(" ", said) if _ENTRY_HEAD.match(text) else said


def defaulted(text: str) -> str:
    """``text`` less what it says is left empty when it opens with what happens when nothing
    is given (:data:`_ABSENT`): then an empty result is the default, no warning.

    Example:
        >>> defaulted("If no arguments are specified, the history list is left empty.")
        'If no arguments are specified, the history list  .'
        >>> defaulted("The last files it wrote are left empty.")
        'The last files it wrote are left empty.'
    """
    return _LEFT_EMPTY.sub(" ", text) if _ABSENT.match(text) else text


_STATED_DEFAULT = re.compile(r"^\W*by\s+default\b|\bno\s+(?:upper\s+|size\s+|hard\s+)?limits?\b",
                             re.IGNORECASE)
"""A sentence that states a default ("By default, each view has its own separate cache, ...
(unless the attach-cache option is used)") or a value that places no limit ("The keyword
unlimited, or the value 0, places no limit on the cache size; records are then purged from the
cache only when they expire"): both were the Caveats of BIND's "What is the default
max-cache-size?" (trial 118, F4)."""
_CONDITION_WORDS = re.compile(r"\b(?:not|only|unless|no\s+limits?)\b|n['’]t\b", re.IGNORECASE)
"""What a default's or a limitless value's sentence says of when it holds: no caution. A harm
it names ("so a restart loses every entry") still is one."""
_NOT_LISTED = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bwas )(?<!\bwere )(?<!\bbeen )\bnot\s+"
    r"(?:listed|named|mentioned|matched|covered)\s+(?:in|by)\b", re.IGNORECASE)
"""A set named by what is not in a list ("any command name not listed in allow_commands must
contain no slashes", Exim's pipe transport, a Caveat of its timeout question, trial 117, F8):
no limitation; "is not listed in the index" says something is missing, and stays."""
_NEVER = re.compile(r"\b(\w+)(\s+)never\b", re.IGNORECASE)
_MODAL = frozenset("must should can could will would shall may might".split())
"""A "never" after a modal ("must never", "should never", "will never") forbids or warns; after
a noun or "is" it describes what a thing does ("Field content is never returned.", "If it isn't,
these items never touch the disk.", "For TCP servers, this lookup was never done", rsyslog's,
trial 118, F4); a sentence opening "Never ..." forbids."""


def described(text: str) -> str:
    """``text`` less the words of caution that, in a description, caution nothing: the
    conditions of a stated default or of a value that places no limit
    (:data:`_STATED_DEFAULT`), a set named by what a list leaves out (:data:`_NOT_LISTED`), a
    "never" that describes (:data:`_NEVER`). A caveat is a limitation, a warning, a pitfall
    or a deprecation, not a default or what a thing does (trial 118, F4).

    Example:
        >>> described("Field content is never returned."), described("You must never do it.")
        ('Field content is  returned.', 'You must never do it.')
        >>> described("By default, it is not kept, so a restart loses it.")
        'By default, it is   kept, so a restart loses it.'
        >>> described("Any name not listed in allow_commands must be absolute.")
        'Any name   allow_commands must be absolute.'
        >>> described("The name is not listed in the index.")
        'The name is not listed in the index.'
    """
    said = _NOT_LISTED.sub(" ", text)
    said = _NEVER.sub(lambda m: m.group(0) if m.group(1).lower() in _MODAL
                      else m.group(1) + m.group(2), said)
    return _CONDITION_WORDS.sub(" ", said) if _STATED_DEFAULT.search(said) else said


_QUOTED_VALUE = re.compile(r'"[^"\n]{1,30}"|“[^”\n]{1,30}”|`+[^`\n]{1,30}`+')
"""A value named in quotes ('The value "now" expires all entries immediately, and "never"
suppresses expiration altogether.', git's gc.reflogExpire, its report's only Caveat, trial 121,
F5): the value's name, whatever word it is ("never", "error", "deny"), cautions nothing."""
_NEUTRAL = re.compile(
    r"^\W*however\b"  # a turn from a sentence not shown: what follows says what it says
    r"|(?:^\W*|(?<=[:;.]\s))instead(?=\s+of\b)"  # what a thing does in place of another
    r"|\b(?:(?:does|do|did|will|would)\s+not|doesn't|don't|won't)\s+(?:(?:\w+ly|even)\s+)?"
    r"(?:require\b"  # a need denied: no requirement
    r"|(?:mean\s+(?:much|anything)|matter(?:\s+much)?)\b(?:\s+(?:if|when|whether)\b[^,;.]*)?)",
    re.IGNORECASE)
"""Phrases whose word of caution cautions nothing (trial 121, F5, on git's and Flask's
manuals): a sentence opening with "However," turns from one the reader does not see ("However,
in both work trees the line endings would be consistent, ... but never mixed."); "Instead of"
opening a description says what a thing does in place of another ("--mirror: Instead of naming
each ref to push, specifies that all refs ... be mirrored"); a need denied ("It is easy to
install as it does not require additional dependencies"); an indifference and its condition
("It does not mean much if the repository is not associated with any working tree"). What
the rest of the sentence says still counts ("However, the file does not shrink.")."""


def neutral(text: str) -> str:
    """``text`` less the words of caution that caution nothing: a value named in quotes
    (:data:`_QUOTED_VALUE`), an opening "However," or "Instead of", a need denied, an
    indifference and its condition (:data:`_NEUTRAL`). A caveat is a limitation or a warning,
    not what a value or a thing does (trial 121, F5).

    Example:
        >>> neutral('The value "never" suppresses expiration.')
        'The value   suppresses expiration.'
        >>> neutral("However, the lines would be consistent."), neutral(
        ...     "However, the file does not shrink.")
        (' , the lines would be consistent.', ' , the file does not shrink.')
        >>> neutral("--mirror: Instead of naming each ref, pushes all."), neutral(
        ...     "Use pathlib instead of os.path.")
        ('--mirror:   of naming each ref, pushes all.', 'Use pathlib instead of os.path.')
        >>> neutral("It does not require any compilation.")
        'It   any compilation.'
        >>> neutral("It does not mean much if the file is not there, but it must exist.")
        'It  , but it must exist.'
    """
    return _NEUTRAL.sub(" ", _QUOTED_VALUE.sub(" ", text))


_LIMITS = (r"(?:(?:any|all|none)\s+(?:of\s+)?)?(?:(?:the|its|their|these|those|such)\s+)?"
           r"(?:[\w-]+\s+){0,2}?(?:limitations?|restrictions?|drawbacks?|downsides?|"
           r"penalt(?:y|ies)|overhead)\b")
_NO_LIMITS = re.compile(
    r"(?:\b(?:not|nor|never)|n't)\s+(?:\w+\s+){0,2}?(?:inherit|have|has|share|suffer\s+from|"
    r"suffers\s+from|impose|carry|carries|incur|bring|introduce)s?\s+" + _LIMITS
    + r"|\b(?:without|free\s+(?:of|from))\s+" + _LIMITS, re.IGNORECASE)
"""A limitation named as absent: "... does not require a subquery nor does it inherit any of
the performance limitations of the original query" (SQLAlchemy's selectin loading, listed
under Caveats, trial 123, F9), "without the restrictions of", "free of overhead": a plus,
no limitation. A limitation not removed ("does not remove the limitation") still is one."""
_ALTERNATIVE = re.compile(
    r"(?:^\W*|(?<=[,;:.]\s))(?:to\s+\w+|if\s+you\s+(?:want|wish|need|prefer)\b)[^,.;:]{0,60},"
    r"\s*(?:\w+\s+)?(?:use|set|pass|call|choose|specify|select|try)\b[^.;:]{0,80}?\binstead\b",
    re.IGNORECASE)
"""Another way, told for another purpose: "With QueuePool, a pool_size setting of 0 indicates
no limit; to disable pooling, set poolclass to NullPool instead." (create_engine's pool_size,
whose "instead" had the Caveats say the Answer quoted the only warnings found, trial 123, F9):
its "instead" names what to use for that purpose, no caution."""


def granted(text: str) -> str:
    """``text`` less the words of caution that grant rather than limit: a limitation named as
    absent (:data:`_NO_LIMITS`), the "instead" of another way for another purpose
    (:data:`_ALTERNATIVE`). A caveat is a limitation or warning, not what a thing is spared,
    nor how to do another thing (trial 123, F9).

    Example:
        >>> granted("It does not require a join nor does it inherit any of the limitations.")
        'It does not require a join  .'
        >>> granted("It runs without the restrictions of the old loader.")
        'It runs   of the old loader.'
        >>> granted("It does not remove the limitation on joins.")
        'It does not remove the limitation on joins.'
        >>> granted("0 means no limit; to disable pooling, set poolclass to NullPool instead.")
        '0 means no limit; to disable pooling, set poolclass to NullPool  .'
        >>> granted("Use the new API instead, as the old one is not thread-safe.")
        'Use the new API instead, as the old one is not thread-safe.'
    """
    said = _NO_LIMITS.sub(" ", text)
    return _ALTERNATIVE.sub(lambda m: m.group(0)[:-len("instead")] + " ", said)


_RECOMMENDED = re.compile(
    r"^\W*(?:(?:and|so|but|also|then)\s+)?(?:(?:(?:more|most|very|also)\s+)?(?:importantly|"
    r"crucially|above\s+all|ideally|preferably)\s*[,:\u2013\u2014-]?\s*(?:you\s+should\s+)?"
    r"(?:set|use|pass|call|enable|configure|add|specify|install|apply|prefer|switch|turn\s+on|"
    r"give|supply|provide|register|make\s+sure|ensure|consider)\b"
    r"|set\s+`?[\w.\-]+`?\s+to\s)", re.IGNORECASE)
"""A recommendation: what to do, stressed ("And importantly, set expire_on_commit to False -
When using detached objects, ... This expiration should not be used when dealing with detached
objects; ...", SQLAlchemy's, the Caveat of "How do I avoid errors from lazy loading when using
the async session?", the fix it asked for, trial 123, F9), or a value to set ("Set
pool_pre_ping to True."): its reasons' "should not" is the advice, no caveat beside it."""
_STILL_WARNS = re.compile(
    r"\b(?:otherwise|or\s+else|unsupported|(?:not|never)\s+(?:supported|safe|work)|unsafe|"
    r"insecure|cannot|can't|only|crash\w*|corrupt\w*|data\s+loss|lost|lose|loses|fail\w*|"
    r"errors?|deprecat\w*|security)\b", re.IGNORECASE)
"""What a recommendation warns of beside it: what happens if it is not followed ("or else",
"otherwise"), a harm, a limitation ("Set it to 0, or the daemon fails.")."""


def recommends(text: str) -> bool:
    """Whether ``text`` recommends what to do (:data:`_RECOMMENDED`) and warns of nothing
    beside it (:data:`_STILL_WARNS`): then it is a step of the task, not a caveat (trial 123,
    F9).

    Example:
        >>> recommends("And importantly, set expire_on_commit to False - Expiration should not "
        ...            "be used with detached objects.")
        True
        >>> recommends("Set pool_pre_ping to True."), recommends(
        ...     "Set pool_size to 0, or else the pool fails under load.")
        (True, False)
        >>> recommends("Importantly, do not call it twice."), recommends(
        ...     "Use the new API instead, as the old one is not thread-safe.")
        (False, False)
    """
    return bool(_RECOMMENDED.match(text)) and not _STILL_WARNS.search(text)


AVOIDED = (r"(?:(?:should|must|shall|ought\s+to|(?:is|are)\s+to)\s+(?:(?:also|always|still|"
           r"thus|then|generally|\w+ly)\s+)?be|(?:is|are)\s+(?:\w+ly\s+)?(?:best|better))"
           r"\s+avoided")
""""Avoid" in the passive after a modal ("should also be avoided", "must be avoided", "is to
be avoided") or "best" ("is best avoided"): advice against, as "should not" is (L2-F4 of trial
123: "X should also be avoided" was neither a warning nor a caveat). Not "can be avoided by
...", a way out, nor "is avoided", what a thing spares."""
_ASKS_AGAINST = re.compile(
    r"^\W*why\s+(?:(?:should|must|shall)\s*n[o']t|(?:should|must)\s+(?:i|we|you|one)\s+"
    r"(?:not|never|avoid)|(?:is|are)\s+(?:\w+\s+){0,6}?(?:not\s+recommended|discouraged|a\s+bad\s+"
    r"idea))\b", re.IGNORECASE)
"""A question asking why not to do a thing ("Why shouldn't I use the built-in server in
production?", "Why is X not recommended?"): the advice against it is its answer."""
_ADVISED_AGAINST = re.compile(
    r"\b(?:(?:should|must)\s+(?:not|never)|shouldn't|mustn't|not\s+(?:be\s+)?recommended|"
    r"discouraged|" + AVOIDED + r")\b|(?:^|[.;:]\s+)(?:do\s+not|don't|never|"
    r"avoid)\s+\w", re.IGNORECASE)
"""Advice against ("you should not use", "These should not be used", "Do not use")."""
_NOT_CONTENT = frozenset("why should must shall not never avoid".split())


def against(question: str, text: str) -> bool:
    """Whether ``text`` advises against (:data:`_ADVISED_AGAINST`) what ``question`` asks why
    not to do (:data:`_ASKS_AGAINST`), naming two of its words: then the advice is the
    answer, not a caveat beside it. Asked "Why shouldn't I use the built-in server in
    production?", Flask's "When running publicly rather than in development, you should not
    use the built-in development server (flask run)." was listed under Caveats (trial 121, F5).

    Example:
        >>> q = "Why shouldn't I use the built-in server in production?"
        >>> against(q, "You should not use the built-in server when deploying.")
        True
        >>> against(q, "Do not enable the debugger."), against(
        ...     "What does the built-in server do?", "You should not use the built-in server.")
        (False, False)
    """
    shared = (stems(question) & stems(text)) - _NOT_CONTENT
    return (bool(_ASKS_AGAINST.match(question)) and len(shared) >= 2
            and _ADVISED_AGAINST.search(text) is not None)
