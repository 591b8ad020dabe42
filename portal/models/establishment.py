"""Establishments that deal with animals: the CCZ's register (cadastro zoossanitário, GRU 11-13)
and their accreditation to register animals (GRU 14 §1-2; BJP 2, 9).

* :class:`Establishment` – one CNPJ's cadastro: who they are, what they do, their responsible
  veterinarian, and the current term (``valid_from`` … ``valid_until``, both inclusive).
* :class:`EstablishmentInspection` – a visit by an agent, before approval where the profile asks
  for one (and any time after).
* :class:`EstablishmentEvent` – the establishment's file (GRU 12): every request, inspection,
  decision, renewal and closure, with who and when.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
from portal.models.api_client import ApiClient
from portal.models.base import utcnow
from portal.models.upload import StoredFile
from portal.models.user import User


class EstablishmentStatus(enum.StrEnum):
    REQUESTED = "requested"  # waiting for the CCZ (inspection, decision)
    ACTIVE = "active"  # approved; valid or expired depends on valid_until
    REFUSED = "refused"
    CLOSED = "closed"  # baixa: the establishment closed (GRU 11 §5)


class Establishment(Model):
    __tablename__ = "establishment"

    id: Mapped[int] = mapped_column(primary_key=True)
    cnpj: Mapped[str] = mapped_column(String(14), index=True)
    legal_name: Mapped[str] = mapped_column(String(200))  # GRU 11 §1 I
    trade_name: Mapped[str | None] = mapped_column(String(200))
    kinds: Mapped[list[str]] = mapped_column(JSON, default=list)  # GRU 11 §1 III
    facilities: Mapped[str] = mapped_column(Text, default="")  # instalações e equipamentos
    sketch_id: Mapped[int | None] = mapped_column(ForeignKey("stored_file.id"))  # GRU 11 §1 IV
    cep: Mapped[str] = mapped_column(String(8))  # GRU 11 §1 II
    street: Mapped[str] = mapped_column(String(200))
    number: Mapped[str] = mapped_column(String(20))
    complement: Mapped[str | None] = mapped_column(String(100))
    district: Mapped[str] = mapped_column(String(100))
    phone: Mapped[str | None] = mapped_column(String(30))
    email: Mapped[str | None] = mapped_column(String(254))
    opening_hours: Mapped[str | None] = mapped_column(String(200))
    # GRU 11 §1 V and 13: the responsible veterinarian and the yearly term of responsibility
    vet_name: Mapped[str | None] = mapped_column(String(200))
    vet_crmv: Mapped[str | None] = mapped_column(String(40))
    vet_term_valid_until: Mapped[date | None]

    status: Mapped[str] = mapped_column(
        String(12), default=EstablishmentStatus.REQUESTED, index=True
    )
    first_issued_on: Mapped[date | None]  # GRU 11 §2: terms are counted from the first issue
    valid_from: Mapped[date | None]
    valid_until: Mapped[date | None] = mapped_column(index=True)
    renewal_requested_on: Mapped[date | None]
    refusal_reason: Mapped[str | None] = mapped_column(Text)
    accredited: Mapped[bool] = mapped_column(default=False)  # may register animals (GRU 14 §2)
    api_client_id: Mapped[int | None] = mapped_column(ForeignKey("api_client.id"), unique=True)

    requested_by_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    requested_by: Mapped[User] = relationship(foreign_keys=[requested_by_id])
    api_client: Mapped[ApiClient | None] = relationship()
    sketch: Mapped[StoredFile | None] = relationship()
    inspections: Mapped[list[EstablishmentInspection]] = relationship(
        back_populates="establishment",
        cascade="all, delete-orphan",
        order_by="EstablishmentInspection.id",
    )
    events: Mapped[list[EstablishmentEvent]] = relationship(
        back_populates="establishment",
        cascade="all, delete-orphan",
        order_by="EstablishmentEvent.id",
    )

    @property
    def display_name(self) -> str:
        return self.trade_name or self.legal_name

    @property
    def address_line(self) -> str:
        line = f"{self.street}, {self.number}"
        if self.complement:
            line += f" ({self.complement})"
        return f"{line} – {self.district}"


class EstablishmentInspection(Model):
    __tablename__ = "establishment_inspection"

    id: Mapped[int] = mapped_column(primary_key=True)
    establishment_id: Mapped[int] = mapped_column(
        ForeignKey("establishment.id", ondelete="CASCADE"), index=True
    )
    inspected_on: Mapped[date]
    agent_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"))
    findings: Mapped[str] = mapped_column(Text)
    satisfactory: Mapped[bool]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    establishment: Mapped[Establishment] = relationship(back_populates="inspections")
    agent: Mapped[User] = relationship()


class EstablishmentEvent(Model):
    __tablename__ = "establishment_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    establishment_id: Mapped[int] = mapped_column(
        ForeignKey("establishment.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(40))
    note: Mapped[str | None] = mapped_column(Text)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"))

    establishment: Mapped[Establishment] = relationship(back_populates="events")
    actor: Mapped[User | None] = relationship()
