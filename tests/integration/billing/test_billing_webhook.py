"""POST /payments/stripe/webhook with real signatures: valid, tampered, stale, replayed, out of
order, wrong amount, wrong currency. The webhook never calls Stripe back."""

from __future__ import annotations

import json
import time

import stripe
from sqlalchemy import func, select

from portal.extensions import db
from portal.models import (
    AuditEvent,
    CheckoutSession,
    OutboxMessage,
    Payment,
    PaymentItem,
    PaymentReviewFlag,
    StripeWebhookEvent,
)
from tests.factories import WEBHOOK_SECRET, deliver, make_item, session_event, sign


def _count(model) -> int:  # type: ignore[no-untyped-def]
    return db.session.scalar(select(func.count()).select_from(model))


def _reload(item: PaymentItem) -> PaymentItem:
    db.session.expire_all()
    return db.session.get(PaymentItem, item.id)


def test_our_signature_helper_matches_the_stripe_library() -> None:
    payload = '{"id": "evt_1"}'
    ts = 1_700_000_000
    assert sign(payload, timestamp=ts) == stripe.WebhookSignature.generate_signature_header(
        payload, WEBHOOK_SECRET, timestamp=ts
    )


def test_completed_and_paid_marks_the_item_paid_and_sends_the_receipt(
    stripe_client, citizen, stripe_stub
) -> None:
    item = make_item(citizen)
    response = deliver(stripe_client, session_event("checkout.session.completed", item))
    assert response.status_code == 200
    assert response.get_json()["outcome"] == "paid"
    item = _reload(item)
    assert item.status == "paid" and item.method == "stripe" and item.paid_at is not None
    assert item.payment.provider_reference == "pi_test_webhook"
    assert item.payment.amount_cents == 2500
    mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == citizen.email)).all()
    assert len(mail) == 1
    assert f"/pagamentos/{item.id}/comprovante.pdf" in mail[0].body
    # The session we never saw is recorded from the event alone; Stripe was not called.
    assert db.session.scalar(select(CheckoutSession.stripe_session_id)) == "cs_test_webhook"
    assert stripe_stub.requests == []
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "payment.paid_online"))


def test_tampered_payload_is_refused_and_nothing_changes(stripe_client, citizen) -> None:
    item = make_item(citizen)
    event = session_event("checkout.session.completed", item)
    forged = json.dumps(
        {**event, "data": {"object": {**event["data"]["object"], "amount_total": 1}}}
    )
    response = deliver(stripe_client, event, body=forged)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "invalid_signature"
    assert _reload(item).status == "pending"
    assert _count(StripeWebhookEvent) == 0


def test_signature_made_with_another_secret_is_refused(stripe_client, citizen) -> None:
    item = make_item(citizen)
    response = deliver(
        stripe_client,
        session_event("checkout.session.completed", item),
        secret="whsec_someone_else",
    )
    assert response.status_code == 400
    assert _reload(item).status == "pending"


def test_missing_signature_is_refused(stripe_client, citizen) -> None:
    item = make_item(citizen)
    payload = json.dumps(session_event("checkout.session.completed", item))
    response = stripe_client.post(
        "/payments/stripe/webhook", data=payload, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert _reload(item).status == "pending"


def test_stale_signature_is_refused(stripe_client, citizen) -> None:
    item = make_item(citizen)
    old = int(time.time()) - stripe.Webhook.DEFAULT_TOLERANCE - 60
    response = deliver(
        stripe_client, session_event("checkout.session.completed", item), timestamp=old
    )
    assert response.status_code == 400
    assert _reload(item).status == "pending"
    assert _count(StripeWebhookEvent) == 0


def test_replayed_event_is_applied_once(stripe_client, citizen) -> None:
    item = make_item(citizen)
    event = session_event("checkout.session.completed", item, event_id="evt_replayed")
    first = deliver(stripe_client, event)
    second = deliver(stripe_client, event)
    assert first.status_code == second.status_code == 200
    assert second.get_json()["outcome"] == "duplicate"
    assert _count(StripeWebhookEvent) == 1
    assert _count(Payment) == 1
    item = _reload(item)
    assert [e.to_status for e in item.events].count("paid") == 1
    assert _count(OutboxMessage) == 1


def test_boleto_waits_in_processing_then_is_paid(stripe_client, citizen) -> None:
    item = make_item(citizen)
    deliver(
        stripe_client, session_event("checkout.session.completed", item, payment_status="unpaid")
    )
    assert _reload(item).status == "processing"
    assert _count(Payment) == 0
    deliver(stripe_client, session_event("checkout.session.async_payment_succeeded", item))
    item = _reload(item)
    assert item.status == "paid"
    assert [e.to_status for e in item.events] == ["pending", "processing", "paid"]


def test_events_out_of_order_never_take_a_paid_item_back(stripe_client, citizen) -> None:
    item = make_item(citizen)
    # Stripe delivered the success before the (older) completion with payment still pending.
    deliver(stripe_client, session_event("checkout.session.async_payment_succeeded", item))
    late = deliver(
        stripe_client, session_event("checkout.session.completed", item, payment_status="unpaid")
    )
    assert late.status_code == 200
    deliver(stripe_client, session_event("checkout.session.async_payment_failed", item))
    deliver(stripe_client, session_event("checkout.session.expired", item, payment_status="unpaid"))
    item = _reload(item)
    assert item.status == "paid"
    assert _count(Payment) == 1
    assert _count(StripeWebhookEvent) == 4


def test_completed_twice_for_the_same_payment_keeps_one_record(stripe_client, citizen) -> None:
    item = make_item(citizen)
    deliver(stripe_client, session_event("checkout.session.completed", item))
    again = deliver(stripe_client, session_event("checkout.session.async_payment_succeeded", item))
    assert again.get_json()["outcome"] == "already paid"
    assert _count(Payment) == 1
    assert _count(PaymentReviewFlag) == 0


def test_failed_boleto_can_be_paid_again(stripe_client, stripe_auth, citizen) -> None:
    item = make_item(citizen)
    deliver(
        stripe_client, session_event("checkout.session.completed", item, payment_status="unpaid")
    )
    deliver(stripe_client, session_event("checkout.session.async_payment_failed", item))
    item = _reload(item)
    assert item.status == "failed" and item.payable
    stripe_auth.login(citizen)
    page = stripe_client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "Pagar online" in page and "Imprimir guia" in page
    # A new session, paid this time.
    deliver(
        stripe_client,
        session_event(
            "checkout.session.completed",
            item,
            session_id="cs_test_second",
            payment_intent="pi_second",
        ),
    )
    assert _reload(item).status == "paid"


def test_wrong_amount_is_flagged_not_paid(stripe_client, citizen) -> None:
    item = make_item(citizen)
    response = deliver(stripe_client, session_event("checkout.session.completed", item, amount=100))
    assert response.status_code == 200
    item = _reload(item)
    assert item.status == "pending"
    assert _count(Payment) == 0
    (flag,) = item.open_flags
    assert flag.code == "amount_mismatch"
    assert flag.detail["amount_total"] == 100


def test_wrong_currency_is_flagged_not_paid(stripe_client, citizen) -> None:
    item = make_item(citizen)
    deliver(stripe_client, session_event("checkout.session.completed", item, currency="usd"))
    item = _reload(item)
    assert item.status == "pending"
    assert [f.code for f in item.open_flags] == ["currency_mismatch"]


def test_money_for_an_item_paid_at_the_counter_is_flagged(
    stripe_client, stripe_auth, citizen
) -> None:
    item = make_item(citizen)
    stripe_auth.login(roles=("agent",))
    stripe_client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "CX-77", "paid_on": "2026-01-05"},
    )
    assert _reload(item).status == "paid"
    deliver(stripe_client, session_event("checkout.session.completed", item))
    item = _reload(item)
    assert item.payment.method == "counter"
    assert _count(Payment) == 1
    assert [f.code for f in item.open_flags] == ["already_settled"]


def test_expired_session_leaves_the_item_payable(stripe_client, citizen) -> None:
    item = make_item(citizen)
    deliver(stripe_client, session_event("checkout.session.expired", item, payment_status="unpaid"))
    item = _reload(item)
    assert item.status == "pending"
    assert item.checkout_sessions[0].status == "expired"


def test_event_for_an_unknown_item_is_acknowledged(stripe_client, citizen) -> None:
    item = make_item(citizen)
    event = session_event("checkout.session.completed", item)
    event["data"]["object"]["metadata"] = {"payment_id": "999999"}
    event["data"]["object"]["client_reference_id"] = "999999"
    response = deliver(stripe_client, event)
    assert response.status_code == 200
    assert response.get_json()["outcome"] == "ignored: unknown item"


def test_other_event_types_are_recorded_and_ignored(stripe_client) -> None:
    event = {
        "id": "evt_other",
        "object": "event",
        "type": "customer.created",
        "created": int(time.time()),
        "data": {"object": {"id": "cus_1", "object": "customer"}},
    }
    response = deliver(stripe_client, event)
    assert response.get_json()["outcome"] == "ignored"


def test_webhook_works_with_only_the_webhook_secret(make_app) -> None:
    app = make_app(STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET)  # no secret key, no API base
    with app.app_context():
        from tests import factories

        payer = factories.user()
        db.session.commit()
        item = make_item(payer)
        response = deliver(app.test_client(), session_event("checkout.session.completed", item))
        assert response.status_code == 200
        assert _reload(item).status == "paid"


def test_webhook_without_a_configured_secret_refuses(client, app) -> None:
    from tests import factories

    item = make_item(factories.user())
    response = deliver(client, session_event("checkout.session.completed", item))
    assert response.status_code == 400
    assert _reload(item).status == "pending"


def test_return_page_never_marks_anything_paid(stripe_client, stripe_auth, citizen) -> None:
    item = make_item(citizen)
    stripe_auth.login(citizen)
    response = stripe_client.get(f"/pagamentos/{item.id}/retorno?session_id=cs_test_fake")
    assert response.status_code == 200
    assert "aguardando" in response.get_data(
        as_text=True
    ).lower() or "Assim que a Stripe confirmar" in response.get_data(as_text=True)
    cancelled = stripe_client.get(f"/pagamentos/{item.id}/pagamento-cancelado")
    assert cancelled.status_code == 302
    assert _reload(item).status == "pending"
    assert _count(Payment) == 0


def test_webhook_is_exempt_from_csrf(make_app) -> None:
    app = make_app(STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET, WTF_CSRF_ENABLED=True)
    with app.app_context():
        from tests import factories

        item = make_item(factories.user())
        response = deliver(app.test_client(), session_event("checkout.session.completed", item))
        assert response.status_code == 200
        assert _reload(item).status == "paid"
