"""Reminders to licence holders: the renewal window opens (GRU 37 §1 V: 30 days before expiry)
and 7 days before expiry. A licence already renewed (or with a renewal asked for) is skipped.
Courtesies: the duty to renew stands without them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.extensions import db
from portal.models import ExcessLicence, LicenceStatus
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.services.clock import current_profile
from portal.urls import absolute_url

LAST_CALL_DAYS = 7


def _expiring(start: date, end: date) -> Iterator[ExcessLicence]:
    from portal.blueprints.licences.terms import renewal_of

    for licence in db.session.scalars(
        select(ExcessLicence)
        .where(
            ExcessLicence.status == LicenceStatus.APPROVED,
            ExcessLicence.valid_until >= start,
            ExcessLicence.valid_until <= end,
        )
        .order_by(ExcessLicence.id)
    ):
        if renewal_of(licence) is None:
            yield licence


def _message(licence: ExcessLicence, key: str, subject: str) -> ReminderMessage | None:
    rule = current_profile().licence
    holder = licence.holder
    if rule is None or not holder.email or licence.valid_until is None:
        return None
    body = _(
        "Olá, %(name)s.\n\nA licença nº %(id)d (%(address)s) vence em %(until)s. A renovação "
        "deve ser pedida nos %(days)d dias anteriores ao vencimento. Peça em:\n%(link)s\n\n"
        "Centro de Controle de Zoonoses",
        name=holder.full_name.split()[0],
        id=licence.id,
        address=licence.address_line,
        until=licence.valid_until.strftime("%d/%m/%Y"),
        days=rule.renewal_window_days or 30,
        link=absolute_url("licences.mine"),
    )
    return ReminderMessage(
        f"{key}:{licence.id}:{licence.valid_until.isoformat()}",
        holder.email,
        subject,
        body,
        holder.id,
    )


def renewal_window_opens(today: date) -> Iterator[ReminderMessage]:
    rule = current_profile().licence
    if rule is None or rule.renewal_window_days is None:
        return
    for licence in _expiring(
        today + timedelta(days=LAST_CALL_DAYS + 1), today + timedelta(days=rule.renewal_window_days)
    ):
        if message := _message(licence, "window", _("Já pode pedir a renovação da licença")):
            yield message


def expiry_in_a_week(today: date) -> Iterator[ReminderMessage]:
    if current_profile().licence is None:
        return
    for licence in _expiring(today, today + timedelta(days=LAST_CALL_DAYS)):
        if message := _message(licence, "week", _("A licença para mais animais vence em breve")):
            yield message


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(
        Reminder(
            "licenca-renovacao-aberta",
            _l("Licença para mais animais: prazo de renovação aberto"),
            True,
            renewal_window_opens,
        )
    )
    registry.declare(
        Reminder(
            "licenca-vence-em-7-dias",
            _l("Licença para mais animais: vence em 7 dias"),
            True,
            expiry_in_a_week,
        )
    )
