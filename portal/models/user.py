"""People: citizens (with or without an account yet), NGO and establishment staff, CCZ staff."""

from __future__ import annotations

import enum
from datetime import date, datetime

from flask_babel import lazy_gettext as _l
from flask_login import UserMixin
from sqlalchemy import ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.extensions import Model
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

# Words that are not a first name: titles and organisation kinds ("Dr. Carlos", "ONG Patas").
_NAME_PREFIXES = frozenset(
    (
        "dr",
        "dra",
        "sr",
        "sra",
        "srta",
        "prof",
        "profa",
        "ong",
        "associacao",
        "associação",
        "instituto",
        "grupo",
        "projeto",
        "abrigo",
    )
)

# What staff read instead of the codes above (no "agent" or "ngo" on a page).
ROLE_LABELS = {
    Role.CITIZEN: _l("Cidadão"),
    Role.NGO: _l("ONG (protetora de animais)"),
    Role.ESTABLISHMENT: _l("Estabelecimento credenciado"),
    Role.AGENT: _l("Agente sanitário"),
    Role.VET: _l("Médico veterinário"),
    Role.COORDINATOR: _l("Coordenador"),
    Role.ADMIN: _l("Administrador"),
}


def role_label(role: str) -> str:
    """The Portuguese name of a role (the code itself for an unknown one)."""
    label = ROLE_LABELS.get(role)  # type: ignore[call-overload]
    return str(label) if label is not None else role


class User(UserMixin, Model):
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
    # Carried in the session and the remember cookie (get_id): bumping it signs out every device.
    session_version: Mapped[int] = mapped_column(default=1, server_default="1")
    # A sign-up whose confirmation link has not been followed yet: nobody signs in to it until
    # then, so sign-up answers alike for a new and a known CPF.
    activation_pending: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The establishment that created this record through the API (None: the person, or staff).
    # Only that establishment may still correct the record's contact data, and only until the
    # person claims it; any other sends a ContactSuggestion instead.
    created_by_api_client_id: Mapped[int | None] = mapped_column(
        ForeignKey("api_client.id", ondelete="SET NULL", use_alter=True)
    )

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
            if self.id is not None:
                # Issue 26 M3: a session opened with other roles (say, with a password alone,
                # as a citizen) must not carry new ones: every session of the person ends.
                self.bump_session_version()

    def get_id(self) -> str:  # Flask-Login: id and session version; auth.sessions adds the
        # sign-in's token to what the session and the remember cookie keep
        return f"{self.id}:{self.session_version}"

    def bump_session_version(self) -> None:
        """Sign out every session and remember cookie issued so far."""
        self.session_version = (self.session_version or 1) + 1

    @property
    def short_name(self) -> str:
        """How to greet the person: the first name, with a title kept ("Dr. Carlos", not "Dr.")
        and an organisation's acronym kept with its name ("ONG Patas", not "ONG")."""
        words = (self.full_name or "").split()
        shouting = (self.full_name or "").isupper()  # "ANA SILVA": "ANA" is a name, not an acronym
        short: list[str] = []
        for word in words:
            short.append(word)
            bare = word.rstrip(".").lower()
            is_prefix = (
                word.endswith(".")
                or bare in _NAME_PREFIXES
                or (word.isupper() and len(word) <= 4 and not shouting)
            )
            if not is_prefix:
                break
        return " ".join(short).rstrip(".") or (self.full_name or "")

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


class UserRole(Model):
    __tablename__ = "user_role"
    __table_args__ = (UniqueConstraint("user_id", "role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(String(20))

    user: Mapped[User] = relationship(back_populates="role_links")


CONTACT_FIELDS = (
    "email",
    "phone",
    "cep",
    "street",
    "number",
    "complement",
    "district",
    "city",
    "state",
)


class ContactSuggestion(Model):
    """Contact data an establishment sent for a person whose record it did not create.

    It is never applied by itself: the person accepts or dismisses it on their profile page, or
    CCZ staff accept or reject it from the workspace queue (an establishment could otherwise
    redirect someone's e-mail and take over the account).
    """

    __tablename__ = "contact_suggestion"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user_account.id", ondelete="CASCADE"), index=True
    )
    api_client_id: Mapped[int | None] = mapped_column(
        ForeignKey("api_client.id", ondelete="SET NULL")
    )
    source_name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(254))
    phone: Mapped[str | None] = mapped_column(String(30))
    cep: Mapped[str | None] = mapped_column(String(8))
    street: Mapped[str | None] = mapped_column(String(200))
    number: Mapped[str | None] = mapped_column(String(20))
    complement: Mapped[str | None] = mapped_column(String(100))
    district: Mapped[str | None] = mapped_column(String(100))
    city: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[str | None] = mapped_column(String(2))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    resolved_at: Mapped[datetime | None]
    # "accepted" | "dismissed" (by the person) | "rejected" (by staff, with a reason)
    resolution: Mapped[str | None] = mapped_column(String(20))
    # Staff may decide instead of the person: who, and why a refusal.
    resolved_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("user_account.id", ondelete="SET NULL")
    )
    rejection_reason: Mapped[str | None] = mapped_column(String(500))

    user: Mapped[User] = relationship(foreign_keys=[user_id])
    resolved_by: Mapped[User | None] = relationship(foreign_keys=[resolved_by_id])

    def changes(self) -> dict[str, str]:
        """The suggested values that differ from what the person's record holds now."""
        return {
            name: value
            for name in CONTACT_FIELDS
            if (value := getattr(self, name)) and value != getattr(self.user, name)
        }
