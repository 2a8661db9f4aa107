"""A question naming a command is answered by the command's own man page: its NAME line says
what the command is, and another command's option sharing a word with it is a neighbour
(trial 121, F1: "What is git rebase?" was answered "--rebase: This option is only valid for the
update command." from git-submodule(1), and "What does git cherry-pick do?" never quoted
git-cherry-pick(1)'s "git-cherry-pick - Apply the changes introduced by some existing
commits")."""

from __future__ import annotations

from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import stems
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row
from workers.sources import Passage

NAME_LINE = "frob-rebase - Reapply shards on top of another base vault"
REBASE = f"frob-rebase(1) Manual Page\n\nNAME\n\n{NAME_LINE}"
OPTION = ("--rebase: This option is only valid for the update command. Rebase the current "
          "vault onto the shard recorded in the outer vault; a frob rebase resolves a failure.")


def test_the_name_line_of_a_man_page_is_quoted_as_its_commands_entry() -> None:
    # whole without a full stop, as an option's groff entry is; the pass for whole sentences
    # found the other page's and never read it
    found = candidate_sentences([
        (0, Passage("frob-rebase.html#0", "frob-rebase.html", "frob-rebase(1)", "x", REBASE)),
        (1, Passage("frob-submodule.html#31", "frob-submodule.html", "frob-submodule(1)", "x",
                    OPTION))])
    line = next((s for s in found if s.text == NAME_LINE), None)
    assert line is not None, [s.text for s in found]
    assert line.entry == stems("frob rebase"), line.entry  # the command's own entry


def test_another_commands_option_is_no_answer_to_what_the_command_is() -> None:
    q = "What is frob rebase?"
    passages = [item("passage", REBASE, "frob-rebase.html#0", title="frob-rebase(1)",
                     heading="NAME"),
                item("passage", OPTION, "frob-submodule.html#31", title="frob-submodule(1)",
                     heading="OPTIONS")]
    findings = [item("finding", "--rebase: This option is only valid for the update command.",
                     "frob-submodule.html#31", title="frob-submodule(1)"),
                item("finding", NAME_LINE, "frob-rebase.html#0", title="frob-rebase(1)")]
    md = render_markdown(data([row("docs_search", q, passages), row("analyst", q, findings)],
                              topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.lstrip().startswith(f"- {NAME_LINE}"), answer
    assert "only valid for the update command" not in answer, answer
