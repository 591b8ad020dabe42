"""Taking links out of text that the portal relays to someone else by e-mail.

A form that sends a stranger's words to a citizen (the finder's message on the public RGA page) is
a ready-made phishing channel: the e-mail comes from the city's address and mail programs turn
``https://…``, ``www.…`` and bare domains such as ``pix-resgate.example/pagar`` into links. Each
link becomes a visible placeholder, so the reader sees that something was removed. E-mail
addresses stay: they are how a finder says how to reach them.
"""

from __future__ import annotations

import re

from flask_babel import gettext as _

# Top-level domains that mail programs turn into links on their own, plus the reserved ones used
# in examples. A bare "palavra.palavra" without one of them and without a path stays: a missing
# space after a full stop ("ontem.Estava") is common and harmless.
_COMMON_TLDS = (
    "com|net|org|br|info|biz|io|co|me|app|dev|xyz|site|online|top|link|shop|store|club|live|"
    "click|page|ly|gl|to|cc|tv|ws|pw|tk|ml|ga|cf|gq|ru|cn|us|uk|de|pt|eu|fr|es|it|nl|ai|gov|edu|"
    "mil|int|example|test|invalid|localhost"
)
_LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"
_LINK = re.compile(
    r"(?:"
    r"\b[a-z][a-z0-9+.-]{1,20}://\S*"  # any scheme: http://, https://, ftp://, hxxp://…
    r"|\bwww\d{0,3}\.\S*"  # www.example.com
    rf"|(?<![\w@.-])(?:{_LABEL}\.)+(?:{_COMMON_TLDS})\b(?:[/:?#]\S*)?"  # example.com, bit.ly/x
    rf"|(?<![\w@.-])(?:{_LABEL}\.)+[^\W\d_]{{2,63}}[/?#]\S*"  # any.domain/with-a-path
    r")",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"[\w.+-]+@(?:[^\W_](?:[\w-]*[^\W_])?\.)+[^\W\d_]{2,63}\b")


def strip_links(text: str | None) -> str:
    """``text`` with every link replaced by "[link removido]"; e-mail addresses are kept."""
    if not text:
        return text or ""
    placeholder = _("[link removido]")
    pieces: list[str] = []
    last = 0
    for email in _EMAIL.finditer(text):
        pieces.append(_LINK.sub(placeholder, text[last : email.start()]))
        pieces.append(email.group(0))
        last = email.end()
    pieces.append(_LINK.sub(placeholder, text[last:]))
    return "".join(pieces)
