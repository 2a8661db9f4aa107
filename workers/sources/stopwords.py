"""The words a search never looks for: English function words (:data:`STOPWORDS`) and the
words of how people ask (:data:`FILLER_WORDS`). Plain data; the standard library only."""

from __future__ import annotations

__all__ = ["FILLER_WORDS", "MANNER_WORDS", "STOPWORDS"]

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either else etc
    every few for from further had has have having he her here hers herself him himself his how i
    if in into is it its itself just let like me more most my myself no nor not of off on once only
    or other our ours ourselves out over own per same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up us very
    via was we were what when where which while who whom why will with within would yet you your
    yours yourself yourselves
    anybody anyone anything anywhere everybody everyone everything everywhere nobody nothing
    nowhere somebody someone something somewhere whatever whenever wherever whichever whoever
    whole entire
    versus vs
    whose whereby wherein whereas whilst thus hence therefore upon onto toward towards among amongst
    """.split()
)
"""English function words: never searched for, never counted as a topic's content. "vs" and
"versus" join a comparison as "and" does ("Send vs reducers" was warned: no passage says "vs").
The three lines before them are the indefinite pronouns and adverbs, and "whole" and "entire",
which say "all of it" as "all" and "every" do: "paint *everything* outside a curve" is about
painting and curves, and no manual indexes the word "everything" (issue 19: such a word, in no
passage, made an on-topic question look like a near miss; Asymptote's manual never says
"whole", and "rotate the *whole* picture" was a paraphrase judged by it). Not "another": SQLite's
backup page says it ("copy a running database to *another* file"), and left out, the page was
no longer found (trial 81, measured on the eval). The
last line: a relative pronoun, linking words and prepositions ("a server *whose* certificate is
self-signed" was warned, as no passage of curl's docs says "whose", trial 63, F5); the words of
a condition or a concession ("unless", "although") are searched: rarer, they tell pages apart."""

FILLER_WORDS: frozenset[str] = frozenset(
    """
    able actually already always anymore anyway ask asked away back best better came
    come comes coming done e eg etc ever example examples exactly find found g get gets getting
    give given go goes going gone good got happen happened happens help ie instead keep kind
    know known lot make makes making many may maybe mean means meant might much must need
    needs now often one ones please possible probably put really rid right say says see seen seem
    seems show shows sometimes somehow sure take takes tell thing things think try
    trying turn turned turning turns use used uses using usually want wants way ways well
    whether work works working
    """.split()
)
"""Words of how people ask, not of what they ask about ("How does X *work*?", "where do I
*see*...", "what is *going* to happen", "get *rid* of", "not needed *anymore*"): a search drops
them from its query (issue 19: filler words decided what matched; aptitude's manual says
neither "rid" nor "anymore", and "How do I get rid of libraries that nothing needs anymore?"
was warned as off topic, trial 81, F4; "turn my definitions file into a C array" named
"turn" as a possible typo, trial 105, F9). Not stopwords: a topic's own words are judged with
those only."""

MANNER_WORDS: frozenset[str] = frozenset(
    """
    although almost beside besides beyond despite even except merely nevertheless never
    nonetheless perhaps quite rather simply somewhat still though unless unlike without
    """.split()
)
"""Adverbs and prepositions that say how a question is put, not what it is about ("Can pruning
delete snapshots I *still* need?", "upgrade quillsync *without* downtime"): searched (a passage
may say "without a restart"), but never a word a passage must mention to be on topic, nor a
word whose absence from the corpus makes a near miss. Counted, a manual that never says
"still" was said to say nothing about pruning (trial 116, F10)."""
