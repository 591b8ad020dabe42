"""Reminders: the daily job's wiring (which domains declare reminders) and the page where a person
turns courtesy reminders off."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("reminders", __name__, url_prefix="/conta/lembretes")


def init_reminder_job(app: Flask) -> None:
    """Build the app's reminder registry from what each domain's ``init_app`` declared."""
    from portal.reminders import init_reminders
    from portal.wiring import wiring

    init_reminders(app, wiring(app).reminder_declarers)


from portal.blueprints.reminders import routes  # noqa: E402,F401
