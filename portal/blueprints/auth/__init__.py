"""Sign-up, e-mail confirmation, login/logout, password reset."""

from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/conta")

from portal.blueprints.auth import routes  # noqa: E402,F401
