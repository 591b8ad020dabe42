"""Establishments in the staff workspace: requests to review, renewals asked for, and cadastros
expiring within the profile's renewal window (GRU 11 §3: 60 days) or already expired (GRU 11
§2-3)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import Select, func, or_, select

from portal.access import STAFF
from portal.extensions import db
from portal.models import Establishment, EstablishmentStatus
from portal.services.clock import current_profile, local_today
from portal.services.identity import clean_cnpj
from portal.workspace import Column, Queue, QueueRegistry, SearchHit, SearchProvider


def expiry_notice_days() -> int:
    """The renewal window of the profile's law (GRU 11 §3: 60 days): cadastros expiring within it
    are listed. Read from the profile, never a number here, so each city gets its own window."""
    rule = current_profile().establishments
    return rule.renewal_window_days if rule is not None else 0


def _link(e: Establishment) -> str:
    return url_for("establishments.staff_file", establishment_id=e.id)


COLUMNS = (
    Column(_l("Estabelecimento"), lambda e: e.display_name),
    Column(_l("Bairro"), lambda e: e.district),
)


def _search(term: str) -> list[SearchHit]:
    cnpj = clean_cnpj(term)
    if cnpj:
        condition = Establishment.cnpj == cnpj
    elif len(term) >= 2:
        lowered = term.lower()
        condition = or_(
            func.lower(Establishment.legal_name).contains(lowered),
            func.lower(Establishment.trade_name).contains(lowered),
        )
    else:
        return []
    found = db.session.scalars(
        select(Establishment).where(condition).order_by(Establishment.legal_name).limit(20)
    )
    return [SearchHit(e.display_name, f"{e.legal_name} · {e.district}", _link(e)) for e in found]


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_search(
        SearchProvider("estabelecimentos", _l("Estabelecimentos"), STAFF, _search)
    )
    registry.declare(
        _queue(
            "estabelecimentos-pedidos",
            _l("Estabelecimentos: pedidos de cadastro a analisar"),
            lambda: select(Establishment).where(
                Establishment.status == EstablishmentStatus.REQUESTED
            ),
            order=Establishment.created_at,
        )
    )
    registry.declare(
        _queue(
            "estabelecimentos-renovacoes",
            _l("Estabelecimentos: renovações pedidas"),
            lambda: select(Establishment).where(
                Establishment.status == EstablishmentStatus.ACTIVE,
                Establishment.renewal_requested_on.is_not(None),
            ),
            **_BY_EXPIRY,
        )
    )
    registry.declare(
        _queue(
            "estabelecimentos-vencendo",
            _l("Estabelecimentos: cadastro no prazo de renovação ou vencido"),
            lambda: select(Establishment).where(
                Establishment.status == EstablishmentStatus.ACTIVE,
                Establishment.valid_until <= local_today() + timedelta(days=expiry_notice_days()),
            ),
            **_BY_EXPIRY,
        )
    )


# Renewals and expiring cadastros: sorted by, and overdue after, the end of validity.
_BY_EXPIRY: dict[str, Any] = {
    "order": Establishment.valid_until,
    "overdue": lambda: Establishment.valid_until < local_today(),
    "due": lambda e: e.valid_until,
}


def _queue(key: str, title: Any, rows: Callable[[], Select[Any]], **timing: Any) -> Queue:
    """A queue of establishments: their file, name and district; no personal data listed."""
    return Queue(
        key=key,
        title=title,
        roles=STAFF,
        entity=Establishment,
        rows=rows,
        since=Establishment.created_at,
        link=_link,
        columns=COLUMNS,
        personal_data=False,
        **timing,
    )
