"""The Stripe webhook, ``POST /payments/stripe/webhook``: outside the /pagamentos prefix (the URL
configured in the Stripe dashboard), CSRF-exempt, public, and trusted only through the signature.

A bad, missing or stale signature (older than the library's 5-minute tolerance) answers 400 and
changes nothing. A verified event answers 200 even when it is ignored or a repeat, so Stripe stops
retrying; anything odd about the money becomes a review flag for staff instead of an error.
"""

from __future__ import annotations

import json

import stripe
from flask import Blueprint, current_app, jsonify, request
from sqlalchemy.exc import IntegrityError

from portal.access import public
from portal.blueprints.billing import stripe_gateway
from portal.extensions import csrf, db

webhook_bp = Blueprint("payments", __name__, url_prefix="/payments")
csrf.exempt(webhook_bp)  # Stripe signs the body; there is no browser session to protect


def _bad_request(code: str, message: str):
    return jsonify(errors=[{"field": None, "code": code, "message": message}]), 400


@webhook_bp.post("/stripe/webhook")
@public  # authenticated by the Stripe-Signature header (STRIPE_WEBHOOK_SECRET), checked below
def stripe_webhook():
    secret = current_app.config.get("STRIPE_WEBHOOK_SECRET")
    if not secret:
        current_app.logger.warning("Stripe webhook called but STRIPE_WEBHOOK_SECRET is not set")
        return _bad_request("not_configured", "Webhook da Stripe não configurado.")
    payload = request.get_data(cache=False)
    try:
        stripe.WebhookSignature.verify_header(
            payload,
            request.headers.get("Stripe-Signature"),
            secret,
            stripe.Webhook.DEFAULT_TOLERANCE,
        )
        data = json.loads(payload)
    except (ValueError, stripe.SignatureVerificationError):
        return _bad_request("invalid_signature", "Assinatura inválida ou expirada.")
    if not isinstance(data, dict):
        # Signed, but not an event (a JSON array, a string...): nothing to apply. The library's
        # construct_event fails on these with an AttributeError, hence the check made here.
        return _bad_request("invalid_event", "Evento inválido.")
    try:
        outcome = stripe_gateway.handle_event(data)
        db.session.commit()
    except IntegrityError:
        # The same event delivered twice at the same moment: the other delivery recorded it.
        db.session.rollback()
        outcome = "duplicate"
    except ValueError:
        db.session.rollback()
        return _bad_request("invalid_event", "Evento inválido.")
    except (TypeError, AttributeError, KeyError):
        # A signed event of an unexpected shape deeper down (a list where Stripe sends an
        # object): refuse it like a malformed event instead of answering 500.
        db.session.rollback()
        current_app.logger.exception("Stripe event %s has an unexpected shape", data.get("id"))
        return _bad_request("invalid_event", "Evento inválido.")
    current_app.logger.info("Stripe event %s (%s): %s", data.get("id"), data.get("type"), outcome)
    return jsonify(received=True, outcome=outcome)
