"""The sterilisation programme (VV 7-10; GRU 8; BJP 32): where castrations are done, on which days
and for how many animals, and who booked them.

* :class:`SterilisationSite` – the CCZ's surgical centre or a partner's (university, veterinary
  establishment, NGO, professional body: VV 9 §ú; GRU 8; BJP 32). Public data: name and address.
* :class:`SterilisationSlot` – one surgery day at one site and how many animals it takes.
* :class:`SterilisationBooking` – one animal's place: on a day (``booked``) or in the waitlist
  (``waitlisted``) until a place frees; then ``done``, ``unfit`` (the clinical exam found it not
  fit for surgery now, VV 9), ``no_show`` or ``cancelled``. The animal is an RGA animal of the
  requester or, where the RGA is made on the day (VV 12 §3) or the animal is a community animal
  with a named carer (VV 10 §4), described in the booking.
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.animal import Animal
from portal.models.base import utcnow
from portal.models.user import User


class BookingStatus(enum.StrEnum):
    WAITLISTED = "waitlisted"
    BOOKED = "booked"
    DONE = "done"  # sterilised: the RGA record says so
    UNFIT = "unfit"  # VV 9: the clinical exam found it not fit for surgery now
    NO_SHOW = "no_show"
    CANCELLED = "cancelled"


OPEN_BOOKING = (BookingStatus.WAITLISTED, BookingStatus.BOOKED)


class SterilisationSite(Model):
    __tablename__ = "sterilisation_site"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    partner_kind: Mapped[str] = mapped_column(String(20))  # PartnerKind of the profile
    address: Mapped[str] = mapped_column(String(300))
    district: Mapped[str] = mapped_column(String(100))
    phone: Mapped[str | None] = mapped_column(String(30))
    instructions: Mapped[str | None] = mapped_column(Text)  # fasting, carrier box, arrival time
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SterilisationSlot(Model):
    __tablename__ = "sterilisation_slot"
    __table_args__ = (UniqueConstraint("site_id", "day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sterilisation_site.id"), index=True)
    day: Mapped[date] = mapped_column(index=True)
    capacity: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    site: Mapped[SterilisationSite] = relationship()
    bookings: Mapped[list[SterilisationBooking]] = relationship(
        back_populates="slot", order_by="SterilisationBooking.id"
    )

    @property
    def taken(self) -> int:
        return sum(1 for b in self.bookings if b.status != BookingStatus.CANCELLED)

    @property
    def free(self) -> int:
        return max(self.capacity - self.taken, 0)


class SterilisationBooking(Model):
    __tablename__ = "sterilisation_booking"

    id: Mapped[int] = mapped_column(primary_key=True)
    requester_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), index=True)
    # The animal as described when it has no RGA yet (VV 12 §3) or is a community animal.
    species: Mapped[str] = mapped_column(String(10))
    sex: Mapped[str] = mapped_column(String(10))
    animal_name: Mapped[str] = mapped_column(String(100))
    community: Mapped[bool] = mapped_column(default=False)  # VV 10 §4: with a named carer
    community_place: Mapped[str | None] = mapped_column(String(200))  # where it lives
    preferred_site_id: Mapped[int | None] = mapped_column(ForeignKey("sterilisation_site.id"))
    slot_id: Mapped[int | None] = mapped_column(ForeignKey("sterilisation_slot.id"), index=True)
    status: Mapped[str] = mapped_column(String(12), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    booked_at: Mapped[datetime | None]
    closed_at: Mapped[datetime | None]
    outcome_on: Mapped[date | None]
    outcome_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    vet_name: Mapped[str | None] = mapped_column(String(200))  # VV 10 §4: a registered vet
    vet_crmv: Mapped[str | None] = mapped_column(String(40))
    note: Mapped[str | None] = mapped_column(Text)  # why unfit, why cancelled

    requester: Mapped[User] = relationship(foreign_keys=[requester_id])
    animal: Mapped[Animal | None] = relationship()
    preferred_site: Mapped[SterilisationSite | None] = relationship()
    slot: Mapped[SterilisationSlot | None] = relationship(back_populates="bookings")
    outcome_by: Mapped[User | None] = relationship(foreign_keys=[outcome_by_id])

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_BOOKING


class SterilisationEstimate(Model):
    """VV 10 §1: the estimated number of dogs and cats in the municipality for one year, kept by
    the CCZ; the year's target is a share of it (the profile's ``annual_target_percent``)."""

    __tablename__ = "sterilisation_estimate"

    id: Mapped[int] = mapped_column(primary_key=True)
    year: Mapped[int] = mapped_column(unique=True)
    dogs_and_cats: Mapped[int]
    source: Mapped[str] = mapped_column(String(300))  # where the estimate comes from
    set_by_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
