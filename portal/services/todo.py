"""What a signed-in citizen still has to do, gathered from every domain.

Each domain adds a provider in its ``init_app`` (``wiring(app).todo(name, provider)``; e.g. the
RGA domain in ``portal/blueprints/animals/hooks.py``, billing in
``portal/blueprints/billing/hooks.py``); "Meus animais" and the home page show
:func:`citizen_todo`. A later domain adds its own provider the same way, without touching the
pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from portal.models import User
from portal.wiring import wiring


@dataclass(frozen=True)
class TodoItem:
    """One thing left to do, with the link that does it."""

    kind: str  # "payment", "proof", "vaccination", "transfer", "copy", ...
    text: str  # plain Portuguese: what and for what
    url: str
    action: str  # the link's label ("Pagar", "Ver o animal", ...)
    order: int = 50  # lower comes first: money owed, then answers awaited, then downloads

    @property
    def has_links(self) -> bool:
        """The text carries its own links (``Markup``, e.g. an article to /regras): the page
        cannot make the whole sentence one link, since a link inside a link is invalid."""
        return isinstance(self.text, Markup)


def citizen_todo(user: User) -> list[TodoItem]:
    """Everything every domain says ``user`` still has to do, most pressing first."""
    items: list[TodoItem] = []
    for provider in wiring().todo_providers.values():
        items.extend(provider(user))
    return sorted(items, key=lambda item: item.order)
