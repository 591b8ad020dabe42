"""The sterilisation programme in the staff workspace: the waitlist, surgery days whose outcome
is still to be recorded, and the coordinator's chart of castrations a month."""

from __future__ import annotations

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.access import STAFF
from portal.extensions import db
from portal.models import BookingStatus, SterilisationBooking, SterilisationSlot
from portal.models.animal import SPECIES_PLURAL_LABELS, species_label
from portal.services.clock import local_today
from portal.workspace import (
    Chart,
    ChartData,
    Column,
    Period,
    Queue,
    QueueRegistry,
    month_key,
    monthly,
)

DASHBOARD_ROLES = ("coordinator", "admin")


def _animal(b: SterilisationBooking) -> str:
    rga = f" (RGA {b.animal.rga})" if b.animal else ""
    return f"{b.animal_name}{rga} · {species_label(b.species)}"


def _day_link(b: SterilisationBooking) -> str:
    return url_for("sterilisation.staff_slot", slot_id=b.slot_id)


def _waitlist_link(b: SterilisationBooking) -> str:
    return url_for("sterilisation.staff_overview") + f"#fila-{b.id}"


WAITLIST_COLUMNS = (
    Column(_l("Animal"), _animal),
    Column(_l("Local preferido"), lambda b: b.preferred_site.name if b.preferred_site else "—"),
)
DAY_COLUMNS = (
    Column(_l("Animal"), _animal),
    Column(_l("Dia"), lambda b: b.slot.day.strftime("%d/%m/%Y") if b.slot else "—"),
    Column(_l("Local"), lambda b: b.slot.site.name if b.slot else "—"),
)


def castrations_by_species(period: Period) -> ChartData:
    counts: dict[tuple[str, str], int] = {}
    rows = db.session.execute(
        select(SterilisationBooking.outcome_on, SterilisationBooking.species).where(
            SterilisationBooking.status == BookingStatus.DONE,
            SterilisationBooking.outcome_on >= period.start,
            SterilisationBooking.outcome_on <= period.end,
        )
    )
    for day, species in rows:
        if day is None:
            continue
        key = (month_key(day), species)
        counts[key] = counts.get(key, 0) + 1
    return monthly(period, list(SPECIES_PLURAL_LABELS.items()), counts)


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_chart(
        Chart(
            "castracoes-por-especie",
            _l("Castrações por mês e espécie"),
            DASHBOARD_ROLES,
            castrations_by_species,
        )
    )
    registry.declare(
        Queue(
            key="castracao-fila",
            title=_l("Castração: fila de espera"),
            description=_l(
                "Pedidos sem vaga, do mais antigo ao mais novo: abra dias ou vagas e eles são "
                "agendados nesta ordem."
            ),
            roles=STAFF,
            entity=SterilisationBooking,
            rows=lambda: select(SterilisationBooking).where(
                SterilisationBooking.status == BookingStatus.WAITLISTED
            ),
            since=SterilisationBooking.created_at,
            order=SterilisationBooking.created_at,
            link=_waitlist_link,
            columns=WAITLIST_COLUMNS,
        )
    )
    registry.declare(
        Queue(
            key="castracao-resultado",
            title=_l("Castração: resultado a registrar"),
            description=_l(
                "Animais agendados em dias que já passaram: registre se foram castrados, se "
                "não estavam aptos ou se faltaram."
            ),
            roles=STAFF,
            entity=SterilisationBooking,
            rows=lambda: (
                select(SterilisationBooking)
                .join(SterilisationSlot)
                .where(
                    SterilisationBooking.status == BookingStatus.BOOKED,
                    SterilisationSlot.day < local_today(),
                )
            ),
            since=SterilisationBooking.created_at,
            order=SterilisationBooking.booked_at,
            overdue=lambda: SterilisationSlot.day < local_today(),
            due=lambda b: b.slot.day if b.slot else None,
            link=_day_link,
            columns=DAY_COLUMNS,
        )
    )
