"""A "what is" question's Answer leads with the docs' own definition, not a sentence that only
uses the thing, a fragment or a restatement; a comparison's with a sentence whose subject is a
thing compared, not a side note holding the word "difference" (trial 121, F2)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row


def _answer(q: str, findings: list[dict], subs: list[str] | None = None) -> str:
    """The ``## Answer`` of a report on ``q`` whose analyst found ``findings`` (each with the
    sub-question it answers, the first one's by default)."""
    subs = subs or [q]
    asks = [f.pop("sub", subs[0]) for f in findings]
    rows = [row("analyst", sub, [f for f, a in zip(findings, asks, strict=True) if a == sub])
            for sub in subs]
    return answer_section(render_markdown(data(rows, topic=q, sub_questions=subs)))


def _first(answer: str) -> str:
    return answer.strip().splitlines()[0]


def test_what_a_thing_does_leads_before_what_it_is_good_for() -> None:
    # Flask's "What is the application context?" opened with "... is a good place to store
    # common data ..." and "... is created and destroyed as necessary."
    q, ref = "What is the application context?", "appcontext.html#{}"
    answer = _answer(q, [
        item("finding", "The application context is a good place to store common data during "
                        "a request or CLI command.", ref.format(6)),
        item("finding", "The application context is created and destroyed as necessary.",
             ref.format(3)),
        item("finding", "The application context keeps track of the application-level data "
                        "during a request, CLI command, or other activity.", ref.format(0))])
    assert "keeps track of the application-level data" in _first(answer), answer


def test_a_restatement_never_leads() -> None:
    # "What is a detached HEAD?" opened with "In other words, we'll no longer be in detached
    # HEAD state after this command."
    q, ref = "What is a detached HEAD?", "git-checkout.html#{}"
    answer = _answer(q, [
        item("finding", "In other words, a detached HEAD is no longer on a branch after this "
                        "command.", ref.format(27)),
        item("finding", "A detached HEAD can be seen in some states.", ref.format(28))])
    assert _first(answer).startswith("- A detached HEAD can be seen"), answer


def test_a_fragment_starting_in_lower_case_never_leads() -> None:
    # "creates a new tag foo, which refers to commit f, leaving HEAD detached." (the rest of a
    # sentence begun by a command in git-checkout's example) was the Answer's second bullet
    q, ref = "What is a detached HEAD?", "git-checkout.html#{}"
    answer = _answer(q, [
        item("finding", "creates a new tag foo, which refers to commit f, leaving HEAD "
                        "detached.", ref.format(27)),
        item("finding", "Checking out a commit leaves HEAD detached.", ref.format(28))])
    assert _first(answer).startswith("- Checking out a commit"), answer


def test_a_name_given_to_the_thing_asked_is_a_definition_though_it_points_back() -> None:
    # git-checkout's "This is known as being in detached HEAD state." and the glossary's 'The
    # HEAD in such a state is called "detached".' say what the state is called
    q = "What is detached HEAD state?"
    answer = _answer(q, [
        item("finding", "HEAD can also record a specific commit directly in detached HEAD "
                        "state, for example during a rebase.", "gitrepository-layout.html#9"),
        item("finding", "This is known as being in detached HEAD state.",
             "git-checkout.html#25")])
    assert "This is known as being in detached HEAD state" in _first(answer), answer


def test_an_opening_phrase_naming_a_case_told_before_opens_no_answer() -> None:
    # "What does git bisect run do?" opened with "To cope with such a situation, after the
    # inner git bisect finds the next revision to test, the script can apply the patch ..."
    q = "What does git bisect run do?"
    answer = _answer(q, [
        item("finding", "To cope with such a situation, after the inner git bisect finds the "
                        "next revision to test, the script can apply the patch before "
                        "compiling.", "git-bisect.html#20"),
        item("finding", "The git bisect run command can be given any script.",
             "git-bisect.html#21")])
    assert _first(answer).startswith("- The git bisect run command"), answer


def test_a_side_note_on_a_difference_does_not_answer_a_comparison() -> None:
    # 'Note: There is a difference between listing multiple <refspec> directly on git pull
    # command line and having multiple remote.<repository>.fetch entries ...' led
    q = "What is the difference between git fetch and git pull?"
    subs = ["How do git fetch and git pull differ?", "What is git pull?"]
    answer = _answer(q, [
        item("finding", "Note: There is a difference between listing multiple refspecs "
                        "directly on git pull command line and having multiple "
                        "remote.origin.fetch entries in your configuration.", "git-pull.html#9"),
        item("finding", "More precisely, git pull runs git fetch with the given parameters "
                        "and then calls either git rebase or git merge.", "git-pull.html#0",
             sub=subs[1])], subs)
    assert "More precisely, git pull runs git fetch" in _first(answer), answer
