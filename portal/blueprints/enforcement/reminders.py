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
from portal.profiles.schema import RemedyDuties
from portal.reminders import Reminder, ReminderMessage, ReminderRegistry
from portal.services.clock import current_profile
from portal.urls import absolute_url

DAYS_BEFORE = 3
LAUDO_DAYS_BEFORE = 2  # VV 23 II: the agent's period may be a few days: a short notice


def deadline_in_three_days(today: date) -> Iterator[ReminderMessage]:
    from portal.blueprints.enforcement.reading import current_deadline

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


def laudo_due(today: date) -> Iterator[ReminderMessage]:
    """VV 23 II: the periodic veterinary laudo, 2 days before it falls due and once overdue
    (one message per laudo, however often the daily job runs)."""
    from portal.blueprints.enforcement.duties import duties_open

    rule = current_profile().notices.remedy_duties
    if rule is None:
        return
    docs = db.session.scalars(
        select(EnforcementDocument)
        .where(
            EnforcementDocument.status == "open",
            EnforcementDocument.laudo_next_due_on.is_not(None),
            EnforcementDocument.laudo_next_due_on <= today + timedelta(days=LAUDO_DAYS_BEFORE),
        )
        .order_by(EnforcementDocument.id)
    )
    for doc in docs:
        due = doc.laudo_next_due_on
        user = recipient(doc)
        if due is None or not duties_open(doc) or user is None or not user.email:
            continue
        late = due < today
        link = absolute_url("enforcement.duties_page", doc_id=doc.id)
        facts = dict(n=doc.number, d=due.strftime("%d/%m/%Y"), a=rule.article, link=link)
        body = (
            _(
                "O laudo veterinário do animal do documento %(n)s venceu em %(d)s e não foi "
                "apresentado (%(a)s). Envie-o pelo portal ou entregue-o no CCZ:\n%(link)s",
                **facts,
            )
            if late
            else _(
                "O laudo veterinário do animal do documento %(n)s vence em %(d)s (%(a)s). "
                "Envie-o pelo portal ou entregue-o no CCZ:\n%(link)s",
                **facts,
            )
        )
        subject = (
            _("Laudo veterinário em atraso – documento %(n)s", n=doc.number)
            if late
            else _("Laudo veterinário vence em breve – documento %(n)s", n=doc.number)
        )
        key = f"laudo:{doc.id}:{due.isoformat()}:{'atraso' if late else 'aviso'}"
        yield ReminderMessage(key, user.email, subject, body, user.id)


def declare_reminders(registry: ReminderRegistry, remedy: RemedyDuties | None = None) -> None:
    registry.declare(
        Reminder(
            "fiscalizacao-prazo-3-dias",
            _l("Notificação: prazo termina em 3 dias"),
            False,
            deadline_in_three_days,
        )
    )
    if remedy is None:
        return  # VV 23 II only where the law has it
    registry.declare(
        Reminder(
            "fiscalizacao-laudo",
            _l("Notificação por maus-tratos: laudo veterinário periódico"),
            False,
            laudo_due,
        )
    )
