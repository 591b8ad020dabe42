"""Issue 8, security 2: an owner record a clinic created cannot be taken over.

A second establishment never changes the contact data of a person it did not create (it leaves
a suggestion the person accepts or dismisses); the owner is told by e-mail when an animal is
attached to their CPF; claiming the record at sign-up needs the link sent to the e-mail ON FILE,
and until then the claimant is not signed in and sees nothing. Sign-up answers the same whether
the CPF or the e-mail is known."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import g
from sqlalchemy import select

from portal.blueprints.animals import services as animal_services
from portal.extensions import db
from portal.models import ContactSuggestion, OutboxMessage, User
from portal.services.api_auth import issue_client
from tests import factories

CPF = "52998224725"
REAL, ATTACKER = "dona.real@example.com", "atacante@example.com"


@pytest.fixture
def clinics(app):  # type: ignore[no-untyped-def]
    first, first_token = issue_client("establishment", "Clínica Primeira")
    second, second_token = issue_client("establishment", "Clínica Segunda")
    db.session.commit()
    return ({"Authorization": f"Bearer {first_token}"}, {"Authorization": f"Bearer {second_token}"})


def _registration(
    app,
    email: str,
    name: str = "Luna",
    chip: str | None = None,  # type: ignore[no-untyped-def]
    street: str = "Rua Um",
):
    today = animal_services.local_today(app.extensions["portal_profile"])
    return {
        "animal": {
            "name": name,
            "species": "cat",
            "sex": "female",
            "breed": "SRD",
            "color": "Preta",
            "birth_date": (today - timedelta(days=150)).isoformat(),
            "size": "small",
            "microchip": chip,
        },
        "owner": {
            "name": "Dona Real",
            "cpf": CPF,
            "email": email,
            "phone": "11 95555-4444",
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


def _mails(to: str) -> list[OutboxMessage]:
    return list(
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id)
        )
    )


def _signup(client, email: str, cpf: str = CPF):  # type: ignore[no-untyped-def]
    g.pop("_login_user", None)
    return client.post(
        "/conta/cadastro",
        data={
            "full_name": "Quem Chegou",
            "cpf": cpf,
            "birth_date": "1980-05-01",
            "email": email,
            "phone": "",
            "password": "abacate-987",
            "password_confirm": "abacate-987",
            "accept_privacy": "y",
        },
    )


def _signed_in(client) -> bool:  # type: ignore[no-untyped-def]
    g.pop("_login_user", None)
    return client.get("/minha-conta/").status_code == 200


def test_a_second_clinic_cannot_replace_the_owners_email(app, client, clinics) -> None:
    first, second = clinics
    assert (
        client.post(
            "/api/v1/registrations", json=_registration(app, REAL), headers=first
        ).status_code
        == 201
    )
    attack = client.post(
        "/api/v1/registrations",
        headers=second,
        json=_registration(app, ATTACKER, name="Mimi", street="Rua Dois"),
    )
    assert attack.status_code == 201  # the animal is attached to the existing CPF
    owner = db.session.scalar(select(User).where(User.cpf == CPF))
    assert owner.email == REAL and owner.street == "Rua Um"
    suggestion = db.session.scalar(
        select(ContactSuggestion).where(ContactSuggestion.user_id == owner.id)
    )
    assert suggestion.email == ATTACKER and suggestion.resolved_at is None
    # the owner is told at the address on file, the attacker's address gets nothing
    assert any("Mimi" in m.body for m in _mails(REAL))
    assert _mails(ATTACKER) == []


def test_the_clinic_that_created_the_record_may_still_correct_it(app, client, clinics) -> None:
    first, _second = clinics
    client.post("/api/v1/registrations", json=_registration(app, "erro@example.com"), headers=first)
    client.post("/api/v1/registrations", json=_registration(app, REAL, name="Tom"), headers=first)
    owner = db.session.scalar(select(User).where(User.cpf == CPF))
    assert owner.email == REAL


def test_claiming_a_record_needs_the_link_sent_to_the_email_on_file(app, client, clinics) -> None:
    first, second = clinics
    client.post("/api/v1/registrations", json=_registration(app, REAL), headers=first)
    client.post(
        "/api/v1/registrations", headers=second, json=_registration(app, ATTACKER, name="Mimi")
    )
    response = _signup(client, ATTACKER)
    assert response.status_code == 302 and "/conta/cadastro/enviado" in response.headers["Location"]
    assert not _signed_in(client)
    owner = db.session.scalar(select(User).where(User.cpf == CPF))
    assert not owner.has_account
    # the attacker's address learns nothing useful; the link goes to the real owner
    assert all("/conta/ativar/" not in m.body for m in _mails(ATTACKER))
    link = re.search(r"http://localhost(/conta/ativar/\S+)", _mails(REAL)[-1].body).group(1)
    # the real owner opens it from their mailbox, sets a password and sees the animals
    owner_browser = app.test_client()
    g.pop("_login_user", None)
    done = owner_browser.post(
        link,
        data={
            "password": "gato-preto-55",
            "password_confirm": "gato-preto-55",
            "accept_privacy": "y",
        },
    )
    assert done.status_code == 302
    db.session.refresh(owner)
    assert owner.has_account and owner.email == REAL and owner.email_confirmed_at is not None
    g.pop("_login_user", None)
    assert "Luna" in owner_browser.get("/animais/").get_data(as_text=True)
    # the link is single-use
    g.pop("_login_user", None)
    again = app.test_client().post(
        link,
        data={
            "password": "outra-senha-66",
            "password_confirm": "outra-senha-66",
            "accept_privacy": "y",
        },
    )
    assert "/conta/entrar" in again.headers["Location"]
    # and the owner sees the second clinic's suggestion, and dismisses it
    g.pop("_login_user", None)
    page = owner_browser.get("/minha-conta/").get_data(as_text=True)
    assert "Clínica Segunda" in page and ATTACKER in page
    suggestion = db.session.scalar(select(ContactSuggestion))
    g.pop("_login_user", None)
    owner_browser.post(f"/minha-conta/sugestoes/{suggestion.id}/descartar")
    db.session.refresh(suggestion)
    assert suggestion.resolution == "dismissed"


def test_owner_accepts_a_suggestion_with_the_password(app, client, clinics, auth) -> None:
    _first, second = clinics
    person = factories.user(
        cpf=CPF,
        email=REAL,
        cep="07010000",
        street="Rua Um",
        number="10",
        district="Centro",
        city="Guarulhos",
        state="SP",
    )
    db.session.commit()
    client.post(
        "/api/v1/registrations",
        headers=second,
        json=_registration(app, "nova.dona@example.com", street="Rua Nova"),
    )
    db.session.refresh(person)
    assert person.email == REAL and person.street == "Rua Um"
    assert any("dados de contato diferentes" in m.body for m in _mails(REAL))
    suggestion = db.session.scalar(select(ContactSuggestion))
    auth.login(person)
    g.pop("_login_user", None)
    client.post(
        f"/minha-conta/sugestoes/{suggestion.id}/aceitar", data={"current_password": "errada"}
    )
    db.session.refresh(person)
    assert person.email == REAL
    g.pop("_login_user", None)
    client.post(
        f"/minha-conta/sugestoes/{suggestion.id}/aceitar",
        data={"current_password": factories.PASSWORD},
    )
    db.session.refresh(person)
    assert person.email == "nova.dona@example.com" and person.street == "Rua Nova"
    assert any("foi trocado" in m.body for m in _mails(REAL))


def test_another_persons_suggestion_is_404(app, client, clinics, auth) -> None:
    _first, second = clinics
    factories.user(cpf=CPF, email=REAL)
    db.session.commit()
    client.post("/api/v1/registrations", headers=second, json=_registration(app, ATTACKER))
    suggestion = db.session.scalar(select(ContactSuggestion))
    auth.login()
    g.pop("_login_user", None)
    assert (
        client.post(
            f"/minha-conta/sugestoes/{suggestion.id}/aceitar",
            data={"current_password": factories.PASSWORD},
        ).status_code
        == 404
    )


def test_sign_up_answers_the_same_for_known_cpf_known_email_and_clinic_record(app, client) -> None:
    holder = factories.user(email="ja.tem@example.com")
    factories.user(cpf=factories.make_cpf(7701), email="dona.cpf@example.com")
    db.session.add(
        User(
            full_name="Registro da Clínica",
            cpf=factories.make_cpf(7702),
            email="clinica@example.com",
        )
    )
    db.session.commit()
    answers = []
    for email, cpf in (
        ("nova1@example.com", factories.make_cpf(7701)),  # CPF has an account
        (holder.email, factories.make_cpf(7703)),  # e-mail is taken
        ("nova2@example.com", factories.make_cpf(7702)),
    ):  # a clinic's record
        response = _signup(client, email, cpf)
        assert not _signed_in(client)
        page = client.get(response.headers["Location"]).get_data(as_text=True)
        answers.append(
            (
                response.status_code,
                response.headers["Location"],
                re.sub(r'name="csrf_token"[^>]*>', "", page).replace(email, "EMAIL"),
            )
        )
    assert answers[0] == answers[1] == answers[2]
    assert "já tem uma conta" in _mails("nova1@example.com")[-1].body
    assert "já está ligado a um cadastro" in _mails(holder.email)[-1].body
    assert "/conta/ativar/" in _mails("clinica@example.com")[-1].body
