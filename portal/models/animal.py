"""Registered dogs and cats (RGA), their vaccinations, ownership transfers and second copies.

The rules live in ``portal.blueprints.animals.services``; these classes only hold the records.

* An :class:`Animal` gets one RGA number for life (GRU 14 §4; BJP 4). A death report closes it
  (*baixa*, GRU 21; BJP 10) but the row and its number stay: numbers come from :class:`RgaCounter`,
  which only ever counts up, so a number is never issued twice.
* ``residence_key`` is the normalised address where the animal lives (its owner's), used to count
  the animals of one residence for the household limit (GRU 37; BJP 17).
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from flask_babel import lazy_gettext as _l
from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.api_client import ApiClient
from portal.models.base import utcnow
from portal.models.upload import StoredFile
from portal.models.user import User


class Species(enum.StrEnum):
    DOG = "dog"
    CAT = "cat"


class Sex(enum.StrEnum):
    MALE = "male"
    FEMALE = "female"


# The one label of each species and sex, next to their enums (issue 9). Captures and maus-tratos
# reports also take animals of other species: they add OTHER_SPECIES_LABEL.
SPECIES_LABELS = {Species.DOG.value: _l("Cão"), Species.CAT.value: _l("Gato")}
OTHER_SPECIES_LABEL = _l("Outro animal")
# Chart series and counts ("Cães", "Gatos", "Outros").
SPECIES_PLURAL_LABELS = {
    Species.DOG.value: _l("Cães"),
    Species.CAT.value: _l("Gatos"),
    "other": _l("Outros"),
}
SEX_LABELS = {Sex.MALE.value: _l("Macho"), Sex.FEMALE.value: _l("Fêmea")}


def species_label(value: str) -> str:
    if value == "other":
        return str(OTHER_SPECIES_LABEL)
    return str(SPECIES_LABELS.get(value, value))


# A captured or reported animal whose sex was not seen (an RGA always has one).
UNKNOWN_SEX_LABEL = _l("Não identificado")


def sex_label(value: str) -> str:
    if value == "unknown":
        return str(UNKNOWN_SEX_LABEL)
    return str(SEX_LABELS.get(value, value))


class AnimalSize(enum.StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"


SIZE_LABELS = {
    AnimalSize.SMALL.value: _l("Pequeno"),
    AnimalSize.MEDIUM.value: _l("Médio"),
    AnimalSize.LARGE.value: _l("Grande"),
}
# The size class inside a sentence ("3 dias úteis (pequeno porte)"; GRU 10 XV-XVII).
SIZE_CLASS_NAMES = {
    AnimalSize.SMALL.value: _l("pequeno porte"),
    AnimalSize.MEDIUM.value: _l("médio porte"),
    AnimalSize.LARGE.value: _l("grande porte"),
}


def size_label(value: str | None) -> str:
    """ "Pequeno", "Médio", "Grande"; "" when the size is unknown."""
    return str(SIZE_LABELS.get(value or "", ""))


def size_class_name(value: str) -> str:
    """ "pequeno porte", ... for a sentence."""
    return str(SIZE_CLASS_NAMES.get(value, value))


class AnimalStatus(enum.StrEnum):
    PENDING = "pending"  # registered, awaiting the rabies shot at the CCZ (BJP 6 §ú)
    ACTIVE = "active"
    CLOSED = "closed"  # baixa: death reported (GRU 21; BJP 10); the number is never reused


class ProofStatus(enum.StrEnum):
    """Where the rabies proof of a registration stands (rules in
    ``portal/blueprints/animals/provisional.py``). ``None`` on the animal: no proof yet (the shot is
    due at the CCZ) or none required by the profile."""

    AWAITING = "awaiting"  # typed by the owner: CCZ staff must check it
    CHECKED = "checked"  # by staff, or given by the CCZ / an accredited clinic / at adoption
    REFUSED = "refused"  # staff refused it: the animal is to be vaccinated (status pending)


class TransferStatus(enum.StrEnum):
    PENDING = "pending"  # the new owner has not accepted yet: the old owner is responsible (BJP 7)
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"


class CopyKind(enum.StrEnum):
    CARD = "card"
    TAG = "tag"


class CopyStatus(enum.StrEnum):
    REQUESTED = "requested"
    ISSUED = "issued"


class RgaCounter(Model):
    """The last RGA sequence issued for one species in one year.

    Incremented with an atomic ``UPDATE ... RETURNING`` inside the registering transaction: the row
    lock serialises concurrent registrations of the same species and year on PostgreSQL, and a
    rolled-back registration rolls its increment back with it (no gap, no duplicate).
    """

    __tablename__ = "rga_counter"

    species: Mapped[str] = mapped_column(String(10), primary_key=True)
    year: Mapped[int] = mapped_column(primary_key=True)
    last_value: Mapped[int] = mapped_column(default=0)


class Animal(Model):
    __tablename__ = "animal"
    __table_args__ = (Index("ix_animal_residence_status", "residence_key", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rga: Mapped[str] = mapped_column(String(20), unique=True)  # canonical "C-2026-000123-7"
    species: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(100))
    sex: Mapped[str] = mapped_column(String(10))
    breed: Mapped[str | None] = mapped_column(String(100))
    color: Mapped[str | None] = mapped_column(String(100))
    birth_date: Mapped[date]
    birth_date_estimated: Mapped[bool] = mapped_column(default=False)  # idade presumida (BJP 3 a)
    size: Mapped[str | None] = mapped_column(String(10))
    weight_grams: Mapped[int | None]
    sterilized: Mapped[bool] = mapped_column(default=False)
    # Unique when present: NULLs never collide in a unique index on SQLite or PostgreSQL.
    microchip: Mapped[str | None] = mapped_column(String(20), unique=True)
    photo_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))

    status: Mapped[str] = mapped_column(String(10), default=AnimalStatus.ACTIVE, index=True)
    registered_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    registered_on: Mapped[date]  # the registration date the law counts (BJP 3 a; GRU 15 I b)
    late_registration: Mapped[bool] = mapped_column(default=False)  # after the age window
    activated_at: Mapped[datetime | None]
    # The number is issued at once, but the RGA stays provisional until its fee is
    # settled (``fee_item``) and its rabies proof checked (``proof_status``); ``definitive_at``
    # records when both were met. Rows from before stay definitive (server default false).
    provisional: Mapped[bool] = mapped_column(default=False, server_default=false())
    definitive_at: Mapped[datetime | None]
    proof_status: Mapped[str | None] = mapped_column(String(10), index=True)  # ProofStatus
    proof_checked_at: Mapped[datetime | None]
    proof_checked_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    proof_refused_reason: Mapped[str | None] = mapped_column(String(500))
    # The charge that must be settled: the registration fee, or the adoption fee at a hand-over.
    fee_item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"), index=True)

    owner_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    residence_key: Mapped[str] = mapped_column(String(400))
    registered_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    # The accredited establishment that registered it: its monthly report (BJP 9; GRU 20).
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"), index=True)

    closed_at: Mapped[datetime | None]
    closed_reason: Mapped[str | None] = mapped_column(String(20))  # "death"
    died_on: Mapped[date | None]
    closed_note: Mapped[str | None] = mapped_column(String(500))
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    owner: Mapped[User] = relationship(foreign_keys=[owner_id])
    registered_by: Mapped[User | None] = relationship(foreign_keys=[registered_by_id])
    closed_by: Mapped[User | None] = relationship(foreign_keys=[closed_by_id])
    proof_checked_by: Mapped[User | None] = relationship(foreign_keys=[proof_checked_by_id])
    api_client: Mapped[ApiClient | None] = relationship()
    photo: Mapped[StoredFile | None] = relationship()
    vaccinations: Mapped[list[Vaccination]] = relationship(
        back_populates="animal",
        cascade="all, delete-orphan",
        order_by=lambda: [
            Vaccination.applied_on.desc(),  # type: ignore[arg-type]
            Vaccination.id.desc(),
        ],
    )
    transfers: Mapped[list[OwnershipTransfer]] = relationship(
        back_populates="animal", cascade="all, delete-orphan", order_by="OwnershipTransfer.id"
    )
    copy_requests: Mapped[list[DocumentCopyRequest]] = relationship(
        back_populates="animal", cascade="all, delete-orphan", order_by="DocumentCopyRequest.id"
    )

    @property
    def is_closed(self) -> bool:
        return self.status == AnimalStatus.CLOSED

    @property
    def pending_transfer(self) -> OwnershipTransfer | None:
        return next((t for t in self.transfers if t.status == TransferStatus.PENDING), None)

    @property
    def last_vaccination(self) -> Vaccination | None:
        return self.vaccinations[0] if self.vaccinations else None

    def __repr__(self) -> str:
        return f"<Animal {self.rga} {self.name!r}>"


class Vaccination(Model):
    """A rabies vaccination with the fields of BJP 13 §1 (and the RGA number, GRU 25)."""

    __tablename__ = "vaccination"

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id", ondelete="CASCADE"), index=True)
    vaccine: Mapped[str] = mapped_column(String(20), default="rabies")
    vaccine_name: Mapped[str] = mapped_column(String(120))  # BJP 13 §1 c
    batch: Mapped[str] = mapped_column(String(60))  # número da partida
    manufacturer: Mapped[str | None] = mapped_column(String(120))
    manufactured_on: Mapped[date | None]
    expires_on: Mapped[date | None]
    applied_on: Mapped[date]  # BJP 13 §1 d
    next_due_on: Mapped[date | None]  # revacinação
    establishment: Mapped[str | None] = mapped_column(String(200))  # BJP 13 §1 e
    vet_name: Mapped[str] = mapped_column(String(200))  # BJP 13 §1 f
    vet_crmv: Mapped[str] = mapped_column(String(40))
    at_ccz: Mapped[bool] = mapped_column(default=False)  # applied by CCZ staff
    # The NGO (or "CCZ") that handed the animal over vaccinated at an adoption (VV 28 §1; GRU 88
    # §2): its word is the proof; batch and vet may then be blank.
    vouched_by: Mapped[str | None] = mapped_column(String(200))
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"))
    # The owner's photo or PDF of the vaccination card (GRU 15 V; BJP 6: "apresentando a carteira
    # ou o comprovante"), which staff check before the RGA becomes definitive; private.
    proof_file_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))

    animal: Mapped[Animal] = relationship(back_populates="vaccinations")
    recorded_by: Mapped[User | None] = relationship()
    proof_file: Mapped[StoredFile | None] = relationship()


class OwnershipTransfer(Model):
    """A change of owner. Until the new owner accepts, the previous one stays responsible
    (BJP 7 §ú; GRU 18 §2; VV 13)."""

    __tablename__ = "ownership_transfer"

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id", ondelete="CASCADE"), index=True)
    from_owner_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    to_owner_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    status: Mapped[str] = mapped_column(String(12), default=TransferStatus.PENDING, index=True)
    reason: Mapped[str | None] = mapped_column(String(30))  # "citizen", "adoption", "staff"
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    accepted_at: Mapped[datetime | None]
    decided_at: Mapped[datetime | None]  # accepted, declined or cancelled

    animal: Mapped[Animal] = relationship(back_populates="transfers")
    from_owner: Mapped[User] = relationship(foreign_keys=[from_owner_id])
    to_owner: Mapped[User] = relationship(foreign_keys=[to_owner_id])


class DocumentCopyRequest(Model):
    """A second copy of the card or tag. The request itself is a provisional ID until
    ``valid_until`` (GRU 19 §1: 45 days; BJP 8 §ú: 60 days); staff mark it issued."""

    __tablename__ = "document_copy_request"
    __table_args__ = (
        UniqueConstraint("payment_item_id"),
        # the workspace queue: open requests, oldest (closest deadline) first
        Index("ix_document_copy_request_status_requested_at", "status", "requested_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(10))  # card, tag
    reason: Mapped[str | None] = mapped_column(String(300))
    requested_on: Mapped[date]
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    requested_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    valid_until: Mapped[date | None]  # None where the law has no provisional ID
    status: Mapped[str] = mapped_column(String(12), default=CopyStatus.REQUESTED, index=True)
    issued_at: Mapped[datetime | None]
    issued_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    payment_item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"))

    animal: Mapped[Animal] = relationship(back_populates="copy_requests")
    requested_by: Mapped[User | None] = relationship(foreign_keys=[requested_by_id])


class FinderMessage(Model):
    """A message from someone who found an animal, relayed to the owner by e-mail.

    Kept so staff can follow up abuse; the finder never sees who the owner is."""

    __tablename__ = "finder_message"

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id", ondelete="CASCADE"), index=True)
    finder_name: Mapped[str | None] = mapped_column(String(120))
    finder_contact: Mapped[str] = mapped_column(String(200))
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    delivered: Mapped[bool] = mapped_column(default=False)

    animal: Mapped[Animal] = relationship()
