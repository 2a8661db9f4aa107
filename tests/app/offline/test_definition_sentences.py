"""A sentence saying what the asked thing is leads the offline analyst's findings, and leaves
room for the others (trial 107, R1: "Massif is a heap profiler." lost to a short sentence of
another page)."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import stems
from tests.app.offline.test_answer_sentences import _passage


def test_the_sentence_saying_what_the_asked_thing_is_comes_first() -> None:
    # Valgrind's ms-manual.html (trial 107, R1): "Massif is a heap profiler." opens a long quote
    # of its overview, and a short sentence of another page naming "Massif Format" scored more
    ranked = [
        (0, _passage("ms.html#1", "Massif is a heap profiler. It measures how much heap memory "
                     "your program uses. This includes both the useful space, and the extra bytes "
                     "allocated for book-keeping and alignment purposes.")),
        (1, _passage("core.html#192", "Different Massif Format file visualisers are available.")),
    ]
    [best] = select(candidate_sentences(ranked), stems("What is Massif?"), frozenset(), (1, 1),
                    set())
    assert best.text.startswith("Massif is a heap profiler."), best.text
    [best] = select(candidate_sentences(ranked), stems("Which Massif Format visualisers exist?"),
                    frozenset(), (1, 1), set())
    assert best.ref == "core.html#192"


def test_a_definition_leads_but_leaves_room_for_the_other_findings() -> None:
    # the DEFINES factor doubled the best score, and "at least half the best" then left out
    # every other finding (an MCP tool's answer beside the corpus's definition of the relay)
    ranked = [
        (0, _passage("relay.md#0", "The Zorblax relay is a courier protocol that moves glimmer "
                     "packets between the moon stations of the outer ring.")),
        (1, _passage("notes#0", "The field notes say that a zorblax relay forwards signals "
                     "for: What is zorblax relay? It also forwards the packets of every "
                     "station on the outer ring, each night.")),
    ]
    chosen = select(candidate_sentences(ranked), stems("What is zorblax relay?"), frozenset(),
                    (1, 5), set())
    assert [s.ref for s in chosen][:2] == ["relay.md#0", "notes#0"], [s.text for s in chosen]


def test_what_a_named_command_does_leads_over_short_side_remarks_naming_it() -> None:
    # Trial 115, F1 (gnuplot): "What does the fit command do?" had five shorter sentences
    # naming "fit" before node162's "The fit command fits a user-supplied real-valued
    # expression ...", which was left out; "The set fit command controls ..." led the Answer
    ranked = [
        (0, _passage("set-fit#0", "The set fit command controls the options for the fit "
                     "command.")),
        (1, _passage("fit-v5#7", "In version 5 the syntax of the fit command changed. The fit "
                     "may be interrupted by pressing Ctrl-C. FIT_NITER holds the number of "
                     "iterations of the last fit. The fit command terminated when it converged.")),
        (2, _passage("fit#0", "The fit command fits a user-supplied real-valued expression to a "
                     "set of data points, using the nonlinear least-squares Marquardt-Levenberg "
                     "algorithm, with up to twelve independent variables and any number of "
                     "parameters.")),
    ]
    chosen = select(candidate_sentences(ranked), stems("What does the fit command do?"),
                    frozenset(), (2, 5), set())
    assert chosen[0].text.startswith("The fit command fits"), [s.text for s in chosen]
