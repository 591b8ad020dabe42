"""CCZ staff area: dashboard, unit values, municipal holidays, audit log."""

from flask import Blueprint

bp = Blueprint("admin", __name__, url_prefix="/admin")

from portal.blueprints.admin import routes  # noqa: E402,F401
