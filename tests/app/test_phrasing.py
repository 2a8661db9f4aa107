"""Sub-questions and headings are grammatical questions a person would ask, for phrase- and
question-shaped topics alike (issue 19; a tester's inputs of answers8)."""

from __future__ import annotations

import pytest

from app.research.phrasing import ask, shape
from app.research.plan import offline_plan
from app.research.rounds import focus_of
from app.research.topics import comparison, main_question, topic_kind


@pytest.mark.parametrize(("topic", "plan"), [
    # "How do difference between Send and Command differ?"
    ("difference between Send and Command",
     ["How do Send and Command differ?", "What is Send?", "What is Command?"]),
    ("What are the differences between Send and Command?",
     ["How do Send and Command differ?", "What is Send?", "What is Command?"]),
    # "What is MessageGraph: which one?"
    ("MessageGraph or StateGraph: which one?",
     ["How do MessageGraph and StateGraph differ?", "What is MessageGraph?",
      "What is StateGraph?"]),
    ("Which is faster, asyncio.gather or asyncio.wait?",
     ["How do asyncio.gather and asyncio.wait differ?", "What is asyncio.gather?",
      "What is asyncio.wait?"]),
    # "How do asyncio.gather and asyncio.wait vs asyncio.as_completed differ?"
    ("asyncio.gather vs asyncio.wait vs asyncio.as_completed",
     ["How do asyncio.gather, asyncio.wait and asyncio.as_completed differ?",
      "What is asyncio.gather?", "What is asyncio.wait?", "What is asyncio.as_completed?"]),
    ("Should I use MessageGraph or StateGraph?",
     ["How do MessageGraph and StateGraph differ?", "What is MessageGraph?",
      "What is StateGraph?"]),
    ("How is Send different from Command?",
     ["How do Send and Command differ?", "What is Send?", "What is Command?"]),
    ("What is the difference between Send and Command in LangGraph?",
     ["How do Send and Command differ in LangGraph?", "What is Send?", "What is Command?"]),
    ("Send or Command?", ["How do Send and Command differ?", "What is Send?", "What is Command?"]),
])
def test_a_comparison_is_asked_as_how_the_things_differ_then_about_each(topic, plan):
    assert offline_plan(topic) == plan
    assert topic_kind(topic) == "compare"


GIT_THREE = ["How do git merge, git rebase and git cherry-pick differ?", "What is git merge?",
             "What is git rebase?", "What is git cherry-pick?"]


@pytest.mark.parametrize("topic", [
    # trial 53, F2: the comma after the first thing ended a question clause "What is the
    # difference between git merge," and git merge was dropped from the plan, with no note
    "What is the difference between git merge, git rebase and git cherry-pick?",
    "What is the difference between git merge, git rebase, and git cherry-pick?",
    "What are the differences between git merge, git rebase or git cherry-pick?",
    "What's the difference between git merge, git rebase and git cherry-pick",
    "Difference between git merge, git rebase and git cherry-pick",
    "Compare git merge, git rebase and git cherry-pick",
    "Which is better: git merge, git rebase or git cherry-pick?",
    "git merge, git rebase or git cherry-pick: which one?",
    "git merge, git rebase or git cherry-pick, which one should I use?",  # was a what-question
    "What is the difference between git merge, git rebase and git cherry-pick, and when should "
    "I use each?",
])
def test_three_things_compared_are_all_kept_however_they_are_listed(topic):
    assert topic_kind(topic) == "compare"
    assert offline_plan(topic) == offline_plan("git merge vs git rebase vs git cherry-pick")
    assert offline_plan(topic) == GIT_THREE


def test_four_things_listed_after_between_are_asked_whole_as_the_vs_spelling_is():
    # not "How do beta, gamma and delta differ?": the first was dropped as a clause
    for topic in ("What is the difference between alpha, beta, gamma and delta?",
                  "alpha vs beta vs gamma vs delta"):
        assert comparison(topic) is None
        assert "alpha" in offline_plan(topic)[0].lower()


@pytest.mark.parametrize(("topic", "kind"), [
    ("After an insert and an update, how do I get the id?", "how"),  # a context, no choice
    ("Send and Command, and how do they work together?", "topic"),
])
def test_a_question_after_a_list_that_is_no_choice_is_no_comparison(topic, kind):
    assert topic_kind(topic) == kind
    assert offline_plan(topic) == [topic]


@pytest.mark.parametrize(("topic", "plan"), [
    # trial 53, A6: "What is --system?" was answered from cron's text, "What is annotated?"
    # from git-annotate's page: each side is asked with the context it shares with another
    ("What is the difference between git config --global and --system?",
     ["How do git config --global and --system differ?", "What is git config --global?",
      "What is git config --system?"]),
    ("git config --global vs --system vs --local",
     ["How do git config --global, --system and --local differ?",
      "What is git config --global?", "What is git config --system?",
      "What is git config --local?"]),
    ("What is the difference between annotated and lightweight tags?",
     ["How do annotated and lightweight tags differ?", "What are annotated tags?",
      "What are lightweight tags?"]),
    ("lightweight vs annotated tags in Git",
     ["How do lightweight and annotated tags differ in Git?", "What are lightweight tags?",
      "What are annotated tags?"]),
    ("annotated, lightweight and signed tags",
     ["How do annotated, lightweight and signed tags differ?", "What are annotated tags?",
      "What are lightweight tags?", "What are signed tags?"]),
])
def test_each_side_of_a_comparison_keeps_the_context_it_shares(topic, plan):
    assert offline_plan(topic) == plan
    sides = comparison(topic).parts  # type: ignore[union-attr]
    assert [main_question(side) for side in sides] == plan[1:]
    assert [focus_of(question, topic) for question in plan[1:]] == sides  # each side's search


@pytest.mark.parametrize(("topic", "parts"), [
    ("Send and Command", ["Send", "Command"]),
    ("merge and rebase", ["merge", "rebase"]),
    ("checkpointers and stores", ["checkpointers", "stores"]),
    ("SQLite and PostgreSQL", ["SQLite", "PostgreSQL"]),
    ("checkpointers and memory stores", ["checkpointers", "memory stores"]),  # a plural noun
    ("cron and systemd timers", ["cron", "systemd timers"]),  # no modifier by its form
    ("merge and git rebase", ["merge", "git rebase"]),
    ("--global and --system", ["--global", "--system"]),  # no command before the option
    ("git config --global and git config --system",
     ["git config --global", "git config --system"]),
])
def test_sides_that_share_no_context_are_kept_as_written(topic, parts):
    assert comparison(topic).parts == parts  # type: ignore[union-attr]


@pytest.mark.parametrize("topic", [
    "Validate an IPv4 or IPv6 interface",  # an instruction, not two things
    "How do I read and write XDR binary files?",
    "How do checkpoints and stores work together?",
    "pros and cons of Send and Command",
    "What are the advantages of WAL over a rollback journal?",
    "Can I use the interpreter as a calculator and reuse the previous answer?",
])
def test_what_only_looks_like_a_comparison_compares_nothing(topic):
    assert comparison(topic) is None
    for question in offline_plan(topic):
        assert " differ" not in question, question


@pytest.mark.parametrize(("topic", "question"), [
    ("customise the serialiser", "How do I customise the serialiser?"),  # not "What is customise"
    ("install langgraph", "How do I install langgraph?"),
    ("customising the serialiser", "How do I customise the serialiser?"),  # a gerund
    ("to customise the serialiser", "How do I customise the serialiser?"),
    ("running a graph twice", "How do I run a graph twice?"),
    ("streaming tokens", "What are streaming tokens?"),  # a noun's gerund, no object
    ("resume a graph after a crash", "How do I resume a graph after a crash?"),
    ("Copy all checkpoints and writes from one thread to another",
     "How do I copy all checkpoints and writes from one thread to another?"),
    ("explain checkpointers", "What are checkpointers?"),  # not "What are explain checkpointers"
    ("tell me about the retry policy", "What is the retry policy?"),
    ("explain how checkpoints work", "Can you explain how checkpoints work?"),
    ("I want to stream tokens", "How do I stream tokens?"),
    ("I want both axes of my plot to be spaced by powers of ten",
     "How do I get both axes of my plot to be spaced by powers of ten?"),
    ("Generates a JSON schema that matches None",
     "What generates a JSON schema that matches None?"),
    ("Raised when a node invocation exceeds one of its configured timeouts",
     "What is raised when a node invocation exceeds one of its configured timeouts?"),
    ("retry policy", "What is retry policy?"),  # "retry" before no object: a noun
    ("stream modes", "What are stream modes?"),
    ("reserved classes of identifiers", "What are reserved classes of identifiers?"),
    ("in-memory store for bytes", "What is in-memory store for bytes?"),  # the head noun's number
    ("add_messages", "What is add_messages?"),
    ("Every object has an identity, a type and a value",
     "Every object has an identity, a type and a value"),  # a statement, kept
    ("how do I retry", "How do I retry?"),
    # trial 127, F5: a verb by its "-ate" ending before a determiner, not "What is automate ..."
    ("automate an ssh login with pexpect", "How do I automate an ssh login with pexpect?"),
    ("truncate the log file", "How do I truncate the log file?"),
    ("certificate authority setup", "What is certificate authority setup?"),  # a noun's "-ate"
    ("aggregate functions", "What are aggregate functions?"),
])
def test_the_shape_of_a_phrase_picks_the_question_word(topic, question):
    assert main_question(topic) == question
    assert offline_plan(topic)[0] == question


def test_every_sub_question_of_a_phrase_or_question_reads_as_one():
    for topic in ("customise the serialiser", "explain checkpointers", "install langgraph",
                  "difference between Send and Command", "MessageGraph or StateGraph: which one?"):
        for question in offline_plan(topic):
            assert question.endswith("?") and question.count("?") == 1, question
            assert not question.startswith(("What is customise", "What are explain",
                                            "How do difference", "What is install")), question
            assert ":" not in question, question


def test_the_kind_of_an_instruction_or_a_limitation_question():
    assert topic_kind("customise the serialiser") == "how"
    assert topic_kind("What are the limitations of ToolNode?") == "limitation"
    assert topic_kind("explain how checkpoints work") == "how"
    assert shape("Send or Command") == "name" and ask("Send and Command") == (
        "What are Send and Command?")


def test_a_clause_of_a_question_is_no_instruction_to_ask_about():
    # "writing to files" of "Why is writing to files ... not allowed?" read as an instruction
    # once gerunds did: "How do I write to files?" is not what the topic asks
    plan = offline_plan("Why is writing to files in other directories not allowed?")
    assert not any(q.startswith("How do I") for q in plan), plan


@pytest.mark.parametrize(("topic", "asked"), [
    # trial 10, finding 27: each was planned as the garbled question after "#"
    ("Send vs Send", "What is Send?"),  # How do Send and Send differ?
    ("Send vs send", "What is Send?"),
    ("Send vs", "What is Send?"),  # What is Send vs?
    ("vs reducers", "What are reducers?"),  # What are vs reducers?
    ("StateGraph vs StateGraph vs StateGraph vs StateGraph", "What is StateGraph?"),
    ("interrupt and resume a graph", "How do I interrupt and resume a graph?"),
    ("retry policy of a graph node", "What is the retry policy of a graph node?"),
    ("CHECKPOINTER PENDING WRITES", "What are CHECKPOINTER PENDING WRITES?"),  # What is
    ("list of reserved words", "What is the list of reserved words?"),  # What is of reserved
])
def test_one_sided_self_and_verb_pair_topics_are_asked_plainly(topic: str, asked: str) -> None:
    assert main_question(topic) == asked
    assert topic_kind(topic) != "compare"
    assert offline_plan(topic)[0] == asked


def test_a_real_comparison_and_a_name_of_something_keep_their_shape() -> None:
    assert main_question("checkpointer pending writes") == "What are checkpointer pending writes?"
    assert main_question("RetryPolicy of a node") == "What is RetryPolicy of a node?"
    assert topic_kind("Send vs reducers") == "compare"
    assert comparison("Send vs reducers").parts == ["Send", "reducers"]  # type: ignore[union-attr]
    assert comparison("Send vs Send") is None
