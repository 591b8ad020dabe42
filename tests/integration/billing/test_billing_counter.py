"""The counter path, which works with no Stripe account: guia PDF, staff search by reference, mark
paid with the receipt number, receipt PDF and e-mail; and who may see what."""

from __future__ import annotations

from sqlalchemy import select

from portal.blueprints.billing.services import clean_reference
from portal.extensions import db
from portal.models import AuditEvent, OutboxMessage, Payment, PaymentItem
from tests import factories
from tests.factories import make_item, switch_user


def _reload(item: PaymentItem) -> PaymentItem:
    db.session.expire_all()
    found = db.session.get(PaymentItem, item.id)
    assert found is not None
    return found


def test_guia_pdf_has_reference_amount_payer_and_masked_cpf(client, auth) -> None:
    payer = auth.login(factories.user(full_name="Joana Guia", cpf="52998224725"))
    item = make_item(payer, amount_cents=2500)
    response = client.get(f"/pagamentos/{item.id}/guia.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.headers["Cache-Control"] == "private, no-store"
    pdf = response.data
    assert pdf.startswith(b"%PDF-")
    assert item.reference.encode() in pdf
    assert b"R$ 25,00" in pdf
    assert b"Joana Guia" in pdf
    assert b"***.982.247-**" in pdf
    assert b"52998224725" not in pdf and b"529.982.247-25" not in pdf


def test_staff_find_the_guia_by_reference_and_mark_it_paid(client, auth) -> None:
    payer = factories.user(full_name="Carlos Balcão")
    db.session.commit()
    item = make_item(payer)
    staff = auth.login(roles=("agent",))
    spaced = f"{item.reference[:4]} {item.reference[4:8]}.{item.reference[8:]}"
    page = client.get("/pagamentos/ccz/balcao", query_string={"reference": spaced})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Carlos Balcão" in text and "Confirmar pagamento" in text

    response = client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-123456", "paid_on": "2026-01-10"},
    )
    assert response.status_code == 302
    item = _reload(item)
    assert item.status == "paid" and item.method == "counter"
    assert item.payment is not None
    assert item.payment.provider_reference == "AUT-123456"
    assert item.payment.recorded_by_id == staff.id
    assert item.events[-1].actor_id == staff.id
    event = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "payment.counter_paid"))
    assert event is not None and event.detail is not None
    assert event.actor_id == staff.id and event.detail["receipt_number"] == "AUT-123456"
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == payer.email))
    assert mail is not None and f"/pagamentos/{item.id}/comprovante.pdf" in mail.body


def test_reference_with_a_wrong_check_digit_is_caught(client, auth) -> None:
    item = make_item(factories.user())
    auth.login(roles=("agent",))
    wrong = item.reference[:-1] + str((int(item.reference[-1]) + 1) % 10)
    assert clean_reference(wrong) is None
    text = client.get("/pagamentos/ccz/balcao", query_string={"reference": wrong}).get_data(
        as_text=True
    )
    assert "confira os 12 dígitos" in text


def test_unknown_reference_is_reported(client, auth) -> None:
    auth.login(roles=("agent",))
    body = "12345678901"
    from portal.blueprints.billing.services import _luhn_digit

    text = client.get(
        "/pagamentos/ccz/balcao", query_string={"reference": body + _luhn_digit(body)}
    ).get_data(as_text=True)
    assert "Nenhum pagamento com esta referência" in text


def test_mark_paid_keeps_what_was_typed_on_error(client, auth) -> None:
    item = make_item(factories.user())
    auth.login(roles=("agent",))
    response = client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-9", "paid_on": "2999-01-01"},
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "não pode estar no futuro" in text and 'value="AUT-9"' in text
    assert _reload(item).status == "pending"
    missing = client.post(f"/pagamentos/ccz/{item.id}/baixa", data={"paid_on": "2026-01-01"})
    assert "Informe o número do recibo." in missing.get_data(as_text=True)


def test_a_receipt_number_cannot_settle_two_guias(client, auth) -> None:
    first, second = make_item(factories.user()), make_item(factories.user())
    auth.login(roles=("agent",))
    client.post(
        f"/pagamentos/ccz/{first.id}/baixa",
        data={"receipt_number": "AUT-1", "paid_on": "2026-01-02"},
    )
    response = client.post(
        f"/pagamentos/ccz/{second.id}/baixa",
        data={"receipt_number": "AUT-1", "paid_on": "2026-01-02"},
    )
    assert response.status_code == 422
    assert "já foi usado" in response.get_data(as_text=True)
    assert _reload(second).status == "pending"


def test_a_paid_item_cannot_be_paid_again_at_the_counter(client, auth) -> None:
    item = make_item(factories.user())
    auth.login(roles=("agent",))
    client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-2", "paid_on": "2026-01-02"},
    )
    again = client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-3", "paid_on": "2026-01-02"},
    )
    assert again.status_code == 422
    assert len(db.session.scalars(select(Payment)).all()) == 1


def test_payer_sees_paid_status_and_downloads_the_receipt(client, auth) -> None:
    payer = factories.user(full_name="Rita Recibo")
    db.session.commit()
    item = make_item(payer)
    auth.login(roles=("agent",))
    client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-77", "paid_on": "2026-01-03"},
    )
    switch_user(auth, payer)
    listing = client.get("/pagamentos/").get_data(as_text=True)
    assert 'data-status="paid"' in listing
    receipt = client.get(f"/pagamentos/{item.id}/comprovante.pdf")
    assert receipt.status_code == 200 and receipt.data.startswith(b"%PDF-")
    assert b"AUT-77" in receipt.data and b"Rita Recibo" in receipt.data
    assert b"COMPROVANTE DE PAGAMENTO" in receipt.data


def test_no_receipt_before_payment_and_no_guia_after(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    assert client.get(f"/pagamentos/{item.id}/comprovante.pdf").status_code == 404
    item.status = "exempt"
    db.session.commit()
    assert client.get(f"/pagamentos/{item.id}/guia.pdf").status_code == 302


# -- access ---------------------------------------------------------------------------------------


def test_a_citizen_never_sees_another_citizens_items(client, auth) -> None:
    owner = factories.user(full_name="Dona Privada")
    db.session.commit()
    item = make_item(owner)
    auth.login()
    for url in (
        f"/pagamentos/{item.id}",
        f"/pagamentos/{item.id}/guia.pdf",
        f"/pagamentos/{item.id}/comprovante.pdf",
        f"/pagamentos/{item.id}/isencao",
        f"/pagamentos/{item.id}/retorno",
    ):
        assert client.get(url).status_code == 404, url
    assert "Dona Privada" not in client.get("/pagamentos/").get_data(as_text=True)


def test_anonymous_pay_page_explains_how_to_sign_in_without_showing_the_item(client) -> None:
    item = make_item(factories.user(), description="Registro do animal Segredo")
    response = client.get(f"/pagamentos/{item.id}")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "Segredo" not in text and "25,00" not in text
    assert f"/conta/entrar?next=/pagamentos/{item.id}" in text
    assert "mesmo CPF" in text  # how a clinic-registered owner claims the record
    assert client.get(f"/pagamentos/{item.id}/guia.pdf").status_code == 302


def test_staff_pages_refuse_citizens_and_record_staff_views(client, auth) -> None:
    item = make_item(factories.user())
    auth.login()
    for url in (
        "/pagamentos/ccz/",
        f"/pagamentos/ccz/{item.id}",
        "/pagamentos/ccz/balcao",
        "/pagamentos/ccz/conciliacao",
        "/pagamentos/ccz/isencoes",
        "/pagamentos/ccz/precos",
    ):
        assert client.get(url).status_code == 403, url
    assert (
        client.post(
            f"/pagamentos/ccz/{item.id}/baixa",
            data={"receipt_number": "X", "paid_on": "2026-01-01"},
        ).status_code
        == 403
    )
    staff = switch_user(auth, roles=("vet",))
    assert client.get(f"/pagamentos/{item.id}").status_code == 302  # staff go to the staff page
    assert client.get(f"/pagamentos/ccz/{item.id}").status_code == 200
    viewed = db.session.scalar(select(AuditEvent).where(AuditEvent.action == "payment.viewed"))
    assert viewed is not None
    assert viewed.actor_id == staff.id and viewed.subject_id == str(item.id)
    guia = client.get(f"/pagamentos/{item.id}/guia.pdf")
    assert guia.status_code == 200
    assert db.session.scalar(select(AuditEvent).where(AuditEvent.action == "payment.guia_printed"))


def test_cancel_then_nothing_to_pay(app) -> None:
    from portal.blueprints.billing.services import BillingError, cancel_payment_item

    item = make_item(factories.user())
    cancel_payment_item(item, "Registro desistido")
    assert item.status == "cancelled" and not item.payable
    try:
        cancel_payment_item(item, "de novo")
    except BillingError as err:
        assert "não pode passar" in err.message
    else:  # pragma: no cover
        raise AssertionError("cancelling twice must fail")


def test_staff_opening_a_receipt_is_audited_the_payer_is_not(client, auth) -> None:
    payer = factories.user(full_name="Rita Recibo")
    db.session.commit()
    item = make_item(payer)
    staff = auth.login(roles=("agent",))
    client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-78", "paid_on": "2026-01-03"},
    )
    assert client.get(f"/pagamentos/{item.id}/comprovante.pdf").status_code == 200
    seen = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "payment.receipt_viewed")
    ).all()
    assert [(e.actor_id, e.subject_id) for e in seen] == [(staff.id, str(item.id))]
    switch_user(auth, payer)
    assert client.get(f"/pagamentos/{item.id}/comprovante.pdf").status_code == 200
    assert (
        len(
            db.session.scalars(
                select(AuditEvent).where(AuditEvent.action == "payment.receipt_viewed")
            ).all()
        )
        == 1
    )
