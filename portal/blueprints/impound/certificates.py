"""Certidão negativa de captura (GRU 84 §3, §5): request, exam, issue, public check."""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    CaptureCertificate,
    CertificateStatus,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.municipal_holidays import municipal_holidays

from .deadlines import capture_count, first_day_counted

# ---------------------------------------------------------------------------------------------
# Certidão negativa de captura (GRU 84 §3, §5)
# ---------------------------------------------------------------------------------------------


def certificates_offered(profile: Profile) -> bool:
    return profile.impound.capture_certificate and profile.impound.capture_count is not None


def request_certificate(
    profile: Profile, rga: str, *, requester: User, exam_on: date, today: date
) -> CaptureCertificate:
    """GRU 84 §3: anyone who means to acquire an animal asks for its certidão; 84 §5: the animal
    is brought, contained, to the CCZ for the exam on ``exam_on`` (a business day)."""
    from portal.blueprints.animals.rga import InvalidRgaNumber
    from portal.blueprints.animals.services import find_by_rga
    from portal.services.dates import business_days_calendar

    if not certificates_offered(profile):
        raise DomainError(None, "not_offered", _("Esta lei não prevê a certidão."))
    try:
        animal = find_by_rga(rga)
    except InvalidRgaNumber:
        animal = None
    if animal is None:
        raise DomainError("rga", "unknown", _("Não encontramos um animal com este RGA."))
    calendar = business_days_calendar(profile.state, municipal_holidays([exam_on]))
    if exam_on <= today or not calendar(exam_on):
        raise DomainError(
            "exam_on",
            "not_business_day",
            _("Escolha um dia útil a partir de amanhã para levar o animal ao CCZ."),
        )
    cert = CaptureCertificate(
        code=_certificate_code(), animal_id=animal.id, requester_id=requester.id, exam_on=exam_on
    )
    db.session.add(cert)
    db.session.flush()
    audit.record("impound.certificate_requested", cert, detail={"rga": animal.rga})
    return cert


def _certificate_code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "CNC-" + "".join(secrets.choice(alphabet) for _ in range(10))


def issue_certificate(
    profile: Profile,
    cert: CaptureCertificate,
    *,
    confirmed: bool,
    note: str,
    staff: User,
    today: date,
) -> CaptureCertificate:
    """After the exam (tag, microchip, description): the captures within the period, or none."""
    if cert.status != CertificateStatus.REQUESTED:
        raise DomainError(None, "already_decided", _("Este pedido já foi concluído."))
    cert.examined_by_id = staff.id
    cert.exam_note = note.strip() or None
    if not confirmed:
        if not note.strip():
            raise DomainError("note", "required", _("Explique por que o animal não confere."))
        cert.status = CertificateStatus.REFUSED
    else:
        rule = profile.impound.capture_count
        assert rule is not None
        cert.status = CertificateStatus.ISSUED
        cert.issued_on = today
        cert.period_to = today
        cert.period_from = first_day_counted(today, rule.period_years)  # the period counted
        cert.captures_in_period = capture_count(profile, cert.animal_id, today)  # GRU 84 §3, 113
    db.session.flush()
    audit.record("impound.certificate_decided", cert, detail={"status": cert.status})
    from .notices import certificate_decided

    certificate_decided(cert)  # the result reaches the requester (issue 25)
    return cert


def certificate_by_code(code: str) -> CaptureCertificate | None:
    return db.session.scalar(
        select(CaptureCertificate).where(
            CaptureCertificate.code == code.strip().upper(),
            CaptureCertificate.status == CertificateStatus.ISSUED,
        )
    )


def public_certificate(code: str, profile: Profile) -> CaptureCertificate | None:
    """The issued certidão a public check (page, PDF, API) shows for ``code``; None for an unknown
    code and wherever the profile's law has no certidão (GRU 84 §3, §5)."""
    return certificate_by_code(code) if certificates_offered(profile) else None


def certificate_json(cert: CaptureCertificate) -> dict[str, Any]:
    """What the public check shows: nothing about the owner or the requester."""
    return {
        "code": cert.code,
        "rga": cert.animal.rga,
        "captures_in_period": cert.captures_in_period,
        "period_from": cert.period_from.isoformat() if cert.period_from else None,
        "period_to": cert.period_to.isoformat() if cert.period_to else None,
        "issued_on": cert.issued_on.isoformat() if cert.issued_on else None,
    }
