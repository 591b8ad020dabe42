"""Issue 26, Low 9: the password rule the pages state is the one applied, everywhere.

"Ao menos 8 caracteres, com letras e números": a password without a digit or without a letter is
refused (``abc!@#$%`` and ``12345678!`` passed before), and so is one that carries the person's
own name (parts of 4 letters or more), e-mail or CPF, with a clear message next to the field."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from portal.blueprints.auth.passwords import password_problem
from portal.extensions import db
from portal.models import OutboxMessage, User
from tests import factories

SIGNUP = {
    "full_name": "Maria Conceição Souza",
    "cpf": "529.982.247-25",
    "birth_date": "1985-04-12",
    "email": "flordelis.m@example.com",
    "phone": "11 98888-7777",
    "accept_privacy": "y",
}


def _signup(client, password: str):  # type: ignore[no-untyped-def]
    data = {**SIGNUP, "password": password, "password_confirm": password}
    return client.post("/conta/cadastro", data=data)


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("abc!@#$%&", "com letras e números"),  # no digit (not "only letters": passed before)
        ("12345678!", "com letras e números"),  # no letter
        ("curta1", "com letras e números"),
        ("souza-2024", "seu nome ou sobrenome"),
        ("SOUZA2024!", "seu nome ou sobrenome"),
        ("conceicao77", "seu nome ou sobrenome"),  # without the accents, still the name
        ("ma.ria.1985", "seu nome ou sobrenome"),  # dots do not hide it
        ("flordelis99", "seu e-mail"),
        ("x52998224725", "seu CPF"),
        ("529.982.247-25a", "seu CPF"),
    ],
)
def test_signup_refuses_weak_and_personal_passwords(client, password, message) -> None:
    response = _signup(client, password)
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)
    assert db.session.scalar(select(User).where(User.cpf == "52998224725")) is None


def test_signup_keeps_what_was_typed_when_the_password_is_refused(client) -> None:
    html = _signup(client, "souza-2024").get_data(as_text=True)
    assert 'value="Maria Conceição Souza"' in html and 'value="flordelis.m@example.com"' in html


def test_signup_accepts_a_password_with_letters_and_numbers(client) -> None:
    assert _signup(client, "abacate-azul-42").status_code == 302


def test_short_name_parts_do_not_block_a_password() -> None:
    """ "Ana", "da", "de" are too short to be a guess: "dado" or "banana" stay possible."""
    assert password_problem("banana-dado-42", full_name="Ana da Luz", email="al@x.com") is None


def test_password_reset_refuses_the_persons_own_name(client) -> None:
    person = factories.user(full_name="Rosângela Pereira")
    db.session.commit()
    client.post("/conta/senha/esqueci", data={"email": person.email})
    mail = db.session.scalars(
        select(OutboxMessage)
        .where(OutboxMessage.to == person.email)
        .order_by(OutboxMessage.id.desc())
    ).one()
    found = re.search(r"http://localhost(/\S+)", mail.body)
    assert found is not None
    link = found.group(1)
    refused = client.post(link, data={"password": "rosangela1", "password_confirm": "rosangela1"})
    assert refused.status_code == 200
    assert "A senha não pode conter o seu nome" in refused.get_data(as_text=True)
    ok = client.post(
        link, data={"password": "cafe-com-pao-7", "password_confirm": "cafe-com-pao-7"}
    )
    assert ok.status_code == 302


def test_password_change_refuses_the_persons_cpf_and_email(client, auth) -> None:
    person = factories.user(full_name="Tiago Lima", email="girassol77@example.com")
    db.session.commit()
    auth.login(person)
    base = {"senha-current_password": factories.PASSWORD}
    for password, message in (
        (f"{person.cpf}x", "seu CPF"),
        ("girassol-9", "seu e-mail"),
        ("semdigitos!", "com letras e números"),
    ):
        page = client.post(
            "/minha-conta/senha",
            data={**base, "senha-password": password, "senha-password_confirm": password},
        )
        assert page.status_code == 200 and message in page.get_data(as_text=True), password


def test_create_user_command_applies_the_same_rule(app) -> None:
    runner = app.test_cli_runner()
    args = ["create-user", "--email", "chefe@ccz.example", "--name", "Roberto Chefe"]
    for weak in ("roberto123", "somenteletras", "12345678"):
        result = runner.invoke(args=[*args, "--password", weak, "--role", "admin"])
        assert result.exit_code != 0, weak
    assert db.session.scalar(select(User).where(User.email == "chefe@ccz.example")) is None
    ok = runner.invoke(args=[*args, "--password", "x1y2z3w4", "--role", "admin"])
    assert ok.exit_code == 0, ok.output
