"""One way to show a legal citation to a person: plain words first, the article after, as a
small link to the rule on /regras (issue 25: "GRU 10 V a" alone means nothing to a citizen).

Use it from Python (``legal_ref("GRU 96 V")``) or in a template
(``{{ "GRU 96 V"|legal_ref }}``, ``{{ category.article|legal_ref(category_label) }}``)::

    prazo para a defesa <a class="portal-article" href="/regras#notificacoes">(GRU 96 V)</a>

The plain words come from :mod:`portal.profiles.provisions` (one title per provision of the
profile); pass ``plain`` where the page knows better words (a report's category name), or
``plain=""`` where the sentence around the citation already says it in plain words (the link only).
"""

from __future__ import annotations

from flask import current_app, url_for
from markupsafe import Markup, escape

from portal.profiles.provisions import Provision, provision_titles
from portal.profiles.schema import is_silent
from portal.services.clock import current_profile


def provision(citation: str) -> Provision | None:
    """The plain title and /regras anchor of one citation of the running profile (None: unknown)."""
    cache = current_app.extensions.setdefault("portal_provisions", {})
    profile = current_profile()
    if profile.key not in cache:
        cache[profile.key] = provision_titles(profile)
    return cache[profile.key].get(citation)


def legal_ref(citation: str | None, plain: str | None = None) -> Markup:
    """ "plain words (GRU 10 V a)", the citation a small link to its rule on /regras.

    An empty string for no citation; a citation of the law's silence (``GRU —``) shows only the
    plain words, since there is no article to read."""
    if not citation:
        return Markup(escape(plain or ""))
    found = provision(citation)
    words = plain if plain is not None else (found.title if found else "")
    if is_silent(citation):
        return Markup(escape(words))
    anchor = f"#{found.anchor}" if found and found.anchor else ""
    link = Markup('<a class="portal-article" href="{url}{anchor}">({citation})</a>').format(
        url=url_for("main.rules"), anchor=anchor, citation=citation
    )
    if not words:
        return link
    return Markup("{words} {link}").format(words=words, link=link)
