"""Staff workspace: the queues every domain declares, as lists with filters, CSV and bulk actions.

The staff home ("Painel do CCZ", ``admin.dashboard``) shows one card per queue; this blueprint
serves each queue's list. ``init_workspace`` is called by ``create_app`` with the domains'
``declare_queues`` functions, so reading ``create_app`` tells which queues exist.
"""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("workspace", __name__, url_prefix="/ccz")


def init_workspace(app: Flask) -> None:
    from portal.blueprints.admin.queues import declare_queues as staff_area
    from portal.blueprints.adoption.queues import declare_queues as adoption_queues
    from portal.blueprints.animals.queues import declare_queues as animal_queues
    from portal.blueprints.billing.queues import declare_queues as billing_queues
    from portal.blueprints.enforcement.queues import declare_queues as enforcement_queues
    from portal.blueprints.establishments.queues import declare_queues as establishment_queues
    from portal.blueprints.impound.queues import declare_queues as impound_queues
    from portal.blueprints.licences import in_profile as licences_in_profile
    from portal.blueprints.licences.queues import declare_queues as licence_queues
    from portal.blueprints.reports.extras import declare_queues as report_queues
    from portal.workspace import init_registry

    init_registry(
        app,
        [
            staff_area,
            animal_queues,
            adoption_queues,
            billing_queues,
            establishment_queues,
            report_queues,
            enforcement_queues,
            impound_queues,
            *([licence_queues] if licences_in_profile(app) else []),
        ],
    )


from portal.blueprints.workspace import routes  # noqa: E402,F401
