"""The establishment API for RGA: every status code, the monthly report, the OpenAPI document."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.animals import services
from portal.blueprints.animals.rga import format_rga
from portal.extensions import db
from portal.models import Animal, AuditEvent, OutboxMessage, User
from portal.services.api_auth import issue_client
from tests import factories

OWNER_CPF = "52998224725"


@pytest.fixture
def token(app):
    _client, clear = issue_client("establishment", "Clínica Bom Pelo")
    db.session.commit()
    return clear


@pytest.fixture
def headers(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def payload(today):
    def build(**changes):
        body = {
            "animal": {
                "name": "Luna",
                "species": "cat",
                "sex": "female",
                "breed": "SRD",
                "color": "Preta",
                "birth_date": (today - timedelta(days=150)).isoformat(),
                "birth_date_estimated": False,
                "size": "small",
                "weight_kg": 3.2,
                "sterilized": True,
                "microchip": "985 112 000 111 222",
            },
            "owner": {
                "name": "Ana Cliente",
                "cpf": "529.982.247-25",
                "rg": "12.345.678-9",
                "birth_date": "1980-05-01",
                "email": "ana.cliente@example.com",
                "phone": "11 95555-4444",
                "address": {
                    "cep": "07010-000",
                    "street": "Rua Um",
                    "number": "10",
                    "complement": "",
                    "district": "Centro",
                    "city": "Guarulhos",
                    "state": "SP",
                },
            },
            "rabies_vaccination": {
                "date": (today - timedelta(days=3)).isoformat(),
                "vaccine": "Rabisin",
                "batch": "L9",
                "manufacturer": "BI",
                "vet_name": "Dr. Vet",
                "vet_crmv": "CRMV-SP 4321",
            },
        }
        for path, value in changes.items():
            target = body
            *parents, leaf = path.split(".")
            for key in parents:
                target = target[key]
            if value is ...:
                target.pop(leaf, None)
            else:
                target[leaf] = value
        return body

    return build


@pytest.fixture
def today(app):
    return services.local_today(app.extensions["portal_profile"])


def _codes(response) -> dict[str, str]:
    return {e["field"]: e["code"] for e in response.get_json()["errors"]}


def test_201_registers_and_creates_a_claimable_owner(client, headers, payload) -> None:
    response = client.post("/api/v1/registrations", json=payload(), headers=headers)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert re.fullmatch(r"G-\d{4}-\d{6}-\d", body["rga"])
    assert body["status"] == "active"
    assert body["card_url"].startswith("http://localhost/api/v1/registrations/")
    assert body["fees"][0]["kind"] == "registration" and body["fees"][0]["amount_cents"] == 2500
    assert body["fees"][0]["status"] == "pending"
    owner = db.session.scalar(select(User).where(User.cpf == OWNER_CPF))
    assert owner.password_hash is None and owner.has_role("citizen") and owner.street == "Rua Um"
    animal = db.session.scalar(select(Animal).where(Animal.rga == body["rga"]))
    assert animal.weight_grams == 3200 and animal.microchip == "985112000111222"
    assert animal.vaccinations[0].establishment == "Clínica Bom Pelo"
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner.email))
    assert body["rga"] in mail.body and "crie sua conta" in mail.body
    # recorded by the animals service (not the API view), exactly once
    audited = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "animal.registered_by_api")
    ).all()
    assert len(audited) == 1 and (audited[0].detail or {})["rga"] == body["rga"]

    card = client.get(body["card_url"].removeprefix("http://localhost"), headers=headers)
    assert card.status_code == 200 and card.data.startswith(b"%PDF")
    tag = client.get(body["tag_url"].removeprefix("http://localhost"), headers=headers)
    assert tag.status_code == 200

    # the owner claims the record at sign-up with the same CPF, through the link mailed to the
    # e-mail on file (issue 8: proving control of it before seeing anything)
    signup = client.post(
        "/conta/cadastro",
        data={
            "full_name": "Ana Cliente",
            "cpf": OWNER_CPF,
            "birth_date": "1980-05-01",
            "email": "ana.cliente@example.com",
            "phone": "",
            "password": "abacate123",
            "password_confirm": "abacate123",
            "accept_privacy": "y",
        },
    )
    assert signup.status_code == 302
    claim = db.session.scalars(
        select(OutboxMessage)
        .where(OutboxMessage.to == owner.email)
        .order_by(OutboxMessage.id.desc())
    ).first()
    link = re.search(r"http://localhost(/conta/ativar/\S+)", claim.body).group(1)
    assert (
        client.post(
            link,
            data={
                "password": "abacate123",
                "password_confirm": "abacate123",
                "accept_privacy": "y",
            },
        ).status_code
        == 302
    )
    db.session.refresh(owner)
    assert owner.has_account
    assert body["rga"] in client.get("/animais/").get_data(as_text=True)


def test_201_with_an_estimated_age_instead_of_a_birth_date(client, headers, payload) -> None:
    body = payload(
        **{
            "animal.birth_date": ...,
            "animal.estimated_age_months": 24,
            "rabies_vaccination": ...,
            "vaccinate_at_ccz": True,
        }
    )
    response = client.post("/api/v1/registrations", json=body, headers=headers)
    assert response.status_code == 201 and response.get_json()["late_registration"] is True
    animal = db.session.scalar(select(Animal).where(Animal.rga == response.get_json()["rga"]))
    assert animal.birth_date_estimated is True
    bad = client.post(
        "/api/v1/registrations",
        headers=headers,
        json=payload(**{"animal.birth_date": ..., "animal.estimated_age_months": -3}),
    )
    assert _codes(bad)["animal.estimated_age_months"] == "invalid"


def test_201_pending_when_vaccinated_at_the_ccz(client, headers, payload) -> None:
    response = client.post(
        "/api/v1/registrations",
        headers=headers,
        json=payload(rabies_vaccination=..., vaccinate_at_ccz=True),
    )
    assert response.status_code == 201 and response.get_json()["status"] == "pending"


def test_201_existing_account_holder_keeps_their_data(client, headers, payload) -> None:
    person = factories.user(
        cpf=OWNER_CPF, full_name="Nome Verdadeiro", email="verdadeiro@example.com"
    )
    db.session.commit()
    response = client.post(
        "/api/v1/registrations",
        json=payload(**{"owner.email": "verdadeiro@example.com"}),
        headers=headers,
    )
    assert response.status_code == 201
    db.session.refresh(person)
    assert person.full_name == "Nome Verdadeiro"


def test_401_without_or_with_a_wrong_token(client, payload) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = client.post("/api/v1/registrations", json=payload(), headers=headers)
        assert response.status_code == 401
        assert response.get_json()["errors"][0]["code"] == "unauthorized"
    assert client.get("/api/v1/registrations?month=2026-01").status_code == 401
    _ngo, ngo_token = issue_client("ngo", "ONG")
    db.session.commit()
    assert (
        client.post(
            "/api/v1/registrations",
            json=payload(),
            headers={"Authorization": f"Bearer {ngo_token}"},
        ).status_code
        == 401
    )


def test_400_for_a_body_that_is_not_a_json_object(client, headers) -> None:
    for data, content_type in (
        ("{not json", "application/json"),
        ("[1, 2]", "application/json"),
        ("name=x", "application/x-www-form-urlencoded"),
    ):
        response = client.post(
            "/api/v1/registrations", data=data, content_type=content_type, headers=headers
        )
        assert response.status_code == 400
        assert response.get_json()["errors"][0]["code"] == "invalid_json"


def test_422_invalid_cpf(client, headers, payload) -> None:
    response = client.post(
        "/api/v1/registrations", json=payload(**{"owner.cpf": "529.982.247-26"}), headers=headers
    )
    assert response.status_code == 422 and _codes(response)["owner.cpf"] == "invalid_cpf"
    assert db.session.scalar(select(User).where(User.cpf == OWNER_CPF)) is None


def test_422_household_limit(client, headers, payload, today) -> None:
    neighbour = factories.user(cep="07010000", street="Rua Um", number="10", complement=None)
    for _ in range(5):
        factories.animal(neighbour, birth_date=today - timedelta(days=400))
    db.session.commit()
    response = client.post("/api/v1/registrations", json=payload(), headers=headers)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert error["code"] == "household_limit" and error["field"] == "owner.address"
    assert error["article"] == "GRU 37" and "5" in error["message"]


def test_422_age(client, headers, payload, today) -> None:
    for birth in ((today + timedelta(days=3)).isoformat(), "1970-01-01"):
        response = client.post(
            "/api/v1/registrations", headers=headers, json=payload(**{"animal.birth_date": birth})
        )
        assert response.status_code == 422 and _codes(response)["animal.birth_date"] == "age"


def test_422_missing_vaccination(client, headers, payload, today) -> None:
    response = client.post(
        "/api/v1/registrations", json=payload(rabies_vaccination=...), headers=headers
    )
    assert response.status_code == 422
    assert _codes(response)["rabies_vaccination"] == "missing_vaccination"
    expired = payload(
        **{
            "rabies_vaccination.date": (today - timedelta(days=500)).isoformat(),
            "animal.birth_date": (today - timedelta(days=900)).isoformat(),
        }
    )
    response = client.post("/api/v1/registrations", json=expired, headers=headers)
    assert _codes(response)["rabies_vaccination.date"] == "missing_vaccination"


def test_422_duplicate_microchip(client, headers, payload) -> None:
    factories.animal(factories.user(), microchip="985112000111222")
    db.session.commit()
    response = client.post("/api/v1/registrations", json=payload(), headers=headers)
    assert response.status_code == 422
    assert _codes(response)["animal.microchip"] == "duplicate_microchip"


def test_422_required_and_invalid_reports_every_field(client, headers, payload) -> None:
    body = payload(
        **{
            "animal.name": ...,
            "animal.species": "bird",
            "animal.birth_date": "31/12/2025",
            "animal.sterilized": "sim",
            "animal.weight_kg": "pesado",
            "owner.email": ...,
            "owner.address.cep": "123",
            "rabies_vaccination.vet_crmv": "",
        }
    )
    response = client.post("/api/v1/registrations", json=body, headers=headers)
    assert response.status_code == 422
    codes = _codes(response)
    assert codes["animal.name"] == "required" and codes["animal.species"] == "invalid"
    assert codes["animal.birth_date"] == "invalid" and codes["animal.sterilized"] == "invalid"
    assert codes["animal.weight_kg"] == "invalid" and codes["owner.email"] == "required"
    assert codes["owner.address.cep"] == "invalid"
    assert codes["rabies_vaccination.vet_crmv"] == "required"
    for e in response.get_json()["errors"]:
        assert set(e) >= {"field", "code", "message"} and e["message"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"animal": "x", "owner": []},
        {"animal": {"name": 5, "birth_date": 20250101}, "owner": {"address": None}},
        {
            "animal": {"weight_kg": {"a": 1}, "microchip": ["x"]},
            "owner": {"cpf": True, "address": {"cep": 1.5}},
        },
        {"animal": None, "owner": None, "rabies_vaccination": "yes"},
    ],
)
def test_wrong_types_are_422_never_500(client, headers, body) -> None:
    response = client.post("/api/v1/registrations", json=body, headers=headers)
    assert response.status_code == 422
    assert response.get_json()["errors"]


def test_rga_lookup_200_404_400(client, headers, payload) -> None:
    rga = client.post("/api/v1/registrations", json=payload(), headers=headers).get_json()["rga"]
    response = client.get(f"/api/v1/rga/{rga.lower().replace('-', '')}")
    assert response.status_code == 200
    body = response.get_json()
    assert body["name"] == "Luna" and body["species"] == "cat" and body["status"] == "active"
    assert "owner" not in body and "Ana" not in str(body) and OWNER_CPF not in str(body)
    assert client.get(f"/api/v1/rga/{format_rga('dog', 2001, 5)}").status_code == 404
    wrong = rga[:-1] + str((int(rga[-1]) + 1) % 10)
    response = client.get(f"/api/v1/rga/{wrong}")
    assert response.status_code == 400 and response.get_json()["errors"][0]["code"] == "invalid"


def test_card_of_another_establishments_registration_is_404(client, headers, payload) -> None:
    rga = client.post("/api/v1/registrations", json=payload(), headers=headers).get_json()["rga"]
    _other, other_token = issue_client("establishment", "Outra")
    db.session.commit()
    other = {"Authorization": f"Bearer {other_token}"}
    assert client.get(f"/api/v1/registrations/{rga}/card.pdf", headers=other).status_code == 404
    assert client.get("/api/v1/registrations/xyz/card.pdf", headers=headers).status_code == 400


def test_monthly_report_json_and_csv(client, headers, payload, today) -> None:
    first = client.post("/api/v1/registrations", json=payload(), headers=headers).get_json()
    second = client.post(
        "/api/v1/registrations",
        headers=headers,
        json=payload(**{"animal.microchip": ..., "animal.name": "Sol", "animal.species": "dog"}),
    ).get_json()
    factories.animal(factories.user())  # registered on the web: not in the report
    _other, other_token = issue_client("establishment", "Outra")
    db.session.commit()
    month = today.strftime("%Y-%m")
    response = client.get(f"/api/v1/registrations?month={month}", headers=headers)
    assert response.status_code == 200
    body = response.get_json()
    assert body["month"] == month and body["count"] == 2
    assert [r["rga"] for r in body["registrations"]] == [first["rga"], second["rga"]]
    row = body["registrations"][0]
    assert row["owner_cpf"] == "***.982.247-**" and row["owner_name"] == "Ana Cliente"
    other = client.get(
        f"/api/v1/registrations?month={month}", headers={"Authorization": f"Bearer {other_token}"}
    )
    assert other.get_json()["count"] == 0
    previous = client.get("/api/v1/registrations?month=2001-01", headers=headers)
    assert previous.get_json()["count"] == 0

    as_csv = client.get(f"/api/v1/registrations?month={month}&format=csv", headers=headers)
    assert as_csv.status_code == 200 and as_csv.mimetype == "text/csv"
    assert "attachment" in as_csv.headers["Content-Disposition"]
    text = as_csv.get_data(as_text=True)
    assert text.startswith("\ufeff")  # UTF-8 BOM: Excel reads accents right
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert [r["rga"] for r in rows] == [first["rga"], second["rga"]]
    accept = client.get(
        f"/api/v1/registrations?month={month}", headers={**headers, "Accept": "text/csv"}
    )
    assert accept.mimetype == "text/csv"


def test_monthly_report_422_without_a_valid_month(client, headers) -> None:
    for query in ("", "?month=2026-13", "?month=março", "?month=2026-1"):
        response = client.get(f"/api/v1/registrations{query}", headers=headers)
        assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "month"


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.removeprefix("/api/v1"))


MY_ENDPOINTS = {
    "api.create_registration",
    "api.list_registrations",
    "api.registration_card",
    "api.registration_tag",
    "api.rga_lookup",
}


def test_openapi_document_matches_the_registration_routes(app, client) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    routes = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint in MY_ENDPOINTS:
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routes.setdefault(_openapi_path(rule.rule), set()).add(method.lower())
    mine = {
        path: set(item)
        for path, item in doc["paths"].items()
        if path.startswith(("/registrations", "/rga/"))
    }
    assert routes == mine
    create = doc["paths"]["/registrations"]["post"]
    assert set(create["responses"]) == {"201", "400", "401", "422", "429"}  # 429: issue 26 #12
    assert doc["paths"]["/rga/{number}"]["get"]["responses"].keys() >= {"200", "400", "404"}
    for name in ("RegistrationRequest", "RegistrationCreated", "PublicRga"):
        assert name in doc["components"]["schemas"]


def test_422_duplicate_microchip_when_a_concurrent_registration_took_it_first(
    client, headers, payload, monkeypatch
) -> None:
    from sqlalchemy.exc import IntegrityError

    def raced(request):  # type: ignore[no-untyped-def]
        raise IntegrityError("INSERT INTO animal", {}, Exception("unique: animal.microchip"))

    monkeypatch.setattr(services, "register_animal", raced)
    response = client.post("/api/v1/registrations", json=payload(), headers=headers)
    assert response.status_code == 422
    assert _codes(response)["animal.microchip"] == "duplicate_microchip"
    # the owner record made while checking the body went with the rollback
    assert db.session.scalar(select(User).where(User.cpf == OWNER_CPF)) is None
