"""A sentence naming what a question asks of another thing, under that other thing's section,
answers it: asked "What does the maxdepth option of the toctree directive do?", Sphinx's
directive page says "A numeric maxdepth option may be given to indicate the depth of the tree;
by default, all levels are included." under ``.. toctree::``; it scored under half the best
and was no finding, and the Answer led with the quick start's "The maxdepth is such an option
for the toctree directive.", which names every word of the question and says nothing of what
the option does (trial 125, leftover 1)."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row
from workers.sources import Passage

Q = "What does the depthcap option of the frobtree directive do?"
OWN = ("A numeric depthcap option may be given to indicate the depth of the tree; by default, "
       "all levels are included.")
TUTORIAL = "The depthcap is such an option for the frobtree directive."
TEMPLATE = ("Set it to -1 to allow unlimited depth. Defaults to the max depth selected in the "
            "frobtree directive.")
DIRECTIVE = (f".. frobtree::\n\nThis directive inserts a tree at the current location, using "
             f"the individual trees of the documents given in the body. {OWN}")
QUICKSTART = (f"Defining document structure\n\nOptions are given after the arguments, in form "
              f"of a field list. {TUTORIAL}")


def _passage(ref: str, text: str, heading: str) -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text, heading=heading)


def test_the_owners_own_sentence_on_the_asked_thing_is_a_finding() -> None:
    ranked = [(0, _passage("directives.html#2", DIRECTIVE, ".. frobtree::")),
              (1, _passage("templating.html#63", f"frobtree\n\nOptional keyword arguments:\n\n"
                           f"depthcap: {TEMPLATE}", "frobtree")),
              (2, _passage("quickstart.html#4", QUICKSTART, "Defining document structure"))]
    chosen = select(candidate_sentences(ranked), asked_stems(Q), frozenset(), (1, 5), set())
    assert OWN in [s.text for s in chosen], [s.text for s in chosen]


def test_the_owners_own_sentence_leads_the_answer() -> None:
    passages = [item("passage", DIRECTIVE, "directives.html#2", score=16.7,
                     heading=".. frobtree::"),
                item("passage", QUICKSTART, "quickstart.html#4", score=16.6,
                     heading="Defining document structure")]
    findings = [item("finding", TUTORIAL, "quickstart.html#4"),
                item("finding", OWN, "directives.html#2")]
    md = render_markdown(data([row("docs_search", Q, passages), row("analyst", Q, findings)],
                              topic=Q, sub_questions=[Q]))
    assert answer_section(md).strip().splitlines()[0].startswith(f"- {OWN}"), md
