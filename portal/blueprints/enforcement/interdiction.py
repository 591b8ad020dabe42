"""GRU 89 §ú: the expenses of an interdição, charged to the offender.

"Todas as despesas decorrentes do transporte dos animais e do acompanhamento da autoridade
sanitária e de outros servidores ao abatedouro licenciado serão custeadas pelo infrator." The
interdição itself is a preliminary notice (``EnforcementDocument.interdiction``, issued on the
issue form, GRU 89 caput). After the trip, staff record what it cost, one amount per kind the
profile lists (``notices.interdiction.expense_kinds``), typed by them: the law has no table, so
nothing is computed. The charge is a billing payment item of its own (kind ``expense``): the
offender sees it in "Meus pagamentos" and on the home page, with each line's article, the guia and
online payment, and the day it falls due. The law sets no term to pay: the CCZ's
``programme.interdiction_expenses_days``, counted like a fine's (GRU 114).

Services flush, never commit, and raise :class:`EnforcementError` beside the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.billing import services as billing
from portal.blueprints.billing.labels import status_label as payment_status_label
from portal.blueprints.enforcement.common import EnforcementError, term_end
from portal.extensions import db
from portal.models import (
    PAYABLE_STATUSES,
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    PaymentItem,
    PaymentStatus,
    User,
)
from portal.profiles.schema import InterdictionRule, Profile
from portal.services import audit
from portal.services.clock import local_date
from portal.services.mail import send_email
from portal.services.money import format_brl

SUBJECT = "interdiction"  # PaymentItem.subject_type of these charges (subject_id: the document)
KIND = "expense"  # the billing kind: "Ressarcimento de despesas"
RECORDERS = ("agent", "coordinator")
MAX_CENTS = 100_000_000  # R$ 1.000.000,00: past any trip, and what the column holds safely


@dataclass(frozen=True)
class InterdictionExpenses:
    """What the trip to the slaughterhouse cost, as staff typed it."""

    trip_on: date
    slaughterhouse: str
    amounts: Mapping[str, int]  # kind -> centavos (0 or absent: none of that kind)
    detail: str = ""


def expense_label(kind: str) -> str:
    """GRU 89 §ú's words for each kind of expense."""
    return {
        "transport": _("Transporte dos animais ao abatedouro licenciado"),
        "authority_escort": _("Acompanhamento da autoridade sanitária"),
        "staff_escort": _("Acompanhamento de outros servidores"),
    }.get(kind, kind)


def rule_for(profile: Profile, doc: EnforcementDocument) -> InterdictionRule | None:
    """The interdição rule when this document is one (GRU 89); None otherwise."""
    rule = profile.notices.interdiction
    if rule is None or not doc.interdiction or doc.kind != EnforcementKind.PRELIMINARY:
        return None
    return rule


def charges_of(doc: EnforcementDocument) -> list[PaymentItem]:
    """The expense charges recorded on an interdição, oldest first."""
    return list(
        db.session.scalars(
            select(PaymentItem)
            .where(PaymentItem.subject_type == SUBJECT, PaymentItem.subject_id == doc.id)
            .order_by(PaymentItem.id)
        )
    )


@dataclass(frozen=True)
class ExpenseCharge:
    """One expense charge as the offender reads it on the notice's page (GRU 89 §ú)."""

    item_id: int
    reference: str
    lines: list[dict[str, Any]]  # what for (label), amount_cents, article
    amount_cents: int
    status: str
    status_text: str
    due_on: date | None
    payable: bool  # still to pay: the page links to the guia and online payment
    article: str  # GRU 89 §ú, as the profile cites it


def offender_charges(profile: Profile, doc: EnforcementDocument) -> list[ExpenseCharge]:
    """GRU 89 §ú: the interdição's expense charges for the offender's own page, oldest first;
    none when the document is not an interdição of this city's law."""
    rule = rule_for(profile, doc)
    if rule is None:
        return []
    return [
        ExpenseCharge(
            item_id=item.id,
            reference=item.formatted_reference,
            lines=list(item.breakdown or []),
            amount_cents=item.amount_cents,
            status=item.status,
            status_text=payment_status_label(item.status),
            due_on=item.due_on,
            payable=item.status in PAYABLE_STATUSES,
            article=rule.cite("expenses"),
        )
        for item in charges_of(doc)
        if item.status != PaymentStatus.CANCELLED  # a cancelled charge is nothing to pay
    ]


def _check(
    profile: Profile, doc: EnforcementDocument, data: InterdictionExpenses, actor: User, today: date
) -> InterdictionRule:
    rule = rule_for(profile, doc)
    if rule is None:
        raise EnforcementError(
            None,
            "not_interdiction",
            _("Só a notificação de interdição tem estas despesas a ressarcir (GRU 89 §ú)."),
        )
    if not any(actor.has_role(r) for r in RECORDERS):
        raise EnforcementError(
            None, "not_allowed", _("Só o agente sanitário ou a coordenação registra as despesas.")
        )
    if doc.status == EnforcementStatus.CANCELLED:
        raise EnforcementError(None, "cancelled", _("Esta notificação foi cancelada."))
    if data.trip_on > today:
        raise EnforcementError("trip_on", "future", _("A data não pode ser futura."))
    if data.trip_on < local_date(doc.occurred_at):
        raise EnforcementError(
            "trip_on",
            "before_notice",
            _("A viagem ao abatedouro não pode ser anterior à notificação de interdição."),
        )
    if not data.slaughterhouse.strip():
        raise EnforcementError(
            "slaughterhouse", "required", _("Informe o abatedouro licenciado (nome e registro).")
        )
    for kind, cents in data.amounts.items():
        if kind not in rule.expense_kinds:
            raise EnforcementError(
                kind,
                "not_recoverable",
                _(
                    "Esta despesa não está entre as previstas em %(a)s.",
                    a=rule.cite("expenses"),
                ),
            )
        if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents <= MAX_CENTS:
            raise EnforcementError(kind, "invalid", _("Confira o valor."))
    if not any(data.amounts.get(k) for k in rule.expense_kinds):
        raise EnforcementError(
            rule.expense_kinds[0],
            "required",
            _("Informe o valor de pelo menos uma despesa (%(a)s).", a=rule.cite("expenses")),
        )
    return rule


def charge_expenses(
    profile: Profile,
    doc: EnforcementDocument,
    data: InterdictionExpenses,
    *,
    actor: User,
    today: date,
) -> PaymentItem:
    """GRU 89 §ú: charge the offender the interdição's expenses, one line per kind, with its due
    day (the CCZ's days, GRU 114), and tell them by e-mail. Raises EnforcementError."""
    rule = _check(profile, doc, data, actor, today)
    article = rule.cite("expenses")  # GRU 89 §ú: "custeadas pelo infrator"
    place = " ".join(data.slaughterhouse.split())
    lines = [
        {
            "label": _(
                "%(what)s (%(place)s, %(day)s)",
                what=expense_label(kind),
                place=place,
                day=data.trip_on.strftime("%d/%m/%Y"),
            ),
            "amount_cents": data.amounts[kind],
            "article": article,
            "kind": KIND,
        }
        for kind in rule.expense_kinds
        if data.amounts.get(kind)
    ]
    # GRU 89 §ú sets no term: the CCZ's days, counted as GRU 114 counts a fine's
    due_on = term_end(profile, today, profile.programme.interdiction_expenses_days)
    item = billing.create_payment_item(
        kind=KIND,
        amount_cents=sum(int(line["amount_cents"]) for line in lines),
        description=_(
            "Despesas da interdição – notificação nº %(n)s (%(a)s)", n=doc.number, a=article
        ),
        payer=doc.person,
        subject_type=SUBJECT,
        subject_id=doc.id,
        breakdown=lines,
        due_on=due_on,
    )
    if data.detail.strip():
        billing.add_note(item, data.detail.strip()[:500])
    audit.record(
        "enforcement.interdiction_expenses",
        doc,
        detail={"number": doc.number, "amount_cents": item.amount_cents, "article": article},
        actor_id=actor.id,
    )
    _tell(doc, item, article)
    return item


def _tell(doc: EnforcementDocument, item: PaymentItem, article: str) -> None:
    person = doc.person
    if person is None or not person.email:
        return  # no account: the guia is handed over or sent by post with the notice's file
    assert item.due_on is not None
    send_email(
        person.email,
        _("Despesas da interdição a pagar – notificação nº %(n)s", n=doc.number),
        _(
            "Olá, %(name)s.\n\nNa interdição da criação (notificação nº %(n)s), a lei determina "
            "que o infrator pague as despesas de transporte dos animais e de acompanhamento da "
            "autoridade sanitária e de outros servidores ao abatedouro licenciado (%(a)s).\n\n"
            "Valor: %(amount)s. Vencimento: %(due)s.\n\nVeja o que está sendo cobrado e pague "
            "online ou pela guia: %(url)s\n",
            name=person.full_name,
            n=doc.number,
            a=article,
            amount=format_brl(item.amount_cents),
            due=item.due_on.strftime("%d/%m/%Y"),
            url=billing.pay_url(item),
        ),
    )


__all__ = [
    "ExpenseCharge",
    "InterdictionExpenses",
    "charge_expenses",
    "charges_of",
    "expense_label",
    "offender_charges",
    "rule_for",
]
