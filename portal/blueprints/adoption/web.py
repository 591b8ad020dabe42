"""What the adoption pages share: the profile and today's date, service errors shown next to their
fields, and the listing or application the signed-in user manages (404 otherwise, so ids of
someone else's records do not leak)."""

from __future__ import annotations

from typing import Any

from flask import abort
from flask_login import current_user

from portal.access import STAFF
from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption.errors import InvalidData
from portal.blueprints.adoption.listings import may_manage
from portal.domain import DomainError
from portal.extensions import db
from portal.models import AdoptionApplication, Listing
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today

MANAGERS = ("ngo", *STAFF)

today = local_today


def profile() -> Profile:
    return current_profile()


def add_errors(form: Any, errors: list[tuple[str, str, str]]) -> list[str]:
    """Put service errors next to their fields; return those without a field on the form."""
    return [m for f, c, m in errors if not DomainError(f, c, m).show_on(form)]


def show_error(form: Any, err: DomainError, default_field: str | None = None) -> list[str]:
    """Show a domain error on the form (every field of an :class:`InvalidData`); return the
    messages no field shows. ``default_field`` receives an error that names no field."""
    if isinstance(err, InvalidData):
        return add_errors(form, err.errors)
    return add_errors(form, [(err.field or default_field or "", err.code, err.message)])


def managed_listing(listing_id: int) -> Listing:
    listing = db.session.get(Listing, listing_id)
    if listing is None or not may_manage(current_user, listing):
        abort(404)
    return listing


def managed_application(application_id: int) -> AdoptionApplication:
    application = db.session.get(AdoptionApplication, application_id)
    if application is None or not apps.may_review(current_user, application):
        abort(404)
    return application
