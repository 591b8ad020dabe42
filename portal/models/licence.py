"""Excess-animal licences: a household above the plain limit asks the CCZ for
a special licence (GRU 37 §1; BJP 17 §3-6) or, in Cabeceira Grande, the yearly *laudo* of a private
kennel (CAB 31 §1-2). The rules live in ``portal.blueprints.licences.services``.

* :class:`ExcessLicence` – one request and, once approved, the licence itself: the residence, the
  number asked for and the cap granted (``max_animals``), its term (``valid_from`` …
  ``valid_until``, both inclusive) and a public ``code`` that is not guessable (the QR code of the
  PDF points to its public check page). A renewal is a new row pointing at the one it renews.
* :class:`LicenceAnimal` – an animal listed in the request, with its proofs; ``covered`` marks the
  animals the approved licence names (GRU 37 §1 II; BJP 17 §5: those above the plain limit are
  never replaced). ``registered_inside`` marks an RGA issued inside the request: it stays
  provisional until the licence is approved.
* :class:`LicenceInspection` – the agent's visit: scheduled, then recorded with the profile's
  checklist, findings and photos (BJP 17 §1: the technical report behind a reduced number).
* :class:`LicenceEvent` – the request's history (every action, who and when), shown to staff and,
  in plain words, to the citizen.
* :class:`LicenceFile` – photos of the housing sent by the citizen, or taken at the inspection.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.animal import Animal
from portal.models.base import utcnow
from portal.models.upload import StoredFile
from portal.models.user import User


class LicenceStatus(enum.StrEnum):
    REQUESTED = "requested"  # waiting for the CCZ (assignment, inspection, decision)
    INFO_REQUESTED = "info_requested"  # the CCZ asked the citizen for more; they answer
    APPROVED = "approved"  # the licence: valid, expired or superseded depends on the dates
    REFUSED = "refused"
    CANCELLED = "cancelled"  # by the CCZ, with a reason (GRU 37 §1 III; an inspection finding)
    WITHDRAWN = "withdrawn"  # the citizen gave up before the decision


OPEN_STATUSES = (LicenceStatus.REQUESTED, LicenceStatus.INFO_REQUESTED)


class ExcessLicence(Model):
    __tablename__ = "excess_licence"
    __table_args__ = (Index("ix_excess_licence_residence_status", "residence_key", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # What the public check page and the PDF's QR code carry: random, never the id.
    code: Mapped[str] = mapped_column(String(24), unique=True)
    kind: Mapped[str] = mapped_column(String(12), default="licence")  # "licence" | "kennel"
    holder_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    residence_key: Mapped[str] = mapped_column(String(400))
    address_line: Mapped[str] = mapped_column(String(400))  # as it was when requested
    status: Mapped[str] = mapped_column(String(16), default=LicenceStatus.REQUESTED, index=True)
    renews_id: Mapped[int | None] = mapped_column(ForeignKey("excess_licence.id"), index=True)

    animals_requested: Mapped[int]  # how many dogs and cats the household asks to keep
    housing_description: Mapped[str] = mapped_column(Text, default="")  # GRU 37 §1 I; BJP 17 §4
    requested_on: Mapped[date]
    requested_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    fee_item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"))

    assigned_agent_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    info_request: Mapped[str | None] = mapped_column(Text)  # what the CCZ asked for
    info_answer: Mapped[str | None] = mapped_column(Text)

    decided_at: Mapped[datetime | None]
    decided_on: Mapped[date | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    max_animals: Mapped[int | None]  # the cap granted (BJP 17 §1: may be lower than asked)
    reduction_reason: Mapped[str | None] = mapped_column(Text)
    refusal_reason: Mapped[str | None] = mapped_column(Text)
    valid_from: Mapped[date | None]
    valid_until: Mapped[date | None] = mapped_column(index=True)
    cancelled_at: Mapped[datetime | None]
    cancelled_on: Mapped[date | None]
    cancellation_reason: Mapped[str | None] = mapped_column(Text)

    holder: Mapped[User] = relationship(foreign_keys=[holder_id])
    assigned_agent: Mapped[User | None] = relationship(foreign_keys=[assigned_agent_id])
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id])
    renews: Mapped[ExcessLicence | None] = relationship(remote_side=[id])
    animals: Mapped[list[LicenceAnimal]] = relationship(
        back_populates="licence", cascade="all, delete-orphan", order_by="LicenceAnimal.id"
    )
    inspections: Mapped[list[LicenceInspection]] = relationship(
        back_populates="licence", cascade="all, delete-orphan", order_by="LicenceInspection.id"
    )
    events: Mapped[list[LicenceEvent]] = relationship(
        back_populates="licence", cascade="all, delete-orphan", order_by="LicenceEvent.id"
    )
    files: Mapped[list[LicenceFile]] = relationship(
        back_populates="licence", cascade="all, delete-orphan", order_by="LicenceFile.id"
    )

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def covered(self) -> list[LicenceAnimal]:
        return [a for a in self.animals if a.covered]

    def __repr__(self) -> str:
        return f"<ExcessLicence {self.id} {self.status}>"


class LicenceAnimal(Model):
    """One dog or cat of the residence, as listed in a request (GRU 37 §1 I: the RGA of all)."""

    __tablename__ = "licence_animal"
    __table_args__ = (UniqueConstraint("licence_id", "animal_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    licence_id: Mapped[int] = mapped_column(
        ForeignKey("excess_licence.id", ondelete="CASCADE"), index=True
    )
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id"), index=True)
    registered_inside: Mapped[bool] = mapped_column(default=False)  # RGA issued by the request
    rabies_proof_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    rabies_on_record: Mapped[bool] = mapped_column(default=False)  # a current shot in the RGA
    sterilisation_proof_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    covered: Mapped[bool] = mapped_column(default=False)  # named in the approved licence

    licence: Mapped[ExcessLicence] = relationship(back_populates="animals")
    animal: Mapped[Animal] = relationship()
    rabies_proof: Mapped[StoredFile | None] = relationship(foreign_keys=[rabies_proof_id])
    sterilisation_proof: Mapped[StoredFile | None] = relationship(
        foreign_keys=[sterilisation_proof_id]
    )


class LicenceInspection(Model):
    __tablename__ = "licence_inspection"

    id: Mapped[int] = mapped_column(primary_key=True)
    licence_id: Mapped[int] = mapped_column(
        ForeignKey("excess_licence.id", ondelete="CASCADE"), index=True
    )
    agent_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"))
    scheduled_for: Mapped[date]
    inspected_on: Mapped[date | None]
    checklist: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # code -> bool
    findings: Mapped[str | None] = mapped_column(Text)
    satisfactory: Mapped[bool | None]
    recorded_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    licence: Mapped[ExcessLicence] = relationship(back_populates="inspections")
    agent: Mapped[User] = relationship()


class LicenceFile(Model):
    __tablename__ = "licence_file"

    id: Mapped[int] = mapped_column(primary_key=True)
    licence_id: Mapped[int] = mapped_column(
        ForeignKey("excess_licence.id", ondelete="CASCADE"), index=True
    )
    stored_file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))
    kind: Mapped[str] = mapped_column(String(12))  # "housing" | "inspection" | "answer"
    inspection_id: Mapped[int | None] = mapped_column(ForeignKey("licence_inspection.id"))

    licence: Mapped[ExcessLicence] = relationship(back_populates="files")
    stored_file: Mapped[StoredFile] = relationship()


class LicenceEvent(Model):
    __tablename__ = "licence_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    licence_id: Mapped[int] = mapped_column(
        ForeignKey("excess_licence.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(40))
    note: Mapped[str | None] = mapped_column(Text)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    licence: Mapped[ExcessLicence] = relationship(back_populates="events")
    actor: Mapped[User | None] = relationship()


class ReducedHouseholdLimit(Model):
    """BJP 17 §1: the agent lowers one residence's limit after assessing the number and size of
    the animals, their care, the space and hygiene, "a partir de laudo técnico e intimação do
    agente". One row per decision; the newest one not lifted (``lifted_at`` empty) is in force,
    for the residence (``residence_key``: whoever owns the animals living there)."""

    __tablename__ = "reduced_household_limit"

    id: Mapped[int] = mapped_column(primary_key=True)
    residence_key: Mapped[str] = mapped_column(String(300), index=True)
    address_line: Mapped[str] = mapped_column(String(300))  # as shown when it was set
    max_animals: Mapped[int]
    report_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))  # the laudo técnico
    report_on: Mapped[date]  # the laudo's date
    reason: Mapped[str] = mapped_column(Text)  # what the agent found (size, space, hygiene)
    set_by_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    lifted_at: Mapped[datetime | None]
    lifted_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    lift_reason: Mapped[str | None] = mapped_column(Text)

    report: Mapped[StoredFile] = relationship()
    set_by: Mapped[User] = relationship(foreign_keys=[set_by_id])
