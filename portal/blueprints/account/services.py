"""Contact suggestions: what an establishment sent for a person whose record it did not create.

An establishment never changes someone else's contact data: the values wait
here until the person accepts them on the profile page (with the password, as any e-mail change)
or dismisses them, or until CCZ staff accept them (having checked with the person) or reject them
with a reason. A staff decision tells the person at the old address and at the new one.
"""

from __future__ import annotations

from typing import Any

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import Select, select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import ContactSuggestion, User
from portal.models.base import utcnow
from portal.services import audit
from portal.services.identity import clean_cep
from portal.services.mail import send_email
from portal.wiring import wiring

ADDRESS_FIELDS = ("cep", "street", "number", "complement", "district", "city", "state")


class AccountError(DomainError):
    """A change to one's own account that cannot be made as asked (e.g. wrong current password)."""


class SuggestionError(AccountError):
    """A suggestion that cannot be applied as asked (wrong password, e-mail taken, no reason)."""


def update_profile(user: User, fields: dict[str, Any], *, cep: str | None, new_email: str) -> None:
    """The person's own contact and address data. Their animals follow a new address (GRU 37;
    BJP 17: counted where they now live); a new e-mail is confirmed at the new address and the
    old one is told."""
    from portal.blueprints.auth.services import change_email

    for name, value in fields.items():
        setattr(user, name, value)
    user.cep = clean_cep(cep or "")
    wiring().address_changed(user)  # animals: they follow (GRU 37 §2; BJP 17)
    if new_email != (user.email or ""):
        change_email(user, new_email)
    audit.record("account.updated", user)


def change_password(user: User, current: str, new: str) -> None:
    """The signed-in person changes their password, proving the current one first."""
    from portal.blueprints.auth.services import check_password, set_password

    if not check_password(user, current):
        raise AccountError("current_password", "wrong_password", _("Senha atual incorreta."))
    set_password(user, new)
    audit.record("account.password_changed", user)


def pending_suggestions(user: User) -> list[ContactSuggestion]:
    """The person's open suggestions that would still change something."""
    rows = db.session.scalars(
        select(ContactSuggestion)
        .where(ContactSuggestion.user_id == user.id, ContactSuggestion.resolved_at.is_(None))
        .order_by(ContactSuggestion.id)
    )
    return [row for row in rows if row.changes()]


def own_pending_suggestion(user: User, suggestion_id: int) -> ContactSuggestion:
    """The open suggestion with this id made for ``user``; 404 for anyone else's."""
    suggestion = db.session.get(ContactSuggestion, suggestion_id)
    if suggestion is None or suggestion.user_id != user.id or suggestion.resolved_at is not None:
        abort(404)
    return suggestion


def accept_suggestion(suggestion: ContactSuggestion, *, password: str) -> None:
    """The person copies the suggested contact data to their record.

    A new e-mail needs the current password, is confirmed anew and the old address is told.
    Raises SuggestionError (wrong password, or the e-mail now belongs to someone else)."""
    from portal.blueprints.auth.services import change_email, check_password

    user = suggestion.user
    new_email = suggestion.changes().get("email")
    if new_email is not None and not check_password(user, password):
        raise SuggestionError(
            "current_password",
            "password_required",
            _("Para trocar o e-mail, informe sua senha atual."),
        )
    _apply(suggestion)
    if new_email is not None:
        change_email(user, new_email)  # confirmation to the new, notice to the old
    _resolve(suggestion, "accepted")
    audit.record("account.suggestion_accepted", user)


def dismiss_suggestion(suggestion: ContactSuggestion) -> None:
    _resolve(suggestion, "dismissed")
    audit.record("account.suggestion_dismissed", suggestion.user)


def _apply(suggestion: ContactSuggestion) -> None:
    """Copy phone and address (not the e-mail: each caller tells the addresses its own way).

    Raises SuggestionError when the suggested e-mail now belongs to another person."""
    from portal.blueprints.auth.services import find_by_email

    user = suggestion.user
    changes = suggestion.changes()
    if "email" in changes:
        holder = find_by_email(changes["email"])
        if holder is not None and holder.id != user.id:
            raise SuggestionError(
                "email", "email_taken", _("Este e-mail já está em uso por outra conta.")
            )
    if set(ADDRESS_FIELDS) & changes.keys():
        # The address is one block: take the suggested one whole, never a mix of two dwellings.
        for name in ADDRESS_FIELDS:
            setattr(user, name, getattr(suggestion, name))
        wiring().address_changed(user)  # GRU 37; BJP 17: the animals are counted where they live
    if "phone" in changes:
        user.phone = changes["phone"]


def pending_queue() -> Select[ContactSuggestion]:
    """Every suggestion nobody has decided yet, for the staff workspace."""
    return select(ContactSuggestion).where(ContactSuggestion.resolved_at.is_(None))


def pending_suggestion(suggestion_id: int) -> ContactSuggestion:
    """The undecided suggestion with this id; 404 when there is none (or it was decided)."""
    suggestion = db.session.get(ContactSuggestion, suggestion_id)
    if suggestion is None or suggestion.resolved_at is not None:
        abort(404)
    return suggestion


def staff_accept_suggestion(suggestion: ContactSuggestion, staff: User) -> None:
    """Staff apply the suggestion (they checked it with the person, e.g. at the counter).

    No password is asked. The person is told at the address on file before the change and, when
    the e-mail changes, at the new one too (which is confirmed anew).
    Raises SuggestionError when the suggested e-mail belongs to another person."""
    from portal.blueprints.auth.services import mask_email, send_confirmation

    user = suggestion.user
    old_email = user.email
    fields = sorted(suggestion.changes())
    new_email = suggestion.changes().get("email")
    _apply(suggestion)
    if new_email is not None:
        user.email = new_email
        user.email_confirmed_at = None
    body = _(
        "Olá, %(name)s.\n\nA equipe do CCZ atualizou seus dados de contato no portal com o que "
        "%(source)s informou.\nE-mail agora: %(email)s.\n\nSe você não pediu essa mudança, "
        "procure o CCZ com um documento com foto.",
        name=user.full_name,
        source=suggestion.source_name,
        email=mask_email(user.email or ""),
    )
    subject = _("Seus dados de contato no portal do CCZ foram atualizados")
    for address in dict.fromkeys(a for a in (old_email, new_email) if a):
        send_email(address, subject, body)
    if new_email is not None:
        send_confirmation(user)
    _resolve(suggestion, "accepted", staff)
    audit.record(
        "contact_suggestion.accepted",
        suggestion,
        detail={"pessoa": user.id, "campos": fields},
    )


def reject_suggestion(suggestion: ContactSuggestion, staff: User, reason: str) -> None:
    """Staff refuse the suggestion; the person's record is left as it was.

    Raises SuggestionError when no reason is given."""
    reason = " ".join(reason.split())
    if not reason:
        raise SuggestionError(
            "reason", "reason_required", _("Explique por que a sugestão foi recusada.")
        )
    suggestion.rejection_reason = reason[:500]
    _resolve(suggestion, "rejected", staff)
    audit.record(
        "contact_suggestion.rejected",
        suggestion,
        detail={"pessoa": suggestion.user_id, "motivo": suggestion.rejection_reason},
    )


def _resolve(suggestion: ContactSuggestion, resolution: str, staff: User | None = None) -> None:
    suggestion.resolution = resolution
    suggestion.resolved_at = utcnow()
    suggestion.resolved_by_id = staff.id if staff is not None else None
    db.session.flush()
