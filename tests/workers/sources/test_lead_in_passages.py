"""A sentence ending in a colon stays in one passage with the code block it introduces: pytest's
"You can influence output capturing mechanisms from the command line:" ended one passage and its
``pytest -s  # disable all capturing`` opened the next, so "How do I disable output capturing?"
was answered from a debugger note (trial 123, X1); SQLAlchemy's FAQ "... one can use the
literal_binds flag, passed to compile_kwargs:" was cut from its code the same way (S5). So does
one announcing what follows otherwise ("... as the following."), a hedge ("Strictly speaking,
...") with what holds in practice, and a question on a line of its own with its answer: Django's
"Where should signal handling code live?" was answered with the hedge alone, its "In practice,
signal handlers are usually defined in a signals submodule ..." opening the next passage
(trial 124, FB1)."""

from __future__ import annotations

from workers.sources.chunks import chunk_text

WAYS = "\n\n".join(f"Way {i}: writes to the descriptor {i} are captured by the harness "
                   "and shown when the test fails." for i in range(6))
LEAD = "You can influence output capturing mechanisms from the command line:"
CODE = ("```\npytest -s                  # disable all capturing\n"
        "pytest --capture=sys       # replace sys.stdout/stderr with in-mem files\n"
        "pytest --capture=fd        # also point filedescriptors 1 and 2 to temp file\n```")


def test_a_paragraph_of_a_sentence_ending_in_a_colon_goes_with_its_code() -> None:
    chunks = chunk_text(f"{WAYS}\n\n{LEAD}\n\n{CODE}", 800)
    assert chunks[-1] == f"{LEAD}\n\n{CODE}", chunks
    assert chunks[0] == WAYS, chunks


def test_the_last_sentence_of_a_long_paragraph_goes_with_its_code() -> None:
    para = WAYS.replace("\n\n", " ")
    chunks = chunk_text(f"{para} {LEAD}\n\n{CODE}", 800)
    assert chunks[-1] == f"{LEAD}\n\n{CODE}", chunks
    assert chunks[0] == para, chunks


def test_a_paragraph_ending_otherwise_is_packed_as_before() -> None:
    ended = LEAD.replace(":", ".")
    chunks = chunk_text(f"{WAYS}\n\n{ended}\n\n{CODE}", 800)
    assert chunks[0].endswith(ended) and chunks[1] == CODE, chunks


# Django's topics/signals.html, its "Where should this code live?" box (trial 124, FB1)
CONNECTING = ("Here's how you connect with the decorator, which takes the signal and registers "
              "the function it decorates as a receiver of that signal for every sender. ") * 3
BOX = "Where should this code live?"
HEDGE = ("Strictly speaking, signal handling and registration code can live anywhere you like, "
         "although it's recommended to avoid the application's root module and its models "
         "module to minimize side-effects of importing code.")
PRACTICE = ("In practice, signal handlers are usually defined in a signals submodule of the "
            "application they relate to. Signal receivers are connected in the ready() method "
            "of your application configuration class.")


def test_a_hedge_goes_with_what_holds_in_practice_and_its_question_with_it() -> None:
    chunks = chunk_text(f"{CONNECTING.strip()}\n\n{BOX}\n\n{HEDGE}\n\n{PRACTICE}", 800)
    assert chunks == [CONNECTING.strip(), f"{BOX}\n\n{HEDGE}\n\n{PRACTICE}"], chunks


def test_a_question_on_a_line_of_its_own_never_ends_a_passage() -> None:
    longer = CONNECTING.strip() + " Now the function is called each time a request finishes."
    chunks = chunk_text(f"{longer}\n\n{BOX}\n\n{HEDGE}\n\n{PRACTICE}", 800)
    assert chunks[-1].startswith(f"{BOX}\n\n{HEDGE}"), chunks


def test_a_hedge_in_a_long_paragraph_goes_with_the_sentence_after_it() -> None:
    para = f"{CONNECTING}Then it is called each time a request finishes. {HEDGE} {PRACTICE}"
    chunks = chunk_text(para, 800)
    assert chunks[-1] == f"{HEDGE} {PRACTICE}", chunks


def test_a_paragraph_announcing_as_the_following_goes_with_what_follows() -> None:
    # the Debian Reference's 2.7.5 ends its lead-in "as the following." (trial 124, FB1)
    lead = ("If you wish not to pull in particular packages automatically by Recommends, you "
            "must create the /etc/apt/preferences file and list all those packages at the top "
            "of it as the following.")
    pins = "Package: package-1\nPin: version *\nPin-Priority: -1"
    chunks = chunk_text(f"{WAYS}\n\n{lead}\n\n```\n{pins}\n```", 800)
    assert chunks[-1] == f"{lead}\n\n```\n{pins}\n```", chunks


def test_a_colon_before_prose_or_a_list_stays_where_it_is() -> None:
    # moved with the items after it, SQLite's windowfunctions.html lost the words that ranked
    # its passages (sqlite-36 cited it fourth)
    lead = "In this manual, the term dynamic loading is used to refer to two different concepts:"
    item = ("The application calling functions such as dlopen and dlsym to load a module at run "
            "time and look its symbols up by name, which the linker never sees.")
    ways = f"{WAYS}\n\nWay 6: writes to a file the test opens itself are never captured."
    chunks = chunk_text(f"{ways}\n\n{lead}\n\n{item}", 800)
    assert chunks == [f"{ways}\n\n{lead}", item], chunks


def test_a_paragraph_that_leads_on_to_nothing_is_not_cut_into_sentences(monkeypatch) -> None:
    """Issue 19 (>= 10 MB/s of HTML): a passage's last paragraph is cut into sentences only
    when one of them may lead on (a colon or "as follows." at its end, a hedge in it); the
    other paragraphs were all cut at every passage's end, and an end-anchored pattern tried at
    each of their characters (half of chunking's CPU on sqlite3-doc)."""
    import workers.sources.chunks as chunks

    cut: list[str] = []
    real = chunks.sentence_ends
    monkeypatch.setattr(chunks, "sentence_ends", lambda para: cut.append(para) or real(para))
    plain = chunk_text(f"{WAYS}\n\nSee the harness notes. They say more.\n\n{CODE}", 800)
    assert plain[-1] == CODE and cut == []
    hedged = ("Aa aa. Strictly speaking, the capture can be turned off anywhere you like, in "
              "a fixture or a hook.")
    practice = ("In practice, it is turned off with -s on the command line, or with "
                "--capture=no, for the whole run and every test it collects from the folder.")
    led = chunk_text(f"{WAYS}\n\n{hedged}\n\n{practice}", 800)
    assert led == [f"{WAYS}\n\nAa aa.", f"{hedged[7:]}\n\n{practice}"], led
    assert cut == [hedged]
