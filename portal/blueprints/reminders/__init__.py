"""Reminders: the daily job's wiring (which domains declare reminders) and the page where a person
turns courtesy reminders off."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("reminders", __name__, url_prefix="/conta/lembretes")


def init_reminder_job(app: Flask) -> None:
    from portal.blueprints.animals.reminders import declare_reminders as animal_reminders
    from portal.blueprints.billing.reminders import declare_reminders as billing_reminders
    from portal.blueprints.enforcement.reminders import declare_reminders as enforcement_reminders
    from portal.blueprints.establishments.reminders import (
        declare_reminders as establishment_reminders,
    )
    from portal.blueprints.impound.reminders import declare_reminders as impound_reminders
    from portal.blueprints.licences import in_profile as licences_in_profile
    from portal.blueprints.licences.reminders import declare_reminders as licence_reminders
    from portal.reminders import init_reminders

    init_reminders(
        app,
        [
            animal_reminders,
            billing_reminders,
            establishment_reminders,
            enforcement_reminders,
            impound_reminders,
            *([licence_reminders] if licences_in_profile(app) else []),
        ],
    )


from portal.blueprints.reminders import routes  # noqa: E402,F401
