"""Fees and payments: price list, payment items, Stripe Checkout, counter slips (guias).

Two blueprints: ``billing`` (citizen pages under /pagamentos, staff pages under /pagamentos/ccz)
and ``payments`` (the Stripe webhook at /payments/stripe/webhook, the URL Stripe is given).
"""

from flask import Blueprint, Flask

from portal.extensions import csrf

bp = Blueprint("billing", __name__, url_prefix="/pagamentos")
webhook_bp = Blueprint("payments", __name__, url_prefix="/payments")
csrf.exempt(webhook_bp)  # Stripe signs the body; there is no browser session to protect


def init_app(app: Flask) -> None:
    """Menu, staff tiles, LGPD section, to-do, demo data, queues and reminders (``hooks``)."""
    from portal.blueprints.billing.labels import AUDIT_LABELS
    from portal.wiring import wiring as _wiring

    _wiring(app).audit_labels(AUDIT_LABELS)

    hooks.init_app(app)


from portal.blueprints.billing import hooks, routes, staff  # noqa: E402,F401
