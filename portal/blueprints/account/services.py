"""Contact suggestions: what an establishment sent for a person whose record it did not create.

An establishment never changes someone else's contact data (issue 8, security 2): the values wait
here until the person accepts them on the profile page (with the password, as any e-mail change)
or dismisses them.
"""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.animals.household import move_animals_with_owner
from portal.extensions import db
from portal.models import ContactSuggestion, User
from portal.models.base import utcnow


class SuggestionError(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    """Copy the suggested contact data to the person's record.

    A new e-mail needs the current password, is confirmed anew and the old address is told.
    Raises SuggestionError (wrong password, or the e-mail now belongs to someone else)."""
    from portal.blueprints.auth.services import change_email, check_password, find_by_email

    user = suggestion.user
    changes = suggestion.changes()
    new_email = changes.pop("email", None)
    if new_email is not None:
        if not check_password(user, password):
            raise SuggestionError(_("Para trocar o e-mail, informe sua senha atual."))
        holder = find_by_email(new_email)
        if holder is not None and holder.id != user.id:
            raise SuggestionError(_("Este e-mail já está em uso por outra conta."))
    address = {"cep", "street", "number", "complement", "district", "city", "state"}
    if address & changes.keys():
        # The address is one block: take the suggested one whole, never a mix of two dwellings.
        for name in address:
            setattr(user, name, getattr(suggestion, name))
        move_animals_with_owner(user)  # DOMAIN §4: counted where they now live
    if "phone" in changes:
        user.phone = changes["phone"]
    if new_email is not None:
        change_email(user, new_email)
    _resolve(suggestion, "accepted")


def dismiss_suggestion(suggestion: ContactSuggestion) -> None:
    _resolve(suggestion, "dismissed")


def _resolve(suggestion: ContactSuggestion, resolution: str) -> None:
    suggestion.resolution = resolution
    suggestion.resolved_at = utcnow()
    db.session.flush()
