"""The sterilisation programme (VV 7-10; GRU 8; BJP 32): castrations booked against the surgery
days of the CCZ's and its partners' sites, a waitlist, and the outcome on the animal's RGA.

Modules: ``services`` (the rules), ``routes`` (the public page and the person's bookings),
``staff`` (sites, surgery days and outcomes under ``/ccz/castracao``), ``queues`` (what it adds to
the staff workspace), ``demo``.

Where the law has no programme (CABO, CAB) the blueprint is not registered: no page, no link.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask
from flask.sansio.app import App


def in_profile(app: App) -> bool:
    return app.extensions["portal_profile"].sterilisation is not None


def init_app(app: Flask) -> None:
    """Menu entry, staff tile, LGPD section, queues, the day-before reminder and demo data where
    the law has the programme."""
    from portal.blueprints.sterilisation.labels import AUDIT_LABELS
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words
    if not in_profile(app):
        return
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF
    from portal.blueprints.sterilisation import demo, queues, reminders
    from portal.wiring import wiring

    app.register_blueprint(bp)  # only here: no page, no link where the law has none
    wired = wiring(app)
    wired.nav(_l("Castração"), "sterilisation.programme", order=27)
    wired.admin_link(_l("Programa de castração"), "sterilisation.staff_overview", STAFF)
    wired.exporter("castracao", _export)
    wired.queues(queues.declare_queues)
    wired.reminders(reminders.declare_reminders)
    wired.demo_seeder(demo.seed_sterilisation_demo)


def _export(user: Any) -> list[dict[str, Any]]:
    """LGPD data download: the person's castration bookings."""
    from sqlalchemy import select

    from portal.extensions import db
    from portal.models import SterilisationBooking

    found = db.session.scalars(
        select(SterilisationBooking)
        .where(SterilisationBooking.requester_id == user.id)
        .order_by(SterilisationBooking.id)
    )
    return [
        {
            "pedido": b.id,
            "animal": b.animal_name,
            "rga": b.animal.rga if b.animal else None,
            "especie": b.species,
            "comunitario": b.community,
            "local_onde_vive": b.community_place,
            "situacao": b.status,
            "dia": b.slot.day if b.slot else None,
            "local": b.slot.site.name if b.slot else None,
            "pedido_em": b.created_at,
            "resultado_em": b.outcome_on,
            "observacao": b.note,
        }
        for b in found
    ]


bp = Blueprint("sterilisation", __name__)

from portal.blueprints.sterilisation import routes, staff  # noqa: E402,F401
