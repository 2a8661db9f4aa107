"""One line of text, cut the same way wherever it is shown (app.research.text.clip): the report, the
synthesis prompt, the review payload and the terminal progress."""

from __future__ import annotations

import io

import pytest

from app.cli.summary import print_pause
from app.research.review import envelope_summary
from app.research.text import clip


def test_whitespace_becomes_one_space_and_short_text_is_kept():
    assert clip("a\n\n b\t c  ", 400) == "a b c"
    assert clip(None, 10) == "None"
    assert clip("x" * 10, 10) == "x" * 10


def test_a_cut_ends_in_one_ellipsis_within_the_limit():
    text = "word " * 100
    for limit in (1, 2, 7, 70, 120):
        out = clip(text, limit)
        assert len(out) <= limit and out.endswith("…") and "\n" not in out
        assert text.startswith(out.removesuffix("…"))  # what is shown is the text's own start


def test_a_long_first_word_is_cut_not_dropped():
    url = "https://example.com/" + "a" * 300
    assert clip(url, 50) == url[:49] + "…"


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        clip("text", 0)


def test_review_summary_and_pause_lines_drop_the_space_before_the_cut():
    # The review payload and the progress lines cut as the report does: "two…", not "two …"
    # (before app.research.text, they kept the space the cut fell after).
    envelope = {"status": "ok", "structured": {"items": [{"text": "one two three"}]}}
    assert envelope_summary(envelope, limit=9) == "one two…"
    stream = io.StringIO()
    print_pause({"thread_id": "t", "review": {"stage": "results", "envelopes": [
        {"envelope_id": "e1", "status": "ok", "round": 1, "task_key": "q" * 58 + " tail",
         "summary": "s" * 108 + " tail"}]}}, stream)  # each cut falls just after the space
    lines = stream.getvalue().splitlines()
    assert lines[2].endswith(" " + "q" * 58 + "…") and lines[3].endswith(" " + "s" * 108 + "…")
    assert " …" not in stream.getvalue()


def test_a_clipped_line_ends_at_a_word_not_inside_one() -> None:
    # trial 63, F7: top passages ended "... GNUInstallDirs` varia…" and "GIT_TAG origin/…"
    from app.research.text import clip

    assert clip("Install into the GNUInstallDirs variables of the project", 40) == (
        "Install into the GNUInstallDirs…")
    assert clip("Supercalifragilisticexpialidocious", 10) == "Supercali…"  # no word end: cut
