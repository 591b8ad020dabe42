"""QA findings on paying twice and on Stripe calls: open Stripe pages are closed when the item is
settled another way, refunds made in the Stripe dashboard reach the item, two tabs opening the
same session never answer 500, and outgoing calls give up after a network timeout."""

from __future__ import annotations

import io
import os
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from flask import g
from sqlalchemy import func, select

from portal.blueprints.billing import stripe_gateway
from portal.blueprints.billing.services import cancel_payment_item
from portal.extensions import db, limiter
from portal.models import CheckoutSession, Payment, PaymentItem, Refund
from portal.models.base import utcnow
from tests import factories
from tests.conftest import AuthActions
from tests.factories import STRIPE_SECRET_KEY as SECRET_KEY
from tests.factories import deliver, make_item, session_event, switch_user

PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def _reload(item: PaymentItem) -> PaymentItem:
    db.session.expire_all()
    return db.session.get(PaymentItem, item.id)


def _count(model: Any) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def _open_session(client, auth, citizen, item) -> CheckoutSession:  # type: ignore[no-untyped-def]
    auth.login(citizen)
    assert client.post(f"/pagamentos/{item.id}/pagar-online").status_code == 303
    return db.session.scalar(select(CheckoutSession).where(CheckoutSession.item_id == item.id))


def _expired(stub) -> list[str]:  # type: ignore[no-untyped-def]
    return [r["path"].split("/")[4] for r in stub.requests if r["path"].endswith("/expire")]


def test_counter_payment_closes_the_open_stripe_page(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    session = _open_session(stripe_client, stripe_auth, citizen, item)
    switch_user(stripe_auth, roles=("agent",))
    response = stripe_client.post(
        f"/pagamentos/ccz/{item.id}/baixa", data={"receipt_number": "CX-1", "paid_on": "2026-01-05"}
    )
    assert response.status_code == 302
    assert _expired(stripe_stub) == [session.stripe_session_id]
    db.session.expire_all()
    assert db.session.get(CheckoutSession, session.id).status == "expired"
    assert _reload(item).status == "paid"


def test_money_arriving_later_on_a_counter_paid_item_is_flagged_not_counted(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    session = _open_session(stripe_client, stripe_auth, citizen, item)
    stripe_stub.fail_with = (400, "This Checkout Session is not open")  # citizen already paid
    switch_user(stripe_auth, roles=("agent",))
    stripe_client.post(
        f"/pagamentos/ccz/{item.id}/baixa", data={"receipt_number": "CX-2", "paid_on": "2026-01-05"}
    )
    deliver(
        stripe_client,
        session_event("checkout.session.completed", item, session_id=session.stripe_session_id),
    )
    item = _reload(item)
    assert item.status == "paid" and item.payment.method == "counter"
    assert _count(Payment) == 1
    assert [f.code for f in item.open_flags] == ["already_settled"]


def test_gru_23_accepted_exemption_closes_the_open_stripe_page(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    session = _open_session(stripe_client, stripe_auth, citizen, item)
    stripe_client.post(
        f"/pagamentos/{item.id}/isencao",
        content_type="multipart/form-data",
        data={
            "code": "unemployed_3_months",
            "truthful": "y",
            "proof": (io.BytesIO(PDF), "carteira.pdf"),
        },
    )
    req_id = _reload(item).exemption_requests[0].id
    switch_user(stripe_auth, roles=("agent",))
    stripe_client.post(f"/pagamentos/ccz/isencoes/{req_id}", data={"decision": "accept"})
    assert _reload(item).status == "exempt"
    assert _expired(stripe_stub) == [session.stripe_session_id]


def test_cancelled_item_closes_the_open_stripe_page(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    session = _open_session(stripe_client, stripe_auth, citizen, item)
    cancel_payment_item(_reload(item), "Registro desistido")
    db.session.commit()
    assert _expired(stripe_stub) == [session.stripe_session_id]


def test_a_session_about_to_expire_is_closed_before_a_new_one_opens(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    first = _open_session(stripe_client, stripe_auth, citizen, item)
    # Five minutes left: not reused (the citizen could not finish a boleto in time) ...
    first.expires_at = utcnow() + timedelta(minutes=5)
    db.session.commit()
    response = stripe_client.post(f"/pagamentos/{item.id}/pagar-online")
    assert response.status_code == 303
    # ... but it is closed, so two Stripe pages are never payable at once.
    assert _expired(stripe_stub) == [first.stripe_session_id]
    db.session.expire_all()
    statuses = sorted(s.status for s in db.session.scalars(select(CheckoutSession)))
    assert statuses == ["expired", "open"]


def test_two_tabs_opening_the_same_session_never_see_an_error(
    stripe_client, stripe_auth, stripe_stub, citizen, monkeypatch
) -> None:
    item = make_item(citizen)
    first = _open_session(stripe_client, stripe_auth, citizen, item)
    url = first.url

    def racing_start(found, payer):  # type: ignore[no-untyped-def]
        # The other tab's request, a moment late: Stripe answered the same idempotency key with
        # the same session, which this tab now tries to store a second time.
        duplicate = CheckoutSession(
            item=found,
            stripe_session_id=first.stripe_session_id,
            url=url,
            amount_cents=found.amount_cents,
        )
        db.session.add(duplicate)
        db.session.flush()
        return duplicate

    monkeypatch.setattr(stripe_gateway, "start_checkout", racing_start)
    response = stripe_client.post(f"/pagamentos/{item.id}/pagar-online")
    assert response.status_code == 303
    assert response.headers["Location"] == url
    assert _count(CheckoutSession) == 1


def test_stripe_calls_give_up_after_the_network_timeout(make_app, stripe_stub) -> None:
    app = make_app(
        STRIPE_SECRET_KEY=SECRET_KEY, STRIPE_API_BASE=stripe_stub.url, STRIPE_TIMEOUT_SECONDS=0.3
    )
    with app.app_context():
        limiter.reset()
        client = app.test_client()
        citizen = factories.user(roles=("citizen",))
        db.session.commit()
        item = make_item(citizen)
        AuthActions(client).login(citizen)
        stripe_stub.delay = 1.5
        started = time.monotonic()
        response = client.post(f"/pagamentos/{item.id}/pagar-online", follow_redirects=True)
        elapsed = time.monotonic() - started
        stripe_stub.delay = 0
        assert response.status_code == 200
        assert "Não foi possível abrir o pagamento online" in response.get_data(as_text=True)
        assert elapsed < 4  # three attempts of 0.3 s plus back-off, not 3 x 80 s
        assert _count(CheckoutSession) == 0


def _charge_refunded(
    intent: str, amount_refunded: int, *, refund_id: str = "re_dash_1", event_id: str | None = None
) -> dict[str, Any]:
    return {
        "id": event_id or f"evt_refund_{intent}_{amount_refunded}",
        "object": "event",
        "api_version": "2024-06-20",
        "type": "charge.refunded",
        "created": int(time.time()),
        "livemode": False,
        "data": {
            "object": {
                "id": "ch_test_1",
                "object": "charge",
                "payment_intent": intent,
                "amount": 2500,
                "amount_refunded": amount_refunded,
                "currency": "brl",
                "refunded": amount_refunded >= 2500,
                "refunds": {
                    "object": "list",
                    "data": [{"id": refund_id, "object": "refund", "amount": amount_refunded}],
                },
            }
        },
    }


def test_refund_made_in_the_stripe_dashboard_reaches_the_item(stripe_client, citizen) -> None:
    item = make_item(citizen, amount_cents=2500)
    deliver(
        stripe_client, session_event("checkout.session.completed", item, payment_intent="pi_dash")
    )
    response = deliver(stripe_client, _charge_refunded("pi_dash", 2500))
    assert response.get_json()["outcome"] == "refunded"
    item = _reload(item)
    assert item.status == "refunded"
    refund = db.session.scalar(select(Refund))
    assert refund.amount_cents == 2500 and refund.stripe_refund_id == "re_dash_1"
    # The same event again changes nothing.
    assert (
        deliver(stripe_client, _charge_refunded("pi_dash", 2500)).get_json()["outcome"]
        == "duplicate"
    )
    assert _count(Refund) == 1


def test_echo_of_a_portal_refund_changes_nothing(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen, amount_cents=2500)
    deliver(
        stripe_client, session_event("checkout.session.completed", item, payment_intent="pi_echo")
    )
    stripe_auth.login(roles=("coordinator",))
    stripe_client.post(
        f"/pagamentos/ccz/{item.id}/estorno",
        data={"reason": "Cobrança em duplicidade", "confirm": "y"},
    )
    response = deliver(stripe_client, _charge_refunded("pi_echo", 2500))
    assert response.get_json()["outcome"] == "already refunded"
    assert _count(Refund) == 1
    assert _reload(item).open_flags == []


def test_partial_refund_in_the_dashboard_is_flagged(stripe_client, citizen) -> None:
    item = make_item(citizen, amount_cents=2500)
    deliver(
        stripe_client, session_event("checkout.session.completed", item, payment_intent="pi_part")
    )
    response = deliver(stripe_client, _charge_refunded("pi_part", 1000))
    assert response.get_json()["outcome"].startswith("flagged")
    item = _reload(item)
    assert item.status == "paid"
    assert [f.code for f in item.open_flags] == ["refund_outside"]
    assert _count(Refund) == 0


def test_gru_23_exemption_is_not_offered_on_an_establishments_charge(client, auth) -> None:
    # GRU 22 I, §2: the clinic pays for the registrations it makes; GRU 23 exempts owners.
    from portal.services.api_auth import issue_client

    clinic_user = factories.user(roles=("establishment",), full_name="Clínica Vet Centro")
    clinic, _token = issue_client("establishment", "Clínica Vet Centro", user_id=clinic_user.id)
    db.session.commit()
    item = make_item(clinic_user, api_client_id=clinic.id)
    auth.login(clinic_user)
    page = client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "Imprimir guia" in page and "Pedir isenção" not in page
    assert client.get(f"/pagamentos/{item.id}/isencao").status_code == 404
    response = client.post(
        f"/pagamentos/{item.id}/isencao",
        content_type="multipart/form-data",
        data={
            "code": "unemployed_3_months",
            "truthful": "y",
            "proof": (io.BytesIO(PDF), "carteira.pdf"),
        },
    )
    assert response.status_code == 404
    assert _reload(item).exemption_requests == []


def test_staff_see_the_exemption_status_in_portuguese(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    client.post(
        f"/pagamentos/{item.id}/isencao",
        content_type="multipart/form-data",
        data={
            "code": "unemployed_3_months",
            "truthful": "y",
            "proof": (io.BytesIO(PDF), "carteira.pdf"),
        },
    )
    req_id = _reload(item).exemption_requests[0].id
    switch_user(auth, roles=("agent",))
    page = client.get(f"/pagamentos/ccz/isencoes/{req_id}").get_data(as_text=True)
    assert "Em análise" in page and ">pending<" not in page
    client.post(
        f"/pagamentos/ccz/isencoes/{req_id}",
        data={"decision": "refuse", "reason": "Documento ilegível"},
    )
    page = client.get(f"/pagamentos/ccz/{item.id}").get_data(as_text=True)
    assert "Recusado: Documento ilegível" in page
    assert "refused" not in page


def test_late_completed_event_after_a_failed_boleto_keeps_the_item_payable(
    stripe_client, citizen
) -> None:
    item = make_item(citizen)
    failed = session_event(
        "checkout.session.async_payment_failed", item, payment_status="unpaid", session_id="cs_late"
    )
    completed = session_event(
        "checkout.session.completed",
        item,
        payment_status="unpaid",
        session_id="cs_late",
        created=int(time.time()) - 60,
    )
    deliver(stripe_client, failed)
    assert _reload(item).status == "failed"
    response = deliver(stripe_client, completed)  # Stripe delivered the older event last
    assert response.get_json()["outcome"] == "ignored: session already settled"
    item = _reload(item)
    assert item.status == "failed" and item.payable


def test_a_portal_refund_that_fails_later_is_flagged(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    stripe_stub.refund_status = "pending"
    item = make_item(citizen)
    deliver(stripe_client, session_event("checkout.session.completed", item))
    stripe_auth.login(roles=("coordinator",))
    stripe_client.post(
        f"/pagamentos/ccz/{item.id}/estorno",
        data={"reason": "Cobrança em duplicidade", "confirm": "y"},
    )
    refund = db.session.scalar(select(Refund))
    event = {
        "id": "evt_refund_failed",
        "object": "event",
        "type": "charge.refund.updated",
        "created": int(time.time()),
        "livemode": False,
        "data": {
            "object": {
                "id": refund.stripe_refund_id,
                "object": "refund",
                "status": "failed",
                "amount": 2500,
                "currency": "brl",
            }
        },
    }
    assert deliver(stripe_client, event).get_json()["outcome"] == "flagged: refund failed"
    db.session.expire_all()
    assert db.session.scalar(select(Refund)).status == "failed"
    assert [f.code for f in _reload(item).open_flags] == ["refund_failed"]


def test_reconciliation_does_not_count_a_failed_refund(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    from portal.blueprints.billing.services import local_today, reconciliation

    stripe_stub.refund_status = "pending"
    item = make_item(citizen, amount_cents=2500)
    deliver(stripe_client, session_event("checkout.session.completed", item))
    stripe_auth.login(roles=("coordinator",))
    stripe_client.post(
        f"/pagamentos/ccz/{item.id}/estorno",
        data={"reason": "Cobrança em duplicidade", "confirm": "y"},
    )
    today = local_today()
    assert reconciliation(today, today).refunded_total == 2500
    refund = db.session.scalar(select(Refund))
    deliver(
        stripe_client,
        {
            "id": "evt_refund_failed_2",
            "object": "event",
            "type": "refund.failed",
            "created": int(time.time()),
            "livemode": False,
            "data": {
                "object": {"id": refund.stripe_refund_id, "object": "refund", "status": "failed"}
            },
        },
    )
    db.session.expire_all()
    report = reconciliation(today, today)
    assert report.refunded_total == 0
    assert report.received_total == 2500


def test_after_an_expired_session_the_citizen_pays_with_a_new_one(
    stripe_client, stripe_auth, stripe_stub, citizen
) -> None:
    item = make_item(citizen)
    first = _open_session(stripe_client, stripe_auth, citizen, item)
    deliver(
        stripe_client,
        session_event(
            "checkout.session.expired",
            item,
            session_id=first.stripe_session_id,
            payment_status="unpaid",
            payment_intent=None,
        ),
    )
    response = stripe_client.post(f"/pagamentos/{item.id}/pagar-online")
    assert response.status_code == 303
    assert first.stripe_session_id not in response.headers["Location"]
    keys = [c["headers"]["Idempotency-Key"] for c in stripe_stub.calls("/v1/checkout/sessions")]
    assert keys == [f"ccz-checkout-{item.id}-1", f"ccz-checkout-{item.id}-2"]
    second = db.session.scalar(
        select(CheckoutSession).where(CheckoutSession.stripe_session_id != first.stripe_session_id)
    )
    deliver(
        stripe_client,
        session_event("checkout.session.completed", item, session_id=second.stripe_session_id),
    )
    item = _reload(item)
    assert item.status == "paid" and _count(Payment) == 1


@pytest.mark.real_commits  # each tab's request runs in its own thread and connection
def test_two_tabs_clicking_at_the_same_time_share_one_session(
    stripe_app, stripe_stub, citizen
) -> None:
    if not os.environ["TEST_DATABASE_URL"].startswith("postgresql"):
        pytest.skip("real concurrent transactions need PostgreSQL")
    item_id = make_item(citizen).id
    tabs = [stripe_app.test_client(), stripe_app.test_client()]
    for tab in tabs:
        g.pop("_login_user", None)  # each tab signs in on its own
        AuthActions(tab).login(citizen)
    db.session.remove()
    stripe_stub.delay = 0.3  # Stripe takes a moment: both requests are in flight together
    answers: list[Any] = []

    def click(tab) -> None:  # type: ignore[no-untyped-def]
        with stripe_app.app_context():
            answers.append(tab.post(f"/pagamentos/{item_id}/pagar-online"))

    threads = [threading.Thread(target=click, args=(tab,)) for tab in tabs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    stripe_stub.delay = 0
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    db.session.expire_all()
    assert _count(CheckoutSession) == 1
