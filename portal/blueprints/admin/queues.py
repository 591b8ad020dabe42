"""What the staff area itself adds to the workspace: the people search."""

from __future__ import annotations

from flask import url_for
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.access import STAFF
from portal.services.identity import mask_cpf
from portal.services.people import find_people
from portal.workspace import QueueRegistry, SearchHit, SearchProvider


def _search_people(term: str) -> list[SearchHit]:
    admin = current_user.has_role("admin")
    return [
        SearchHit(
            p.full_name,
            f"CPF {mask_cpf(p.cpf)} · {p.email or '—'}",
            url_for("admin.user_detail", user_id=p.id) if admin else None,
        )
        for p in find_people(term, limit=20)
    ]


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_search(SearchProvider("pessoas", _l("Pessoas"), STAFF, _search_people))
