"""Masking credentials in text: what the app prints or stores never holds a key.

:func:`redact` masks what looks like a credential (OpenAI-style keys, bearer tokens, a URL's
password, a query value naming a password, secret or token) and any secret it is given. The
app passes its settings' secrets (``app.settings.credentials.redact``); an error's own text is
masked in place by :func:`workers.errors.mask_in_place`. Standard library only.
"""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus

__all__ = ["redact"]

# Things that look like credentials: OpenAI-style keys (sk-..., sk-proj-...) and the value of an
# Authorization header, Bearer or Basic (httpx sends a URL's user:password as Basic).
_SECRET = re.compile(r"\b((?:sk|rk|pk)-[A-Za-z0-9_\-]{6})[A-Za-z0-9_\-]{6,}"
                     r"|((?:Bearer|Basic)\s+)\S+")
# A URL's password (``scheme://user:PASSWORD@host``, to the last '@' before the host) and the
# value of a query key naming a password, secret or token (``?sslpassword=X``, ``&api_token=X``).
# The value ends before a ':', ',', ';', '.' or ')' that ends the word ("at URL?password=X:
# reason" keeps its ':').
_URL_SECRET = re.compile(r"(\w://[^\s:/@]*:)[^\s/]*@"
                         r"|([?&][^\s=&#]*(?:password|secret|token)[^\s=&#]*=)"
                         r"[^\s&#'\"]+?(?=[:,;.)]?(?:[\s&#'\"]|$))",
                         re.IGNORECASE)


def redact(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` with credential-like strings masked (API keys, an Authorization header's value,
    a URL's password and secret query values), and each of ``secrets``, as given or
    percent-encoded, replaced by ``***``.

    Example:
        >>> redact("cannot reach https://me:p@ss@proxy:8/x?api_token=abc&q=1")
        'cannot reach https://me:***@proxy:8/x?api_token=***&q=1'
        >>> redact("key my%20key%2F9 rejected; Authorization: Basic Ym9iOnB3", ["my key/9"])
        'key *** rejected; Authorization: Basic ***'

    A provider may echo (part of) the key it rejected; the error text ends up in envelopes, the
    results database and the terminal, so it is masked before it goes anywhere.
    """
    for secret in secrets:
        if secret and len(secret) >= 4:  # as given, and as a URL or a form would encode it
            for form in dict.fromkeys((secret, quote(secret, safe=""), quote_plus(secret))):
                text = text.replace(form, "***")
    text = _URL_SECRET.sub(lambda m: f"{m.group(1)}***@" if m.group(1) else f"{m.group(2)}***",
                           text)
    return _SECRET.sub(lambda m: f"{m.group(1)}***" if m.group(1) else f"{m.group(2)}***", text)
