"""The signed-in person's own data: contact, address, LGPD export."""

from flask import Blueprint

bp = Blueprint("account", __name__, url_prefix="/minha-conta")

from portal.blueprints.account import routes  # noqa: E402,F401
