"""Words a question writes apart match a name that runs them together (trial 114, F7): "How
do I configure a relay host?" was answered from Postfix's ``fallback_relay`` entry ("Optional
list of relay hosts ...") and never found ``relayhost``'s, as snake_case names are found by
their words ("message size limit": ``message_size_limit``)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus, Passage
from workers.sources.query import search_query


def _page(title: str, sections: list[tuple[str, list[str]]]) -> str:
    body = "".join(f"<h2>{heading}</h2>" + "".join(f"<p>{p}</p>" for p in paras)
                   for heading, paras in sections)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


def _found(tmp_path: Path, files: dict[str, str], question: str, k: int = 3) -> list[Passage]:
    """The ``k`` passages a corpus of ``files`` (name: text) finds for ``question``, best
    first, as the research's search asks it (the question its own focus)."""
    root = tmp_path / "docs"
    for name, text in files.items():
        write(root, name, text)
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        return corpus.search(question, k=k, focus=question)


def _shown(found: list[Passage]) -> list[tuple[str, str]]:
    """What a failed assertion shows of ``found``: each passage's ref and first words."""
    return [(p.ref, p.text[:40]) for p in found]


POSTCONF = _page("postconf(5)", [
    ("fallback_relay (default: empty)", [
        "Optional list of relay hosts for destinations that cannot be found or that are "
        "unreachable. The relay hosts are tried in order; a relay host that fails is skipped, "
        "so configure each relay host with care."]),
    ("relayhost (default: empty)", [
        "The next-hop destination of non-local mail; overrides non-local domains in "
        "recipient addresses. Specify a domain, host, host:port, [host]:port."]),
    ("myorigin (default: $myhostname)", [
        "The domain name that locally-posted mail appears to come from."]),
    ("append_dot_mydomain (default: yes)", [
        "With locally submitted mail, append the string .$mydomain to addresses that have "
        "no .domain information; the origin of such mail is then set to the local domain."])])


def test_words_written_apart_find_the_name_that_runs_them_together(tmp_path: Path) -> None:
    found = _found(tmp_path, {"postconf.5.html": POSTCONF, "other.html": _page("Relays", [(
        "Relays", ["A relay host forwards mail: configure the relay host your provider gives "
                   "you."])])}, "How do I configure a relay host?")
    assert any(p.text.startswith("relayhost (default") for p in found), _shown(found)


def test_a_function_word_is_never_joined_to_the_word_after_it(tmp_path: Path) -> None:
    # trial 119, F3: "my SQL" was searched as mysql, and the MySQL page answered "How do I back
    # up my SQL database?" in place of the page about the SQL database asked
    found = _found(tmp_path, {
        "state-backup.md": "# Backing up the state database\n\nquill keeps its state in an "
        "SQL database in ~/.quill/state.db. To back it up, run `quill db dump > state.sql` "
        "while no sync is running; restore it with `quill db load state.sql`.\n",
        "mysql.md": "# Using MySQL\n\nA team can keep the state in a shared MySQL server "
        "instead: set `db = mysql://user@host/quill` in quill.conf. MySQL 8.0 or later is "
        "needed, and the MySQL user needs the CREATE and ALTER privileges. Back up a MySQL "
        "state store with mysqldump, as any MySQL database.\n",
        "logs.md": "# Logs\n\nquill writes its log to ~/.quill/quill.log. Set "
        "`log_level = debug` for more detail.\n"}, "How do I back up my SQL database?")
    assert found[0].doc_id == "state-backup.md", _shown(found)
    for question, joined in (("Why is the response's no body sent?", "nobody"),
                             ("How do I back up my SQL database?", "mysql"),
                             ("Can I set your name?", "yourname")):
        query = search_query(question)
        assert query is not None and f"\"{joined}\"" not in query.fts, query.fts


def test_my_before_a_lower_case_word_finds_a_configuration_name(tmp_path: Path) -> None:
    # trial 120, F7: once "my" joined nothing, "my networks" never found Postfix's mynetworks
    # entry ("my SQL", its second word in capitals, still joins nothing: the test above)
    found = _found(tmp_path, {
        "postconf.5.html": _page("postconf(5)", [
            ("mynetworks (default: see postconf -d output)", [
                "The list of trusted remote SMTP clients that have more privileges than "
                "strangers; Postfix relays mail for them."]),
            ("inet_interfaces (default: all)", [
                "The local network interface addresses that this mail system receives mail "
                "on."])]),
        "networks.html": _page("Networks", [("Networks", [
            "Networks of hosts: a mail server sees networks of clients, and networks of "
            "networks carry mail between them."])])}, "What do my networks hold?")
    assert found[0].heading.startswith("mynetworks"), _shown(found)


def test_a_phrasal_verb_written_apart_finds_its_one_word_noun(tmp_path: Path) -> None:
    # trial 125, F1 (B8): "Which files does bash read when I log in?" found "*.log" lines and
    # never bash's startup files "for a login shell"; "in" is a stopword no search keeps
    found = _found(tmp_path, {
        "startup.md": "# Startup Files\n\nWhen the shell is started as a login shell, it "
        "reads /etc/profile, then the first of ~/.profile and ~/.shell_profile it finds.\n",
        "logs.md": "# Log files\n\nThe shell writes its log file to ~/.shell.log; set the "
        "log level in ~/.shellrc.\n"}, "Which files does the shell read when I log in?", k=2)
    assert found[0].doc_id == "startup.md", _shown(found)
    query = search_query("Is the log in /var kept?")
    assert query is not None and '"login"' not in query.fts, query.fts  # a noun, no verb


READ = _page("read builtin", [("read", [
    "One line is read from the standard input, and the first word is assigned to the first "
    "name. The variable REPLY holds the line when no name is given; read makes each variable "
    "it is given hold one word of the line read."])])
READONLY = _page("readonly builtin", [("readonly", [
    "The given names are marked readonly; the values of these names may not be changed by "
    "subsequent assignment. The -a option restricts the variables to indexed arrays."])])


def test_a_hyphenated_compound_finds_its_closed_name(tmp_path: Path) -> None:
    # new-user trial N, N2: "How do I make a variable read-only?" over bash's manual answered
    # with the read builtin: the search dropped "only" (a stopword) and never asked for
    # "readonly", the builtin's name; a compound the question writes with a hyphen is searched
    # closed too
    others = {f"{name}.html": _page(f"{name} builtin", [(name, [text])]) for name, text in (
        ("cd", "Change the current directory to dir; the variable HOME is the default dir."),
        ("echo", "Output the args, separated by spaces, followed by a newline."),
        ("export", "The supplied names are marked for automatic export to the environment of "
                   "subsequently executed commands."),
        ("shift", "The positional parameters from n+1 ... are renamed to $1 ...."))}
    found = _found(tmp_path, {"read.html": READ, "readonly.html": READONLY, **others},
                   "How do I make a variable read-only?")
    assert found and found[0].doc_id == "readonly.html", _shown(found)
