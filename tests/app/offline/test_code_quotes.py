"""A sentence that runs through a short code block is quoted whole, with its code (trial 49 on
R's FAQ: "If f is such a factor object, you can use [code] to get the numbers back." was
never quoted, so "How do I convert factors to numeric?" got no answer)."""
from __future__ import annotations

import json
from pathlib import Path

from app.llm.offline.sentences import candidate_sentences
from tests.conftest import AS_OF, run_cli
from workers.sources import Passage

FAQ = """# 7.10 How do I convert factors to numeric?

It may happen that when reading numeric data into R, they come in as factors. If f is such
a factor object, you can use

```
as.numeric(as.character(f))
```

to get the numbers back. More efficient, but harder to remember, is

```
as.numeric(levels(f))[as.integer(f)]
```

In any case, do not call as.numeric() directly for the task at hand.

For a listing, the loop reads

```
for (i in 1:10) {
  x <- x + i
  y <- y * i
  print(x)
}
```

and prints each sum.
"""


def _quotes(text: str, ref: str = "faq.md#0") -> list[str]:
    passage = Passage(ref, "faq.md", "faq.md", "faq.md", text)
    return [s.text for s in candidate_sentences([(0, passage)])]


def test_a_sentence_running_through_short_code_is_quoted_with_it() -> None:
    quotes = _quotes(FAQ.split("\n", 2)[2])
    joined = [q for q in quotes if "as.numeric(as.character(f))" in q]
    assert joined == ["If f is such\na factor object, you can use\n\n```\n"
                      "as.numeric(as.character(f))\n```\n\nto get the numbers back."], quotes
    # a sentence whose rest starts a new one ("In any case"), or a long listing, is not joined
    assert not any("levels(f)" in q or "x <- x + i" in q for q in quotes), quotes


def test_how_to_answer_that_is_code_leads_the_report(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "faq.md").write_text(FAQ, encoding="utf-8")
    proc = run_cli("research", "How do I convert factors to numeric?", "--as-of", AS_OF,
                   "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = report.split("## Answer", 1)[1].split("##", 1)[0]
    assert "as.numeric(as.character(f))" in answer.strip().splitlines()[0], report


def test_a_sentence_cut_at_the_code_opening_a_passage_is_no_finding_nor_excerpt() -> None:
    # trial 51, N2: "the compiler and other settings having been set ..." (after a Makefile
    # that opens the passage) was a finding, and "can be used to assign values to R
    # variables." (a passage cut after code) a Top passage's excerpt
    from app.research.citations import excerpt

    after_code = ("```\nCC = gcc\nLIBS = -lm\n```\n\nthe compiler and other settings having "
                  "been set as Make variables by a makefile. R then builds the package.")
    assert _quotes(after_code, "faq.md#3") == ["R then builds the package."]  # not its first
    cut = ("can be used to assign values to R variables. defineVar creates a new binding or "
           "changes the value of an existing binding.")
    assert excerpt(cut, about=["variables"]).startswith("defineVar creates")
    assert excerpt(after_code, about=["variables"]) == "R then builds the package."


def test_a_passages_heading_line_is_never_its_excerpt() -> None:
    # trial 51, N3: "Appendix A A sample session: Appendix A A sample session" as a Top passage
    from app.research.citations import excerpt

    text = ("Appendix A A sample session\n\nThe following session is intended to introduce "
            "to you some features of the R environment by using them.")
    assert excerpt(text, about=["sample", "session"]).startswith("The following session")


def test_an_excerpt_that_introduces_code_shows_the_code() -> None:
    # trial 51, N2: "Suitable flags ... can be found by" ended a Top passage, its code dropped
    from app.research.citations import excerpt

    text = ("Suitable flags to compile and link against the R library can be found by\n\n"
            "```\nR CMD config --cppflags\nR CMD config --ldflags\n```\n\nThese are needed by "
            "front-ends that embed R in another program.")
    assert excerpt(text, about=["flags"]) == (  # its lines kept (trial 121, F6)
        "Suitable flags to compile and link against the R library can be found by\n\n"
        "```\nR CMD config --cppflags\nR CMD config --ldflags\n```")


def test_trial_52s_quoting_faults() -> None:
    from app.llm.offline.code_quotes import with_code
    from app.research.citations import excerpt
    from app.research.text import clip

    # F12: a passage opening with a command's name is no cut tail (only a function word is)
    cmd = "iptables loads its firewall rules from the rules file at boot. Logs go to syslog."
    assert excerpt(cmd, about=["iptables", "rules"]).startswith("iptables loads")
    # F13: a numbered FAQ question restates the question; the answer after it is the excerpt
    faq = "Q3. What happens when the queue is full?\n\nNew messages are rejected with error 503."
    assert excerpt(faq, about=["queue", "full"]).startswith("New messages are rejected")
    # F10: the rest after the code ends where the sentence does, not at "e.g."
    text = ("To install it, run\n\n```\npip install foo\n```\n\nfrom a shell, e.g. bash or "
            "zsh, as root. Then restart.")
    assert with_code(text, 0, "To install it, run", 400, 60).endswith("zsh, as root.")
    # F8, F9: on one line a block is a code span without its language, ~~~ fences too, and
    # of one backtick (trial 121, F11: "Finally, run ``` $ git bisect reset ``` to return")
    assert clip("Run\n\n```sh\npip install foo\n```\n\nfirst.", 80) == (
        "Run `pip install foo` first.")
    assert clip("Run\n\n~~~\nimport foo\nfoo.go()\n~~~\n\nfirst.", 80) == (
        "Run `import foo foo.go()` first.")
    assert clip("Run\n\n```\necho `date`\n```", 80) == "Run `` echo `date` ``"


def test_a_sentence_announcing_the_code_after_it_is_quoted_with_it() -> None:
    # rsyslog's omfwd: "The following command sends all syslog messages to a remote server via
    # TCP port 10514." was a finding without its action(...) line (trial 78, F7)
    text = ("Example 1\n\nThe following command sends all relay messages to a remote server via "
            "TCP port 10514.\n\n```\naction(type=\"omfwd\" Target=\"192.168.2.11\" "
            "Port=\"10514\" Protocol=\"tcp\")\n```\n\nExample 2\n\nAn input reads the messages "
            "of a file line by line.")
    texts = [s.text for s in candidate_sentences([(0, Passage("fwd#3", "fwd", "fwd", "fwd",
                                                               text))])]
    assert texts[0].startswith("The following command sends all relay messages"), texts
    assert texts[0].endswith('Protocol="tcp")\n```'), texts


def test_a_lead_ins_doctest_is_shown_by_whole_statements() -> None:
    # Trial 98, F5: lxml's "... accepts a CSS selector expression as input:" was shown with its
    # doctest cut inside a statement, "`>>> from lxml.cssselect import CSSSelector >>>…`",
    # against the README's "No bullet is cut out of a doctest"
    from app.research.citations import excerpt

    text = ("The most important class in the lxml.cssselect module is CSSSelector. It provides "
            "the same interface as the XPath class, but accepts a CSS selector expression as "
            "input:\n\n```\n>>> from lxml.cssselect import CSSSelector\n>>> sel = CSSSelector("
            "'div.content')\n>>> sel.css\n'div.content'\n>>> root = etree.XML('<div><p/></div>')"
            "\n>>> [e.tag for e in sel(root)]\n['div']\n```")
    shown = excerpt(text, about=["css", "selector", "expression"])
    # since trial 121 (F6) the doctest is shown whole, as the fenced block it is
    assert shown.endswith("input:\n\n```\n>>> from lxml.cssselect import CSSSelector\n>>> sel"
                          " = CSSSelector('div.content')\n>>> sel.css\n'div.content'\n>>> root ="
                          " etree.XML('<div><p/></div>')\n>>> [e.tag for e in sel(root)]\n"
                          "['div']\n```"), shown
