"""Reminders to establishments: the renewal window opens (60 days before expiry, GRU 11 §3) and
7 days before expiry. Courtesies: the law's duty to renew stands without them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.extensions import db
from portal.models import Establishment, EstablishmentStatus
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.services.clock import current_profile
from portal.urls import absolute_url

LAST_CALL_DAYS = 7


def _expiring(start: date, end: date) -> Iterator[Establishment]:
    yield from db.session.scalars(
        select(Establishment)
        .where(
            Establishment.status == EstablishmentStatus.ACTIVE,
            Establishment.renewal_requested_on.is_(None),
            Establishment.valid_until >= start,
            Establishment.valid_until <= end,
        )
        .order_by(Establishment.id)
    )


def _message(e: Establishment, key: str, subject: str) -> ReminderMessage | None:
    to = e.email or e.requested_by.email
    if not to or e.valid_until is None:
        return None
    body = _(
        "O cadastro zoossanitário de %(name)s vence em %(until)s. A renovação deve ser "
        "pedida nos %(days)s dias anteriores ao vencimento e vale a partir do dia seguinte "
        "a ele. Peça em:\n%(link)s",
        name=e.display_name,
        until=e.valid_until.strftime("%d/%m/%Y"),
        days=current_profile().establishments.renewal_window_days,  # type: ignore[union-attr]
        link=absolute_url("establishments.mine"),
    )
    return ReminderMessage(
        f"{key}:{e.id}:{e.valid_until.isoformat()}", to, subject, body, e.requested_by_id
    )


def renewal_window_opens(today: date) -> Iterator[ReminderMessage]:
    rule = current_profile().establishments
    if rule is None:
        return
    for e in _expiring(
        today + timedelta(days=LAST_CALL_DAYS + 1), today + timedelta(days=rule.renewal_window_days)
    ):
        if message := _message(e, "window", _("Já pode pedir a renovação do cadastro")):
            yield message


def expiry_in_a_week(today: date) -> Iterator[ReminderMessage]:
    if current_profile().establishments is None:
        return
    for e in _expiring(today, today + timedelta(days=LAST_CALL_DAYS)):
        if message := _message(e, "week", _("O cadastro do estabelecimento vence em breve")):
            yield message


def declare_reminders(registry: ReminderRegistry) -> None:
    registry.declare(
        Reminder(
            "cadastro-renovacao-aberta",
            _l("Estabelecimento: prazo de renovação do cadastro aberto"),
            True,
            renewal_window_opens,
        )
    )
    registry.declare(
        Reminder(
            "cadastro-vence-em-7-dias",
            _l("Estabelecimento: cadastro vence em 7 dias"),
            True,
            expiry_in_a_week,
        )
    )
