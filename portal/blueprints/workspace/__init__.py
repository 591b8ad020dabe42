"""Staff workspace: the queues every domain declares, as lists with filters, CSV and bulk actions.

The staff home ("Painel do CCZ", ``admin.dashboard``) shows one card per queue; this blueprint
serves each queue's list. ``init_workspace`` is called by ``create_app`` after every domain's
``init_app`` has declared its ``declare_queues`` (``portal.wiring``).
"""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("workspace", __name__, url_prefix="/ccz")


def init_workspace(app: Flask) -> None:
    """Build the app's queue registry from what each domain's ``init_app`` declared."""
    from portal.wiring import wiring
    from portal.workspace import init_registry

    init_registry(app, wiring(app).queue_declarers)


from portal.blueprints.workspace import routes  # noqa: E402,F401
