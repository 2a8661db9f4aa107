"""A man page's troff source in a ``--corpus`` folder is read as its reader sees it: a folder of
Tcl's man pages (``Tcl_LinkVar.3tcl.gz``) was read as plain text, titled by file names, and
reports quoted ``.SH NAME``, ``\\fB...\\fR``, the pages' ``.de MT`` macro definitions and their
``'\\" Copyright`` lines. Only synthetic pages here: the tests need nothing outside the repo."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from workers.sources import Corpus
from workers.sources.manpage import is_man_page, man_markdown
from workers.sources.markdownpage import markdown_page

PAGE = r"""'\"
'\" Copyright (c) 2024 The Quill Authors.
'\" See the file "license.terms" for information on usage.
'\"
.TH quill_link 3qx 1.2 Quill "Quill Library Procedures"
.\" The macros below are the page's own, as Tcl's pages define theirs.
.de MT
.QW ""
..
.de QW
.ie '\\*(lq'"' ``\\$1''\\$2
.el \\*(lq\\$1\\*(rq\\$2
..
.if t .wh -1.3i ^B
.ie n \{\
.   ds Qx quill
.\}
.el \{\
.   ds Qx QUILL
.\}
.nr ^l \n(.l
.ad b
.SH NAME
quill_link, quill_unlink \- bind a quill variable to a C variable
.SH SYNOPSIS
.nf
\fB#include <quill.h>\fR
.sp
int
\fBquill_link\fR(\fIinterp, name, addr\fR)
.fi
.SH DESCRIPTION
.PP
\fBquill_link\fR keeps the quill variable named by \fIname\fR in sync
with the C variable at the address given by \fIaddr\fR.
Whenever the quill variable is written the C variable is updated.
.PP
The \fItype\fR argument must be one of:
.TP
\fBQUILL_LINK_INT\fR
The C variable is of type \fBint\fR.
.TP
.B QUILL_LINK_STRING
The C variable is of type \fBchar *\fR; the string is copied.
.SH "SEE ALSO"
quill_trace(3qx)
"""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "quill.3qx.gz").write_bytes(gzip.compress(PAGE.encode()))
    (folder / "quill.1").write_text(
        PAGE.replace("quill_link", "quillctl").replace("3qx", "1"), encoding="utf-8")
    (folder / "README").write_text("Quill\n=====\n\nA library of linked variables.\n",
                                   encoding="utf-8")
    return folder


def test_a_folders_man_pages_are_read_as_their_reader_sees_them(tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=_folder(tmp_path)) as corpus:
        hits = corpus.search("What does quill_link do?", k=3)
    top = hits[0]
    assert top.doc_id.startswith("quill.3qx.gz"), hits
    assert "keeps the quill variable named by name in sync with the C variable" in top.text
    for troff in ("\\f", ".TP", ".SH", "'\\\"", ".de", "\\*(lq", "..\n", ".nr"):
        assert troff not in top.text, (troff, top.text)
    assert top.title == "quill_link, quill_unlink — bind a quill variable to a C variable", top


def test_a_page_is_titled_by_its_name_line_and_cut_at_its_sections() -> None:
    page = markdown_page(man_markdown(PAGE))
    assert page.title == "quill_link, quill_unlink — bind a quill variable to a C variable"
    text = page.text
    assert "## SYNOPSIS" in text and "## DESCRIPTION" in text and "## SEE ALSO" in text
    assert "## NAME" not in text  # the title says it
    assert "```\n#include <quill.h>\n\nint\nquill_link(interp, name, addr)\n```" in text, text
    assert "Copyright" not in text and "QW" not in text and "QUILL\n" not in text


def test_tp_labels_are_paragraphs_of_their_own_before_their_description() -> None:
    text = markdown_page(man_markdown(PAGE)).text
    assert ("QUILL_LINK_INT\n\nThe C variable is of type int.\n\n"
            "QUILL_LINK_STRING\n\nThe C variable is of type char *; the string is copied."
            ) in text, text


def test_tq_adds_a_label_line_and_ip_labels_its_paragraph() -> None:
    page = markdown_page(man_markdown(
        ".TH LS 1\n.SH OPTIONS\n.TP\n.B \\-a\n.TQ\n.B \\-\\-all\nShow all.\n"
        ".IP \\(bu 2\nA bullet point.\n.IP \"\\fB\\-\\-color\\fR[=\\fIWHEN\\fR]\"\nColour it.\n"))
    assert page.text.split("\n\n")[2:] == [
        "-a\n--all", "Show all.", "• A bullet point.", "--color[=WHEN]", "Colour it."], page.text
    assert page.title == "LS(1)"  # no NAME section: name(section) from .TH


def test_tcl_argument_descriptions() -> None:
    page = markdown_page(man_markdown(
        '.TH Tcl_LinkVar 3 7.5 Tcl\n.SH ARGUMENTS\n.AS Tcl_Interp writable\n'
        '.AP Tcl_Interp *interp in\nInterpreter that contains \\fIvarName\\fR.\n'
        '.AP "const char" *varName in\nName of global variable.\n'
        '.AP int flags\nOR-ed flags.\n.BE\n'))
    assert page.text.split("\n\n")[2:] == [
        "Tcl_Interp *interp (in)", "Interpreter that contains varName.",
        "const char *varName (in)", "Name of global variable.", "int flags", "OR-ed flags."
    ], page.text


def test_escapes_print_what_they_stand_for() -> None:
    text = markdown_page(man_markdown(
        ".TH X 1\n.SH DESCRIPTION\n"
        "\\fBbold\\fR \\fIital\\fP \\f(CWcw\\fR \\f[B]br\\f[] \\-n \\(em \\(en \\(aq \\(dq "
        "\\(lqq\\(rq \\*(lqs\\*(rq \\(bu \\(co \\e \\\\ a\\&b c\\|d e\\^f \\%g h\\c\n"
        "i \\s-1small\\s0 \\s+2big\\s0 x\\ y \\(xx \\*X \\*(Zz \\*[foo] \\n(.l end\n")).text
    assert text.split("\n\n")[2] == (
        "bold ital cw br -n — – ' \" “q” “s” • © \\ \\ ab cd ef g h i small big x y end"), text


def test_alternating_fonts_join_their_arguments() -> None:
    text = markdown_page(man_markdown(
        '.TH X 1\n.SH SEE ALSO\n.BR ls (1),\n.BI \\-\\-file= name\n'
        '.B "two words" more\n.IR "a b" " c"\n')).text
    assert text.split("\n\n")[2] == "ls(1), --file=name two words more a b c", text


def test_code_blocks_keep_their_lines_and_drop_their_requests() -> None:
    text = markdown_page(man_markdown(
        ".TH X 1\n.SH EXAMPLES\n.EX\n$ quill \\-\\-link \\fIname\\fR\n  indented  line\n"
        ".ft B\n.EE\nAfter.\n.nf\n```\n.fi\n")).text
    assert "```\n$ quill --link name\n  indented  line\n```\n\nAfter." in text, text
    assert "````\n```\n````" in text, text  # a fence in the code: a longer fence around it


def test_links_conditionals_macros_and_layout_requests_leave_no_trace() -> None:
    text = markdown_page(man_markdown(
        ".TH X 1\n.SH BUGS\nReport them at\n.UR https://example.org/bugs\nthe tracker\n"
        ".UE .\n.RS 4\n.in +2\n.ta 1i\n.if t \\{\\\n.  ds x y\nhidden text\n.\\}\n"
        ".ig\nignored text\n..\n.de XX\nmacro text\n..\n.ne 5\n.ft R\n.RE\nVisible.\n")).text
    assert text.split("\n\n")[2:] == [  # .RS and .RE: an indented block, its own paragraph
        "Report them at the tracker (https://example.org/bugs).", "Visible."], text


def test_lines_that_would_read_as_markdown_stay_text() -> None:
    text = markdown_page(man_markdown(
        ".TH X 1\n.SH NOTES\n# not a heading\n.br\n- not a list\n.br\n1. not a list\n"
        ".PP\n* star and <file> and char *a, *b\n")).text
    assert text.split("\n\n")[2:] == [
        "# not a heading\n- not a list\n1. not a list",
        "* star and <file> and char *a, *b"], text


def test_a_page_that_is_only_a_link_renders_to_nothing(tmp_path: Path) -> None:
    link = ".so man3/quill_link.3qx\n"
    assert is_man_page(link) and man_markdown(link) == ""
    assert man_markdown("'\\\" a comment\n.so man3/x.3\n") == ""
    folder = _folder(tmp_path)
    (folder / "quill_unlink.3qx.gz").write_bytes(gzip.compress(link.encode()))
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("quill_unlink", k=5)
    assert hits and all(not hit.doc_id.startswith("quill_unlink") for hit in hits), hits


def test_what_is_a_man_page() -> None:
    assert is_man_page(PAGE)
    assert is_man_page(".\\\" generated\n.de Sp\n.if t .sp .5v\n..\n.TH FOO 1 2024\n")
    assert not is_man_page("Quill\n=====\n\nSee .TH in troff(1).\n.TH late\n")
    assert not is_man_page("# Quill\n\nA README.\n")
    assert not is_man_page(".Dd May 7, 2024\n.Dt LS 1\n.Sh NAME\n")  # mdoc: not man(7)


MUTT = r""".TH quillrc 5 "May 2024" Quill "Quill Manual"
.SH NAME
quillrc \- configuration file for the quill link client
.SH DESCRIPTION
The quill client reads its variables from this file.
.SH VARIABLES
.TP
.B quill_check
.nf
Type: number
Default: 5
.fi
.IP
This variable configures how often (in seconds) quill should look for new links.
.TP
.B quill_mode
.nf
Type: string
Default: \(lqfast\(rq
.fi
.IP
How quill writes its links.
.TP
.B quill_example
.nf
quill -L 7000 remote
Type: number
.fi
"""


def test_a_display_of_field_rows_is_paragraphs_not_code() -> None:
    """muttrc writes a variable's type and default as an ``.nf`` display (trial 76, F2): fenced
    as code, "What is the default value of mail_check?" never found its ``Default: 5`` row."""
    blocks = markdown_page(man_markdown(MUTT)).text.split("\n\n")
    at = blocks.index("quill_check")
    assert blocks[at:at + 4] == [
        "quill_check", "Type: number", "Default: 5",
        "This variable configures how often (in seconds) quill should look for new links."
    ], blocks
    assert "Default: “fast”" in blocks, blocks
    assert "```\nquill -L 7000 remote\nType: number\n```" in blocks, blocks  # not only rows


def test_a_research_run_reads_a_variables_default(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "quillrc.5.gz").write_bytes(gzip.compress(MUTT.encode()))
    (folder / "README").write_text("Quill\n=====\n\nA library of linked variables.\n",
                                   encoding="utf-8")
    done = run_cli("research", "What is the default value of quill_check?", "--as-of", AS_OF,
                   "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert done.returncode == 0, done.stderr
    report = Path(json.loads(done.stdout)["report_path"]).read_text(encoding="utf-8")
    answer = report.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "Default: 5" in answer, report


def test_strings_defined_by_doubling_stay_bounded() -> None:
    # trial 77, F1: 30 strings each defined as two of the one before ("billion laughs"), an
    # 803-byte page, held an index build for 5 minutes in 22 GB
    from workers.sources.troffpage import STRING_CHARS, page_budget

    lines = [".TH LAUGH 1", ".ds L40 lol"]
    lines += [f".ds L{n} \\*[L{n + 1}]\\*[L{n + 1}]" for n in range(39, 9, -1)]
    page = "\n".join([*lines, ".SH NAME", "laugh \\- a page", ".SH DESCRIPTION",
                      *(["\\*[L10] \\*[L10]"] * 200), ""])
    text = man_markdown(page)
    assert len(text) <= page_budget(page) + 1000
    assert "lollol" in text and len(max(text.split(), key=len)) <= STRING_CHARS


def test_troff_without_a_title_request_is_read_as_troff() -> None:
    # trial 77, F4: a page of comments only and one of ".B" lines had no .TH among their first
    # requests, were read as plain text, and a report's Answer quoted '.\" comment number 0'
    comments = "".join(f'.\\" comment number {n} about nothing\n' for n in range(50))
    bold = "".join(f".B word{n}\n" for n in range(300))
    assert is_man_page(comments) and man_markdown(comments) == ""
    assert is_man_page(bold) and ".B" not in man_markdown(bold)
    assert not is_man_page("Notes\n=====\n\n.B is a request.\nSo is .TH, in troff.\n")


def test_the_branches_man_shows_are_read() -> None:
    # trial 77, F3: every conditional's body was dropped, the nroff branches `man` shows too
    # (bash(1)'s list of character classes)
    page = (".TH COND 1\n.SH DESCRIPTION\n.if n Alpha nroff line.\n.if t Beta troff line.\n"
            ".ie n Gamma nroff branch.\n.el Delta troff branch.\n.if n \\{\\\nEpsilon nroff "
            "block.\n.\\}\n.if t \\{\\\nZeta troff block.\n.\\}\n.ie t \\{\\\nEta troff.\n"
            ".\\}\n.el \\{\\\nTheta nroff el block.\n.\\}\nMu final line.\n")
    text = markdown_page(man_markdown(page)).text
    for shown in ("Alpha", "Gamma", "Epsilon", "Theta", "Mu"):
        assert shown in text, text
    for hidden in ("Beta", "Delta", "Zeta", "Eta"):
        assert hidden not in text, text


def test_a_page_that_is_a_link_is_named_as_one(tmp_path: Path) -> None:
    # trial 77, F6: "init.1.gz: skipped, no text" for ".so man1/systemd.1"
    folder = tmp_path / "man1"
    folder.mkdir()
    (folder / "quill.1").write_text(".TH QUILL 1\n.SH NAME\nquill \\- links variables\n"
                                    ".SH DESCRIPTION\nQuill links variables.\n", encoding="utf-8")
    (folder / "qu.1").write_text(".so man1/quill.1\n", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        notes = list(corpus.notes)
    assert any("qu.1" in n and "a link to another man page (man1/quill.1)" in n
               for n in notes), notes
