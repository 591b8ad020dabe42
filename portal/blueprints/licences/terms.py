"""A licence's term and status: validity (GRU 37 §1 IV; CAB 31 §2), the renewal window (GRU 37 §1
V), labels, and the staff look-up by code or number."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.licences.common import normalise_code
from portal.extensions import db
from portal.models import (
    ExcessLicence,
    LicenceStatus,
)
from portal.profiles.schema import LicenceRule, Profile
from portal.services.dates import add_months

# ---------------------------------------------------------------------------------------------
# Terms
# ---------------------------------------------------------------------------------------------


def term_end(valid_from: date, rule: LicenceRule) -> date:
    """GRU 37 §1 IV; CAB 31 §2: one year is the same date next year (29 Feb -> 28 Feb)."""
    return add_months(valid_from, rule.validity_months)


def is_valid(licence: ExcessLicence, on: date) -> bool:
    return (
        licence.status == LicenceStatus.APPROVED
        and licence.valid_from is not None
        and licence.valid_until is not None
        and licence.valid_from <= on <= licence.valid_until
    )


def public_status(licence: ExcessLicence, on: date) -> str | None:
    """``valid``, ``expired`` or ``cancelled``; None for a request never approved (not public).
    A licence approved to start later (a renewal decided early) is reported valid from its day."""
    if licence.status == LicenceStatus.CANCELLED:
        return "cancelled"
    if licence.status != LicenceStatus.APPROVED or licence.valid_until is None:
        return None
    return "expired" if on > licence.valid_until else "valid"


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


@dataclass(frozen=True)
class RenewalWindow:
    opens: date
    closes: date

    def contains(self, day: date) -> bool:
        return self.opens <= day <= self.closes


def renewal_window(licence: ExcessLicence, profile: Profile) -> RenewalWindow | None:
    """GRU 37 §1 V: the renewal is asked for within the 30 days before the licence expires."""
    rule = profile.licence
    if (
        rule is None
        or licence.status != LicenceStatus.APPROVED
        or licence.valid_until is None
        or rule.renewal_window_days is None
    ):
        return None
    opens = licence.valid_until - timedelta(days=rule.renewal_window_days)
    return RenewalWindow(opens, licence.valid_until)


def renewal_of(licence: ExcessLicence) -> ExcessLicence | None:
    """The renewal asked for (or granted) from this licence, if any (not refused nor withdrawn)."""
    return db.session.scalar(
        select(ExcessLicence)
        .where(
            ExcessLicence.renews_id == licence.id,
            ExcessLicence.status.not_in([LicenceStatus.REFUSED, LicenceStatus.WITHDRAWN]),
        )
        .order_by(ExcessLicence.id.desc())
    )


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
