"""Issue 8 (security 8): a correctly signed Stripe delivery whose body is not an event object (a
JSON array, a string, a number, null, or an object with a list where Stripe sends an object)
answers 400 and records nothing, never 500. Signed for real (the stripe library's scheme)."""

from __future__ import annotations

import json

import pytest
import stripe
from sqlalchemy import func, select

from portal.extensions import db
from portal.models import StripeWebhookEvent
from tests.factories import WEBHOOK_SECRET, make_item, session_event


def _post_signed(client, payload: str):  # type: ignore[no-untyped-def]
    header = stripe.WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
    return client.post(
        "/payments/stripe/webhook",
        data=payload,
        headers={"Stripe-Signature": header, "Content-Type": "application/json"},
    )


@pytest.mark.parametrize(
    "payload", ["[]", '[{"id": "evt_1", "type": "x"}]', '"evento"', "42", "null", "true"]
)
def test_signed_json_that_is_not_an_object_is_400(stripe_client, payload) -> None:
    response = _post_signed(stripe_client, payload)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "invalid_event"
    assert db.session.scalar(select(func.count()).select_from(StripeWebhookEvent)) == 0


@pytest.mark.parametrize("data", [[1, 2], {"object": ["checkout.session"]}, "texto"])
def test_signed_event_with_a_malformed_data_member_is_400(stripe_client, citizen, data) -> None:
    event = {**session_event("checkout.session.completed", make_item(citizen)), "data": data}
    response = _post_signed(stripe_client, json.dumps(event))
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "invalid_event"
    assert db.session.scalar(select(func.count()).select_from(StripeWebhookEvent)) == 0


def test_signed_event_with_malformed_metadata_is_not_a_500(stripe_client, citizen) -> None:
    event = session_event("checkout.session.completed", make_item(citizen))
    event["data"]["object"]["metadata"] = ["payment_id"]
    response = _post_signed(stripe_client, json.dumps(event))
    assert response.status_code in (200, 400)


def test_unsigned_array_is_still_an_invalid_signature(stripe_client) -> None:
    response = stripe_client.post(
        "/payments/stripe/webhook",
        data="[]",
        headers={"Stripe-Signature": "t=1,v1=00", "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "invalid_signature"
