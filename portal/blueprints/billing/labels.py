"""Billing wording shared by templates, PDFs and e-mails: statuses, kinds, price lines, methods."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.models import (
    ExemptionStatus,
    PaymentMethod,
    PaymentStatus,
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
        "expense": _("Ressarcimento de despesas"),  # GRU 89 §ú: the interdição's expenses
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


# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "payment.cancelled": _l("Cancelou cobrança"),
    "payment.checkout_started": _l("Iniciou pagamento on-line"),
    "payment.counter_paid": _l("Deu baixa de guia no balcão"),
    "payment.exemption_accepted": _l("Aceitou pedido de isenção"),
    "payment.exemption_refused": _l("Recusou pedido de isenção"),
    "payment.exemption_requested": _l("Pediu isenção de taxa"),
    "payment.exemption_viewed": _l("Consultou pedido de isenção"),
    "payment.flag_resolved": _l("Resolveu pendência de conciliação"),
    "payment.flagged": _l("Marcou cobrança para conferência"),
    "payment.guia_printed": _l("Imprimiu guia"),
    "payment.list_viewed": _l("Consultou lista de cobranças"),
    "payment.paid_online": _l("Pagamento on-line confirmado"),
    "payment.receipt_viewed": _l("Consultou recibo"),
    "payment.refunded": _l("Estornou pagamento"),
    "payment.viewed": _l("Consultou cobrança"),
    "price.set": _l("Alterou preço público"),
}
