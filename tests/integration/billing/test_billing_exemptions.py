"""Exemptions (GRU 23; VV 12 §3-4): the citizen asks on the item with a proof, staff decide."""

from __future__ import annotations

import io

from PIL import Image
from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    AuditEvent,
    ExemptionRequest,
    OutboxMessage,
    PaymentItem,
    StoredFile,
)
from tests.factories import make_item, switch_user

PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 10, 10)).save(buffer, "PNG")
    return buffer.getvalue()


def _ask(
    client,
    item,
    *,
    data: bytes = PDF,
    name: str = "carteira.pdf",  # type: ignore[no-untyped-def]
    code: str = "unemployed_3_months",
    truthful: bool = True,
):
    form = {
        "code": code,
        "statement": "Desempregada desde janeiro.",
        "proof": (io.BytesIO(data), name),
    }
    if truthful:
        form["truthful"] = "y"
    return client.post(
        f"/pagamentos/{item.id}/isencao", data=form, content_type="multipart/form-data"
    )


def _reload(item: PaymentItem) -> PaymentItem:
    db.session.expire_all()
    return db.session.get(PaymentItem, item.id)


def test_gru_23_citizen_asks_for_exemption_with_a_private_proof(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    page = client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "Pedir isenção" in page and "GRU 23" in page
    response = _ask(client, item)
    assert response.status_code == 302
    req = db.session.scalar(select(ExemptionRequest))
    assert req.status == "pending" and req.article == "GRU 23" and req.requester_id == payer.id
    stored = db.session.get(StoredFile, req.proof_file_id)
    assert stored.public is False and stored.owner_id is None
    assert stored.content_type == "application/pdf"
    # The proof is for staff only: not even the person who sent it gets it back.
    assert client.get(f"/arquivos/{stored.token}/original").status_code == 404
    item = _reload(item)
    assert item.status == "pending"
    page = client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "em análise" in page and "Imprimir guia" not in page
    assert db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "payment.exemption_requested")
    )


def test_gru_23_staff_accept_and_the_item_becomes_exempt(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    _ask(client, item, data=_png(), name="foto.png")
    req = db.session.scalar(select(ExemptionRequest))
    staff = switch_user(auth, roles=("agent",))
    queue = client.get("/pagamentos/ccz/isencoes").get_data(as_text=True)
    assert payer.full_name in queue
    detail = client.get(f"/pagamentos/ccz/isencoes/{req.id}")
    assert detail.status_code == 200
    proof = db.session.get(StoredFile, req.proof_file_id)
    assert proof.content_type == "image/jpeg"  # the photo was re-encoded
    served = client.get(f"/arquivos/{proof.token}/large")
    assert served.status_code == 200
    served.close()
    response = client.post(f"/pagamentos/ccz/isencoes/{req.id}", data={"decision": "accept"})
    assert response.status_code == 302
    item = _reload(item)
    assert item.status == "exempt"
    assert item.exemption_requests[0].status == "accepted"
    assert item.exemption_requests[0].decided_by_id == staff.id
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == payer.email))
    assert mail.subject == "Isenção concedida"
    actions = set(db.session.scalars(select(AuditEvent.action)))
    assert {"payment.exemption_viewed", "payment.exemption_accepted"} <= actions


def test_gru_23_refusal_needs_a_reason_and_returns_the_item_to_pending(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    _ask(client, item)
    req = db.session.scalar(select(ExemptionRequest))
    switch_user(auth, roles=("coordinator",))
    empty = client.post(f"/pagamentos/ccz/isencoes/{req.id}", data={"decision": "refuse"})
    assert "Informe o motivo da recusa." in empty.get_data(as_text=True)
    assert _reload(item).exemption_requests[0].status == "pending"
    client.post(
        f"/pagamentos/ccz/isencoes/{req.id}",
        data={"decision": "refuse", "reason": "O documento não mostra a data da demissão."},
    )
    item = _reload(item)
    assert item.status == "pending" and item.payable
    assert item.exemption_requests[0].status == "refused"
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == payer.email))
    assert mail.subject == "Pedido de isenção recusado"
    assert "não mostra a data da demissão" in mail.body
    assert db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "payment.exemption_refused")
    )
    # Payable again, and a new request is possible.
    switch_user(auth, payer)
    page = client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert "Imprimir guia" in page and "não mostra a data da demissão" in page


def test_a_file_that_is_not_a_pdf_or_image_is_refused_and_nothing_is_kept(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    response = _ask(client, item, data=b"MZ\x90\x00 not a document", name="virus.pdf")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "Envie um PDF ou uma foto" in text
    assert "Desempregada desde janeiro." in text  # what was typed is kept
    assert db.session.scalar(select(ExemptionRequest)) is None
    assert db.session.scalar(select(StoredFile)) is None


def test_a_proof_above_the_size_limit_is_refused(client, auth, monkeypatch) -> None:
    # A smaller limit keeps the request in memory (werkzeug's test client spools big bodies to a
    # temporary file it never closes); the check is the same.
    monkeypatch.setattr("portal.services.uploads.MAX_DOCUMENT_BYTES", 64 * 1024)
    payer = auth.login()
    item = make_item(payer)
    big = PDF + b"0" * (100 * 1024)
    response = _ask(client, item, data=big)
    assert "grande demais" in response.get_data(as_text=True)
    assert db.session.scalar(select(ExemptionRequest)) is None


def test_the_declaration_must_be_confirmed(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    response = _ask(client, item, truthful=False)
    assert "Confirme a declaração." in response.get_data(as_text=True)


def test_no_exemption_for_a_fee_the_law_does_not_exempt(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer, kind="card_copy", description="Segunda via da carteira")
    assert "Pedir isenção" not in client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert client.get(f"/pagamentos/{item.id}/isencao").status_code == 404


def test_vv_12_par3_programme_participant_exemption(make_app) -> None:
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        from tests.conftest import AuthActions

        client = app.test_client()
        payer = AuthActions(client).login()
        item = make_item(payer)
        page = client.get(f"/pagamentos/{item.id}/isencao").get_data(as_text=True)
        assert "VV 12 §3-4" in page
        _ask(client, item, code="programme_participant")
        req = db.session.scalar(select(ExemptionRequest))
        assert req.code == "programme_participant" and req.article == "VV 12 §3-4"


def test_an_exemption_the_law_does_not_have_is_refused(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    response = _ask(client, item, code="friend_of_the_mayor")
    assert response.status_code == 200
    assert db.session.scalar(select(ExemptionRequest)) is None


def test_only_one_open_request_per_item(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    _ask(client, item)
    second = client.get(f"/pagamentos/{item.id}/isencao")
    assert second.status_code == 302
    assert len(db.session.scalars(select(ExemptionRequest)).all()) == 1


def test_paying_at_the_counter_closes_a_waiting_request(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    _ask(client, item)
    switch_user(auth, roles=("agent",))
    client.post(
        f"/pagamentos/ccz/{item.id}/baixa",
        data={"receipt_number": "AUT-5", "paid_on": "2026-01-02"},
    )
    item = _reload(item)
    assert item.status == "paid"
    assert item.exemption_requests[0].status == "closed"
