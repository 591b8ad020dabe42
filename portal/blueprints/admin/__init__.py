"""CCZ staff area: dashboard, unit values, municipal holidays, audit log."""

from flask import Blueprint, Flask

bp = Blueprint("admin", __name__, url_prefix="/admin")


def init_app(app: Flask) -> None:
    """The staff area's own part of the workspace: the people search."""
    from portal.blueprints.admin.labels import AUDIT_LABELS
    from portal.blueprints.admin.queues import declare_queues
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words

    wiring(app).queues(declare_queues)


from portal.blueprints.admin import routes  # noqa: E402,F401
