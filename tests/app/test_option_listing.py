"""A command's options listed in a code block (Ant's "Command-line Options Summary", a
``<pre>`` of ``-keep-going, -k  execute all targets ...`` lines): "What does the -keep-going
option do?" was warned as saying nothing (trial 78, F1), for three reasons, each a kind: the
search's focus (the run's topic) dropped "keep" and "going" as filler words although the
question writes them as code, so the search looked for "option" alone; a listing is code, and
code ranks at half, below a task's "note errors but keep going"; and a passage of code was shown
from its first line, not from the option asked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from workers.sources.query import search_query

RUNNING = """<html><head><title>Running Apache Bee</title></head><body>
<h1>Running Apache Bee</h1>
<p>Bee is run from the command line with the name of a target.</p>
<h2>Command-line Options Summary</h2>
<pre>
bee [options] [target [target2 [target3] ...]]
Options:
  -help, -h              print this message and exit
  -projecthelp, -p       print project help information and exit
  -quiet, -q             be extra quiet
  -logfile &lt;file&gt;        use given file for log
  -keep-going, -k        execute all targets that do not depend
                         on failed target(s)
  -propertyfile &lt;name&gt;   load all properties from file
</pre>
</body></html>
"""
IMAGE = """<html><head><title>Image Task</title></head><body>
<h1>Image Task</h1>
<h2>Parameters</h2>
<p>failonerror: Boolean value. If false, note errors to the output but keep going. This
option is not required and defaults to true.</p>
<p>The image task keeps going when one of the images cannot be read, and reports it.</p>
</body></html>
"""


def test_the_focus_keeps_the_words_written_as_code() -> None:
    topic = "What does the -keep-going option do?"
    query = search_query(topic, focus=topic)
    assert query is not None and {"keep", "going"} <= set(query.terms), query


def test_the_options_line_of_a_listing_answers(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "running.html").write_text(RUNNING, encoding="utf-8")
    (folder / "image.html").write_text(IMAGE, encoding="utf-8")
    proc = run_cli("research", "What does the -keep-going option do?", "--as-of", AS_OF,
                   "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert not out.get("warnings"), out
    report = Path(out["report_path"]).read_text("utf-8")
    answer = report.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    first = answer.strip().splitlines()[0]
    assert "-keep-going, -k execute all targets that do not depend" in first, report


def test_each_line_of_a_list_of_options_is_its_own_sentence() -> None:
    # libtasn1's PDF: an Answer quoted the whole table, "-b, --benchmark perform a benchmark
    # on decoding -s, --strict use strict DER decoding -t, ..." (trial 105, F8)
    from app.llm.offline.sentences import split_sentences

    table = ("-b, --benchmark perform a benchmark on decoding\n-s, --strict use strict DER "
             "decoding\n-t, --no-time-strict use strict DER decoding but not in time fields")
    assert split_sentences(table)[1] == "-s, --strict use strict DER decoding"
    # prose wrapped before an option is one sentence still
    prose = "For example, use the\n--strict option to check it."
    assert split_sentences(prose) == [prose]


def test_a_wrapped_options_description_goes_on_with_its_entry() -> None:
    # trial 113, F6: GNU --help wraps a description onto lines aligned under it; one starting
    # with an option ("--dry-run first, ...") was read as the next entry, and the entry before
    # it ran into the next option's
    from app.llm.offline.sentences import split_sentences

    table = ("  -n, --dry-run          show what would be copied, and change\n"
             "                         nothing on either side\n"
             "  -d, --delete           remove files that are not in SRC; always run\n"
             "                         --dry-run first, since a wrong DEST loses its files\n"
             "  -v, --verbose          name each file as it is sent")
    said = split_sentences(table)
    assert not any(s.startswith("--dry-run first") for s in said), said
    assert any(s.strip().startswith("-d, --delete") and s.endswith("loses its files")
               for s in said), said
    assert not any("-n, --dry-run" in s and "--delete" in s for s in said), said


FUNCTIONS = """Math library functions

Function Arguments Returns
abs(x) any absolute value of x, |x|; same type
asinh(x) any sinh^-1 x (inverse hyperbolic sin)
atan2(y,x) int or real tan^-1(y/x) (inverse tangent)
EllipticK(k) real k in (-1:1) K(k) complete elliptic integral of the first kind
besj0(x) int or real J0 Bessel function of x in radians
besj1(x) int or real J1 Bessel function of x in radians
ceil(x) any smallest integer not less than x (real part)
"""


def test_each_row_of_a_table_of_functions_is_its_own_sentence() -> None:
    # gnuplot's PDF: "Function Arguments Returns / asinh(x) any ..." was one sentence, and
    # the Answer quoted the table's first rows, cut before the row asked (trial 115, F7)
    from app.llm.offline.sentences import split_sentences

    said = split_sentences(FUNCTIONS)
    assert "besj0(x) int or real J0 Bessel function of x in radians" in said, said
    assert "abs(x) any absolute value of x, |x|; same type" in said, said  # not the heads'
    prose = "The functions used most are\nabs(x) and ceil(x), with\nbesj0(x) for optics."
    assert split_sentences(prose) == [prose]  # prose wrapped before a call is one sentence


def test_the_row_of_the_function_asked_answers(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "functions.txt").write_text(FUNCTIONS, encoding="utf-8")
    (folder / "plotting.txt").write_text(
        "Plotting\n\nThe plot command draws functions and data. Use set output to write the "
        "plot to a file.\n", encoding="utf-8")
    proc = run_cli("research", "What does the besj0 function return?", "--as-of", AS_OF,
                   "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = report.split("## Answer\n", 1)[1].split("\n## ", 1)[0].strip().splitlines()
    assert answer[0].startswith("- besj0(x) int or real J0 Bessel function"), report


def test_a_long_only_option_under_a_line_of_prose_is_its_own_entry() -> None:
    # GNU ls --help: a line of prose right above the list, long-only options indented deeper
    # than short ones; the Answer ran "--author ... -b, --escape ... --block-size=SIZE ..."
    # together (trial 116, F1)
    from app.llm.offline.sentences import split_sentences

    help_text = (
        "Mandatory arguments to long options are mandatory for short options too.\n"
        "  -a, --all                  do not ignore entries starting with .\n"
        "      --author               with -l, print the author of each file\n"
        "  -b, --escape               print C-style escapes for nongraphic characters\n"
        "      --block-size=SIZE      with -l, scale sizes by SIZE when printing them;\n"
        "                             e.g., '--block-size=M'; see SIZE format below\n")
    said = [" ".join(s.split()) for s in split_sentences(help_text)]
    assert ("--block-size=SIZE with -l, scale sizes by SIZE when printing them; "
            "e.g., '--block-size=M'; see SIZE format below") in said, said
    assert "--author with -l, print the author of each file" in said, said


DECLARATIONS = """Here are the built-in functions for pairs:
pair heading(real degrees)
returns a unit vector pointing the given number of degrees from the x axis;
real xpart(pair z)
returns z.x;
real skew(pair a, pair b, pair c);
returns a positive (negative) value if a, b and c turn counterclockwise (clockwise)
or zero if all three points lie on one line.
Equivalently, a positive value is returned if c lies to the left of the line
through a and b.
"""


def test_each_declaration_of_a_list_of_functions_opens_its_own_entry() -> None:
    # Asymptote's PDF declares each function on a line of its own above its description
    # ("real orient(pair a, pair b, pair c);" over "returns a positive (negative) value if
    # ..."): the list was one run-on sentence, and "What does the orient function return?"
    # was answered by another page's "... is returned by the member function ...".
    from app.llm.offline.sentences import split_sentences

    said = split_sentences(DECLARATIONS)
    assert ("real skew(pair a, pair b, pair c);\nreturns a positive (negative) value if a, b and "
            "c turn counterclockwise (clockwise)\nor zero if all three points lie on one line."
            in said), said
    assert "real xpart(pair z)\nreturns z.x;" in said, said
    prose = "To move it, call\nshift(pair z)\nand draw the result."
    assert split_sentences(prose) == [prose]  # a call wrapped onto its own line in prose


def test_the_declared_function_asked_answers_not_a_sentence_naming_only_its_kind(
        tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "pairs.txt").write_text(DECLARATIONS, encoding="utf-8")
    (folder / "frames.txt").write_text(
        "Frames and pictures\n\nThe transformation that fits a picture to a frame is returned "
        "by the member function pic.fit(). A frame holds what was drawn at its size.\n",
        encoding="utf-8")
    proc = run_cli("research", "What does the skew function return?", "--as-of", AS_OF,
                   "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = report.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    assert answer.strip().startswith("- real skew(pair a, pair b, pair c); returns a positive"), \
        report
    assert "pic.fit()" not in answer, report  # names "function" and "return", not skew
