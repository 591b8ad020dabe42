"""Billing wording shared by templates, PDFs and e-mails: statuses, kinds, price lines, methods."""

from __future__ import annotations

from flask_babel import gettext as _

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
