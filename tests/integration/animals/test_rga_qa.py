"""Regression tests from the QA pass of the RGA: what a citizen, a clinic or staff ran into.

Each test failed before its fix: the wizard's re-shown steps carried no CSRF token, a double tap
on "Confirmar" issued two RGAs, a 3-digit microchip passed the first step, "nº 077" and "77" were
two residences, a huge weight was a 500 in the API, and the monthly CSV was garbled in Excel.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from portal.blueprints.animals import services
from portal.extensions import db
from portal.models import Animal
from portal.services.api_auth import issue_client
from portal.services.dates import add_months
from tests import factories


def _count() -> int:
    return db.session.scalar(select(func.count(Animal.id))) or 0


def test_a_step_shown_again_from_the_draft_carries_a_csrf_token(app, client, auth,
                                                                animal_form) -> None:
    """Going back to a filled step (link "Voltar", the back button, an error sent back from the
    review) re-shows it from the draft; without a token its next submission was refused as
    "sessão expirada"."""
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        html = client.get("/animais/cadastrar").get_data(as_text=True)
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert 'value="Bolinha"' in html and 'name="csrf_token"' in html


def test_short_microchip_is_refused_at_the_first_step(client, auth, animal_form) -> None:
    auth.login()
    response = client.post("/animais/cadastrar", data=animal_form(microchip="123"))
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Número do microchip inválido" in html
    assert 'value="123"' in html  # nothing typed is lost


def test_double_submit_of_the_last_step_issues_one_rga(client, auth, walk_wizard) -> None:
    """A double tap sends the review twice with the same session cookie (the browser drops the
    first answer): the second POST must not register the animal again."""
    auth.login()
    walk_wizard(confirm=False)
    with client.session_transaction() as sess:
        draft = sess["rga_draft"]
    first = client.post("/animais/cadastrar/revisao")
    with client.session_transaction() as sess:
        sess["rga_draft"] = draft  # the second request still carries the old cookie
    second = client.post("/animais/cadastrar/revisao")
    animal = db.session.scalars(select(Animal)).one()
    assert _count() == 1
    assert first.headers["Location"] == second.headers["Location"]
    assert second.headers["Location"].endswith(f"/animais/{animal.rga}/")
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "já foi registrado" in page


def test_back_button_after_registering_starts_a_new_empty_form(client, auth, walk_wizard) -> None:
    auth.login()
    walk_wizard()
    response = client.get("/animais/cadastrar/revisao")
    assert response.status_code == 302 and response.headers["Location"].endswith(
        "/animais/cadastrar")
    assert 'value="Bolinha"' not in client.get("/animais/cadastrar").get_data(as_text=True)
    assert _count() == 1


@pytest.mark.parametrize("typed", ["nº 077", "N. 77", "077"])
def test_gru_37_residence_is_one_however_the_number_is_typed(app, auth, client, animal_form,
                                                              address_form, today, typed) -> None:
    """Five animals of a neighbour at "Rua das Flores, 77" fill the house; a second owner who
    types the number differently lives at the same house (DOMAIN §4: all owners count)."""
    neighbour = factories.user(cep="07000000", street="R. das Flores", number="77")
    for _ in range(5):
        factories.animal(neighbour, birth_date=today - timedelta(days=400))
    db.session.commit()
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    response = client.post("/animais/cadastrar/endereco",
                           data={**address_form, "number": typed, "cep": "07000-000"})
    assert "limite por residência é 5" in response.get_data(as_text=True)


def test_gru_37_threshold_is_more_than_120_days(app, today) -> None:
    gru = app.extensions["portal_profile"]
    owner = factories.user()
    for _ in range(4):
        factories.animal(owner, birth_date=today - timedelta(days=400))
    factories.animal(owner, birth_date=today - timedelta(days=120))  # exactly 120: not counted
    with app.test_request_context():
        services.check_household_limit(gru, owner, on=today)  # 4 + 1 = 5: allowed
        factories.animal(owner, birth_date=today - timedelta(days=400))
        with pytest.raises(services.HouseholdLimitExceeded):
            services.check_household_limit(gru, owner, on=today)


def test_gru_37_transfer_into_a_full_household_is_refused(app, today) -> None:
    gru = app.extensions["portal_profile"]
    full = factories.user(cep="07100000", street="Rua Cheia", number="5")
    for _ in range(5):
        factories.animal(full, birth_date=today - timedelta(days=400))
    giver = factories.user(cep="07200000", street="Rua Vazia", number="1")
    pet = factories.animal(giver, birth_date=today - timedelta(days=400))
    with app.test_request_context():
        transfer = services.request_transfer(pet, giver, full.cpf, profile=gru, today=today)
        with pytest.raises(services.HouseholdLimitExceeded):
            services.accept_transfer(transfer, full, profile=gru, today=today)
    assert pet.owner_id == giver.id  # GRU 18 §2: the previous owner stays responsible


def test_api_huge_weight_is_422_not_500(client, today) -> None:
    _client, token = issue_client("establishment", "Clínica QA")
    db.session.commit()
    response = client.post("/api/v1/registrations", headers={"Authorization": f"Bearer {token}"},
                           json={"animal": {"weight_kg": 1e308}, "owner": {}})
    assert response.status_code == 422
    codes = {e["field"]: e["code"] for e in response.get_json()["errors"]}
    assert codes["animal.weight_kg"] == "invalid"


def test_bjp_9_monthly_report_csv_opens_in_excel(app) -> None:
    """UTF-8 with BOM, ";" between columns, and no formula from a typed name."""
    owner = factories.user(full_name="=HYPERLINK(\"http://x\") Conceição")
    pet = factories.animal(owner, name="Açúcar")
    with app.test_request_context():
        text = services.report_csv([services.report_row(pet)])
    assert text.startswith("\ufeffrga;registered_on;")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert rows[0]["name"] == "Açúcar"
    assert rows[0]["owner_name"].startswith("'=HYPERLINK")
    assert len(rows[0]) == len(services.REPORT_COLUMNS)


def test_public_page_shows_no_owner_data(client) -> None:
    owner = factories.user(full_name="Josefina Proprietária", phone="11987654321",
                           street="Rua Secreta", number="99")
    pet = factories.animal(owner, name="Pipoca")
    db.session.commit()
    html = client.get(f"/rga/{pet.rga}").get_data(as_text=True)
    assert "Pipoca" in html
    for secret in ("Josefina", "Proprietária", owner.cpf, owner.cpf[3:9], "987654321",
                   "Rua Secreta", owner.email):
        assert secret not in html


def test_clinic_never_mixes_an_address_into_an_account_holders_address(app, today) -> None:
    """A clinic registers for someone who has an account: their address (no complement) must not
    get the complement of the address the clinic typed (a dwelling that does not exist)."""
    holder = factories.user(cep="07000000", street="Rua Dom Pedro II", number="120",
                            complement=None)
    db.session.commit()
    with app.test_request_context():
        person = services.find_or_create_owner(services.OwnerData(
            name="Outro Nome", cpf=holder.cpf, email=holder.email, address={
                "cep": "07010000", "street": "Avenida Brasil", "number": "9",
                "complement": "Bloco B apto 1203", "district": "Centro", "city": "Guarulhos",
                "state": "SP"}))
    assert person.id == holder.id
    assert (person.street, person.number, person.complement) == ("Rua Dom Pedro II", "120", None)


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
        pet = services.register_animal(
            owner=owner, data=services.AnimalData(
                name="Tico", species="cat", sex="male", birth_date=today - timedelta(days=900),
                breed="SRD", color="Cinza", size="small"),
            vaccination=None, vaccinate_at_ccz=False, registered_by=owner, api_client=None,
            profile=prof, today=today)
        assert pet.status == "active" and not pet.late_registration
        assert services.fees_of(pet) == []
