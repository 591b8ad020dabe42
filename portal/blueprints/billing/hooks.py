"""How billing plugs into the rest of the portal: menu, staff tiles, template filters, the LGPD
export, the to-do list and the demo data (:func:`init_app`, called from ``create_app``)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from sqlalchemy import select

from portal.access import STAFF
from portal.blueprints.billing.items import create_item_for_fee, items_of, on_hold
from portal.blueprints.billing.labels import (
    exemption_status_label,
    kind_label,
    method_label,
    price_label,
    status_label,
)
from portal.extensions import db
from portal.models import ExemptionRequest, PaymentItem, User
from portal.services.clock import current_profile, local_today
from portal.services.money import format_brl
from portal.services.todo import TodoItem
from portal.wiring import wiring


def init_app(app: Flask) -> None:
    """What billing adds to the shared parts (called by ``portal.blueprints.billing.init_app``)."""
    from portal.blueprints.billing import queues, reminders

    wired = wiring(app)
    for name, label in (
        ("payment_status", payment_status_filter),
        ("exemption_status", exemption_status_filter),
        ("payment_kind", payment_kind_filter),
        ("payment_method", payment_method_filter),
        ("price_label", price_label_filter),
        ("payment_tag", payment_tag_filter),
    ):
        app.add_template_filter(label, name)
    wired.nav(
        _l("Meus pagamentos"),
        "billing.my_payments",
        order=40,
        visible=lambda: current_user.is_authenticated,
    )
    wired.nav(_l("Preços públicos"), "billing.prices", order=85)
    wired.admin_link(_l("Pagamentos"), "billing.staff_payments", STAFF)
    wired.admin_link(_l("Baixa de guia no balcão"), "billing.counter", STAFF)
    wired.admin_link(_l("Conciliação de pagamentos"), "billing.reconciliation", STAFF)
    wired.admin_link(_l("Pedidos de isenção de taxa"), "billing.exemption_queue", STAFF)
    wired.admin_link(_l("Tabela de preços públicos"), "billing.admin_prices", ("admin",))
    wired.exporter("pagamentos", export_payments)
    wired.todo("payments", payment_todo)
    wired.demo_seeder(seed_demo_payments)
    wired.queues(queues.declare_queues)
    wired.reminders(reminders.declare_reminders)


def payment_status_filter(status: str) -> str:
    return status_label(status)


def exemption_status_filter(status: str) -> str:
    return exemption_status_label(status)


def payment_kind_filter(kind: str) -> str:
    return kind_label(kind)


def payment_method_filter(method: str | None) -> str:
    return method_label(method)


def price_label_filter(key: str) -> str:
    return price_label(key)


STATUS_TAG = {
    "pending": "warning",
    "processing": "warning",
    "paid": "success",
    "failed": "danger",
    "exempt": "success",
    "refunded": "",
    "cancelled": "",
}


def payment_tag_filter(status: str) -> str:
    """The br-tag colour class of a status."""
    return STATUS_TAG.get(status, "")


def export_payments(user: User) -> list[dict[str, Any]]:
    """LGPD: every payment item of the person, with history, settlement, refunds and exemptions."""
    items = db.session.scalars(
        select(PaymentItem).where(PaymentItem.payer_id == user.id).order_by(PaymentItem.id)
    ).all()
    requests = db.session.scalars(
        select(ExemptionRequest).where(ExemptionRequest.requester_id == user.id)
    ).all()
    by_item: dict[int, list[ExemptionRequest]] = {}
    for req in requests:
        by_item.setdefault(req.item_id, []).append(req)
    out = []
    for item in items:
        out.append(
            {
                "id": item.id,
                "tipo": item.kind,
                "descricao": item.description,
                "valor_centavos": item.amount_cents,
                "moeda": item.currency,
                "situacao": item.status,
                "referencia": item.reference,
                "criado_em": item.created_at,
                "pago_em": item.paid_at,
                "vencimento": item.due_on,
                "discriminacao": item.breakdown or [],
                "historico": [
                    {"em": e.at, "de": e.from_status, "para": e.to_status, "nota": e.note}
                    for e in item.events
                ],
                "pagamento": None
                if item.payment is None
                else {
                    "forma": item.payment.method,
                    "valor_centavos": item.payment.amount_cents,
                    "recebido_em": item.payment.received_on,
                    "comprovante": item.payment.receipt_number,
                    "referencia_externa": item.payment.provider_reference,
                },
                "estornos": [
                    {"em": r.created_at, "valor_centavos": r.amount_cents, "motivo": r.reason}
                    for r in item.refunds
                ],
                "pedidos_de_isencao": [
                    {
                        "isencao": r.label,
                        "artigo": r.article,
                        "situacao": r.status,
                        "declaracao": r.statement,
                        "enviado_em": r.created_at,
                        "decidido_em": r.decided_at,
                        "motivo_da_decisao": r.decision_reason,
                        "arquivo_comprovante": r.proof.original_name,
                    }
                    for r in by_item.get(item.id, [])
                ],
            }
        )
    return out


def payment_todo(user: User) -> list[TodoItem]:
    """The citizen's to-do list: every item they still have to pay, or whose exemption
    request staff are still deciding."""
    from flask import url_for
    from flask_babel import gettext as _

    out = []
    for item in items_of(user):
        if not item.payable or on_hold(item):
            continue  # held: the domain's to-do says why (e.g. an appeal being judged)
        url = url_for("billing.item", item_id=item.id)
        if item.open_exemption_request is not None:
            out.append(
                TodoItem(
                    "payment",
                    _("Pedido de isenção em análise: %(what)s.", what=item.description),
                    url,
                    _("Acompanhar"),
                    order=45,
                )
            )
        else:
            out.append(
                TodoItem(
                    "payment",
                    _(
                        "Pagar %(amount)s: %(what)s.",
                        amount=format_brl(item.amount_cents),
                        what=item.description,
                    ),
                    url,
                    _("Pagar"),
                    order=10,
                )
            )
    return out


def seed_demo_payments() -> None:
    """A pending registration fee for the demo citizen, to try the guia and online payment."""

    from portal.services.fees import FeeError, PriceInputs, ReclaimInputs, compute_fee

    citizen = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    if citizen is None:
        return
    exists = db.session.scalar(
        select(PaymentItem.id).where(
            PaymentItem.payer_id == citizen.id, PaymentItem.subject_type == "demo"
        )
    )
    if exists is not None:
        return
    profile = current_profile()
    today = local_today()
    try:
        fee = compute_fee(profile, "registration", PriceInputs(), today)
        if fee.total_cents <= 0:  # a law without a registration fee: a reclaim, then
            reclaim = ReclaimInputs(size="small", apprehended_on=today)
            fee = compute_fee(profile, "reclaim", reclaim, today)
    except FeeError:
        return  # e.g. no unit value entered yet
    if fee.total_cents <= 0:
        return
    create_item_for_fee(
        fee,
        description="Demonstração: taxa do CCZ",
        payer=citizen,
        subject_type="demo",
        subject_id=None,
    )
