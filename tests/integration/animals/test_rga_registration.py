"""Registration rules seen from outside: the API refuses a huge weight with 422, the card keeps a
long address whole (GRU 15 III), the yearly renewal date where the law has one (CABO 19), and a
city whose law has no registration article (CAB)."""

from __future__ import annotations

from datetime import timedelta

from portal.blueprints.animals import services
from portal.extensions import db
from portal.services.api_auth import issue_client
from portal.services.dates import add_months
from tests import factories


def test_api_huge_weight_is_422_not_500(client, today) -> None:
    _client, token = issue_client("establishment", "Clínica QA")
    db.session.commit()
    response = client.post(
        "/api/v1/registrations",
        headers={"Authorization": f"Bearer {token}"},
        json={"animal": {"weight_kg": 1e308}, "owner": {}},
    )
    assert response.status_code == 422
    codes = {e["field"]: e["code"] for e in response.get_json()["errors"]}
    assert codes["animal.weight_kg"] == "invalid"


def test_gru_15_iii_card_keeps_a_long_address_whole(app, client, auth) -> None:
    from tests.factories import pdf_text

    user = auth.login()
    user.street = "Avenida Presidente Juscelino Kubitschek de Oliveira"
    user.complement = "Bloco B apartamento 1203"
    user.district = "Vila Augusta"
    pet = factories.animal(user)
    db.session.commit()
    text = pdf_text(client.get(f"/animais/{pet.rga}/carteira.pdf").data)
    assert "Vila Augusta" in text and "Kubitschek" in text


def test_cabo_19_detail_shows_the_yearly_renewal_date(make_app) -> None:
    cabo = make_app(PORTAL_PROFILE="cabo")
    with cabo.app_context():
        owner = factories.user()
        pet = factories.animal(owner)
        db.session.commit()
        web = cabo.test_client()
        web.post("/conta/entrar", data={"email": owner.email, "password": factories.PASSWORD})
        html = web.get(f"/animais/{pet.rga}/").get_data(as_text=True)
        due = add_months(pet.registered_on, 12)
    assert "Renovação anual do registro" in html and "CABO 19" in html
    assert due.strftime("%d/%m/%Y") in html


def test_gru_has_no_yearly_renewal(client, auth) -> None:
    user = auth.login()
    pet = factories.animal(user)
    db.session.commit()
    assert "Renovação anual" not in client.get(f"/animais/{pet.rga}/").get_data(as_text=True)


def test_cab_has_no_registration_article_so_no_fee_window_or_rabies_demand(make_app) -> None:
    """Cabeceira Grande's law has no registration rule: the RGA is a voluntary service, free,
    with no age window and no rabies proof demanded."""
    cab = make_app(PORTAL_PROFILE="cabeceira")
    with cab.app_context(), cab.test_request_context():
        prof = cab.extensions["portal_profile"]
        today = services.local_today(prof)
        owner = factories.user()
        pet = factories.registered_animal(
            owner,
            prof,
            data=services.AnimalData(
                name="Tico",
                species="cat",
                sex="male",
                birth_date=today - timedelta(days=900),
                breed="SRD",
                color="Cinza",
                size="small",
            ),
            vaccination=None,
            today=today,
        )
        assert pet.status == "active" and not pet.late_registration
        assert services.fees_of(pet) == []
