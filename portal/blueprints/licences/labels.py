"""How a licence is shown and found: its status and history labels, and the staff look-up by
public code or request number. The law's terms are in terms.py."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.licences.common import normalise_code
from portal.extensions import db
from portal.models import ExcessLicence, LicenceStatus


def status_label(licence: ExcessLicence, on: date) -> str:
    if licence.status == LicenceStatus.APPROVED:
        assert licence.valid_from is not None and licence.valid_until is not None
        if on < licence.valid_from:
            return _(
                "Aprovada (vale a partir de %(day)s)", day=licence.valid_from.strftime("%d/%m/%Y")
            )
        return _("Válida") if on <= licence.valid_until else _("Vencida")
    labels: dict[str, str] = {
        LicenceStatus.REQUESTED: _("Em análise no CCZ"),
        LicenceStatus.INFO_REQUESTED: _("Aguardando sua resposta"),
        LicenceStatus.REFUSED: _("Recusada"),
        LicenceStatus.CANCELLED: _("Cancelada"),
        LicenceStatus.WITHDRAWN: _("Desistência"),
    }
    return labels.get(licence.status, licence.status)


def event_label(action: str) -> str:
    return {
        "requested": _("Pedido enviado"),
        "renewal_requested": _("Renovação pedida"),
        "assigned": _("Agente designado"),
        "inspection_scheduled": _("Vistoria agendada"),
        "inspected": _("Vistoria registrada"),
        "info_requested": _("CCZ pediu mais informações"),
        "info_answered": _("Resposta enviada"),
        "approved": _("Aprovada"),
        "refused": _("Recusada"),
        "cancelled": _("Cancelada"),
    }.get(action, action)


def find(term: str) -> list[ExcessLicence]:
    """Staff search: a licence's public code or its request number."""
    term = (term or "").strip()
    if term.isdigit():
        if len(term) > 9:  # a CPF or a phone number, never a request number (int4 on PostgreSQL)
            return []
        found = db.session.get(ExcessLicence, int(term))
        return [found] if found else []
    code = normalise_code(term)
    if len(code) != 14:
        return []
    found = db.session.scalar(select(ExcessLicence).where(ExcessLicence.code == code))
    return [found] if found else []


# The audited actions in words (the audit trail); ``init_app`` hands them to the wiring.
AUDIT_LABELS: dict[str, Any] = {
    "licence.approved": _l("Aprovou licença para mais animais"),
    "licence.assigned": _l("Designou agente para pedido de licença"),
    "licence.cancelled": _l("Cancelou licença para mais animais"),
    "licence.household_viewed": _l("Consultou residência acima do limite de animais"),
    "household.limit_reduced": _l("Reduziu o limite de animais de uma residência (laudo técnico)"),
    "household.limit_restored": _l("Retirou a redução do limite de animais de uma residência"),
    "licence.info_answered": _l("Respondeu pedido de informações da licença"),
    "licence.info_requested": _l("Pediu mais informações sobre pedido de licença"),
    "licence.inspected": _l("Registrou vistoria de pedido de licença"),
    "licence.inspection_scheduled": _l("Agendou vistoria de pedido de licença"),
    "licence.refused": _l("Recusou pedido de licença para mais animais"),
    "licence.renewal_requested": _l("Pediu renovação de licença para mais animais"),
    "licence.requested": _l("Pediu licença para mais animais"),
    "licence.viewed": _l("Consultou pedido de licença para mais animais"),
}
