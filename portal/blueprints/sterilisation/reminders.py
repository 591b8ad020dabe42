"""The day-before reminder of a castration: the day, the place and the site's instructions
(fasting, carrier box, arrival time), which the person needs the evening before. A courtesy: the
person may turn it off."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.sterilisation.notices import where
from portal.extensions import db
from portal.models import BookingStatus, SterilisationBooking, SterilisationSlot
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.urls import absolute_url


def tomorrow_castrations(today: date) -> Iterator[ReminderMessage]:
    """Bookings whose surgery day is tomorrow (run daily; a missed day is not made up: the day
    after, the reminder would come too late)."""
    found = db.session.scalars(
        select(SterilisationBooking)
        .join(SterilisationSlot)
        .where(
            SterilisationBooking.status == BookingStatus.BOOKED,
            SterilisationSlot.day == today + timedelta(days=1),
        )
        .order_by(SterilisationBooking.id)
    )
    for booking in found:
        if not booking.requester.email or booking.slot is None:
            continue
        body = (
            _("Amanhã é o dia da castração de %(name)s.", name=booking.animal_name)
            + f"\n{where(booking.slot)}\n\n"
            + _("Se não puder ir, cancele para a vaga passar ao próximo da fila:")
            + f" {absolute_url('sterilisation.mine')}"
        )
        yield ReminderMessage(
            f"{booking.id}:{booking.slot.day.isoformat()}",
            booking.requester.email,
            _("Amanhã: castração de %(name)s", name=booking.animal_name),
            body,
            booking.requester_id,
        )


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(
        Reminder(
            "castracao-amanha",
            _l("Castração: lembrete na véspera, com as orientações do local"),
            True,
            tomorrow_castrations,
        )
    )
