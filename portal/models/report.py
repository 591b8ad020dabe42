"""Maus-tratos reports (GRU 10 V; BJP 29; VV 3 IX): the report, its photos, its history, the
inspection.

The rules live in ``portal.blueprints.reports.services``; these classes only hold the records.

* A :class:`MaltreatmentReport` never holds anything about who made it. An anonymous report has no
  :class:`ReporterContact` row at all; a confidential one has exactly one, read only by the staff
  roles that need it (``services.may_see_reporter``) and every read is audited.
* The tracking code is shown once to the reporter; only its SHA-256 is kept.
* Protocol numbers (``DEN-2026-000123``) come from :class:`ReportCounter`, which only counts up.
* :class:`ReportEvent` is the history: state moves, public replies, notes and what the reporter
  added later. ``public`` events are what the reporter sees on the tracking page; they carry no
  agent name (``actor_id`` is for the audit trail, never shown outside the staff pages).
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.api_client import ApiClient
from portal.models.base import utcnow
from portal.models.upload import StoredFile
from portal.models.user import User


class ReportState(enum.StrEnum):
    TRIAGE = "triage"  # received, waiting for the CCZ to triage it
    ASSIGNED = "assigned"  # valid, an agent and a date assigned
    INSPECTED = "inspected"  # visited; waits for a notice or a capture (later issues)
    CLOSED = "closed"
    MERGED = "merged"  # duplicate, joined to another protocol (end)
    FORWARDED = "forwarded"  # sent to the police as a crime (end)


OPEN_STATES = (ReportState.TRIAGE, ReportState.ASSIGNED, ReportState.INSPECTED)


class IdentityMode(enum.StrEnum):
    ANONYMOUS = "anonymous"
    CONFIDENTIAL = "confidential"


class InspectionOutcome(enum.StrEnum):
    NOTHING_FOUND = "nothing_found"
    ORIENTATION = "orientation"
    NOTICE_NEEDED = "notice_needed"  # notificação preliminar: enforcement issue, not built yet
    CAPTURE_NEEDED = "capture_needed"  # apreensão: impound issue, not built yet
    FORWARDED_POLICE = "forwarded_police"


class ReportCounter(Model):
    """The last protocol sequence issued in one year (same scheme as ``RgaCounter``)."""

    __tablename__ = "report_counter"

    year: Mapped[int] = mapped_column(primary_key=True)
    last_value: Mapped[int] = mapped_column(default=0)


class MaltreatmentReport(Model):
    __tablename__ = "maltreatment_report"
    __table_args__ = (
        Index("ix_maltreatment_report_state_created", "state", "created_at"),
        Index("ix_maltreatment_report_dup", "category", "residence_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    protocol: Mapped[str] = mapped_column(String(20), unique=True)
    tracking_hash: Mapped[str] = mapped_column(String(64))
    identity: Mapped[str] = mapped_column(String(20), default=IdentityMode.ANONYMOUS)
    source: Mapped[str] = mapped_column(String(20), default="web")  # web | open311
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"))

    category: Mapped[str] = mapped_column(String(40))
    description: Mapped[str] = mapped_column(Text)
    seen_on: Mapped[date | None]
    species: Mapped[str | None] = mapped_column(String(20))  # dog | cat | other
    animal_count: Mapped[int | None]

    # Where: the address (normalised into residence_key for duplicates) and/or a map point.
    cep: Mapped[str | None] = mapped_column(String(8))
    street: Mapped[str | None] = mapped_column(String(200))
    number: Mapped[str | None] = mapped_column(String(20))
    complement: Mapped[str | None] = mapped_column(String(100))
    district: Mapped[str | None] = mapped_column(String(100), index=True)
    reference: Mapped[str | None] = mapped_column(String(300))  # landmark, "em frente à padaria"
    residence_key: Mapped[str | None] = mapped_column(String(200))
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)

    state: Mapped[str] = mapped_column(String(20), default=ReportState.TRIAGE)
    outcome: Mapped[str | None] = mapped_column(String(30))
    # Why it was out of scope, shown to the reporter.
    public_reason: Mapped[str | None] = mapped_column(Text)
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("maltreatment_report.id"))
    assigned_agent_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    inspection_on: Mapped[date | None]
    triaged_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    assigned_agent: Mapped[User | None] = relationship(foreign_keys=[assigned_agent_id])
    merged_into: Mapped[MaltreatmentReport | None] = relationship(remote_side=[id])
    api_client: Mapped[ApiClient | None] = relationship()
    photos: Mapped[list[ReportPhoto]] = relationship(
        back_populates="report", cascade="all, delete-orphan", order_by="ReportPhoto.id"
    )
    events: Mapped[list[ReportEvent]] = relationship(
        back_populates="report", cascade="all, delete-orphan", order_by="ReportEvent.id"
    )
    inspections: Mapped[list[Inspection]] = relationship(
        back_populates="report", cascade="all, delete-orphan", order_by="Inspection.id"
    )
    contact: Mapped[ReporterContact | None] = relationship(
        back_populates="report", cascade="all, delete-orphan", uselist=False
    )

    @property
    def is_open(self) -> bool:
        return self.state in OPEN_STATES

    @property
    def address_line(self) -> str:
        line = ", ".join(p for p in (self.street or "", self.number or "") if p)
        if self.complement:
            line += f" ({self.complement})"
        if self.district:
            line += f" – {self.district}"
        return line

    def __repr__(self) -> str:
        return f"<MaltreatmentReport {self.protocol} {self.state}>"


class ReporterContact(Model):
    """Who made a confidential report. Absent for an anonymous one."""

    __tablename__ = "reporter_contact"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(
        ForeignKey("maltreatment_report.id", ondelete="CASCADE"), unique=True
    )
    # Set when a signed-in citizen made the report: lists it in "Minhas denúncias".
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(254))
    phone: Mapped[str | None] = mapped_column(String(30))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    report: Mapped[MaltreatmentReport] = relationship(back_populates="contact")


class ReportPhoto(Model):
    """A photo of a report (sent by the reporter) or of its inspection (taken by the agent)."""

    __tablename__ = "report_photo"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(
        ForeignKey("maltreatment_report.id", ondelete="CASCADE"), index=True
    )
    file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))
    stage: Mapped[str] = mapped_column(String(20), default="report")  # report | inspection
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    report: Mapped[MaltreatmentReport] = relationship(back_populates="photos")
    file: Mapped[StoredFile] = relationship()


class ReportEvent(Model):
    """One line of a report's history."""

    __tablename__ = "report_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(
        ForeignKey("maltreatment_report.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    kind: Mapped[str] = mapped_column(String(20))  # state | reply | note | reporter_info
    from_state: Mapped[str | None] = mapped_column(String(20))
    to_state: Mapped[str | None] = mapped_column(String(20))
    public: Mapped[bool] = mapped_column(default=False)
    text: Mapped[str | None] = mapped_column(Text)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    report: Mapped[MaltreatmentReport] = relationship(back_populates="events")
    actor: Mapped[User | None] = relationship()


class Inspection(Model):
    """The agent's record of a visit: checklist, notes, people present, outcome."""

    __tablename__ = "report_inspection"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(
        ForeignKey("maltreatment_report.id", ondelete="CASCADE"), index=True
    )
    agent_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"))
    visited_on: Mapped[date]
    # {"water": "problem" | "ok" | "not_checked", ...} keyed by the profile's checklist codes.
    findings: Mapped[dict[str, Any]] = mapped_column(JSON)
    notes: Mapped[str | None] = mapped_column(Text)
    people_present: Mapped[str | None] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(String(30))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    report: Mapped[MaltreatmentReport] = relationship(back_populates="inspections")
    agent: Mapped[User] = relationship()
