"""Staff: price list (GRU 22; BJP 11), payments list with filters, reconciliation, review flags,
dashboard tiles, menu, LGPD export."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.billing.services import local_today
from portal.extensions import db
from portal.models import AuditEvent, PaymentItem, PriceOverride
from portal.services.fees import compute_fee
from tests import factories
from tests.factories import deliver, make_item, session_event, switch_user


def test_public_price_list_marks_example_values(client, app) -> None:
    page = client.get("/pagamentos/precos")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Preços públicos" in text
    assert "R$ 25,00" in text and "GRU 22 I" in text
    assert "valor de exemplo" in text
    assert "GRU 23" in text  # exemptions are listed too


def test_gru_22_admin_sets_a_price_that_applies_from_its_date(client, auth, app) -> None:
    admin = auth.login(roles=("admin",))
    page = client.get("/pagamentos/ccz/precos")
    assert page.status_code == 200 and "valor de exemplo" in page.get_data(as_text=True)
    today = local_today()
    response = client.post(
        "/pagamentos/ccz/precos",
        data={
            "key": "registration",
            "amount": "31,90",
            "effective_from": today.isoformat(),
            "note": "Decreto 123/2026",
        },
    )
    assert response.status_code == 302
    override = db.session.scalar(select(PriceOverride))
    assert override.amount_cents == 3190 and override.created_by_id == admin.id
    audit = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "price.set"))
    assert audit.detail["amount_cents"] == 3190
    profile = app.extensions["portal_profile"]
    assert compute_fee(profile, "registration", {}, today).total_cents == 3190
    assert compute_fee(profile, "registration", {}, today - timedelta(days=1)).total_cents == 2500
    public = client.get("/pagamentos/precos").get_data(as_text=True)
    assert "R$ 31,90" in public and "Decreto 123/2026" in public


def test_price_form_errors_keep_the_input(client, auth) -> None:
    auth.login(roles=("admin",))
    response = client.post(
        "/pagamentos/ccz/precos",
        data={"key": "registration", "amount": "trinta", "effective_from": "2026-05-01"},
    )
    text = response.get_data(as_text=True)
    assert "Valor inválido" in text and 'value="trinta"' in text
    other = client.post(
        "/pagamentos/ccz/precos",
        data={"key": "adoption", "amount": "10,00", "effective_from": "2026-05-01"},
    )
    assert other.status_code == 200  # GRU charges no adoption fee: not a choice
    assert db.session.scalar(select(PriceOverride)) is None


def test_only_administrators_edit_prices(client, auth) -> None:
    auth.login(roles=("coordinator",))
    assert client.get("/pagamentos/ccz/precos").status_code == 403


def test_payments_list_filters_by_status_kind_and_date(client, auth) -> None:
    payer = factories.user(full_name="Filtro da Silva")
    db.session.commit()
    pending = make_item(payer, description="Registro pendente")
    paid = make_item(payer, kind="card_copy", description="Segunda via paga")
    paid.status = "paid"
    old = make_item(payer, description="Registro antigo")
    old.created_at = old.created_at - timedelta(days=40)
    db.session.commit()
    auth.login(roles=("agent",))

    def listed(**query: str) -> str:
        return client.get("/pagamentos/ccz/", query_string=query).get_data(as_text=True)

    assert "Registro pendente" in listed() and "Segunda via paga" in listed()
    only_paid = listed(status="paid")
    assert "Segunda via paga" in only_paid and "Registro pendente" not in only_paid
    by_kind = listed(kind="registration")
    assert "Registro pendente" in by_kind and "Segunda via paga" not in by_kind
    recent = listed(date_from=(local_today() - timedelta(days=7)).isoformat())
    assert "Registro pendente" in recent and "Registro antigo" not in recent
    by_reference = listed(q=pending.reference)
    assert "Registro pendente" in by_reference and "Segunda via paga" not in by_reference
    assert "Filtro da Silva" in listed(q="filtro")
    assert "Registro pendente" in listed(
        q=payer.cpf[:3] + "." + payer.cpf[3:6] + "." + payer.cpf[6:9] + "-" + payer.cpf[9:]
    )
    logged = db.session.scalars(
        select(AuditEvent.detail).where(AuditEvent.action == "payment.list_viewed")
    ).all()
    assert all(payer.cpf not in json.dumps(detail) for detail in logged)
    bad = listed(date_from="2026-05-10", date_to="2026-05-01")
    assert "A data final é anterior à inicial." in bad
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "payment.list_viewed"))
    assert isinstance(paid, PaymentItem)


def test_reconciliation_totals_and_flags(stripe_client, stripe_auth, citizen) -> None:
    counter_item = make_item(citizen, amount_cents=2500)
    online_item = make_item(citizen, amount_cents=1000, kind="card_copy")
    flagged_item = make_item(citizen, amount_cents=1500, kind="tag_copy")
    make_item(citizen, amount_cents=700, kind="tag_copy")
    deliver(stripe_client, session_event("checkout.session.completed", online_item))
    deliver(
        stripe_client,
        session_event(
            "checkout.session.completed",
            flagged_item,
            amount=1,
            session_id="cs_other",
            payment_intent="pi_other",
        ),
    )
    stripe_auth.login(roles=("agent",))
    today = local_today().isoformat()
    stripe_client.post(
        f"/pagamentos/ccz/{counter_item.id}/baixa",
        data={"receipt_number": "AUT-R", "paid_on": today},
    )

    page = stripe_client.get(
        "/pagamentos/ccz/conciliacao", query_string={"date_from": today, "date_to": today}
    )
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'id="total-recebido">R$ 35,00' in text
    assert "Guia paga no balcão" in text and "Online" in text
    assert "O valor informado pela Stripe difere do valor devido." in text

    from portal.models import PaymentReviewFlag

    flag = db.session.scalar(select(PaymentReviewFlag))
    response = stripe_client.post(
        f"/pagamentos/ccz/pendencias/{flag.id}/resolver",
        data={"note": "Sessão antiga; cidadão orientado.", "back": "reconciliation"},
    )
    assert response.status_code == 302 and response.headers["Location"].endswith("/conciliacao")
    db.session.expire_all()
    assert db.session.get(PaymentReviewFlag, flag.id).resolved_at is not None
    assert "Nenhuma pendência." in stripe_client.get("/pagamentos/ccz/conciliacao").get_data(
        as_text=True
    )


def test_dashboard_tiles_and_menu(client, auth) -> None:
    auth.login(roles=("agent",))
    dashboard = client.get("/admin/").get_data(as_text=True)
    assert "/pagamentos/ccz/" in dashboard and "/pagamentos/ccz/balcao" in dashboard
    assert "/pagamentos/ccz/precos" not in dashboard  # administrators only
    switch_user(auth, roles=("citizen",))
    home = client.get("/").get_data(as_text=True)
    assert "Meus pagamentos" in home


def test_menu_hides_my_payments_from_visitors(client, app) -> None:
    text = client.get("/").get_data(as_text=True)
    assert 'href="/pagamentos/"' not in text.split('id="conteudo"')[0]
    assert client.get("/pagamentos/").status_code == 302


def test_lgpd_export_lists_my_payments(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    other = make_item(factories.user(), description="De outra pessoa")
    data = json.loads(client.get("/minha-conta/meus-dados.json").get_data(as_text=True))
    payments = data["pagamentos"]
    assert [p["id"] for p in payments] == [item.id]
    assert payments[0]["referencia"] == item.reference
    assert payments[0]["historico"][0]["para"] == "pending"
    assert other.id not in [p["id"] for p in payments]


def test_staff_item_page_shows_masked_cpf_only(client, auth) -> None:
    payer = factories.user(cpf="52998224725")
    db.session.commit()
    item = make_item(payer)
    auth.login(roles=("agent",))
    text = client.get(f"/pagamentos/ccz/{item.id}").get_data(as_text=True)
    assert "***.982.247-**" in text and "52998224725" not in text
