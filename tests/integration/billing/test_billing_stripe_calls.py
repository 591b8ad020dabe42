"""Outgoing Stripe calls (Checkout session, refund) made by the real ``stripe`` library against the
local stand-in; and the portal without Stripe keys (guia only)."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.extensions import db
from portal.models import AuditEvent, CheckoutSession, OutboxMessage, PaymentItem, Refund
from tests.factories import STRIPE_SECRET_KEY as SECRET_KEY
from tests.factories import deliver, make_item, session_event, switch_user


def _reload(item: PaymentItem) -> PaymentItem:
    db.session.expire_all()
    return db.session.get(PaymentItem, item.id)


def test_pay_online_opens_a_checkout_session_with_card_boleto_and_pix(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen, amount_cents=3190)
    stripe_auth.login(citizen)
    page = stripe_client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "Pagar online" in page
    response = stripe_client.post(f"/pagamentos/{item.id}/pagar-online")
    assert response.status_code == 303
    assert response.headers["Location"].startswith("https://checkout.stripe.com/c/pay/cs_test_")

    (call,) = stripe_stub.calls("/v1/checkout/sessions")
    form = call["form"]
    assert call["headers"]["Authorization"] == f"Bearer {SECRET_KEY}"
    assert call["headers"]["Idempotency-Key"] == f"ccz-checkout-{item.id}-1"
    assert form["client_reference_id"] == str(item.id)
    assert form["metadata[payment_id]"] == str(item.id)
    assert form["mode"] == "payment"
    assert [form[f"payment_method_types[{i}]"] for i in range(3)] == ["card", "boleto", "pix"]
    assert form["line_items[0][price_data][currency]"] == "brl"
    assert form["line_items[0][price_data][unit_amount]"] == "3190"
    assert form["customer_email"] == citizen.email
    assert form["success_url"].endswith(f"/pagamentos/{item.id}/retorno")
    assert form["cancel_url"].endswith(f"/pagamentos/{item.id}/pagamento-cancelado")

    session = db.session.scalar(select(CheckoutSession))
    assert session.item_id == item.id and session.amount_cents == 3190
    assert _reload(item).status == "pending"  # opening a session pays nothing


def test_a_second_click_reuses_the_open_session(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    stripe_auth.login(citizen)
    first = stripe_client.post(f"/pagamentos/{item.id}/pagar-online")
    second = stripe_client.post(f"/pagamentos/{item.id}/pagar-online")
    assert first.headers["Location"] == second.headers["Location"]
    assert len(stripe_stub.calls("/v1/checkout/sessions")) == 1


def test_stripe_refusing_the_session_sends_the_citizen_back_with_a_message(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    stripe_auth.login(citizen)
    stripe_stub.fail_with = (400, "Invalid currency")
    response = stripe_client.post(f"/pagamentos/{item.id}/pagar-online", follow_redirects=True)
    assert response.status_code == 200
    assert "Não foi possível abrir o pagamento online" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(CheckoutSession)) == 0


def test_another_citizen_cannot_open_a_session_for_my_item(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    stripe_auth.login()
    assert stripe_client.post(f"/pagamentos/{item.id}/pagar-online").status_code == 404
    assert stripe_stub.requests == []


def test_refund_goes_through_the_stripe_api(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    deliver(
        stripe_client,
        session_event("checkout.session.completed", item, payment_intent="pi_to_refund"),
    )
    stripe_auth.login(roles=("coordinator",))
    response = stripe_client.post(
        f"/pagamentos/ccz/{item.id}/estorno",
        data={"reason": "Cobrança em duplicidade", "confirm": "y"},
    )
    assert response.status_code == 302
    (call,) = stripe_stub.calls("/v1/refunds")
    assert call["form"]["payment_intent"] == "pi_to_refund"
    assert call["form"]["metadata[payment_id]"] == str(item.id)
    assert call["headers"]["Idempotency-Key"].startswith(f"ccz-refund-{item.id}-")
    item = _reload(item)
    assert item.status == "refunded"
    refund = db.session.scalar(select(Refund))
    assert refund.stripe_refund_id.startswith("re_test_")
    assert refund.reason == "Cobrança em duplicidade"
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "payment.refunded"))
    subjects = db.session.scalars(
        select(OutboxMessage.subject).where(OutboxMessage.to == citizen.email)
    ).all()
    assert "Pagamento estornado" in subjects


def test_refund_refused_by_stripe_keeps_the_item_paid(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    deliver(stripe_client, session_event("checkout.session.completed", item))
    stripe_auth.login(roles=("admin",))
    stripe_stub.fail_with = (400, "Charge has already been refunded.")
    response = stripe_client.post(
        f"/pagamentos/ccz/{item.id}/estorno", data={"reason": "Pedido do cidadão", "confirm": "y"}
    )
    assert response.status_code == 422
    assert "A Stripe não aceitou o estorno" in response.get_data(as_text=True)
    assert _reload(item).status == "paid"
    assert db.session.scalar(select(func.count()).select_from(Refund)) == 0


def test_refund_needs_a_reason_and_a_coordinator(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    deliver(stripe_client, session_event("checkout.session.completed", item))
    stripe_auth.login(roles=("agent",))
    assert (
        stripe_client.post(
            f"/pagamentos/ccz/{item.id}/estorno", data={"reason": "x" * 20, "confirm": "y"}
        ).status_code
        == 403
    )
    switch_user(stripe_auth, roles=("coordinator",))
    response = stripe_client.post(f"/pagamentos/ccz/{item.id}/estorno", data={"reason": ""})
    assert response.status_code == 422
    assert "Informe o motivo." in response.get_data(as_text=True)
    assert stripe_stub.calls("/v1/refunds") == []


def test_without_stripe_keys_only_the_guia_is_offered(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    page = client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "Pagar online" not in page
    assert f"/pagamentos/{item.id}/guia.pdf" in page
    response = client.post(f"/pagamentos/{item.id}/pagar-online", follow_redirects=True)
    assert "não está disponível" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(CheckoutSession)) == 0


def test_counter_payment_refund_is_recorded_without_stripe(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    switch_user(auth, roles=("admin",))
    client.post(
        f"/pagamentos/ccz/{item.id}/baixa", data={"receipt_number": "CX-1", "paid_on": "2026-01-02"}
    )
    response = client.post(
        f"/pagamentos/ccz/{item.id}/estorno",
        data={"reason": "Valor cobrado por engano", "confirm": "y"},
    )
    assert response.status_code == 302
    item = _reload(item)
    assert item.status == "refunded"
    assert item.refunds[0].method == "counter" and item.refunds[0].stripe_refund_id is None
