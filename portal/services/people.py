"""Finding a person: for staff by CPF, e-mail or part of the name (never logged, never in a URL);
for sign-in, the account commands and the forms that change an e-mail, by e-mail."""

from __future__ import annotations

from sqlalchemy import func, or_, select

from portal.extensions import db
from portal.models import User
from portal.services.identity import clean_cpf


def find_people(term: str, *, limit: int = 50) -> list[User]:
    """People whose CPF is the typed one, or whose name or e-mail contains the term."""
    term = " ".join((term or "").split())
    if len(term) < 2:
        return []
    lowered = term.lower()
    conditions = [
        func.lower(User.full_name).contains(lowered),
        func.lower(User.email).contains(lowered),
    ]
    cpf = clean_cpf(term)
    if cpf:
        conditions.append(User.cpf == cpf)
    return list(
        db.session.scalars(
            select(User).where(or_(*conditions)).order_by(User.full_name).limit(limit)
        )
    )


def find_by_email(email: str) -> User | None:
    """The account with this e-mail, whatever its case."""
    return db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))
