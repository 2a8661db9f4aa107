""""How do I stop the terminal from beeping?" over the Debian Reference's HTML chapters was
warned: "No retrieved passage mentions at least 2 of "stop", "terminal" and "beeping"", while
ch09.en.html's "9.5.9. Disabling beep sounds: One can always unplug the PC speaker to disable
beep sounds." was retrieved (trial 124, M2-F2): "beeping" reached "beep", but the verb of "stop
X from Y-ing" was one of three words an item had to name two of. It says what the asker wants,
not what the manual calls it ("disable", "unplug")."""

from __future__ import annotations

from typing import Any

from app.research.relevance import judge
from app.research.term_stats import TermStats
from workers.sources.query import mentions

BEEP = TermStats(986, {"stop": 14, "terminal": 43, "beeping": 1})
GOLD = ("9.5.9. Disabling beep sounds\n\nOne can always unplug the PC speaker to disable beep "
        "sounds. Removing pcspkr kernel module does this for you.")


def _rows(*texts: str) -> list[dict[str, Any]]:
    items = [{"kind": "finding", "ref": f"ch09.en.html#{i}", "title": "Chapter 9. System tips",
              "text": t} for i, t in enumerate(texts)]
    return [{"status": "ok", "structured": {"items": items}}]


def test_stop_x_from_y_ing_is_judged_by_x_and_y() -> None:
    verdict = judge("How do I stop the terminal from beeping?", _rows(GOLD), BEEP)
    assert verdict.warnings == [], verdict.warnings
    prevent = judge("How can I prevent the screen from blanking?",
                    _rows("Disabling the screen saver: xset s off."),
                    TermStats(986, {"prevent": 3, "screen": 30, "blanking": 0}))
    assert prevent.warnings == [], prevent.warnings


def test_a_stop_that_is_the_thing_asked_still_counts() -> None:
    stats = TermStats(986, {"stop": 14, "container": 5, "gracefully": 2})
    verdict = judge("How do I stop a container gracefully?", _rows(GOLD), stats)
    assert [w.code for w in verdict.warnings] == ["no_relevant_sources"]
    off = judge("How do I stop my dog from barking at the postman?", _rows(GOLD),
                TermStats(986, {"stop": 14, "dog": 0, "barking": 0, "postman": 0}))
    assert [w.code for w in off.warnings] == ["no_relevant_sources"]


def test_the_ing_ed_and_s_forms_reach_their_base() -> None:
    # what the finding suspected: "beeping" did reach "beep" (word_forms), "stopping" "stop"
    asked = ["beeping", "beeped", "beeps", "stopping", "stopped", "disabling"]
    assert mentions(asked, "Disable beep sounds; stop the bell.") == set(asked)
