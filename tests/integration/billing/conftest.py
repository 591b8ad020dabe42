"""Billing fixtures: a local stand-in for the Stripe API, signed webhook deliveries, payment items.

The stand-in is a werkzeug server on 127.0.0.1 (port 0) in a thread, answering the two calls the
portal makes (create a Checkout session, create a refund) with Stripe-shaped JSON and recording
every request, so the tests check what the real ``stripe`` library sent. Nothing leaves the
machine.

Webhook deliveries (``tests.factories.deliver``) are signed like Stripe signs them: header
``t=<timestamp>,v1=<hex>`` where the hex is HMAC-SHA256 of ``"<timestamp>.<payload>"`` keyed with
the webhook secret.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from portal.extensions import db, limiter
from portal.models import User
from tests import factories
from tests.conftest import AuthActions
from tests.factories import STRIPE_SECRET_KEY as SECRET_KEY
from tests.factories import WEBHOOK_SECRET

_ids = itertools.count(1)


@dataclass
class StripeStub:
    """What the fake Stripe API received, and how it should answer next."""

    url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_with: tuple[int, str] | None = None  # (HTTP status, message) for the next calls
    refund_status: str = "succeeded"
    delay: float = 0  # seconds to wait before answering (network timeout tests)
    # Like Stripe: a repeated Idempotency-Key gets the first answer again.
    answered: dict[str, dict[str, Any]] = field(default_factory=dict)

    def calls(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"] == path]

    def app(self, environ, start_response):  # type: ignore[no-untyped-def]
        request = Request(environ)
        form = request.form.to_dict()
        self.requests.append(
            {
                "method": request.method,
                "path": request.path,
                "form": form,
                "headers": dict(request.headers),
            }
        )
        if self.delay:
            time.sleep(self.delay)
        if self.fail_with is not None:
            status, message = self.fail_with
            body = {"error": {"type": "invalid_request_error", "message": message}}
            return Response(json.dumps(body), status=status, content_type="application/json")(
                environ, start_response
            )
        key = request.headers.get("Idempotency-Key")
        if key and key in self.answered:
            return Response(json.dumps(self.answered[key]), content_type="application/json")(
                environ, start_response
            )
        n = next(_ids)
        if request.path == "/v1/checkout/sessions" and request.method == "POST":
            session_id = f"cs_test_{n:06d}"
            body = {
                "id": session_id,
                "object": "checkout.session",
                "mode": "payment",
                "url": f"https://checkout.stripe.com/c/pay/{session_id}",
                "status": "open",
                "payment_status": "unpaid",
                "amount_total": int(form["line_items[0][price_data][unit_amount]"]),
                "currency": form["line_items[0][price_data][currency]"],
                "client_reference_id": form.get("client_reference_id"),
                "metadata": {"payment_id": form.get("metadata[payment_id]")},
                "expires_at": int(time.time()) + 86400,
                "livemode": False,
            }
        elif (
            request.path.startswith("/v1/checkout/sessions/")
            and request.path.endswith("/expire")
            and request.method == "POST"
        ):
            session_id = request.path.split("/")[4]
            body = {
                "id": session_id,
                "object": "checkout.session",
                "status": "expired",
                "payment_status": "unpaid",
                "url": None,
            }
        elif request.path == "/v1/refunds" and request.method == "POST":
            body = {
                "id": f"re_test_{n:06d}",
                "object": "refund",
                "status": self.refund_status,
                "payment_intent": form.get("payment_intent"),
                "currency": "brl",
            }
        else:
            return Response(
                json.dumps(
                    {
                        "error": {
                            "type": "invalid_request_error",
                            "message": "Unrecognized request URL",
                        }
                    }
                ),
                status=404,
                content_type="application/json",
            )(environ, start_response)
        if key:
            self.answered[key] = body
        return Response(json.dumps(body), content_type="application/json")(environ, start_response)


@pytest.fixture
def stripe_stub() -> Iterator[StripeStub]:
    stub = StripeStub()
    server = make_server("127.0.0.1", 0, stub.app, threaded=True)
    # a short poll: shutdown() waits up to one poll interval (0.5 s by default) per test
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    stub.url = f"http://127.0.0.1:{server.server_port}"
    try:
        yield stub
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@pytest.fixture
def stripe_app(make_app, stripe_stub: StripeStub) -> Iterator[Flask]:
    """The portal with Stripe keys, its API client pointed at the stand-in."""
    app = make_app(
        STRIPE_SECRET_KEY=SECRET_KEY,
        STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        STRIPE_PUBLISHABLE_KEY="pk_test_portal_ccz",
        STRIPE_API_BASE=stripe_stub.url,
    )
    with app.app_context():
        limiter.reset()
        yield app


@pytest.fixture
def stripe_client(stripe_app: Flask) -> FlaskClient:
    return stripe_app.test_client()


@pytest.fixture
def stripe_auth(stripe_client: FlaskClient) -> AuthActions:
    return AuthActions(stripe_client)


@pytest.fixture
def citizen() -> User:
    person = factories.user(roles=("citizen",), full_name="Maria Pagadora")
    db.session.commit()
    return person
