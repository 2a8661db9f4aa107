"""A man page groff rendered to HTML, its text in one ``<pre>`` (Postfix's manual: qshape.1,
postsuper.1, postscreen.8): its words broken at line ends are whole again, and a compound it
writes with its hyphen keeps it (trial 114, F3); its section names head its passages, and an
option list is entries, each its name then its description (trial 114, F4)."""

from __future__ import annotations

from workers.sources.htmlpage import html_page
from workers.sources.hyphens import compounds, dehyphenated
from workers.sources.manpre import man_parts

MAN = """<html><head><title>Postfix manual - qshape(1)</title></head><body><pre>
       The <b>qshape</b> program helps the administrator understand the Postfix queue
       message distribution in time and by sender domain or recipient  domain.
       It reads each queue subdirec-
       tory and shows the queue dis-
       tribution. Mail for the <a href="trivial-rewrite.8.html">trivial-
       rewrite(8)</a> daemon waits to con-
       tact a malfunctioning message delivery transport. The trivial-rewrite(8)
       server is asked once.
</pre></body></html>"""


def test_a_word_groff_broke_at_a_lines_end_is_whole_again() -> None:
    text = html_page(MAN).text
    for whole in ("each queue subdirectory", "the queue distribution",
                  "waits to contact a malfunctioning", "the trivial-rewrite(8) daemon"):
        assert whole in text, text
    assert "- " not in text, text


def test_a_compound_keeps_its_hyphen_unless_the_document_writes_it_joined() -> None:
    keep = compounds(["the post-queue filter and the trivial-rewrite daemon", "postqueue -p"])
    assert keep == frozenset({"trivial-rewrite"})
    text = "a post-\n   queue filter; the trivial-\n   rewrite daemon; mes-\n   sage"
    assert dehyphenated(text, keep) == "a postqueue filter; the trivial-rewrite daemon; message"


PAGE = """<html><head><title>Postfix manual - qshape(1)</title></head><body><pre>
QSHAPE(1)                                                            QSHAPE(1)

<b>NAME</b>
       qshape - Print Postfix queue domain and age distribution

<b>SYNOPSIS</b>
       <b>qshape</b> [<b>-s</b>] [<b>-m</b> <i>min</i><b>_</b><i>subdomains</i>]
               [<i>queue</i><b>_</b><i>name</i> ...]

<b>DESCRIPTION</b>
       The <b>qshape</b> program helps the administrator understand the Postfix queue
       message distribution in time and by sender domain or recipient  domain.

       Options:

       <b>-s</b>     Display  the sender domain distribution instead of the recipient
              domain distribution.

       <b>-m</b> <i>min</i><b>_</b><i>subdomains</i>
              Sets the minimum subdomain count needed to show a separate line
              for a parent domain. The default is 5.

       <i>queue</i><b>_</b><i>name</i>
              By default qshape displays the combined distribution of the
              incoming and active queues.

       The names of parent domains are shown with a leading dot.

<b>MYSQL PARAMETERS</b>
       <b>user, password</b>
              The user name and password to log into the mysql server.
              Example:
                  user = someone
                  password = some_password

       <b>dbname</b> The database name on the servers.

       Available in Postfix 3.4 and later:

       <b><a href="postconf.5.html#virtual_alias_maps">virtual_alias_maps</a> ($virtual_maps)</b>
              Optional lookup tables that alias specific mail addresses or
              domains to other local or remote addresses.

<b>SEE ALSO</b>
       <a href="postqueue.1.html">postqueue(1)</a>, Postfix queue control

                                                                     QSHAPE(1)
</pre></body></html>"""


def test_a_man_pages_section_names_head_its_passages_and_its_options_are_entries() -> None:
    page = html_page(PAGE)
    sections = dict(page.sections)
    for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"):
        assert sections[heading].startswith(f"{heading}\n\n"), page.sections
    assert page.sections[2][1].endswith("recipient domain.\n\nOptions:"), page.sections
    assert sections["-s"] == ("-s\n\nDisplay the sender domain distribution instead of the "
                              "recipient domain distribution.")
    assert sections["-m min_subdomains"].endswith("The default is 5.")
    assert sections["queue_name"].startswith("queue_name\n\nBy default qshape displays")
    assert sections["user, password"].endswith(
        "mysql server. Example:\n\n```\nuser = someone\npassword = some_password\n```")
    assert sections["dbname"] == "dbname\n\nThe database name on the servers."
    assert sections["virtual_alias_maps ($virtual_maps)"] == (
        "virtual_alias_maps ($virtual_maps)\n\nAvailable in Postfix 3.4 and later:\n\nOptional "
        "lookup tables that alias specific mail addresses or domains to other local or remote "
        "addresses.")  # the note between entries opens the one it introduces
    assert ("DESCRIPTION", "DESCRIPTION\n\nThe names of parent domains are shown with a "
            "leading dot.") in page.sections  # the text after a list: under its section
    assert "QSHAPE(1)" not in page.text
    for stuck in ("DESCRIPTION The", "queue_name By default", "password The user"):
        assert stuck not in page.text.replace("\n", " "), page.text


QPURGE = """QPURGE(1)                                                            QPURGE(1)

NAME
       qpurge - remove queued transfers

OPTIONS
       -d queue_id
              Delete the queued transfer queue_id. The files it would have
              copied are left where they are.

       To delete every queued transfer at once, run:

              qpurge -d ALL

       -h id  Put the queued transfer id on hold. A held transfer is
              not started until it is released with -r.

       -C class,...
              Release the held transfers of each class.

       -r id  Release the held transfer id.

                                                                     QPURGE(1)
"""


def test_a_paragraph_between_entries_keeps_its_command_and_a_short_tag_is_split() -> None:
    # trial 119, F7: "To delete every queued transfer at once, run:" was moved into the next
    # entry, apart from its command; "-h id  Put the queued ..." was an entry's whole name
    parts = man_parts(QPURGE)
    at = parts.index(("prose", "To delete every queued transfer at once, run:"))
    assert parts[at - 1:at + 2] == [("end", ""), parts[at], ("code", "qpurge -d ALL")], parts
    assert ("entry", "-h id") in parts and ("entry", "-r id") in parts, parts
    assert ("prose", "Put the queued transfer id on hold. A held transfer is\nnot started until "
            "it is released with -r.") in parts, parts
    assert ("entry", "-C class,...") in parts, parts  # a term ending in "..." is no sentence
    assert ("prose", "Release the held transfer id.") in parts, parts


def test_a_compound_broken_at_its_hyphen_keeps_it_and_a_broken_word_is_joined() -> None:
    # trial 119, F9: a README's <pre> prose was quoted with "builtin", "selfcontained" and
    # "longrunning"; "com-" / "puted" is one word, and "high-" / "lights" (Asymptote's manual)
    page = html_page("<html><body><pre>\nquill copies a folder to a remote host. It has a "
                     "built-\nin scheduler, so no cron job is needed. The scheduler is self-\n"
                     "contained and keeps its state in a file. A long-\nrunning transfer can be "
                     "stopped with quill stop. Checksums are com-\nputed with BLAKE2, and the "
                     "editor high-\nlights the line.\n</pre></body></html>")
    text = page.text.replace("\n", " ")
    for whole in ("a built-in scheduler", "is self-contained and", "A long-running transfer",
                  "are computed with", "the editor highlights the line."):
        assert whole in text, page.text
