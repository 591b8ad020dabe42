"""Adoption (VV 28-29; BJP 24, 28; CAB 16-17; GRU 88): NGOs, listings with photos,
applications, proofs and bars.

* :class:`Organization` – an NGO (*entidade protetora*) registered with the CCZ (VV 29; BJP 24;
  CAB 16). A citizen asks to register it; staff approve it, and its members get the ``ngo`` role.
* :class:`Listing` – one animal offered for adoption by an NGO or by the CCZ (no organisation).
* :class:`AdoptionApplication` – a person asking to adopt one listing, reviewed by the owner.
* :class:`ApplicantDocument` – the adopter's proofs (VV 28 §2), kept private; uploaded once and
  attached (:class:`ApplicationDocument`) to each application they support.
* :class:`PersonBar` – a person who may not adopt, recorded by staff by CPF (VV 23 V; VV 23 III b;
  BJP 30 §ú; GRU 88 §4).
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, event, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.animal import Animal
from portal.models.api_client import ApiClient
from portal.models.base import utcnow
from portal.models.upload import StoredFile
from portal.models.user import User
from portal.services.identity import _fold as fold_words


class OrganizationStatus(enum.StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REFUSED = "refused"
    SUSPENDED = "suspended"


class Organization(Model):
    """An NGO that lists animals for adoption and reviews the applications for them."""

    __tablename__ = "organization"

    id: Mapped[int] = mapped_column(primary_key=True)
    legal_name: Mapped[str] = mapped_column(String(200))  # razão social
    trade_name: Mapped[str | None] = mapped_column(String(200))  # nome fantasia, shown publicly
    cnpj: Mapped[str | None] = mapped_column(String(14), unique=True)  # None only for API-made orgs
    responsible_name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(254))
    phone: Mapped[str | None] = mapped_column(String(30))
    cep: Mapped[str | None] = mapped_column(String(8))
    street: Mapped[str | None] = mapped_column(String(200))
    number: Mapped[str | None] = mapped_column(String(20))
    complement: Mapped[str | None] = mapped_column(String(100))
    district: Mapped[str | None] = mapped_column(String(100))
    city: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[str | None] = mapped_column(String(2))

    status: Mapped[str] = mapped_column(String(20), default=OrganizationStatus.PENDING, index=True)
    refusal_reason: Mapped[str | None] = mapped_column(Text)
    requested_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    reviewed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    reviewed_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The token an NGO's own system uses for POST /api/v1/listings (create-api-client --kind ngo).
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"), unique=True)

    api_client: Mapped[ApiClient | None] = relationship()
    requested_by: Mapped[User | None] = relationship(foreign_keys=[requested_by_id])
    members: Mapped[list[OrganizationMember]] = relationship(
        back_populates="organization", cascade="all, delete-orphan"
    )

    @property
    def display_name(self) -> str:
        return self.trade_name or self.legal_name

    @property
    def is_approved(self) -> bool:
        return self.status == OrganizationStatus.APPROVED

    @property
    def address_line(self) -> str:
        line = ", ".join(p for p in (self.street, self.number) if p)
        if self.complement:
            line += f" ({self.complement})"
        if self.district:
            line += f" – {self.district}"
        if self.city:
            line += f", {self.city}/{self.state or ''}"
        return line


class OrganizationMember(Model):
    """A user acting for an NGO (its responsible person, volunteers who review applications)."""

    __tablename__ = "organization_member"
    __table_args__ = (UniqueConstraint("organization_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    organization_id: Mapped[int] = mapped_column(
        ForeignKey("organization.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    organization: Mapped[Organization] = relationship(back_populates="members")
    user: Mapped[User] = relationship()


class ListingState(enum.StrEnum):
    DRAFT = "draft"
    PUBLISHED = "published"
    RESERVED = "reserved"  # an application was approved; the hand-over is pending
    ADOPTED = "adopted"
    WITHDRAWN = "withdrawn"


class Listing(Model):
    """One animal waiting for a family. ``organization_id`` None means the CCZ's own animal."""

    __tablename__ = "listing"
    __table_args__ = (
        # Public search: published animals, newest or oldest waiting first, keyset-paginated on
        # (published_at, id). The species variant serves the most common filter from the index.
        Index("ix_listing_state_published", "state", "published_at", "id"),
        Index("ix_listing_state_species_published", "state", "species", "published_at", "id"),
        Index("ix_listing_org_state", "organization_id", "state"),
        # The neighbourhood filter and its suggestions (covering: no table reads for the list).
        Index("ix_listing_state_district", "state", "district_key", "district"),
        # Free-text search on PostgreSQL: the folded words of the listing, Portuguese stemming
        # ("pretos" finds "preta"). SQLite has no full-text index here and scans with LIKE.
        Index(
            "ix_listing_search_fts",
            text("to_tsvector('portuguese'::regconfig, search_text)"),
            postgresql_using="gin",
        ).ddl_if(dialect="postgresql"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organization.id"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    name: Mapped[str] = mapped_column(String(80))
    species: Mapped[str] = mapped_column(String(10))  # dog, cat
    sex: Mapped[str] = mapped_column(String(10))  # male, female
    birth_date: Mapped[date]  # real or estimated: an estimated age is turned into a date
    birth_date_estimated: Mapped[bool] = mapped_column(default=False)
    size: Mapped[str] = mapped_column(String(10))  # small, medium, large
    breed: Mapped[str] = mapped_column(String(100), default="SRD")  # the RGA asks for it (GRU 15 I)
    color: Mapped[str] = mapped_column(String(80))
    good_with_children: Mapped[bool] = mapped_column(default=False)
    good_with_dogs: Mapped[bool] = mapped_column(default=False)
    good_with_cats: Mapped[bool] = mapped_column(default=False)
    vaccinated: Mapped[bool] = mapped_column(default=False)
    vaccinated_on: Mapped[date | None]
    dewormed: Mapped[bool] = mapped_column(default=False)
    dewormed_on: Mapped[date | None]
    sterilized: Mapped[bool] = mapped_column(default=False)
    sterilized_on: Mapped[date | None]
    story: Mapped[str] = mapped_column(Text, default="")
    district: Mapped[str] = mapped_column(String(100))
    district_key: Mapped[str] = mapped_column(String(100))  # folded, for the filter
    # Name, colour, breed, neighbourhood and story, folded (no accents, lower case): what the
    # free-text search reads. Kept up to date on every insert and update (see below).
    search_text: Mapped[str] = mapped_column(Text, default="")
    # The day the CCZ took the animal in: CAB 17 charges the adoption fee per day held.
    held_since: Mapped[date | None]
    # The animal's RGA record, when it already has one: the adoption then transfers it instead of
    # issuing a new one (GRU 18 §1); a listing without one gets its RGA at the hand-over.
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), index=True)

    state: Mapped[str] = mapped_column(String(12), default=ListingState.DRAFT)
    published_at: Mapped[datetime | None]  # first publication: "oldest waiting" sorts on it
    adopted_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    organization: Mapped[Organization | None] = relationship()
    animal: Mapped[Animal | None] = relationship()
    photos: Mapped[list[ListingPhoto]] = relationship(
        back_populates="listing",
        cascade="all, delete-orphan",
        order_by="ListingPhoto.position",
        lazy="selectin",
    )

    @property
    def owner_name(self) -> str:
        return self.organization.display_name if self.organization else "CCZ"

    @property
    def is_ccz(self) -> bool:
        return self.organization_id is None

    @property
    def cover(self) -> StoredFile | None:
        return self.photos[0].stored_file if self.photos else None


def listing_search_text(
    name: str | None, color: str | None, breed: str | None, district: str | None, story: str | None
) -> str:
    """The words a visitor may type to find a listing, folded as the search folds its query."""
    return fold_words(" ".join(part or "" for part in (name, color, breed, district, story)))


@event.listens_for(Listing, "before_insert")
@event.listens_for(Listing, "before_update")
def _refresh_search_text(_mapper: Any, _connection: Any, listing: Listing) -> None:
    # Derived from the listing's own columns, so it can never drift from what the page shows.
    listing.search_text = listing_search_text(
        listing.name, listing.color, listing.breed, listing.district, listing.story
    )


class ListingPhoto(Model):
    """One of the 1 to 8 photos of a listing; the lowest position is the cover."""

    __tablename__ = "listing_photo"

    id: Mapped[int] = mapped_column(primary_key=True)
    listing_id: Mapped[int] = mapped_column(
        ForeignKey("listing.id", ondelete="CASCADE"), index=True
    )
    stored_file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"))
    position: Mapped[int] = mapped_column(default=0)

    listing: Mapped[Listing] = relationship(back_populates="photos")
    stored_file: Mapped[StoredFile] = relationship(lazy="joined")


class ApplicationStatus(enum.StrEnum):
    SUBMITTED = "submitted"
    NEEDS_INFO = "needs_info"
    APPROVED = "approved"
    REFUSED = "refused"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


OPEN_APPLICATION_STATUSES = (
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.NEEDS_INFO,
    ApplicationStatus.APPROVED,
)


class AdoptionApplication(Model):
    """A person's request to adopt one listing, with answers, eligibility and the term accepted."""

    __tablename__ = "adoption_application"
    __table_args__ = (Index("ix_adoption_application_listing_status", "listing_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    listing_id: Mapped[int] = mapped_column(ForeignKey("listing.id"))
    applicant_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=ApplicationStatus.SUBMITTED)
    # The short questionnaire: home_type, other_animals, caretaker, holidays.
    answers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Eligibility results as shown when the person submitted (the reviewer also sees live ones).
    eligibility: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    info_request: Mapped[str | None] = mapped_column(Text)  # the reviewer's latest question
    refusal_reason: Mapped[str | None] = mapped_column(Text)

    # Termo de Compromisso de Adoção (VV 28 §2): which text, when, by which account.
    term_version: Mapped[str | None] = mapped_column(String(20))
    term_accepted_at: Mapped[datetime | None]
    term_accepted_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    submitted_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    completed_at: Mapped[datetime | None]
    completed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    rga_number: Mapped[str | None] = mapped_column(String(30))  # issued or transferred at hand-over
    payment_item_id: Mapped[int | None] = mapped_column(ForeignKey("payment_item.id"))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    listing: Mapped[Listing] = relationship()
    applicant: Mapped[User] = relationship(foreign_keys=[applicant_id])
    events: Mapped[list[ApplicationEvent]] = relationship(
        back_populates="application", cascade="all, delete-orphan", order_by="ApplicationEvent.id"
    )

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_APPLICATION_STATUSES


class ApplicationEvent(Model):
    """One step of an application (submitted, info asked, approved…), with the note sent."""

    __tablename__ = "adoption_application_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(
        ForeignKey("adoption_application.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    from_status: Mapped[str | None] = mapped_column(String(20))
    to_status: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(Text)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    application: Mapped[AdoptionApplication] = relationship(back_populates="events")


class DocumentKind(enum.StrEnum):
    IDENTITY = "identity"  # RG or another photo ID (VV 28 §2 "identidade")
    PROOF_OF_ADDRESS = "proof_of_address"  # comprovante de endereço atualizado (VV 28 §2)
    PROOF_OF_INCOME = "proof_of_income"  # comprovação de renda mínima (VV 28 §2)


class DocumentStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REFUSED = "refused"


class ApplicantDocument(Model):
    """A proof uploaded by an adopter; the reviewing NGO or CCZ staff accept or refuse it."""

    __tablename__ = "applicant_document"

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    kind: Mapped[str] = mapped_column(String(30))
    stored_file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id"), unique=True)
    issued_on: Mapped[date | None]  # the date printed on a proof of address
    status: Mapped[str] = mapped_column(String(12), default=DocumentStatus.PENDING)
    refusal_reason: Mapped[str | None] = mapped_column(Text)
    reviewed_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    reviewed_at: Mapped[datetime | None]
    uploaded_at: Mapped[datetime] = mapped_column(default=utcnow)

    person: Mapped[User] = relationship(foreign_keys=[person_id])
    stored_file: Mapped[StoredFile] = relationship()


class ApplicationDocument(Model):
    """A proof attached to one application. The NGO (or CCZ staff) reviewing that application sees
    only the proofs attached to it, and the NGO only while the application is open: a
    proof uploaded later, for another application or purpose, never opens for it."""

    __tablename__ = "adoption_application_document"
    __table_args__ = (UniqueConstraint("application_id", "document_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(
        ForeignKey("adoption_application.id", ondelete="CASCADE"), index=True
    )
    document_id: Mapped[int] = mapped_column(
        ForeignKey("applicant_document.id", ondelete="CASCADE"), index=True
    )
    attached_at: Mapped[datetime] = mapped_column(default=utcnow)

    application: Mapped[AdoptionApplication] = relationship()
    document: Mapped[ApplicantDocument] = relationship()


class BarKind(enum.StrEnum):
    # VV 23 V: the owner signed a term never again to keep animals.
    COMMITMENT_NEVER_KEEP = "commitment_never_keep"
    # VV 23 III b; BJP 30 §ú: lost possession of an animal for repeated maus-tratos.
    LOST_POSSESSION_MALTREATMENT = "lost_possession_maltreatment"
    # GRU 88 §4: caused this animal's definitive apprehension; bars that animal only.
    CAUSED_DEFINITIVE_APPREHENSION = "caused_definitive_apprehension"


class PersonBar(Model):
    """A person who may not adopt, found by CPF (the person may have no account)."""

    __tablename__ = "person_bar"

    id: Mapped[int] = mapped_column(primary_key=True)
    cpf: Mapped[str] = mapped_column(String(11), index=True)
    person_name: Mapped[str | None] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(Text)
    # GRU 88 §4 bars one animal: the listing, and its RGA record when it has one.
    listing_id: Mapped[int | None] = mapped_column(ForeignKey("listing.id"), index=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), index=True)
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]
    revoked_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    revoke_reason: Mapped[str | None] = mapped_column(Text)

    listing: Mapped[Listing | None] = relationship()

    @property
    def active(self) -> bool:
        return self.revoked_at is None
