"""Establishments (GRU 11-14; BJP 2, 9): the cadastro zoossanitário requested online, reviewed by
staff, renewed yearly; accreditation to register animals; the public "Onde registrar" page.

Modules: ``services`` (the rules), ``routes`` (the establishment's and the public pages),
``staff`` (the CCZ's review), ``queues`` (what it adds to the staff workspace), ``reminders``.
"""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("establishments", __name__)


def init_app(app: Flask) -> None:
    """Tokens of accredited establishments work only while their cadastro is valid; menu entry,
    staff tile, queues and reminders."""
    from portal.blueprints.establishments.labels import AUDIT_LABELS
    from portal.wiring import wiring as _wiring

    _wiring(app).audit_labels(AUDIT_LABELS)
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF
    from portal.blueprints.establishments import queues, reminders
    from portal.blueprints.establishments.services import api_client_gate
    from portal.services.api_auth import add_api_client_gate
    from portal.wiring import wiring

    add_api_client_gate(app, api_client_gate)
    wired = wiring(app)
    wired.nav(
        _l("Onde registrar"),
        "establishments.where_to_register",
        order=26,
        visible=_accreditation_in_law,
    )
    wired.admin_link(
        _l("Estabelecimentos: cadastro zoossanitário"), "establishments.staff_list", STAFF
    )
    wired.queues(queues.declare_queues)
    wired.reminders(reminders.declare_reminders)


def _accreditation_in_law() -> bool:
    from portal.services.clock import current_profile

    rule = current_profile().establishments
    return bool(rule and rule.accreditation)


from portal.blueprints.establishments import routes, staff  # noqa: E402,F401
