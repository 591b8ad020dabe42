"""GET /api/v1/payments/<id> and the fee shape other endpoints return (fee_json)."""

from __future__ import annotations

from portal.blueprints.billing.services import fee_json
from portal.extensions import db
from portal.services.api_auth import issue_client
from tests import factories
from tests.factories import make_item


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_client_that_created_the_item_reads_it(client, app) -> None:
    clinic, token = issue_client("establishment", "Clínica Vet Centro")
    db.session.commit()
    item = make_item(factories.user(), api_client_id=clinic.id)
    response = client.get(f"/api/v1/payments/{item.id}", headers=_bearer(token))
    assert response.status_code == 200
    assert response.get_json() == {
        "id": item.id,
        "kind": "registration",
        "amount_cents": 2500,
        "currency": "brl",
        "status": "pending",
    }


def test_another_clients_token_gets_404(client, app) -> None:
    owner, _token = issue_client("establishment", "Clínica A")
    _other, other_token = issue_client("ngo", "ONG B")
    db.session.commit()
    item = make_item(factories.user(), api_client_id=owner.id)
    response = client.get(f"/api/v1/payments/{item.id}", headers=_bearer(other_token))
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "not_found"
    assert client.get("/api/v1/payments/999999", headers=_bearer(other_token)).status_code == 404


def test_no_token_or_a_bad_token_gets_401(client, app) -> None:
    item = make_item(factories.user())
    no_token = client.get(f"/api/v1/payments/{item.id}")
    assert no_token.status_code == 401
    assert no_token.get_json()["errors"][0]["code"] == "unauthorized"
    assert (
        client.get(f"/api/v1/payments/{item.id}", headers=_bearer("ccz_not-a-token")).status_code
        == 401
    )


def test_staff_session_reads_any_item_and_citizens_do_not(client, auth) -> None:
    item = make_item(factories.user())
    auth.login()  # a citizen session is not an API credential
    assert client.get(f"/api/v1/payments/{item.id}").status_code == 401

    from tests.factories import switch_user

    switch_user(auth, roles=("agent",))
    response = client.get(f"/api/v1/payments/{item.id}")
    assert response.status_code == 200
    assert response.get_json()["status"] == "pending"


def test_fee_json_points_at_the_public_pay_page(client, app) -> None:
    item = make_item(factories.user())
    data = fee_json(item)
    assert set(data) == {"id", "kind", "amount_cents", "status", "pay_url"}
    assert data["pay_url"] == f"http://localhost/pagamentos/{item.id}"
    page = client.get(data["pay_url"].removeprefix("http://localhost"))
    assert page.status_code == 200
    assert "Entre para ver e pagar" in page.get_data(as_text=True)


def test_payments_endpoint_is_in_the_openapi_document(client, app) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert "/payments/{id}" in doc["paths"]
    assert doc["components"]["schemas"]["Payment"]["properties"]["currency"]["const"] == "brl"


def test_an_establishment_pays_its_own_registrations_in_the_portal(client, auth) -> None:
    # GRU 22 §2; BJP 11 a: a clinic's registration is charged to the clinic (no payer person).
    clinic_user = factories.user(roles=("establishment",), full_name="Clínica Vet Centro")
    clinic, _token = issue_client("establishment", "Clínica Vet Centro", user_id=clinic_user.id)
    db.session.commit()
    item = make_item(None, api_client_id=clinic.id)
    auth.login(clinic_user)
    assert str(item.id) in client.get("/pagamentos/").get_data(as_text=True)
    page = client.get(f"/pagamentos/{item.id}")
    assert page.status_code == 200 and "Imprimir guia" in page.get_data(as_text=True)
    guia = client.get(f"/pagamentos/{item.id}/guia.pdf")
    assert guia.status_code == 200 and b"Cl\\355nica Vet Centro" in guia.data
