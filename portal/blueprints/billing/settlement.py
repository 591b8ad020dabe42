"""Money in and out: settlement (Stripe or the counter) and receipts, review flags for anything
odd, and refunds."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.billing.items import (
    BillingError,
    add_note,
    clean_reference,
    close_exemption_requests,
    close_online_sessions,
    external_url,
    transition,
)
from portal.blueprints.billing.labels import status_label
from portal.extensions import db
from portal.models import (
    Payment,
    PaymentItem,
    PaymentMethod,
    PaymentReviewFlag,
    PaymentStatus,
    Refund,
    User,
)
from portal.models.base import utcnow
from portal.services import audit
from portal.services.clock import local_today
from portal.services.mail import send_email
from portal.services.money import format_brl

# ---------------------------------------------------------------------------------------------
# Settlement (Stripe or counter) and receipts
# ---------------------------------------------------------------------------------------------


def settle(
    item: PaymentItem,
    *,
    method: str,
    amount_cents: int,
    provider_reference: str,
    received_on: date,
    actor_id: int | None = None,
    checkout_session_id: int | None = None,
    note: str,
) -> Payment:
    """Record the money received and mark the item paid; the payer gets the receipt by e-mail."""
    transition(item, PaymentStatus.PAID, note, actor_id=actor_id)
    payment = Payment(
        item=item,
        method=method,
        amount_cents=amount_cents,
        currency=item.currency,
        provider_reference=provider_reference,
        received_on=received_on,
        recorded_by_id=actor_id,
        checkout_session_id=checkout_session_id,
    )
    db.session.add(payment)
    item.paid_at = utcnow()
    item.method = method
    close_exemption_requests(item)
    db.session.flush()
    send_receipt_email(item)
    return payment


def send_receipt_email(item: PaymentItem) -> None:
    """Tell the payer the item is paid, with links to the receipt (never the receipt itself)."""
    payer = item.responsible
    if payer is None or not payer.email:
        return
    with force_locale("pt_BR"):
        body = _(
            "Olá, %(name)s.\n\n"
            "Recebemos o pagamento de %(amount)s referente a: %(what)s (referência %(ref)s).\n\n"
            "Baixe o comprovante em:\n%(receipt)s\n\n"
            "Acompanhe seus pagamentos em:\n%(page)s\n\n"
            "Centro de Controle de Zoonoses",
            name=payer.full_name.split()[0],
            amount=format_brl(item.amount_cents),
            what=item.description,
            ref=item.formatted_reference,
            receipt=external_url("billing.receipt_pdf", item_id=item.id),
            page=external_url("billing.item", item_id=item.id),
        )
        send_email(payer.email, _("Pagamento confirmado – comprovante disponível"), body)


def find_by_reference(text: str) -> PaymentItem | None:
    """The item with this guia reference. Raises BillingError when the check digit is wrong."""
    reference = clean_reference(text)
    if reference is None:
        raise BillingError(
            "reference",
            "invalid",
            _("Referência inválida: confira os 12 dígitos impressos na guia."),
        )
    return db.session.scalar(select(PaymentItem).where(PaymentItem.reference == reference))


def mark_paid_at_counter(
    item: PaymentItem, *, receipt_number: str, paid_on: date, actor: User
) -> Payment:
    """Staff settle a guia paid at the counter or the bank. Raises BillingError."""
    receipt_number = receipt_number.strip()
    if not receipt_number:
        raise BillingError(
            "receipt_number", "invalid", _("Informe o número do recibo ou da autenticação.")
        )
    if paid_on > local_today():
        raise BillingError("paid_on", "invalid", _("A data do pagamento não pode estar no futuro."))
    if item.status == PaymentStatus.PROCESSING:
        raise BillingError(
            None,
            "invalid",
            _(
                "Há um pagamento online (boleto ou PIX) em processamento para este "
                "item. Aguarde a confirmação antes de dar baixa no balcão."
            ),
        )
    if not item.payable:
        raise BillingError(
            None,
            "invalid",
            _(
                "Este pagamento está %(status)s: não há o que receber.",
                status=status_label(item.status).lower(),
            ),
        )
    used = db.session.scalar(
        select(Payment).where(
            Payment.method == PaymentMethod.COUNTER, Payment.provider_reference == receipt_number
        )
    )
    if used is not None:
        raise BillingError(
            "receipt_number",
            "invalid",
            _(
                "Este número de recibo já foi usado na baixa da referência %(ref)s.",
                ref=used.item.formatted_reference,
            ),
        )
    payment = settle(
        item,
        method=PaymentMethod.COUNTER,
        amount_cents=item.amount_cents,
        provider_reference=receipt_number,
        received_on=paid_on,
        actor_id=actor.id,
        note=_("Baixa no balcão, recibo %(number)s", number=receipt_number),
    )
    close_online_sessions(item)
    audit.record(
        "payment.counter_paid",
        item,
        detail={
            "reference": item.reference,
            "receipt_number": receipt_number,
            "paid_on": paid_on.isoformat(),
            "amount_cents": item.amount_cents,
        },
        actor_id=actor.id,
    )
    return payment


# ---------------------------------------------------------------------------------------------
# Review flags
# ---------------------------------------------------------------------------------------------


def flag_for_review(
    item: PaymentItem, code: str, message: str, detail: dict[str, Any] | None = None
) -> PaymentReviewFlag:
    """Put an anomaly in front of staff (reconciliation view) without touching the status."""
    flag = PaymentReviewFlag(item=item, code=code, message=message[:500], detail=detail)
    db.session.add(flag)
    add_note(item, _("Sinalizado para conferência: %(message)s", message=message)[:500])
    audit.record("payment.flagged", item, detail={"code": code, **(detail or {})}, actor_id=None)
    db.session.flush()
    return flag


def resolve_flag(flag: PaymentReviewFlag, note: str, *, actor: User) -> None:
    if flag.resolved_at is not None:
        raise BillingError(None, "invalid", _("Esta pendência já foi resolvida."))
    if not note.strip():
        raise BillingError("note", "invalid", _("Descreva o que foi feito."))
    flag.resolved_at = utcnow()
    flag.resolved_by_id = actor.id
    flag.resolution_note = note.strip()[:500]
    add_note(
        flag.item, _("Pendência resolvida: %(note)s", note=note.strip())[:500], actor_id=actor.id
    )
    audit.record(
        "payment.flag_resolved",
        flag.item,
        detail={"flag_id": flag.id, "code": flag.code},
        actor_id=actor.id,
    )
    db.session.flush()


# ---------------------------------------------------------------------------------------------
# Refunds
# ---------------------------------------------------------------------------------------------


def refund_payment(item: PaymentItem, *, reason: str, actor: User) -> Refund:
    """Give the money back: through the Stripe API for online payments, or record the refund of
    a counter payment made by the treasury. The item becomes ``refunded``. Raises BillingError."""
    from portal.blueprints.billing import stripe_gateway

    reason = reason.strip()
    if len(reason) < 5:
        raise BillingError("reason", "invalid", _("Explique o motivo do estorno."))
    if item.status != PaymentStatus.PAID or item.payment is None:
        raise BillingError(None, "invalid", _("Só um pagamento confirmado pode ser estornado."))
    payment = item.payment
    if payment.method == PaymentMethod.STRIPE:
        refund_id, status = stripe_gateway.create_refund(payment, reason)
        refund = Refund(
            item=item,
            amount_cents=payment.amount_cents,
            reason=reason[:500],
            method=payment.method,
            stripe_refund_id=refund_id,
            status=status,
            created_by_id=actor.id,
        )
    else:
        refund = Refund(
            item=item,
            amount_cents=payment.amount_cents,
            reason=reason[:500],
            method=payment.method,
            status="recorded",
            created_by_id=actor.id,
        )
    db.session.add(refund)
    transition(
        item, PaymentStatus.REFUNDED, _("Estorno: %(reason)s", reason=reason), actor_id=actor.id
    )
    db.session.flush()
    audit.record(
        "payment.refunded",
        item,
        detail={
            "amount_cents": payment.amount_cents,
            "method": payment.method,
            "stripe_refund_id": refund.stripe_refund_id,
            "reason": reason[:200],
        },
        actor_id=actor.id,
    )
    _email_refund(item, refund)
    return refund


def _email_refund(item: PaymentItem, refund: Refund) -> None:
    payer = item.responsible
    if payer is None or not payer.email:
        return
    with force_locale("pt_BR"):
        how = (
            _(
                "O valor volta pelo mesmo meio usado no pagamento; o prazo depende do banco ou "
                "da operadora do cartão."
            )
            if refund.method == PaymentMethod.STRIPE
            else _("Procure o CCZ para receber a devolução.")
        )
        body = _(
            "Olá, %(name)s.\n\nO pagamento de %(amount)s referente a %(what)s (referência "
            "%(ref)s) foi estornado.\nMotivo: %(reason)s\n%(how)s\n\n%(url)s\n\n"
            "Centro de Controle de Zoonoses",
            name=payer.full_name.split()[0],
            amount=format_brl(refund.amount_cents),
            what=item.description,
            ref=item.formatted_reference,
            reason=refund.reason,
            how=how,
            url=external_url("billing.item", item_id=item.id),
        )
        send_email(payer.email, _("Pagamento estornado"), body)
