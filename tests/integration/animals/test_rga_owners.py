"""Owners: the record an establishment creates or finds, and the animals that move with their owner
only where an address is written (the profile page, an establishment correcting the record it
created), so the household count follows them (DOMAIN §4)."""

from __future__ import annotations

from datetime import timedelta

from flask import g

from portal.blueprints.animals import services
from portal.extensions import db
from portal.services.api_auth import issue_client
from tests import factories


def test_profile_address_change_moves_the_animals(client, auth) -> None:
    person = factories.user(
        cep="07010000",
        street="Rua Um",
        number="10",
        district="Centro",
        city="Guarulhos",
        state="SP",
    )
    pet = factories.animal(person)
    closed = factories.animal(person, status="closed")
    old_key = pet.residence_key
    db.session.commit()
    auth.login(person)
    g.pop("_login_user", None)
    response = client.post(
        "/minha-conta/",
        data={
            "email": person.email,
            "phone": "11 91111-2222",
            "cep": "07010-000",
            "street": "Avenida Brasil",
            "number": "999",
            "complement": "",
            "district": "Centro",
            "city": "Guarulhos",
            "state": "SP",
            "housing_type": "house",
        },
    )
    assert response.status_code == 302
    db.session.refresh(pet)
    db.session.refresh(closed)
    assert pet.residence_key == services.owner_residence_key(person) != old_key
    assert closed.residence_key == old_key  # a closed RGA stays where it ended


def _registration(today, name: str, street: str) -> dict:  # type: ignore[type-arg]
    return {
        "animal": {
            "name": name,
            "species": "cat",
            "sex": "female",
            "breed": "SRD",
            "color": "Preta",
            "birth_date": (today - timedelta(days=150)).isoformat(),
            "size": "small",
        },
        "owner": {
            "name": "Dona Clínica",
            "cpf": factories.make_cpf(4242),
            "email": "dona.clinica@example.com",
            "address": {
                "cep": "07010-000",
                "street": street,
                "number": "10",
                "district": "Centro",
                "city": "Guarulhos",
                "state": "SP",
            },
        },
        "rabies_vaccination": {
            "date": (today - timedelta(days=3)).isoformat(),
            "vaccine": "Rabisin",
            "batch": "L9",
            "vet_name": "Dr. Vet",
            "vet_crmv": "CRMV-SP 4321",
        },
    }


def test_clinic_correcting_its_own_record_moves_the_animals(app, client) -> None:
    _client, token = issue_client("establishment", "Clínica Mudança")
    db.session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    today = services.local_today(app.extensions["portal_profile"])
    first = client.post(
        "/api/v1/registrations", headers=headers, json=_registration(today, "Luna", "Rua Um")
    )
    assert first.status_code == 201, first.get_json()
    luna = services.find_by_rga(first.get_json()["rga"])
    second = client.post(
        "/api/v1/registrations", headers=headers, json=_registration(today, "Mia", "Rua Nova")
    )
    assert second.status_code == 201, second.get_json()
    db.session.refresh(luna)
    assert luna.owner.street == "Rua Nova"
    assert luna.residence_key == services.owner_residence_key(luna.owner)


def test_clinic_never_mixes_an_address_into_an_account_holders_address(app, today) -> None:
    """A clinic registers for someone who has an account: their address (no complement) must not
    get the complement of the address the clinic typed (a dwelling that does not exist)."""
    holder = factories.user(
        cep="07000000", street="Rua Dom Pedro II", number="120", complement=None
    )
    db.session.commit()
    with app.test_request_context():
        person = services.find_or_create_owner(
            services.OwnerData(
                name="Outro Nome",
                cpf=holder.cpf,
                email=holder.email,
                address={
                    "cep": "07010000",
                    "street": "Avenida Brasil",
                    "number": "9",
                    "complement": "Bloco B apto 1203",
                    "district": "Centro",
                    "city": "Guarulhos",
                    "state": "SP",
                },
            )
        )
    assert person.id == holder.id
    assert (person.street, person.number, person.complement) == ("Rua Dom Pedro II", "120", None)
