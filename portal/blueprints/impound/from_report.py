"""Captures that come from a maus-tratos report (issues 12 → 14): an inspection whose outcome is
"capture needed" leads staff to the capture form, pre-filled with the report's place, district,
map point and species; the capture keeps the report it came from and the report's page lists its
captures with their status. The report's public history then says that the animal was collected
(the reporter following the protocol sees it), with nobody's personal data."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import Capture, InspectionOutcome, MaltreatmentReport, User

from .labels import SPECIES


@dataclass(frozen=True)
class ReportPrefill:
    """What the capture form starts with; the agent confirms or corrects it in the field."""

    protocol: str
    place: str
    district: str
    species: str | None
    latitude: float | None
    longitude: float | None


def report_for_capture(protocol: str) -> MaltreatmentReport:
    """The report a capture comes from: it must exist and its inspection must have found that a
    capture is needed (reports' outcome ``capture_needed``)."""
    report = db.session.scalar(
        select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol.strip().upper())
    )
    if report is None:
        raise DomainError(None, "unknown", _("Denúncia não encontrada."))
    if report.outcome != InspectionOutcome.CAPTURE_NEEDED:
        raise DomainError(
            None,
            "capture_not_needed",
            _("A vistoria desta denúncia não concluiu que a apreensão é necessária."),
        )
    return report


def prefill_from_report(report: MaltreatmentReport) -> ReportPrefill:
    street = ", ".join(p for p in (report.street or "", report.number or "") if p)
    if report.complement:
        street += f" ({report.complement})"
    place = " – ".join(p for p in (street, report.reference or "") if p)
    return ReportPrefill(
        protocol=report.protocol,
        place=place[:300],
        district=report.district or "",
        species=report.species if report.species in SPECIES else None,
        latitude=report.lat,
        longitude=report.lng,
    )


def captures_for_report(report: MaltreatmentReport) -> list[Capture]:
    """The captures recorded from one report, oldest first (shown on the report's staff page)."""
    return list(
        db.session.scalars(
            select(Capture).where(Capture.report_id == report.id).order_by(Capture.id)
        )
    )


def tell_reporter_collected(report: MaltreatmentReport, capture: Capture, agent: User) -> None:
    """A public line in the report's history (and the reporters' e-mail, through the reports
    domain's reply): the CCZ collected the animal on that day. No place, owner, agent or capture
    protocol: the reporter may be a neighbour, and the history is read with the tracking code."""
    from portal.blueprints.reports.services import add_reply

    add_reply(
        report,
        agent,
        _(
            "O CCZ recolheu o animal em %(day)s.",
            day=capture.captured_on.strftime("%d/%m/%Y"),
        ),
        public=True,
    )
