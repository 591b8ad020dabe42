"""Impound's reminder: the owner of an identified animal in custody, on the last day to reclaim
it (after that day the animal may go to adoption or another destination). A courtesy: the
capture e-mail already told the deadline."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.extensions import db
from portal.models import Capture, CaptureStatus
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.urls import absolute_url


def last_day_to_reclaim(today: date) -> Iterator[ReminderMessage]:
    found = db.session.scalars(
        select(Capture)
        .where(
            Capture.status == CaptureStatus.IN_CUSTODY,
            Capture.deadline_on == today,
            Capture.owner_id.is_not(None),
        )
        .order_by(Capture.id)
    )
    for capture in found:
        owner = capture.owner
        if owner is None or not owner.email or capture.reclaims:
            continue
        body = _(
            "Olá, %(name)s.\n\nHoje, %(day)s, é o último dia para resgatar o animal do "
            "protocolo %(protocol)s no CCZ. Depois dele, o animal pode ser encaminhado "
            "para adoção ou outra destinação prevista em lei.\n%(link)s\n\n"
            "Para não receber mais este lembrete: %(prefs)s",
            name=owner.full_name,
            day=today.strftime("%d/%m/%Y"),
            protocol=capture.protocol,
            link=absolute_url("impound.my_capture", protocol=capture.protocol),
            prefs=absolute_url("reminders.preferences"),
        )
        yield ReminderMessage(
            f"impound:{capture.id}:{today.isoformat()}",
            owner.email,
            _("Último dia para resgatar seu animal no CCZ"),
            body,
            owner.id,
        )


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(
        Reminder(
            "recolhimento-ultimo-dia",
            _l("Último dia para resgatar animal recolhido"),
            True,
            last_day_to_reclaim,
        )
    )
