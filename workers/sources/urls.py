"""A web page's identity: one spelling of its URL, whatever spelling a search engine returned.

Search engines return one page under several spellings (``https://EXAMPLE.org/herons#top``,
``https://example.org/herons/``, ``https://example.org:443/herons``). The web source keys its
cache, its refs (``<url>#<n>``) and the report's Sources entries by :func:`page_url`, so the
report cites such a page once, as the README promises.

The rules (RFC 3986, section 6.2.2-6.2.3, plus one choice of ours):

- scheme and host lower-cased (they are case-insensitive); the path and query keep their case;
- the scheme's default port dropped (``:80`` for http, ``:443`` for https), and an empty one;
- the fragment dropped: it names a place in the page, not another page (and a ref's ``#<n>``
  would otherwise follow a second ``#``);
- an empty path becomes ``/``;
- a trailing ``/`` dropped from any other path. RFC 3986 counts ``/herons`` and ``/herons/`` as
  two resources, but sites serve one page under both (one redirects to the other) and search
  engines index both: keeping them apart cites the same page twice, while merging the rare pair
  that differs costs one Sources entry for two pages. The root keeps its ``/``.

The query string is kept as it is (``?page=2`` is another page). Only the standard library.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

__all__ = ["page_url"]

_DEFAULT_PORTS = {"http": "80", "https": "443"}


def page_url(url: str) -> str | None:
    """The identity of the web page ``url`` names (see the module's rules), or None when
    ``url`` is not an ``http(s)://`` URL with a host.

    Example:
        >>> page_url("HTTPS://EXAMPLE.org:443/herons/#top")
        'https://example.org/herons'
        >>> page_url("http://Example.org?q=A"), page_url("ftp://example.org/x")
        ('http://example.org/?q=A', None)
    """
    try:
        parts = urlsplit(str(url).strip())
    except ValueError:  # an unbalanced "[" in the host
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.netloc:
        return None
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if hostport.startswith("["):  # an IPv6 literal: [::1]:8080
        host, _, rest = hostport.partition("]")
        host, port = host + "]", rest.removeprefix(":")
    else:
        host, _, port = hostport.partition(":")
    if not host:
        return None
    netloc = f"{userinfo}{at}{host.lower()}"
    if port and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    path = parts.path or "/"
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    return urlunsplit((scheme, netloc, path, parts.query, ""))
