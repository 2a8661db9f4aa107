"""An annotated example file's comments read as sentences (trial 65, F2): nginx's
``examples/virtual_hosts`` explains itself in ``#`` comments a sentence spans, and a report
quoted the half of one, "a dedicated php listener (fastcgi: php-cgi, php-fpm).", as a finding."""

from __future__ import annotations

from pathlib import Path

from app.llm.offline.sentences import split_sentences
from workers.sources import Corpus

EXAMPLE = """\
server {
\tlisten 80;

\t# proxy the PHP scripts to Apache listening on 127.0.0.1:80
\t# If you're going to proxy to Apache, then just push the whole
\t# request to it. You'll generally have better performance with
\t# a dedicated php listener (fastcgi: php-cgi, php-fpm).
\t#location ~ \\.php$ {
\t#\tproxy_pass http://127.0.0.1;
\t#}
}

# apt-get install nginx-full
# systemctl reload nginx
"""


def test_a_comment_block_reads_as_whole_sentences(tmp_path: Path) -> None:
    folder = tmp_path / "examples"
    folder.mkdir()
    (folder / "virtual_hosts").write_text(EXAMPLE, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [passage] = corpus.search("dedicated php listener performance", k=1)
    sentences = [" ".join(s.split()) for s in split_sentences(passage.text)]
    assert ("You'll generally have better performance with a dedicated php listener (fastcgi: "
            "php-cgi, php-fpm).") in sentences, sentences
    assert "#location ~ \\.php$ {" in passage.text  # a setting commented out keeps its mark
    assert "# apt-get install nginx-full" in passage.text  # so do commands, no sentence
