"""Home, the municipality's rules page, health check, accessibility toggles."""

from flask import Blueprint

bp = Blueprint("main", __name__)

from portal.blueprints.main import routes  # noqa: E402,F401
