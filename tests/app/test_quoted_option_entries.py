"""A name written in quotes is a name: Vim's help labels each option ``'smartcase' 'scs'
boolean (default off) global`` above its description, and its questions quote the option
("What does the 'smartcase' option do?"). Neither was read as a name, so the description's
first sentence, "Override the 'ignorecase' option if the search pattern contains upper case
characters.", was no sentence of the entry asked: it scored below the entry's closing note and
a user manual's "Now set the 'smartcase' option:", which led the Answer (trial 126, F1)."""

from __future__ import annotations

from app.llm.offline.relevance import code_stems, entry_stems, select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row
from workers.sources import Passage

Q = "What does the 'kitecase' option do?"
OWN = "Override the 'ropecase' option if the kite line holds a knot."
NOTE = "NOTE: This option is reset when 'calm' is set."
ENTRY = (f"'kitecase' 'kc' boolean (default off) global\n\n{OWN} Only used when the line is "
         f"wound by hand and 'ropecase' option is on. {NOTE}\n\n'kitetail' 'kt' number "
         f"(default 3) global\n\nNumber of ribbons on the tail.")
MANUAL = "Now set the 'kitecase' option:\n\n```\n\t:set ropecase kitecase\n```"


def _passage(ref: str, text: str) -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text, heading=f"Kite documentation: {doc}")


def test_the_description_under_a_label_of_quoted_names_is_the_entrys_best_sentence() -> None:
    ranked = [(0, _passage("options.html#465", ENTRY)),
              (1, _passage("usr_27.html#1", f"Ignoring case\n\n{MANUAL}"))]
    chosen = select(candidate_sentences(ranked), asked_stems(Q), frozenset(), (1, 5), set(),
                    code_stems(Q), entry_stems(Q))
    assert [s.text for s in chosen][:1] == [OWN], [s.text for s in chosen]


def test_the_description_under_a_label_of_quoted_names_leads_the_answer() -> None:
    passages = [item("passage", ENTRY, "options.html#465", score=11.2,
                     heading="Kite documentation: options"),
                item("passage", MANUAL, "usr_27.html#1", score=10.5,
                     heading="Kite documentation: usr_27")]
    findings = [item("finding", NOTE, "options.html#465"),
                item("finding", MANUAL, "usr_27.html#1"),
                item("finding", OWN, "options.html#465")]
    md = render_markdown(data([row("docs_search", Q, passages), row("analyst", Q, findings)],
                              topic=Q, sub_questions=[Q]))
    assert answer_section(md).strip().splitlines()[0] == f"- `kitecase`: {OWN} [1]", md
