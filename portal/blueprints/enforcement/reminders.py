"""Reminders to the addressee 3 days before a deadline: defence, appeal, compliance, payment.
Legal notices (``courtesy=False``): the person cannot turn them off."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.enforcement.addressees import recipient
from portal.extensions import db
from portal.models import EnforcementDocument
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.services.clock import current_profile
from portal.urls import absolute_url

DAYS_BEFORE = 3


def deadline_in_three_days(today: date) -> Iterator[ReminderMessage]:
    from portal.blueprints.enforcement.services import current_deadline

    profile = current_profile()
    target = today + timedelta(days=DAYS_BEFORE)
    docs = db.session.scalars(
        select(EnforcementDocument)
        .where(
            EnforcementDocument.knowledge_on.is_not(None),
            EnforcementDocument.status.not_in(("final", "cancelled", "complied")),
        )
        .order_by(EnforcementDocument.id)
    )
    for doc in docs:
        due, what = current_deadline(doc, profile)
        if due != target:
            continue
        user = recipient(doc)
        if user is None or not user.email:
            continue
        body = _(
            "O prazo para %(what)s do documento %(n)s termina em %(d)s. Veja o documento e "
            "o que fazer em:\n%(link)s",
            what=what,
            n=doc.number,
            d=due.strftime("%d/%m/%Y"),
            link=absolute_url("enforcement.mine"),
        )
        yield ReminderMessage(
            f"prazo:{doc.id}:{due.isoformat()}",
            user.email,
            _("Prazo do documento %(n)s termina em 3 dias", n=doc.number),
            body,
            user.id,
        )


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(
        Reminder(
            "fiscalizacao-prazo-3-dias",
            _l("Notificação: prazo termina em 3 dias"),
            False,
            deadline_in_three_days,
        )
    )
