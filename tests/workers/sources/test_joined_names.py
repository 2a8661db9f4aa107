"""Words a question writes apart match a name that runs them together (trial 114, F7): "How
do I configure a relay host?" was answered from Postfix's ``fallback_relay`` entry ("Optional
list of relay hosts ...") and never found ``relayhost``'s, as snake_case names are found by
their words ("message size limit": ``message_size_limit``)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus


def _page(title: str, sections: list[tuple[str, list[str]]]) -> str:
    body = "".join(f"<h2>{heading}</h2>" + "".join(f"<p>{p}</p>" for p in paras)
                   for heading, paras in sections)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


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
    root = tmp_path / "docs"
    write(root, "postconf.5.html", POSTCONF)
    write(root, "other.html", _page("Relays", [("Relays", [
        "A relay host forwards mail: configure the relay host your provider gives you."])]))
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        question = "How do I configure a relay host?"
        found = corpus.search(question, k=3, focus=question)
        assert any(p.text.startswith("relayhost (default") for p in found), [
            (p.ref, p.text[:40]) for p in found]
        question = "What does my origin mean?"
        found = corpus.search(question, k=3, focus=question)
        assert found[0].text.startswith("myorigin (default"), [(p.ref, p.text[:40]) for p in found]
