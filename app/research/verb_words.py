"""The verbs a technical question starts with, and those of them also used as nouns: the
closed vocabulary :mod:`app.research.phrasing` reads an instruction by ("customise the
serialiser": a verb and its object; "retry policy": a noun phrase). Pure data.
"""

from __future__ import annotations

__all__ = ["ALSO_NOUNS", "VERBS"]

# Verbs a technical question starts with (the imperative "customise the serialiser"); those
# also used as nouns ("retry policy", "stream modes") start a verb phrase only before an object.
VERBS = frozenset(
    """accept access add adjust allow append apply attach avoid block build bump cache call
    cancel change check choose clean clear clone close collect combine compare compile compute
    configure connect convert copy count create customise customize debug declare decode define
    delete deploy detect disable discard dispatch display draw drop edit embed emit enable
    enclose encode ensure enforce evaluate exclude execute exit expand export expose extend
    extract fetch fill filter find fix flush force format forward free generate get give grant
    group handle hide ignore implement import include increase inject insert inspect install
    interrupt invoke join keep kill label launch limit link list load lock log make manage map
    mark measure merge migrate mock modify monitor mount move name normalise normalize notify
    open order override paint parse pass patch pause persist pick place plot populate prevent
    print process produce protect pull push put query raise read rebuild receive record recover
    reduce refresh register reject release reload remove rename render reorder repeat replace
    replay reply request require reset resize resolve restart restore restrict resume retrieve
    retry return reuse revert rotate round route run sample save scale schedule search select
    send serialise serialize set shade share show shrink shut skip sort specify split start
    stop store stream subclass submit subscribe supply suppress swap switch sync tell test
    throttle time trace track train transform translate trigger trim truncate tune turn type
    undo unlock unregister unset update upgrade upload use validate verify view wait watch wrap
    write yield""".split())
ALSO_NOUNS = frozenset(
    """access cache call change check compare count display drop exit export fill filter find
    fix format group import interrupt label limit link list lock log map mark mock name order
    paint patch pause pick place plot print process query raise record reply request reset
    resize restart resume retry return round route run sample scale schedule search set shade
    show sort split start stop store stream subclass swap switch sync test time trace track
    train transform trigger trim turn type undo update upgrade upload use view wait watch wrap
    yield""".split())
