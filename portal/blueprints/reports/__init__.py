"""Maus-tratos reports (issue 12, DOMAIN §7): the public form, tracking by protocol and code,
"Minhas denúncias", and the CCZ's queues, triage, inspection and district map.

Module map: ``services`` (the rules and the state machine), ``labels`` (Portuguese labels of every
code), ``forms``, ``documents`` (the police letter PDF), ``routes`` (public pages), ``staff``
(``/ccz/denuncias``). Open311 lives in ``portal.blueprints.open311``.
"""

from flask import Blueprint
from flask_babel import lazy_gettext as _l
from flask_login import current_user

bp = Blueprint("reports", __name__, url_prefix="")

STAFF_ROLES = ("agent", "coordinator", "admin")


def _signed_in() -> bool:
    return bool(current_user.is_authenticated)


def _staff() -> bool:
    return bool(current_user.is_authenticated and current_user.has_role(*STAFF_ROLES))


def _init() -> None:
    from portal.blueprints.reports.extras import export_reports, seed_reports_demo
    from portal.cli import register_demo_seeder
    from portal.services.lgpd import register_exporter
    from portal.templating import register_admin_link, register_nav

    register_exporter("denuncias", export_reports)
    register_demo_seeder(seed_reports_demo)

    register_nav(_l("Denunciar maus-tratos"), "reports.new", order=40)
    register_nav(_l("Minhas denúncias"), "reports.mine", order=45, visible=_signed_in)
    register_nav(_l("Denúncias"), "reports.staff_list", order=75, visible=_staff)
    register_admin_link(
        _l("Denúncias de maus-tratos: filas, triagem e vistorias"),
        "reports.staff_list",
        STAFF_ROLES,
    )


from portal.blueprints.reports import routes, staff  # noqa: E402,F401

_init()
