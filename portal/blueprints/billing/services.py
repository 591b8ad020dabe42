"""Payment items: the one place other domains create something to pay, and every change of an
item's status (counter payment, exemption decisions, refunds, cancellation, review flags).

Stripe specifics live in :mod:`portal.blueprints.billing.stripe_gateway`; the PDFs in
:mod:`portal.blueprints.billing.documents`. Services ``flush`` and never commit; they raise
:class:`BillingError` with a Portuguese message the view shows next to the field.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import IO, Any

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import Select, func, or_, select

from portal import urls
from portal.extensions import db
from portal.models import (
    ApiClient,
    ExemptionRequest,
    ExemptionStatus,
    Payment,
    PaymentEvent,
    PaymentItem,
    PaymentMethod,
    PaymentReviewFlag,
    PaymentStatus,
    PriceOverride,
    Refund,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_today, tz  # noqa: F401  (re-exported)
from portal.services.fees import PRICE_KEYS, Fee
from portal.services.identity import clean_cpf
from portal.services.mail import send_email
from portal.services.money import format_brl
from portal.services.uploads import store_document

# A guia printed for an item without a legal due date is valid for this many days.
GUIA_VALID_DAYS = 10

# Which status may follow which. Paid never goes back to processing (webhooks out of order);
# exempt, refunded and cancelled are final.
_NEXT: dict[str, frozenset[str]] = {
    PaymentStatus.PENDING: frozenset(
        {
            PaymentStatus.PROCESSING,
            PaymentStatus.PAID,
            PaymentStatus.FAILED,
            PaymentStatus.EXEMPT,
            PaymentStatus.CANCELLED,
        }
    ),
    PaymentStatus.FAILED: frozenset(
        {
            PaymentStatus.PROCESSING,
            PaymentStatus.PAID,
            PaymentStatus.EXEMPT,
            PaymentStatus.CANCELLED,
        }
    ),
    PaymentStatus.PROCESSING: frozenset({PaymentStatus.PAID, PaymentStatus.FAILED}),
    PaymentStatus.PAID: frozenset({PaymentStatus.REFUNDED}),
    PaymentStatus.EXEMPT: frozenset(),
    PaymentStatus.REFUNDED: frozenset(),
    PaymentStatus.CANCELLED: frozenset(),
}


# An item that stops being owed (paid, or exempted by staff). Other domains react to it through
# :func:`register_settlement_listener` instead of polling items (e.g. a provisional RGA becomes
# definitive once its fee is settled, issue 8).
SETTLED_STATUSES = frozenset({PaymentStatus.PAID, PaymentStatus.EXEMPT})
SettlementListener = Callable[[PaymentItem], None]
_settlement_listeners: list[SettlementListener] = []


def register_settlement_listener(listener: SettlementListener) -> None:
    """Call ``listener(item)`` whenever an item becomes paid or exempt, inside the same
    transaction (it may flush, never commit). Registering the same function twice is a no-op."""
    if listener not in _settlement_listeners:
        _settlement_listeners.append(listener)


class BillingError(Exception):
    """A payment action the rules do not allow; ``message`` is shown to the person."""

    def __init__(self, message: str, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


# ---------------------------------------------------------------------------------------------
# Items
# ---------------------------------------------------------------------------------------------


def _luhn_digit(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            n = n - 9 if n > 9 else n
        total += n
    return str((10 - total % 10) % 10)


def new_reference() -> str:
    """A guia reference: 11 random digits plus a Luhn check digit, typed at the counter."""
    while True:
        body = f"{secrets.randbelow(10**11):011d}"
        reference = body + _luhn_digit(body)
        taken = select(PaymentItem.id).where(PaymentItem.reference == reference)
        if db.session.scalar(taken) is None:
            return reference


def clean_reference(text: str | None) -> str | None:
    """The 12 digits of a reference typed with any spacing, or None when the check digit fails."""
    digits = "".join(ch for ch in (text or "") if ch.isdigit())
    if len(digits) != 12 or _luhn_digit(digits[:-1]) != digits[-1]:
        return None
    return digits


def create_payment_item(
    *,
    kind: str,
    amount_cents: int,
    description: str,
    payer: User | None,
    subject_type: str | None = None,
    subject_id: int | None = None,
    breakdown: list[dict] | None = None,
    api_client_id: int | None = None,
    due_on: date | None = None,
) -> PaymentItem:
    """Create a pending item (or an already-settled zero item when nothing is due)."""
    if amount_cents < 0:
        raise ValueError("amount_cents must not be negative")
    status = PaymentStatus.PENDING if amount_cents > 0 else PaymentStatus.EXEMPT
    item = PaymentItem(
        kind=kind,
        amount_cents=amount_cents,
        description=description,
        payer_id=payer.id if payer else None,
        subject_type=subject_type,
        subject_id=subject_id,
        breakdown=breakdown,
        api_client_id=api_client_id,
        reference=new_reference(),
        status=status,
        due_on=due_on,
    )
    item.events.append(PaymentEvent(from_status=None, to_status=status, note="created"))
    db.session.add(item)
    db.session.flush()
    return item


def create_item_for_fee(
    fee: Fee,
    *,
    description: str,
    payer: User | None,
    subject_type: str | None = None,
    subject_id: int | None = None,
    api_client_id: int | None = None,
    due_on: date | None = None,
) -> PaymentItem:
    """An item for a computed fee: amount and itemised lines (with articles) come from ``fee``."""
    return create_payment_item(
        kind=fee.kind,
        amount_cents=fee.total_cents,
        description=description,
        payer=payer,
        subject_type=subject_type,
        subject_id=subject_id,
        breakdown=fee.breakdown(),
        api_client_id=api_client_id,
        due_on=due_on,
    )


def external_url(endpoint: str, **values: Any) -> str:
    """An absolute URL for e-mails, QR codes and the API (see :mod:`portal.urls`)."""
    return urls.absolute_url(endpoint, **values)


def pay_url(item: PaymentItem) -> str:
    """The public page of an item: the payer signs in there (or learns how to claim the record)."""
    return external_url("billing.item", item_id=item.id)


def fee_json(item: PaymentItem) -> dict:
    """The shape API responses use for fees (issue #4)."""
    return {
        "id": item.id,
        "kind": item.kind,
        "amount_cents": item.amount_cents,
        "status": item.status,
        "pay_url": pay_url(item),
    }


def get_item(item_id: int) -> PaymentItem | None:
    return db.session.get(PaymentItem, item_id)


def is_responsible(item: PaymentItem, user: Any) -> bool:
    """True when ``user`` is the one who pays ``item`` (see PaymentItem.responsible)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    responsible = item.responsible
    return responsible is not None and responsible.id == user.id


def may_view(item: PaymentItem, user: Any) -> bool:
    """The payer and CCZ staff see an item; nobody else (views answer 404, not 403)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return is_responsible(item, user) or user.is_staff


def items_of(user: User) -> list[PaymentItem]:
    """Everything ``user`` has to pay or paid: as payer, or for the API client they act for."""
    clients = select(ApiClient.id).where(ApiClient.user_id == user.id)
    return list(
        db.session.scalars(
            select(PaymentItem)
            .where(
                or_(
                    PaymentItem.payer_id == user.id,
                    PaymentItem.payer_id.is_(None) & PaymentItem.api_client_id.in_(clients),
                )
            )
            .order_by(PaymentItem.id.desc())
        )
    )


# tz and local_today (dates of receipts, due dates) come from portal.services.clock.


def local_day_start(day: date) -> datetime:
    """The UTC instant at which ``day`` starts in the municipality."""
    return datetime.combine(day, time.min, tzinfo=tz()).astimezone(UTC)


def guia_due_date(item: PaymentItem, today: date | None = None) -> date:
    """The due date printed on a guia: the item's legal due date, else a few days from today."""
    today = today or local_today()
    if item.due_on is not None and item.due_on >= today:
        return item.due_on
    return today + timedelta(days=GUIA_VALID_DAYS)


def transition(item: PaymentItem, to: str, note: str, *, actor_id: int | None = None) -> None:
    """Move ``item`` to status ``to`` and write it in the history. Raises BillingError."""
    if to not in _NEXT[item.status]:
        raise BillingError(
            _(
                "Este pagamento está %(status)s e não pode passar a %(to)s.",
                status=status_label(item.status).lower(),
                to=status_label(to).lower(),
            ),
            code="invalid_transition",
        )
    item.events.append(
        PaymentEvent(from_status=item.status, to_status=to, note=note[:500], actor_id=actor_id)
    )
    item.status = to
    if to in SETTLED_STATUSES:
        for listener in list(_settlement_listeners):
            listener(item)


def add_note(item: PaymentItem, note: str, *, actor_id: int | None = None) -> None:
    """A history line that does not change the status."""
    item.events.append(
        PaymentEvent(
            from_status=item.status, to_status=item.status, note=note[:500], actor_id=actor_id
        )
    )


def cancel_payment_item(item: PaymentItem, reason: str, *, actor: User | None = None) -> None:
    """Cancel an unpaid item (e.g. the registration it paid for was withdrawn).

    Raises BillingError."""
    if not reason.strip():
        raise BillingError(_("Informe o motivo do cancelamento."), field="reason")
    transition(item, PaymentStatus.CANCELLED, reason.strip(), actor_id=actor.id if actor else None)
    _close_exemption_requests(item)
    _close_online_sessions(item)
    audit.record(
        "payment.cancelled",
        item,
        detail={"reason": reason.strip()[:200]},
        actor_id=actor.id if actor else None,
    )
    db.session.flush()


def _close_online_sessions(item: PaymentItem) -> None:
    """The item left "payable" by another way: close its open Stripe pages (no double payment)."""
    from portal.blueprints.billing import stripe_gateway

    stripe_gateway.expire_open_sessions(item)


def _close_exemption_requests(item: PaymentItem) -> None:
    for req in item.exemption_requests:
        if req.status == ExemptionStatus.PENDING:
            req.status = ExemptionStatus.CLOSED
            req.decided_at = utcnow()


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
    _close_exemption_requests(item)
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
            _("Referência inválida: confira os 12 dígitos impressos na guia."), field="reference"
        )
    return db.session.scalar(select(PaymentItem).where(PaymentItem.reference == reference))


def mark_paid_at_counter(
    item: PaymentItem, *, receipt_number: str, paid_on: date, actor: User
) -> Payment:
    """Staff settle a guia paid at the counter or the bank. Raises BillingError."""
    receipt_number = receipt_number.strip()
    if not receipt_number:
        raise BillingError(
            _("Informe o número do recibo ou da autenticação."), field="receipt_number"
        )
    if paid_on > local_today():
        raise BillingError(_("A data do pagamento não pode estar no futuro."), field="paid_on")
    if item.status == PaymentStatus.PROCESSING:
        raise BillingError(
            _(
                "Há um pagamento online (boleto ou PIX) em processamento para este "
                "item. Aguarde a confirmação antes de dar baixa no balcão."
            )
        )
    if not item.payable:
        raise BillingError(
            _(
                "Este pagamento está %(status)s: não há o que receber.",
                status=status_label(item.status).lower(),
            )
        )
    used = db.session.scalar(
        select(Payment).where(
            Payment.method == PaymentMethod.COUNTER, Payment.provider_reference == receipt_number
        )
    )
    if used is not None:
        raise BillingError(
            _(
                "Este número de recibo já foi usado na baixa da referência %(ref)s.",
                ref=used.item.formatted_reference,
            ),
            field="receipt_number",
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
    _close_online_sessions(item)
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
        raise BillingError(_("Esta pendência já foi resolvida."))
    if not note.strip():
        raise BillingError(_("Descreva o que foi feito."), field="note")
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
# Exemptions (GRU 23, 82 §3; VV 12 §3-4)
# ---------------------------------------------------------------------------------------------


def exemptions_for_item(profile: Profile, item: PaymentItem) -> list:
    """The exemptions of the law that may waive this item's kind of fee.

    None for a charge an accredited establishment pays for the registrations it made (GRU 22 I,
    §2): GRU 23 exempts owners who prove unemployment or low income, not a clinic or pet shop.
    """
    if item.api_client_id is not None:
        return []  # GRU 23: "os proprietários ... ao fazerem o registro"
    return [e for e in profile.exemptions if item.kind in e.fee_kinds]


def request_exemption(
    item: PaymentItem,
    requester: User,
    *,
    profile: Profile,
    code: str,
    statement: str | None,
    proof: IO[bytes],
    filename: str | None,
) -> ExemptionRequest:
    """The payer asks to be exempted and uploads proof (private: staff only). Raises BillingError
    (or UploadError for a file that is not an acceptable PDF or image)."""
    if item.payer_id != requester.id:
        raise BillingError(_("Só quem deve o pagamento pode pedir isenção."))
    if not item.payable:
        raise BillingError(
            _(
                "Este pagamento está %(status)s: não cabe pedido de isenção.",
                status=status_label(item.status).lower(),
            )
        )
    if item.open_exemption_request is not None:
        raise BillingError(_("Já há um pedido de isenção em análise para este pagamento."))
    exemption = next((e for e in exemptions_for_item(profile, item) if e.code == code), None)
    if exemption is None:
        raise BillingError(_("Escolha uma das isenções previstas na lei."), field="code")
    # owner_id stays empty: the proof is served to staff only, never back to the browser.
    stored = store_document(proof, purpose="exemption_proof", owner_id=None, filename=filename)
    req = ExemptionRequest(
        item=item,
        requester_id=requester.id,
        code=exemption.code,
        label=exemption.label,
        article=exemption.article,
        statement=(statement or "").strip()[:2000] or None,
        proof=stored,
    )
    db.session.add(req)
    add_note(
        item,
        _("Pedido de isenção enviado (%(article)s)", article=exemption.article),
        actor_id=requester.id,
    )
    audit.record(
        "payment.exemption_requested",
        item,
        detail={"code": exemption.code, "article": exemption.article},
        actor_id=requester.id,
    )
    db.session.flush()
    return req


def decide_exemption(
    req: ExemptionRequest, *, accept: bool, reason: str | None, actor: User
) -> None:
    """Staff accept (the item becomes exempt) or refuse with a reason (it stays to be paid).

    The applicant is told by e-mail. Raises BillingError.
    """
    if req.status != ExemptionStatus.PENDING:
        raise BillingError(_("Este pedido já foi decidido."))
    reason = (reason or "").strip()
    if not accept and not reason:
        raise BillingError(
            _("Informe o motivo da recusa: ele é enviado ao requerente."), field="reason"
        )
    item = req.item
    req.decided_at = utcnow()
    req.decided_by_id = actor.id
    req.decision_reason = reason or None
    if accept:
        transition(
            item,
            PaymentStatus.EXEMPT,
            _("Isenção concedida (%(article)s)", article=req.article),
            actor_id=actor.id,
        )
        req.status = ExemptionStatus.ACCEPTED
        _close_online_sessions(item)
    else:
        # The item was never taken out of "pending" while the request waited: refusing leaves it
        # payable again, with the reason in its history.
        add_note(item, _("Isenção recusada: %(reason)s", reason=reason), actor_id=actor.id)
        req.status = ExemptionStatus.REFUSED
    audit.record(
        "payment.exemption_accepted" if accept else "payment.exemption_refused",
        item,
        detail={
            "request_id": req.id,
            "code": req.code,
            **({"reason": reason[:200]} if reason else {}),
        },
        actor_id=actor.id,
    )
    db.session.flush()
    _email_exemption_decision(req)


def _email_exemption_decision(req: ExemptionRequest) -> None:
    person = req.requester
    if not person.email:
        return
    item = req.item
    with force_locale("pt_BR"):
        if req.status == ExemptionStatus.ACCEPTED:
            subject = _("Isenção concedida")
            outcome = _(
                "Seu pedido de isenção (%(article)s) foi aceito: não há nada a pagar.",
                article=req.article,
            )
        else:
            subject = _("Pedido de isenção recusado")
            outcome = _(
                "Seu pedido de isenção (%(article)s) foi recusado pelo seguinte motivo:\n"
                "%(reason)s\n\nVocê pode pagar online ou com a guia, ou enviar um novo "
                "pedido com outro comprovante.",
                article=req.article,
                reason=req.decision_reason or "",
            )
        body = _(
            "Olá, %(name)s.\n\nPagamento: %(what)s (%(amount)s), referência %(ref)s.\n\n"
            "%(outcome)s\n\nVeja os detalhes em:\n%(url)s\n\nCentro de Controle de Zoonoses",
            name=person.full_name.split()[0],
            what=item.description,
            amount=format_brl(item.amount_cents),
            ref=item.formatted_reference,
            outcome=outcome,
            url=external_url("billing.item", item_id=item.id),
        )
        send_email(person.email, subject, body)


# ---------------------------------------------------------------------------------------------
# Price list (GRU 22; BJP 11, 28)
# ---------------------------------------------------------------------------------------------


def set_price(
    profile: Profile,
    key: str,
    *,
    amount_cents: int,
    effective_from: date,
    note: str | None,
    actor: User,
) -> PriceOverride:
    """Enter the city's amount for a line of its price list from a date on. Raises BillingError."""
    if key not in PRICE_KEYS or key not in profile.prices:
        raise BillingError(
            _("Este item não faz parte da tabela de preços prevista na lei."), field="key"
        )
    if amount_cents < 0:
        raise BillingError(_("O valor não pode ser negativo."), field="amount")
    exists = db.session.scalar(
        select(PriceOverride).where(
            PriceOverride.profile_key == profile.key,
            PriceOverride.key == key,
            PriceOverride.effective_from == effective_from,
        )
    )
    if exists is not None:
        raise BillingError(
            _("Já há um valor para este item com vigência nesta data."), field="effective_from"
        )
    override = PriceOverride(
        profile_key=profile.key,
        key=key,
        amount_cents=amount_cents,
        effective_from=effective_from,
        note=(note or "").strip() or None,
        created_by_id=actor.id,
    )
    db.session.add(override)
    db.session.flush()
    audit.record(
        "price.set",
        override,
        detail={
            "key": key,
            "amount_cents": amount_cents,
            "effective_from": effective_from.isoformat(),
        },
        actor_id=actor.id,
    )
    return override


# ---------------------------------------------------------------------------------------------
# Refunds
# ---------------------------------------------------------------------------------------------


def refund_payment(item: PaymentItem, *, reason: str, actor: User) -> Refund:
    """Give the money back: through the Stripe API for online payments, or record the refund of
    a counter payment made by the treasury. The item becomes ``refunded``. Raises BillingError."""
    from portal.blueprints.billing import stripe_gateway

    reason = reason.strip()
    if len(reason) < 5:
        raise BillingError(_("Explique o motivo do estorno."), field="reason")
    if item.status != PaymentStatus.PAID or item.payment is None:
        raise BillingError(_("Só um pagamento confirmado pode ser estornado."))
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


# ---------------------------------------------------------------------------------------------
# Staff views: search and reconciliation
# ---------------------------------------------------------------------------------------------


def staff_items_query(
    *,
    status: str | None = None,
    kind: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    q: str | None = None,
) -> Select[tuple[PaymentItem]]:
    """Items for the staff list, newest first. ``q`` is a guia reference, a payer's CPF, or words
    of the payer's name or the description. Dates are days in the municipality's time zone."""
    stmt = select(PaymentItem).order_by(PaymentItem.id.desc())
    if status:
        stmt = stmt.where(PaymentItem.status == status)
    if kind:
        stmt = stmt.where(PaymentItem.kind == kind)
    if date_from:
        stmt = stmt.where(PaymentItem.created_at >= local_day_start(date_from))
    if date_to:
        stmt = stmt.where(PaymentItem.created_at < local_day_start(date_to + timedelta(days=1)))
    if q and q.strip():
        text = q.strip()
        reference = clean_reference(text)
        cpf = clean_cpf(text) if reference is None else None
        if reference:
            stmt = stmt.where(PaymentItem.reference == reference)
        elif cpf:
            stmt = stmt.join(User, PaymentItem.payer_id == User.id).where(User.cpf == cpf)
        else:
            stmt = stmt.outerjoin(User, PaymentItem.payer_id == User.id).where(
                or_(
                    func.lower(User.full_name).contains(text.lower()),
                    func.lower(PaymentItem.description).contains(text.lower()),
                )
            )
    return stmt


@dataclass
class Totals:
    count: int = 0
    amount_cents: int = 0


@dataclass
class Reconciliation:
    date_from: date
    date_to: date
    by_status: dict[str, Totals] = field(default_factory=dict)
    by_kind: dict[str, Totals] = field(default_factory=dict)
    received_by_method: dict[str, Totals] = field(default_factory=dict)
    refunded_by_method: dict[str, Totals] = field(default_factory=dict)
    open_flags: list[PaymentReviewFlag] = field(default_factory=list)
    stale_processing: list[PaymentItem] = field(default_factory=list)

    @property
    def received_total(self) -> int:
        return sum(t.amount_cents for t in self.received_by_method.values())

    @property
    def refunded_total(self) -> int:
        return sum(t.amount_cents for t in self.refunded_by_method.values())


def reconciliation(date_from: date, date_to: date) -> Reconciliation:
    """Totals for a period: items issued (by status and kind), money received and refunded (by
    method), plus everything that needs a person: open review flags and boletos stuck in
    processing for more than a week."""
    start, end = local_day_start(date_from), local_day_start(date_to + timedelta(days=1))
    report = Reconciliation(date_from, date_to)
    issued = (PaymentItem.created_at >= start) & (PaymentItem.created_at < end)
    item_sum = func.coalesce(func.sum(PaymentItem.amount_cents), 0)
    for status, count, total in db.session.execute(
        select(PaymentItem.status, func.count(), item_sum)
        .where(issued)
        .group_by(PaymentItem.status)
    ):
        report.by_status[status] = Totals(count, int(total))
    for kind, count, total in db.session.execute(
        select(PaymentItem.kind, func.count(), item_sum).where(issued).group_by(PaymentItem.kind)
    ):
        report.by_kind[kind] = Totals(count, int(total))
    for method, count, total in db.session.execute(
        select(Payment.method, func.count(), func.coalesce(func.sum(Payment.amount_cents), 0))
        .where(Payment.received_on >= date_from, Payment.received_on <= date_to)
        .group_by(Payment.method)
    ):
        report.received_by_method[method] = Totals(count, int(total))
    for method, count, total in db.session.execute(
        select(Refund.method, func.count(), func.coalesce(func.sum(Refund.amount_cents), 0))
        .where(
            Refund.created_at >= start,
            Refund.created_at < end,
            # a refund Stripe failed or cancelled gave no money back
            Refund.status.not_in(("failed", "canceled")),
        )
        .group_by(Refund.method)
    ):
        report.refunded_by_method[method] = Totals(count, int(total))
    report.open_flags = list(
        db.session.scalars(
            select(PaymentReviewFlag)
            .where(PaymentReviewFlag.resolved_at.is_(None))
            .order_by(PaymentReviewFlag.id)
        )
    )
    report.stale_processing = list(
        db.session.scalars(
            select(PaymentItem)
            .where(
                PaymentItem.status == PaymentStatus.PROCESSING,
                PaymentItem.created_at < utcnow() - timedelta(days=7),
            )
            .order_by(PaymentItem.id)
        )
    )
    return report


def pending_exemption_requests() -> Iterable[ExemptionRequest]:
    return db.session.scalars(
        select(ExemptionRequest)
        .where(ExemptionRequest.status == ExemptionStatus.PENDING)
        .order_by(ExemptionRequest.id)
    )


# ---------------------------------------------------------------------------------------------
# Wording shared by templates, PDFs and e-mails
# ---------------------------------------------------------------------------------------------


def status_label(status: str) -> str:
    labels: dict[str, str] = {
        PaymentStatus.PENDING: _("Pendente"),
        PaymentStatus.PROCESSING: _("Em processamento"),
        PaymentStatus.PAID: _("Pago"),
        PaymentStatus.FAILED: _("Não concluído"),
        PaymentStatus.EXEMPT: _("Isento"),
        PaymentStatus.REFUNDED: _("Estornado"),
        PaymentStatus.CANCELLED: _("Cancelado"),
    }
    return labels.get(status, status)


def exemption_status_label(status: str) -> str:
    labels: dict[str, str] = {
        ExemptionStatus.PENDING: _("Em análise"),
        ExemptionStatus.ACCEPTED: _("Aceito"),
        ExemptionStatus.REFUSED: _("Recusado"),
        ExemptionStatus.CLOSED: _("Encerrado (pagamento resolvido de outra forma)"),
    }
    return labels.get(status, status)


def kind_label(kind: str) -> str:
    return {
        "registration": _("Registro do animal (RGA)"),
        "card_copy": _("Segunda via da carteira"),
        "tag_copy": _("Segunda via da plaqueta"),
        "licence": _("Licença especial"),
        "adoption": _("Adoção"),
        "reclaim": _("Resgate de animal apreendido"),
        "fine": _("Multa"),
    }.get(kind, kind)


def price_label(key: str) -> str:
    """The name of a line of the price list."""
    if key == "reclaim_daily":
        return _("Diária de permanência além do prazo de resgate")
    return kind_label(key)


def method_label(method: str | None) -> str:
    labels: dict[str, str] = {
        PaymentMethod.STRIPE: _("Online (cartão, boleto ou PIX)"),
        PaymentMethod.COUNTER: _("Guia paga no balcão"),
    }
    return labels.get(method or "", method or "—")
