"""A man page's options are label paragraphs (``-k --keep``) above their descriptions: "What
does the --keep option of gzip do?" answered "No sentence retrieved is about keep or gzip"
(trial 76, F2), for three reasons, each a kind: "keep", a filler word, was dropped from the
search although written as an option; the sentence "Keep (don't delete) input files ..." was
judged the passage's first option's (``-f --force``); and the label's option names did not
count as the sentence's."""

from __future__ import annotations

import gzip
from pathlib import Path

from app.research.neighbours import sentence_entry
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, researched, row
from workers.sources.query import search_query

PAGE = r""".TH QUILL 1
.SH NAME
quill \- compress or expand feather files
.SH OPTIONS
.TP
.B \-f \-\-force
Force compression even if the file has multiple links or the output file already exists.
If the input is not in a format recognized by quill, copy it unchanged.
.TP
.B \-k \-\-keep
Keep (don't delete) input files during compression or decompression.
.TP
.B \-r \-\-recursive
Travel the directory structure recursively.
"""


def test_a_filler_word_written_as_an_option_is_searched() -> None:
    query = search_query("What does the --keep option of quill do?")
    assert query is not None and "keep" in query.terms


def test_a_sentence_belongs_to_the_option_above_it() -> None:
    passage = "-f --force\n\nForce it.\n\n-k --keep\n\nKeep (don't delete) input files."
    assert sentence_entry(passage, "Keep (don't delete) input files.") == "-k --keep"


def test_the_options_description_answers(tmp_path: Path) -> None:
    folder = tmp_path / "man"
    folder.mkdir()
    (folder / "quill.1.gz").write_bytes(gzip.compress(PAGE.encode()))
    report = researched(folder, "What does the --keep option of quill do?", tmp_path / "data")
    answer = answer_section(report)
    # the option's own sentence, shown under its name as it does not write it (trial 115, F1)
    assert answer.strip().startswith("- `--keep`: Keep (don't delete) input files"), report


_MORE = ("This works by allocating a socket to listen on the local side, and whenever a "
         "connection is made to it, the connection is forwarded over the secure channel. ") * 3
SSH = (r""".TH QSH 1
.SH NAME
qsh \- quill remote login client
.SH DESCRIPTION
The options are as follows:
.TP
.B \-l login_name
Specifies the user to log in as on the remote machine.
""" + _MORE + r"""
.TP
.B \-L [bind_address:]port:host:hostport
.TQ
.B \-L local_socket:remote_socket
Specifies that connections to the given TCP port or Unix socket on the local host are to be
forwarded to the given host and port on the remote side.
""" + _MORE + r"""
.TP
.B \-v
Verbose mode.
""" + _MORE)
SYNC = ("The copier logs in with the user of its prefix. Give an explicit -l option to qsh "
        "to use another login name. " + "The copier keeps the modification times. " * 8)


def test_an_option_of_one_letter_is_searched_and_its_entry_opens_its_page(tmp_path: Path) -> None:
    # "What does the -L option of ssh do?": "-L" was no word, and ssh's entry, four forms a
    # line each above its description, was cut from its description and ranked below other
    # passages of its page (trial 76)
    from workers.sources import Corpus

    folder = tmp_path / "man"
    folder.mkdir()
    (folder / "qsh.1.gz").write_bytes(gzip.compress(SSH.encode()))
    (folder / "copier.txt").write_text(SYNC, encoding="utf-8")
    query = search_query("What does the -L option of qsh do?")
    assert query is not None and "l" in query.terms
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does the -L option of qsh do?", k=3)
    own = [h for h in hits if h.ref.startswith("qsh.1.gz")]  # the page's entry comes first
    assert own and own[0].text.startswith("-L [bind_address:]port:host:hostport\n-L local_"), [
        h.text[:50] for h in hits]
    assert "Specifies that connections" in own[0].text  # its forms, with what they do


# ssh(1)'s -L entry as OpenSSH writes it: its second sentence goes on from the first ("This
# works by ..."), the two too long for one finding
_FORWARD = r""".TP
.B \-L [bind_address:]port:host:hostport
.TQ
.B \-L local_socket:remote_socket
Specifies that connections to the given TCP port or Unix socket on the local (client) host
are to be forwarded to the given host and port, or Unix socket, on the remote side.
This works by allocating a socket to listen to either a TCP port on the local side,
optionally bound to the specified bind_address, or to a Unix socket.
Whenever a connection is made to the local port or socket, the connection is forwarded over
the secure channel.
.TP
.B \-l login_name
Specifies the user to log in as on the remote machine.
"""
_COPIER = ("When the remote shell is already told which user to log in as, the copier does "
           "not add its own '-l', so the prefix is then used only as the copier's user. If "
           "you need the remote-shell (qsh) login to use a different name, give an explicit "
           "'-l' option to qsh in the remote-shell command.\n\n"
           + "The copier keeps the modification times of the files it copies. " * 12)


def test_the_answer_quotes_the_one_letter_options_own_description(tmp_path: Path) -> None:
    # the offline model had no stem of "-L" and took "Specifies that connections ..." for no
    # entry's: the Answer led with "This works by allocating a socket ..." (the sentence after
    # it, alone), and a sentence of rsync's page on ssh's '-l' was a finding (trial 76)
    folder = tmp_path / "man"
    folder.mkdir()
    page = SSH.split(".TP", 1)[0] + _FORWARD
    (folder / "qsh.1.gz").write_bytes(gzip.compress(page.encode()))
    (folder / "copier.txt").write_text(_COPIER, encoding="utf-8")
    report = researched(folder, "What does the -L option of qsh do?", tmp_path / "data")
    answer = answer_section(report)
    assert answer.strip().startswith("- Specifies that connections to the given TCP port"), report


def test_an_options_neighbour_on_the_page_named_by_the_question_is_no_top_passage() -> None:
    # Sphinx: "What does the -W option of sphinx-build do?" showed "-w file: Write warnings
    # (and errors) to the given file" as a Top passage: the page's title names sphinx-build,
    # which made every entry of the page the question's own (trial 81, F7)
    q = "What does the -W option of qbuild do?"
    title = "qbuild — Quill documentation"
    passages = [
        item("passage", "-W\n\nTurn warnings into errors. The build stops at the first warning.",
             "man/qbuild.html#19", score=5.0, title=title, heading="-W"),
        item("passage", "-w file\n\nWrite warnings (and errors) to the given file, in addition "
             "to standard error.", "man/qbuild.html#20", score=4.0, title=title,
             heading="-w file")]
    md = render_markdown(data([row("docs_search", q, passages)], topic=q, sub_questions=[q]))
    assert "Turn warnings into errors" in md, md
    assert "Write warnings (and errors) to the given file" not in md, md


# fstab(5) as asciidoctor writes its list of mount options: each a bold term, its description
# in an indented block, no dash and no full stop
FSTAB = r""".TH FROBTAB 5
.SH NAME
frobtab \- static information about the frob systems
.SH DESCRIPTION
Basic frob-independent options are:
.sp
\fBdefaults\fP
.RS 4
use default options: rw, suid, dev, exec, auto, nouser, and async.
.RE
.sp
\fBnoauto\fP
.RS 4
do not mount when frobmount \-a is given (e.g., at boot time)
.RE
.sp
\fBnofail\fP
.RS 4
do not report errors for this device if it does not exist.
.RE
"""


def test_a_man_pages_list_term_without_a_dash_is_an_entry(tmp_path: Path) -> None:
    # Trial 87, FA3: "What does the noauto option do?" never showed fstab's "do not mount when
    # mount -a is given (e.g., at boot time)": a term alone on its paragraph was no entry
    folder = tmp_path / "man"
    folder.mkdir()
    (folder / "frobtab.5.gz").write_bytes(gzip.compress(FSTAB.encode()))
    report = researched(folder, "What does the noauto option do?", tmp_path / "data")
    assert answer_section(report).strip().startswith("- `noauto`: do not mount when"), report
