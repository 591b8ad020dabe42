"""Billing's reminder: a fee still unpaid on its due date (a courtesy the payer may turn off)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.billing.labels import kind_label
from portal.extensions import db
from portal.models import PAYABLE_STATUSES, PaymentItem
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.services.money import format_brl
from portal.urls import absolute_url

LOOKBACK_DAYS = 30  # a due date missed by a day or a month is still worth one e-mail


def fees_due(today: date) -> Iterator[ReminderMessage]:
    items = db.session.scalars(
        select(PaymentItem)
        .where(
            PaymentItem.status.in_(tuple(PAYABLE_STATUSES)),
            PaymentItem.payer_id.is_not(None),
            PaymentItem.due_on <= today,
            PaymentItem.due_on >= today - timedelta(days=LOOKBACK_DAYS),
        )
        .order_by(PaymentItem.id)
    )
    for item in items:
        payer = item.payer
        if payer is None or not payer.email or item.due_on is None:
            continue
        body = _(
            'Olá, %(name)s.\n\nA cobrança "%(what)s" (%(amount)s, referência '
            "%(ref)s) venceu em %(due)s e ainda está em aberto. Pague ou veja as opções em:"
            "\n%(link)s\n\nPara não receber mais este lembrete: %(prefs)s",
            name=payer.full_name,
            what=kind_label(item.kind),
            amount=format_brl(item.amount_cents),
            ref=item.reference,
            due=item.due_on.strftime("%d/%m/%Y"),
            link=absolute_url("billing.item", item_id=item.id),
            prefs=absolute_url("reminders.preferences"),
        )
        yield ReminderMessage(
            f"payment:{item.id}:{item.due_on.isoformat()}",
            payer.email,
            _("Cobrança do CCZ em aberto"),
            body,
            payer.id,
        )


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(Reminder("taxa-vencida", _l("Taxa do CCZ vencida e não paga"), True, fees_due))
