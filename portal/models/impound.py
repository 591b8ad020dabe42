"""Impound and reclaim (GRU 82-88, 114; CABO 10, 13, 41, 44; CAB 8-20, 30; VV 19-22;
BJP 25-28; GRU 61, 81-90, 113-114): captures and their custody, reclaims and releases, the
destinations after the hold, lost-animal alerts and the certidão negativa de captura.

Tables only; the rules are in ``portal.blueprints.impound.services``.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.base import utcnow

if TYPE_CHECKING:
    from portal.models.animal import Animal
    from portal.models.billing import PaymentItem
    from portal.models.upload import StoredFile
    from portal.models.user import User


class CustodyType(enum.StrEnum):
    ORDINARY = "ordinary"
    OBSERVATION = "observation"  # rabies observation (CAB 14, 30; GRU 61)
    AGGRESSIVE = "aggressive"


class CaptureStatus(enum.StrEnum):
    IN_CUSTODY = "in_custody"
    DEFINITIVE_PENDING = "definitive_pending"  # auto de apreensão open: not reclaimable (GRU 87 §ú)
    RELEASED = "released"
    DESTINED = "destined"


class CaptureCounter(Model):
    """The last protocol number of a year (CAP-2026-000001), taken with a row lock."""

    __tablename__ = "capture_counter"

    year: Mapped[int] = mapped_column(primary_key=True)
    last_value: Mapped[int] = mapped_column(default=0)


class Capture(Model):
    """One animal captured by the CCZ and its custody until reclaim or destination."""

    __tablename__ = "capture"

    id: Mapped[int] = mapped_column(primary_key=True)
    protocol: Mapped[str] = mapped_column(String(20), unique=True)
    species: Mapped[str] = mapped_column(String(10))  # dog, cat, other
    size: Mapped[str] = mapped_column(String(10))  # small, medium, large (GRU 10 XV-XVII)
    sex: Mapped[str] = mapped_column(String(10))  # male, female, unknown
    color: Mapped[str] = mapped_column(String(80))
    tag_read: Mapped[str | None] = mapped_column(String(20))  # RGA as read on the tag
    microchip: Mapped[str | None] = mapped_column(String(20), index=True)
    tagged: Mapped[bool] = mapped_column(default=False)  # carried its RGA tag (BJP 25 §1-2)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), index=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    # Where: the exact place is for staff only; the public pages show the district.
    place: Mapped[str] = mapped_column(String(300))
    district: Mapped[str] = mapped_column(String(100))
    latitude: Mapped[float | None]
    longitude: Mapped[float | None]
    captured_at: Mapped[datetime]
    captured_on: Mapped[date] = mapped_column(index=True)  # local day: the law counts it
    reason: Mapped[str] = mapped_column(String(40))
    reason_article: Mapped[str] = mapped_column(String(60))
    condition: Mapped[str] = mapped_column(String(20))  # good, ill, injured, serious
    condition_note: Mapped[str | None] = mapped_column(Text)
    custody_type: Mapped[str] = mapped_column(String(12), default=CustodyType.ORDINARY)
    status: Mapped[str] = mapped_column(String(20), default=CaptureStatus.IN_CUSTODY, index=True)
    deadline_on: Mapped[date] = mapped_column(index=True)  # last day to reclaim
    capture_number: Mapped[int] = mapped_column(default=1)  # count within the period (GRU 84 §1)
    definitive_article: Mapped[str | None] = mapped_column(String(60))
    definitive_reason: Mapped[str | None] = mapped_column(Text)
    definitive_opened_at: Mapped[datetime | None]
    # GRU 84 §4: a definitive apprehension decided and destined ends the count for this animal.
    count_reset: Mapped[bool] = mapped_column(default=False)
    cause_ended_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    cause_ended_at: Mapped[datetime | None]
    agent_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    # The maus-tratos report whose inspection found a capture needed.
    report_id: Mapped[int | None] = mapped_column(ForeignKey("maltreatment_report.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    animal: Mapped[Animal | None] = relationship()
    owner: Mapped[User | None] = relationship(foreign_keys=[owner_id])
    agent: Mapped[User | None] = relationship(foreign_keys=[agent_id])
    photos: Mapped[list[CapturePhoto]] = relationship(
        back_populates="capture", order_by="CapturePhoto.position", cascade="all, delete-orphan"
    )
    reclaims: Mapped[list[ReclaimRecord]] = relationship(
        back_populates="capture", order_by="ReclaimRecord.id"
    )
    release: Mapped[ReleaseRecord | None] = relationship(back_populates="capture")
    destinations: Mapped[list[DestinationDecision]] = relationship(
        back_populates="capture", order_by="DestinationDecision.id"
    )

    @property
    def reclaimable(self) -> bool:
        return self.status == CaptureStatus.IN_CUSTODY


class CapturePhoto(Model):
    __tablename__ = "capture_photo"

    id: Mapped[int] = mapped_column(primary_key=True)
    capture_id: Mapped[int] = mapped_column(
        ForeignKey("capture.id", ondelete="CASCADE"), index=True
    )
    stored_file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))
    position: Mapped[int] = mapped_column(default=0)

    capture: Mapped[Capture] = relationship(back_populates="photos")
    stored_file: Mapped[StoredFile] = relationship(lazy="joined")


class ReclaimStatus(enum.StrEnum):
    STARTED = "started"  # fee computed, payment pending
    PAID = "paid"  # paid or exempt: awaits the release
    RELEASED = "released"
    CANCELLED = "cancelled"


class ReclaimRecord(Model):
    """An owner taking the animal back: at the counter or started online (GRU 82 §2, 84, 85)."""

    __tablename__ = "reclaim_record"

    id: Mapped[int] = mapped_column(primary_key=True)
    capture_id: Mapped[int] = mapped_column(ForeignKey("capture.id"), index=True)
    claimant_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    channel: Mapped[str] = mapped_column(String(10))  # counter, online
    status: Mapped[str] = mapped_column(String(10), default=ReclaimStatus.STARTED, index=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"))  # proved or registered
    registered_on_reclaim: Mapped[bool] = mapped_column(default=False)  # GRU 84; BJP 26 §ú
    rabies: Mapped[str | None] = mapped_column(String(12))  # proof, vaccinated, waived (GRU 85)
    # "Vacinado no CCZ": the Vaccination row written on the animal's RGA (GRU 85; BJP 27).
    vaccination_id: Mapped[int | None] = mapped_column(ForeignKey("vaccination.id"))
    exemption: Mapped[str | None] = mapped_column(String(40))  # e.g. GRU 82 §3, proof checked
    expenses: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)  # CABO 41; GRU 72 §1
    payment_item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"), index=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    capture: Mapped[Capture] = relationship(back_populates="reclaims")
    claimant: Mapped[User] = relationship(foreign_keys=[claimant_id])
    payment_item: Mapped[PaymentItem | None] = relationship()


class ReleaseRecord(Model):
    """The animal handed back; the owner signs the term stating the capture count (GRU 84 §1)."""

    __tablename__ = "release_record"

    id: Mapped[int] = mapped_column(primary_key=True)
    capture_id: Mapped[int] = mapped_column(ForeignKey("capture.id"), unique=True)
    reclaim_id: Mapped[int] = mapped_column(ForeignKey("reclaim_record.id"))
    released_at: Mapped[datetime] = mapped_column(default=utcnow)
    released_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    signed_by_name: Mapped[str] = mapped_column(String(200))
    capture_count_stated: Mapped[int]
    term_text: Mapped[str] = mapped_column(Text)

    capture: Mapped[Capture] = relationship(back_populates="release")


class DestinationDecision(Model):
    """Where an unreclaimed (or seriously ill) animal goes, who decided and why."""

    __tablename__ = "destination_decision"

    id: Mapped[int] = mapped_column(primary_key=True)
    capture_id: Mapped[int] = mapped_column(ForeignKey("capture.id"), index=True)
    destination: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text)
    before_deadline: Mapped[bool] = mapped_column(default=False)  # BJP 25 §4; GRU 86 II; CAB 11 V
    vet_report: Mapped[str | None] = mapped_column(Text)  # laudo (Lei 14.228/2021)
    vet_crmv: Mapped[str | None] = mapped_column(String(20))
    lab_exam: Mapped[str | None] = mapped_column(String(300))
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organization.id"))
    carer_name: Mapped[str | None] = mapped_column(String(200))  # BJP 25 §3 II
    # The conditions confirmed before a community return (BJP 25 §3 II; VV 19 §1).
    community_conditions: Mapped[list[str] | None] = mapped_column(JSON)
    listing_id: Mapped[int | None] = mapped_column(ForeignKey("listing.id"))
    # GRU 88 III: the licensed slaughterhouse the animal went to (name and inspection register).
    slaughterhouse: Mapped[str | None] = mapped_column(String(200))
    # The signed laudo of a euthanasia outside Lei 14.228/2021's procedure (GRU 88 II; CAB 20).
    laudo_file_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    # CAB 20: what came of a public auction ("sold", "failed"); a failed one puts the animal back
    # in custody for the destinations after it.
    auction_outcome: Mapped[str | None] = mapped_column(String(10))
    auction_outcome_on: Mapped[date | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)

    capture: Mapped[Capture] = relationship(back_populates="destinations")
    decided_by: Mapped[User | None] = relationship()
    laudo_file: Mapped[StoredFile | None] = relationship()


class OnSiteEuthanasia(Model):
    """The euthanasia of an animal where it was found, when it could not be brought to the CCZ
    (GRU 90: a large animal whose transport is impossible; CAB 9 §ú: run over or immovable, the
    owner absent, suffering; CABO 11: its apprehension impracticable, an auto de constatação with
    two witnesses). No animal reaches the CCZ, so there is no Capture. The vet's laudo is there
    whenever the profile or Lei 14.228/2021 (dogs and cats) asks it."""

    __tablename__ = "on_site_euthanasia"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(30), unique=True)  # EUT-2026-00001
    species: Mapped[str | None] = mapped_column(String(10))  # dog, cat, other
    description: Mapped[str] = mapped_column(String(200))  # species, coat, marks
    size: Mapped[str] = mapped_column(String(10))  # the legal class (GRU 10 XVII: large)
    place: Mapped[str] = mapped_column(String(300))
    district: Mapped[str] = mapped_column(String(100))
    performed_on: Mapped[date] = mapped_column(index=True)
    transport_impossible: Mapped[str] = mapped_column(Text)  # why it could not be brought
    # CAB 9: what the agent or the vet found when assessing the animal there.
    assessment: Mapped[str | None] = mapped_column(Text)
    judged_by_role: Mapped[str | None] = mapped_column(String(10))  # "agent" or "vet"
    # CAB 9 §ú: what the record confirmed (owner absent, suffering, no harm to staff).
    confirmations: Mapped[list[str] | None] = mapped_column(JSON)
    # CABO 11: the auto de constatação's witnesses, [{"name", "document"}].
    witnesses: Mapped[list[dict[str, str]] | None] = mapped_column(JSON)
    # Lei 14.228/2021 art. 2º: what the laudo attests for a dog or a cat.
    federal_ground: Mapped[str | None] = mapped_column(String(20))
    vet_report: Mapped[str | None] = mapped_column(Text)  # the laudo
    vet_crmv: Mapped[str | None] = mapped_column(String(20))
    laudo_file_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    article: Mapped[str] = mapped_column(String(60))
    owner_name: Mapped[str | None] = mapped_column(String(200))  # when known
    # The registered animal and its owner, when its RGA or microchip was read: the owner reads
    # the record's document (CABO 11's auto de constatação) like the other impound documents.
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    # CAB 9 caput: an assessment is recorded whatever came of it: "euthanasia" (§ú), or the
    # animal "taken_to_ccz" or "left_with_owner".
    outcome: Mapped[str] = mapped_column(String(20), default="euthanasia")
    # The code printed on the record's PDF and its QR code (the public check page).
    check_code: Mapped[str | None] = mapped_column(String(16), unique=True)
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)

    laudo_file: Mapped[StoredFile | None] = relationship()
    recorded_by: Mapped[User | None] = relationship(foreign_keys=[recorded_by_id])
    owner: Mapped[User | None] = relationship(foreign_keys=[owner_id])
    animal: Mapped[Animal | None] = relationship()


class ProposalStatus(enum.StrEnum):
    PENDING = "pending"  # VV 21 §4: awaits the coordinating vet's sign-off; not in effect yet
    OPEN = "open"  # laudo on record; NGOs notified; the claim window may be running
    CLAIMED = "claimed"  # an NGO took the animal (Lei 14.228/2021, art. 2º §2º)
    DECIDED = "decided"  # the euthanasia decision was recorded after the window
    WITHDRAWN = "withdrawn"  # the vet withdrew it (the animal recovered, another destination)


class EuthanasiaProposal(Model):
    """A veterinarian's laudo proposing the euthanasia of a captured dog or cat (Lei 14.228/2021,
    art. 2º): approved NGOs are notified and see it; unless the disease is an incurable infectious
    one, an NGO may claim the animal while ``claim_until`` has not passed (art. 2º §2º)."""

    __tablename__ = "euthanasia_proposal"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(30), unique=True)  # VV 21 §4 I: laudo numerado
    capture_id: Mapped[int] = mapped_column(ForeignKey("capture.id"), index=True)
    vet_report: Mapped[str] = mapped_column(Text)  # the laudo
    vet_crmv: Mapped[str] = mapped_column(String(20))
    lab_exam: Mapped[str | None] = mapped_column(String(300))
    # Incurable infectious disease with a risk to public health: no NGO claim (art. 2º §2º).
    infectious: Mapped[bool] = mapped_column(default=False)
    laudo_file_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))
    claim_until: Mapped[date | None]  # last day an NGO may claim; None when infectious
    status: Mapped[str] = mapped_column(String(10), default=ProposalStatus.OPEN, index=True)
    proposed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    proposed_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_by_organization_id: Mapped[int | None] = mapped_column(ForeignKey("organization.id"))
    claimed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    claimed_at: Mapped[datetime | None]
    # VV 21 §4: the coordinating vet who signed the laudo off (the laudo takes effect then).
    supervised_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    supervised_at: Mapped[datetime | None]
    # The approved NGOs e-mailed when it took effect: they get the notice of a withdrawal.
    notified_organization_ids: Mapped[list[int] | None] = mapped_column(JSON)
    withdrawn_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    withdrawn_at: Mapped[datetime | None]
    withdrawal_reason: Mapped[str | None] = mapped_column(Text)

    capture: Mapped[Capture] = relationship()
    laudo_file: Mapped[StoredFile | None] = relationship()
    proposed_by: Mapped[User | None] = relationship(foreign_keys=[proposed_by_id])


class LostAnimalAlert(Model):
    """ "Perdi meu animal": the owner is e-mailed when a capture matches."""

    __tablename__ = "lost_animal_alert"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"))
    species: Mapped[str] = mapped_column(String(10))
    color: Mapped[str | None] = mapped_column(String(80))
    district: Mapped[str | None] = mapped_column(String(100))
    microchip: Mapped[str | None] = mapped_column(String(20))
    rga: Mapped[str | None] = mapped_column(String(20))
    description: Mapped[str | None] = mapped_column(Text)
    lost_on: Mapped[date]
    active: Mapped[bool] = mapped_column(default=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_match_capture_id: Mapped[int | None] = mapped_column(ForeignKey("capture.id"))


class CertificateStatus(enum.StrEnum):
    REQUESTED = "requested"  # awaits the exam at the CCZ (GRU 84 §5)
    ISSUED = "issued"
    REFUSED = "refused"  # the animal brought is not the one of the RGA


class CaptureCertificate(Model):
    """Certidão negativa de captura (GRU 84 §3, §5): one per animal and request."""

    __tablename__ = "capture_certificate"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(20), unique=True)  # public verification code
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id"), index=True)
    requester_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), index=True)
    status: Mapped[str] = mapped_column(String(10), default=CertificateStatus.REQUESTED, index=True)
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    exam_on: Mapped[date]  # the appointment for the exam
    examined_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    exam_note: Mapped[str | None] = mapped_column(Text)
    issued_on: Mapped[date | None]
    period_from: Mapped[date | None]
    period_to: Mapped[date | None]
    captures_in_period: Mapped[int | None]

    animal: Mapped[Animal] = relationship()
    requester: Mapped[User | None] = relationship(foreign_keys=[requester_id])
