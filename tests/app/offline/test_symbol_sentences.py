"""The symbols a question asks about (``<=``, ``=>``, ``@@``) are what a sentence must write to
answer it (trial 117, F6): "What do the log line flags <= and => mean?" quoted Exim's "->:
additional address in same delivery.", "*>: delivery suppressed by -N." and "**: delivery failed;
address bounced.", and neither flag asked, "<=: message arrival." being too short and "=>: normal
message delivery." read as code."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems
from workers.sources import Passage
from workers.sources.operators import asked_symbols

FLAGS = ("5. Log line flags\n\nOne line is written to the main log for each message received, "
         "and for each successful, unsuccessful, and delayed delivery. These lines can readily "
         "be picked out by the distinctive two-character flags that immediately follow the "
         "timestamp. The flags are:\n\n<=: message arrival.\n\n(=: message fakereject.\n\n=>: "
         "normal message delivery.\n\n->: additional address in same delivery.\n\n>>: "
         "cutthrough message delivery.\n\n*>: delivery suppressed by -N.\n\n**: delivery "
         "failed; address bounced.\n\n==: delivery deferred; temporary problem.")
ACTIONS = ("Remote Machine\n\nTo forward messages to another host, prepend the hostname with "
           "the at sign (\"@\"). A single at sign means that messages will be forwarded via UDP "
           "protocol (the standard for syslog). If you prepend two at signs (\"@@\"), the "
           "messages will be transmitted via TCP. Please note that this is a legacy action, "
           "and the omfwd action is the one to use in new configurations of the forwarder.")


def _chosen(question: str, ref: str, text: str) -> list[str]:
    doc = ref.split("#")[0]
    sentences = candidate_sentences([(0, Passage(ref, doc, doc, doc, text))],
                                    asked_symbols(question))
    return [s.text for s in select(sentences, asked_stems(question), frozenset(), (1, 3), set())]


def test_the_flags_asked_are_quoted_before_the_others() -> None:
    chosen = _chosen("What do the log line flags <= and => mean?", "ch-log_files.html#24", FLAGS)
    assert chosen[:2] == ["<=: message arrival.", "=>: normal message delivery."], chosen
    assert not any(c.startswith(("->", "*>", "**")) for c in chosen), chosen


def test_a_symbol_asked_in_quotes_is_matched_whole() -> None:
    # trial 118, R5's "@@" of rsyslog's actions page: "@" alone is the other protocol
    chosen = _chosen('What does "@@" do in front of a host name?', "actions.html#3", ACTIONS)
    assert chosen[0].startswith('If you prepend two at signs ("@@")'), chosen
