"""Maus-tratos reports (GRU 10 V; BJP 29; VV 3 IX): the public form, tracking by protocol and code,
"Minhas denúncias", and the CCZ's queues, triage, inspection and district map.

Module map: ``services`` (the rules, re-exported from ``common``, ``intake``, ``casework`` (the
state machine and inspection) and ``queries``), ``labels`` (Portuguese labels of every code),
``forms``, ``documents`` (the police letter PDF), ``routes`` (public pages), ``staff``
(``/ccz/denuncias``). Open311 lives in ``portal.blueprints.open311``.
"""

from flask import Blueprint, Flask
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.access import is_signed_in

bp = Blueprint("reports", __name__, url_prefix="")

STAFF_ROLES = ("agent", "coordinator", "admin")


def _staff() -> bool:
    return bool(current_user.is_authenticated and current_user.has_role(*STAFF_ROLES))


def init_app(app: Flask) -> None:
    """LGPD section, demo data, menu entries, staff tile and the staff queues."""
    from portal.blueprints.reports.extras import declare_queues, export_reports, seed_reports_demo
    from portal.blueprints.reports.labels import AUDIT_LABELS
    from portal.blueprints.reports.routes import report_context
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words
    app.context_processor(report_context)  # the reports' labels and map settings
    wired = wiring(app)
    wired.exporter("denuncias", export_reports)
    wired.demo_seeder(seed_reports_demo)
    wired.nav(_l("Denunciar maus-tratos"), "reports.new", order=40)
    wired.nav(_l("Minhas denúncias"), "reports.mine", order=45, visible=is_signed_in)
    wired.nav(_l("Denúncias"), "reports.staff_list", order=75, visible=_staff)
    wired.admin_link(
        _l("Denúncias de maus-tratos: filas, triagem e vistorias"),
        "reports.staff_list",
        STAFF_ROLES,
    )
    wired.queues(declare_queues)


from portal.blueprints.reports import routes, staff  # noqa: E402,F401
