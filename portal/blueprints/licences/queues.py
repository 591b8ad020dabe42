"""Licences in the staff workspace: requests to analyse, households above the limit without a
valid licence (GRU 37 §1: an expired or cancelled licence puts them back under the plain limit),
licences expiring in the renewal window, and the search by licence code or request number."""

from __future__ import annotations

from datetime import timedelta

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.access import STAFF
from portal.blueprints.licences.progress import decision_due, decision_target_days
from portal.models import Animal, ExcessLicence, LicenceInspection, LicenceStatus
from portal.models.licence import OPEN_STATUSES
from portal.services.clock import current_profile, local_today
from portal.workspace import Column, Queue, QueueRegistry, SearchHit, SearchProvider


def _link(licence: ExcessLicence) -> str:
    return url_for("licences.staff_file", licence_id=licence.id)


def _search(term: str) -> list[SearchHit]:
    from portal.blueprints.licences.labels import find, status_label

    today = local_today()
    return [
        SearchHit(
            str(_l("Pedido de licença nº %(id)d", id=lic.id)),
            f"{lic.code} · {status_label(lic, today)} · {lic.address_line}",
            _link(lic),
        )
        for lic in find(term)
    ]


def _households():
    from portal.blueprints.licences.household import households_above_limit

    return households_above_limit(current_profile(), local_today())


def _my_inspections_today():
    """Licence inspections scheduled for the signed-in agent today or earlier, not yet recorded,
    on a request still open (issue 25: the agent's "my inspections today" counted only reports)."""
    from flask_login import current_user

    # Outside a request (the nightly queue snapshot) there is no "me": the queue is empty.
    me = getattr(current_user, "id", None) if current_user else None
    return (
        select(LicenceInspection)
        .join(LicenceInspection.licence)
        .where(
            LicenceInspection.agent_id == me,
            LicenceInspection.inspected_on.is_(None),
            LicenceInspection.scheduled_for <= local_today(),
            ExcessLicence.status.in_([s.value for s in OPEN_STATUSES]),
        )
    )


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare(
        Queue(
            # "minhas-" puts the tile in the agent's own day, first on the Painel (admin.dashboard)
            key="minhas-vistorias-hoje-licencas",
            title=_l("Minhas vistorias de hoje: licenças para mais animais"),
            roles=("agent",),
            entity=LicenceInspection,
            rows=_my_inspections_today,
            since=LicenceInspection.created_at,
            order=LicenceInspection.scheduled_for,
            overdue=lambda: LicenceInspection.scheduled_for < local_today(),
            due=lambda visit: visit.scheduled_for,
            link=lambda visit: _link(visit.licence),
            columns=(
                Column(_l("Nº"), lambda visit: visit.licence_id),
                Column(_l("Residência"), lambda visit: visit.licence.address_line),
            ),
        )
    )
    registry.declare_search(
        SearchProvider("licencas", _l("Licenças para mais animais"), STAFF, _search)
    )
    registry.declare(
        Queue(
            key="licencas-pedidos",
            title=_l("Licenças: pedidos a analisar"),
            roles=STAFF,
            entity=ExcessLicence,
            rows=lambda: select(ExcessLicence).where(
                ExcessLicence.status.in_([s.value for s in OPEN_STATUSES])
            ),
            since=ExcessLicence.requested_at,
            order=ExcessLicence.requested_on,
            overdue=lambda: (
                ExcessLicence.requested_on < local_today() - timedelta(days=decision_target_days())
            ),
            due=decision_due,
            link=_link,
            columns=(
                Column(_l("Nº"), lambda lic: lic.id),
                Column(_l("Residência"), lambda lic: lic.address_line),
                Column(_l("Animais pedidos"), lambda lic: lic.animals_requested),
            ),
        )
    )
    registry.declare(
        Queue(
            key="licencas-residencias-acima-do-limite",
            title=_l("Residências acima do limite sem licença válida"),
            description=_l(
                "Licença vencida, cancelada ou recusada, ou nunca pedida: a residência "
                "deve se enquadrar no limite."
            ),
            roles=STAFF,
            entity=Animal,
            rows=_households,
            since=Animal.registered_at,
            order=Animal.registered_at,
            link=lambda a: url_for("licences.staff_household", animal_id=a.id),
            columns=(
                Column(_l("Endereço"), lambda a: a.owner.address_line),
                Column(_l("Proprietário(a)"), lambda a: a.owner.full_name),
            ),
        )
    )
    registry.declare(
        Queue(
            key="licencas-vencendo",
            title=_l("Licenças: vencem em 30 dias ou venceram há pouco"),
            roles=STAFF,
            entity=ExcessLicence,
            rows=lambda: select(ExcessLicence).where(
                ExcessLicence.status == LicenceStatus.APPROVED,
                ExcessLicence.valid_until <= local_today() + timedelta(days=30),
                ExcessLicence.valid_until >= local_today() - timedelta(days=30),
            ),
            since=ExcessLicence.requested_at,
            order=ExcessLicence.valid_until,
            overdue=lambda: ExcessLicence.valid_until < local_today(),
            due=lambda lic: lic.valid_until,
            link=_link,
            columns=(
                Column(_l("Nº"), lambda lic: lic.id),
                Column(_l("Residência"), lambda lic: lic.address_line),
            ),
        )
    )
