"""The ranking's word memos stay few however many questions a run searches (issue 21, item 13):
each holds every distinct word its candidates had, so keeping 256 of them took about 20 MB of a
1,200-task run's memory."""

from __future__ import annotations

from workers.sources import query


def test_word_memos_stay_bounded_after_many_distinct_questions():
    query._word_hits.cache_clear()
    hay = " ".join(f"word{i}" for i in range(2000))  # a candidate's many distinct words
    for i in range(300):  # one query a sub-question, as a 900-task run searches
        found, pairs = query.term_matches([f"word{i}", f"word{i + 1}", "absent"], hay)
        assert (found, pairs) == ({0, 1}, 1)  # the memo changes no answer
    kept = query._word_hits.cache_info().currsize
    assert kept <= query.WORD_MEMOS <= 16
    # the memo of the last query is still there: a search's ~200 candidates reuse it
    assert query._word_hits.cache_info().hits == 0
    query.term_matches(["word299", "word300", "absent"], hay)
    assert query._word_hits.cache_info().hits == 1
