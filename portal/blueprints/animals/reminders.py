"""The RGA's reminders: the rabies vaccine coming due and overdue, and a provisional ID (the
second-copy request) about to lapse. All are courtesies the owner may turn off."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import and_, exists, select
from sqlalchemy.orm import aliased

from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    CopyStatus,
    DocumentCopyRequest,
    Vaccination,
)
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.urls import absolute_url

VACCINE_NOTICE_DAYS = 30  # "due in 30 days"
OVERDUE_LOOKBACK_DAYS = 365  # an animal overdue for over a year is a case for staff, not e-mail
COPY_NOTICE_DAYS = 7


def _latest_rabies_due(start: date, end: date) -> Iterator[Vaccination]:
    """Each live animal's latest rabies vaccination whose next dose falls in [start, end]."""
    later = aliased(Vaccination)
    yield from db.session.scalars(
        select(Vaccination)
        .join(Animal)
        .where(
            Animal.status.in_((AnimalStatus.ACTIVE, AnimalStatus.PENDING)),
            Vaccination.next_due_on >= start,
            Vaccination.next_due_on <= end,
            ~exists().where(
                and_(
                    later.animal_id == Vaccination.animal_id,
                    later.applied_on > Vaccination.applied_on,
                )
            ),
        )
        .order_by(Vaccination.id)
    ).all()


def _vaccine_message(vaccination: Vaccination, overdue: bool) -> ReminderMessage | None:
    animal = vaccination.animal
    owner = animal.owner
    if not owner.email:
        return None
    due = vaccination.next_due_on
    assert due is not None
    if overdue:
        subject = _("A vacina antirrábica de %(animal)s está vencida", animal=animal.name)
        text = _(
            "a vacina antirrábica de %(animal)s (RGA %(rga)s) venceu em %(due)s.",
            animal=animal.name,
            rga=animal.rga,
            due=due.strftime("%d/%m/%Y"),
        )
    else:
        subject = _("A vacina antirrábica de %(animal)s vence em breve", animal=animal.name)
        text = _(
            "a vacina antirrábica de %(animal)s (RGA %(rga)s) vence em %(due)s.",
            animal=animal.name,
            rga=animal.rga,
            due=due.strftime("%d/%m/%Y"),
        )
    body = _(
        "Olá, %(name)s.\n\nLembrete do CCZ: %(text)s\nLeve o animal a uma clínica ou a uma "
        "campanha de vacinação e registre a nova dose no portal:\n%(link)s\n\nPara não "
        "receber mais este lembrete: %(prefs)s",
        name=owner.full_name,
        text=text,
        link=absolute_url("animals.detail", rga=animal.rga),
        prefs=absolute_url("reminders.preferences"),
    )
    return ReminderMessage(
        f"vaccination:{vaccination.id}:{due.isoformat()}", owner.email, subject, body, owner.id
    )


def rabies_due_soon(today: date) -> Iterator[ReminderMessage]:
    for vaccination in _latest_rabies_due(today, today + timedelta(days=VACCINE_NOTICE_DAYS)):
        message = _vaccine_message(vaccination, overdue=False)
        if message:
            yield message


def rabies_overdue(today: date) -> Iterator[ReminderMessage]:
    for vaccination in _latest_rabies_due(
        today - timedelta(days=OVERDUE_LOOKBACK_DAYS), today - timedelta(days=1)
    ):
        message = _vaccine_message(vaccination, overdue=True)
        if message:
            yield message


def provisional_id_lapsing(today: date) -> Iterator[ReminderMessage]:
    """The second-copy request is a provisional ID until ``valid_until`` (GRU 19 §1; BJP 8 §ú)."""
    copies = db.session.scalars(
        select(DocumentCopyRequest)
        .where(
            DocumentCopyRequest.status == CopyStatus.REQUESTED,
            DocumentCopyRequest.valid_until >= today,
            DocumentCopyRequest.valid_until <= today + timedelta(days=COPY_NOTICE_DAYS),
        )
        .order_by(DocumentCopyRequest.id)
    )
    for copy in copies:
        owner = copy.animal.owner
        if not owner.email or copy.valid_until is None:
            continue
        body = _(
            "Olá, %(name)s.\n\nO documento provisório da segunda via do RGA %(rga)s "
            "(%(animal)s) vale até %(until)s e o CCZ ainda não registrou a entrega da nova "
            "via. Procure o CCZ se ainda não a recebeu:\n%(link)s\n\nPara não receber mais "
            "este lembrete: %(prefs)s",
            name=owner.full_name,
            rga=copy.animal.rga,
            animal=copy.animal.name,
            until=copy.valid_until.strftime("%d/%m/%Y"),
            link=absolute_url("animals.detail", rga=copy.animal.rga),
            prefs=absolute_url("reminders.preferences"),
        )
        yield ReminderMessage(
            f"copy:{copy.id}:{copy.valid_until.isoformat()}",
            owner.email,
            _("O documento provisório do RGA %(rga)s vence em breve", rga=copy.animal.rga),
            body,
            owner.id,
        )


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(
        Reminder(
            "vacina-antirrabica-a-vencer",
            _l("Vacina antirrábica a vencer (30 dias antes)"),
            True,
            rabies_due_soon,
        )
    )
    registry.declare(
        Reminder(
            "vacina-antirrabica-vencida", _l("Vacina antirrábica vencida"), True, rabies_overdue
        )
    )
    registry.declare(
        Reminder(
            "documento-provisorio-a-vencer",
            _l("Documento provisório do RGA perto de vencer"),
            True,
            provisional_id_lapsing,
        )
    )
