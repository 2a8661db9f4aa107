"""A BSD man page's mdoc(7) source (``.Dd``/``.Dt``/``.Os``: OpenSSH's ``ssh.1`` and
``ssh_config.5``, ``tmux.1``) in a ``--corpus`` folder is read as its reader sees it: such pages
were indexed as raw text, titled by file names, and reports quoted ``.Cm``, ``.Xr``, ``.It``,
``.Ta`` and the ``.\\"`` licence comments (trial 76, F1). Only synthetic pages here."""

from __future__ import annotations

import gzip
from pathlib import Path

from workers.sources import Corpus
from workers.sources.manpage import is_man_page
from workers.sources.markdownpage import markdown_page
from workers.sources.mdocpage import is_mdoc_page, mdoc_markdown

PAGE = r""".\"
.\" Copyright (c) 2024 The Quill Authors.  All rights reserved.
.\" Redistribution and use in source and binary forms, with or without
.\" modification, are permitted provided that the conditions are met.
.\"
.\" $OpenBSD: quillctl.1,v 1.2 2024/05/07 quill Exp $
.Dd $Mdocdate: May 7 2024 $
.Dt QUILLCTL 1
.Os
.Sh NAME
.Nm quillctl
.Nd quill link control client
.Sh SYNOPSIS
.Nm quillctl
.Bk -words
.Op Fl 46v
.Op Fl L Ar port
.Op Fl o Ar option
.Ar destination
.Ek
.Sh DESCRIPTION
.Nm
opens quill links to a
.Ar destination ,
as
.Xr quilld 8
permits.
.Pp
The options are as follows:
.Bl -tag -width Ds
.It Fl 4
Forces
.Nm
to use IPv4 addresses only.
.It Fl L Ar port
Forwards the local
.Ar port
to the quill server, which relays every write on it to the linked variable.
.It Fl o Ar option
Gives an option in the format of the configuration file.
.El
.Pp
The configuration file holds these keywords:
.Bl -tag -width Ds
.It Cm KeepAlive
Sets whether the client sends keepalive probes to the quill server
.Pq default Dq yes .
.El
.Pp
The link states are:
.Bl -column "StateXX" "Meaning" -offset indent
.It Sy State Ta Sy Meaning
.It Li open Ta "The link is up"
.It Li closed	The link is down
.El
.Sh EXAMPLES
A link to a remote host:
.Bd -literal -offset indent
$ quillctl -L 7000 remote.example.org
.Ed
.Sh SEE ALSO
.Xr quill_config 5 ,
.Xr quilld 8
"""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "quillctl.1.gz").write_bytes(gzip.compress(PAGE.encode()))
    (folder / "README").write_text("Quill\n=====\n\nA library of linked variables.\n",
                                   encoding="utf-8")
    return folder


def test_a_folders_mdoc_page_is_read_as_its_reader_sees_it(tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=_folder(tmp_path)) as corpus:
        hits = corpus.search("What does the -L option do?", k=3)
    top = hits[0]
    assert top.doc_id.startswith("quillctl.1.gz"), hits
    assert "Forwards the local port to the quill server" in top.text, top.text
    for macro in (".It", "Fl ", ".Xr", ".\\\"", ".Pp", ".Bl", "Copyright"):
        assert macro not in top.text, (macro, top.text)
    assert top.title == "quillctl — quill link control client", top


def test_a_page_is_titled_by_its_name_section_and_cut_at_its_sections() -> None:
    page = markdown_page(mdoc_markdown(PAGE))
    assert page.title == "quillctl — quill link control client"
    text = page.text
    assert "## SYNOPSIS" in text and "## DESCRIPTION" in text and "## SEE ALSO" in text
    assert "## NAME" not in text and "Copyright" not in text and "Mdocdate" not in text
    assert "quillctl [-46v] [-L port] [-o option] destination" in text, text
    assert "quillctl opens quill links to a destination, as quilld(8) permits." in text, text
    assert "quill_config(5), quilld(8)" in text, text


def test_list_items_are_labels_before_their_description() -> None:
    blocks = markdown_page(mdoc_markdown(PAGE)).text.split("\n\n")
    at = blocks.index("-L port")
    assert blocks[at + 1].startswith("Forwards the local port to the quill server"), blocks
    at = blocks.index("KeepAlive")
    assert blocks[at + 1] == ("Sets whether the client sends keepalive probes to the quill "
                              "server (default “yes”)."), blocks
    assert blocks[blocks.index("-4") + 1] == "Forces quillctl to use IPv4 addresses only."


def test_column_lists_are_rows_and_literal_displays_code() -> None:
    text = markdown_page(mdoc_markdown(PAGE)).text
    assert ("State — Meaning\nopen — The link is up\nclosed — The link is down") in text, text
    assert "```\n$ quillctl -L 7000 remote.example.org\n```" in text, text


def _body(source: str) -> list[str]:
    """The blocks of ``source`` (mdoc lines of a DESCRIPTION) after its heading, as read."""
    text = markdown_page(mdoc_markdown(f".Dd May 7, 2024\n.Dt X 1\n.Sh DESCRIPTION\n{source}")).text
    return text.split("\n\n")[2:]


def test_inline_macros_print_their_words() -> None:
    assert _body(
        ".Fl v Ar file , Cm Host , Ic bind-key , Va TERM , Ev HOME , Pa /etc/x .\n"
        ".Li x Em y Sy z No w Dv NULL Er EINVAL Fn open path flags Fa fd Ft int\n"
        ".Ql C-b d\n.Dq quoted\n.Sq single\n.Qq plain\n.Aq angle\n.Brq brace\n.Pq paren\n"
        ".Lk https://example.org site Mt me@example.org At v7 Bx 4.4 Ux St -p1003.1\n"
        ".Lb libc An Jane Doe\n") == [
        "-v file, Host, bind-key, TERM, HOME, /etc/x. x y z w NULL EINVAL open(path, flags) "
        "fd int ‘C-b d’ “quoted” ‘single’ \"plain\" <angle> {brace} (paren) site "
        "(https://example.org) me@example.org AT&T UNIX v7 4.4BSD UNIX IEEE Std 1003.1 "
        "(“POSIX.1”) library “libc” Jane Doe"]
    assert _body(".Op Fl a Dq b ,\nc\n") == ["[-a “b”], c"]  # an enclosure: to the line's end


def test_ns_op_and_xr_join_and_enclose() -> None:
    assert _body(
        ".Op Fl w Ar local Ns Op : Ns Ar remote\n.Xr ssh 1 ,\n.Xr sshd 8 .\n"
        ".Oo Fl b Oc Po x Pc\n.Nm\ndoes it.\n") == [
        "[-w local[:remote]] ssh(1), sshd(8). [-b] (x) does it."]  # no page name yet: ""


def test_sm_off_glues_an_items_words_across_its_xo_lines() -> None:
    blocks = _body(
        ".Bl -tag -width Ds\n.It Fl L Xo\n.Sm off\n.Oo Ar bind_address : Oc\n"
        ".Ar port : host : hostport\n.Sm on\n.Xc\n.It Fl L Xo\n.Sm off\n"
        ".Ar local_socket : remote_socket\n.Sm on\n.Xc\nForwards a port.\n.El\n")
    assert blocks == ["-L [bind_address:]port:host:hostport\n-L local_socket:remote_socket",
                      "Forwards a port."], blocks


def test_lists_and_displays() -> None:
    assert _body(
        ".Bl -bullet\n.It\nOne.\n.It\nTwo.\n.El\n.Bl -enum\n.It\nFirst.\n.It\nSecond.\n.El\n"
        ".Bd -filled\nFilled\ntext.\n.Ed\n.Dl $ quill \\-v\n.Dl $ quill \\-h\n"
        ".D1 Ic set -g status on\n.Bd -unfilled\n.Ic a\nb\n.Pp\nc\n.Ed\n") == [
        "• One.", "• Two.", "1. First.", "2. Second.", "Filled text.",
        "```\n$ quill -v\n$ quill -h\n```", "set -g status on", "```\na\nb", "c\n```"]


def test_what_is_an_mdoc_page() -> None:
    assert is_mdoc_page(PAGE) and not is_man_page(PAGE)
    assert is_mdoc_page(".Dt LS 1\n.Os\n")
    assert not is_mdoc_page(".TH LS 1\n.SH NAME\nls \\- list\n")
    assert not is_mdoc_page("Quill\n=====\n\n.Dd is an mdoc macro.\n")
    assert mdoc_markdown(".Dd May 7, 2024\n.Dt LS 1\n.Sh DESCRIPTION\nLists.\n").startswith(
        "# LS(1)\n\n## DESCRIPTION\n\nLists.")  # no NAME section: name(section) from .Dt
