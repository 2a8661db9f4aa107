"""A sentence ending in a colon stays in one passage with the code block it introduces: pytest's
"You can influence output capturing mechanisms from the command line:" ended one passage and its
``pytest -s  # disable all capturing`` opened the next, so "How do I disable output capturing?"
was answered from a debugger note (trial 123, X1); SQLAlchemy's FAQ "... one can use the
literal_binds flag, passed to compile_kwargs:" was cut from its code the same way (S5)."""

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
