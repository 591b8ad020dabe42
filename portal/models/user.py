"""People: citizens (with or without an account yet), NGO and establishment staff, CCZ staff."""

from __future__ import annotations

import enum
from datetime import date, datetime

from flask_login import UserMixin
from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import db
from portal.models.base import utcnow


class Role(enum.StrEnum):
    CITIZEN = "citizen"
    NGO = "ngo"
    ESTABLISHMENT = "establishment"
    AGENT = "agent"
    VET = "vet"
    COORDINATOR = "coordinator"
    ADMIN = "admin"


STAFF_ROLES = frozenset({Role.AGENT, Role.VET, Role.COORDINATOR, Role.ADMIN})


class User(UserMixin, db.Model):
    """A person known to the portal.

    An owner registered by a clinic through the API exists before they sign up: ``password_hash``
    is then empty and the person claims the record by CPF and e-mail at sign-up.
    """

    __tablename__ = "user_account"

    id: Mapped[int] = mapped_column(primary_key=True)
    full_name: Mapped[str] = mapped_column(String(200))
    cpf: Mapped[str | None] = mapped_column(String(11), unique=True)
    rg: Mapped[str | None] = mapped_column(String(30))
    birth_date: Mapped[date | None]
    email: Mapped[str | None] = mapped_column(String(254), unique=True)
    phone: Mapped[str | None] = mapped_column(String(30))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    email_confirmed_at: Mapped[datetime | None]
    privacy_accepted_at: Mapped[datetime | None]
    active: Mapped[bool] = mapped_column(default=True)

    cep: Mapped[str | None] = mapped_column(String(8))
    street: Mapped[str | None] = mapped_column(String(200))
    number: Mapped[str | None] = mapped_column(String(20))
    complement: Mapped[str | None] = mapped_column(String(100))
    district: Mapped[str | None] = mapped_column(String(100))
    city: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[str | None] = mapped_column(String(2))
    # "house" or "apartment_condo": GRU 37 §2 leaves condo flats out of the household rule.
    housing_type: Mapped[str | None] = mapped_column(String(30))

    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    role_links: Mapped[list[UserRole]] = relationship(
        back_populates="user", cascade="all, delete-orphan", lazy="selectin"
    )

    @property
    def roles(self) -> set[str]:
        return {link.role for link in self.role_links}

    def has_role(self, *roles: str) -> bool:
        return bool(self.roles.intersection(roles))

    def add_role(self, role: str) -> None:
        if role not in self.roles:
            self.role_links.append(UserRole(role=Role(role).value))

    @property
    def is_staff(self) -> bool:
        return bool(self.roles & STAFF_ROLES)

    @property
    def is_active(self) -> bool:  # Flask-Login
        return self.active

    @property
    def has_account(self) -> bool:
        return self.password_hash is not None

    @property
    def address_line(self) -> str:
        parts = [self.street or "", self.number or ""]
        line = ", ".join(p for p in parts if p)
        if self.complement:
            line += f" ({self.complement})"
        if self.district:
            line += f" – {self.district}"
        if self.city:
            line += f", {self.city}/{self.state or ''}"
        return line

    def __repr__(self) -> str:
        return f"<User {self.id} {self.full_name!r}>"


class UserRole(db.Model):
    __tablename__ = "user_role"
    __table_args__ = (UniqueConstraint("user_id", "role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))

    user: Mapped[User] = relationship(back_populates="role_links")
