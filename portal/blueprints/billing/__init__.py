"""Fees and payments: price list, payment items, Stripe Checkout, counter slips (guias)."""

from flask import Blueprint

bp = Blueprint("billing", __name__, url_prefix="/pagamentos")

from portal.blueprints.billing import routes  # noqa: E402,F401
