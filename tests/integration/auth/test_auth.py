"""Sign-up, confirmation, login, reset: the account journey and its failure paths."""

import re

from sqlalchemy import select

from portal.extensions import db
from portal.models import OutboxMessage, User
from tests import factories

VALID = {
    "full_name": "Maria da Silva",
    "cpf": "529.982.247-25",
    "birth_date": "1985-04-12",
    "email": "maria@example.com",
    "phone": "11 98888-7777",
    "password": "abacate123",
    "password_confirm": "abacate123",
    "accept_privacy": "y",
}


def _last_link(to: str) -> str:
    message = db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id.desc())
    ).first()
    assert message is not None
    found = re.search(r"http://localhost(/\S+)", message.body)
    assert found is not None
    return found.group(1)


def _last_body(to: str) -> str:
    message = db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id.desc())
    ).first()
    assert message is not None
    return message.body


def test_signup_creates_a_citizen_with_hashed_password_and_sends_confirmation(client) -> None:
    response = client.post("/conta/cadastro", data=VALID)
    assert response.status_code == 302
    user = db.session.scalar(select(User).where(User.cpf == "52998224725"))
    assert user is not None and user.roles == {"citizen"}
    assert user.password_hash.startswith("$argon2")
    assert user.privacy_accepted_at is not None
    assert user.email_confirmed_at is None
    link = _last_link("maria@example.com")
    client.get(link)
    db.session.refresh(user)
    assert user.email_confirmed_at is not None


def test_signup_with_invalid_cpf_keeps_what_was_typed(client) -> None:
    response = client.post("/conta/cadastro", data={**VALID, "cpf": "529.982.247-26"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "CPF inválido" in html
    assert 'value="Maria da Silva"' in html and 'value="maria@example.com"' in html


def test_one_account_per_cpf(client) -> None:
    holder = factories.user(cpf="52998224725")
    db.session.commit()
    response = client.post("/conta/cadastro", data=VALID, follow_redirects=True)
    # issue 8: a neutral answer on the page, the explanation by e-mail
    assert "Enviamos um e-mail para maria@example.com" in response.get_data(as_text=True)
    assert db.session.scalars(select(User).where(User.cpf == "52998224725")).all() == [holder]
    assert "já tem uma conta" in _last_body("maria@example.com")


def test_signup_requires_privacy_acceptance(client) -> None:
    data = {k: v for k, v in VALID.items() if k != "accept_privacy"}
    html = client.post("/conta/cadastro", data=data).get_data(as_text=True)
    assert "aviso de privacidade" in html
    assert db.session.scalar(select(User).where(User.cpf == "52998224725")) is None


def test_person_registered_by_a_clinic_claims_the_record_by_cpf_and_email(client) -> None:
    owner = User(full_name="Maria", cpf="52998224725", email="maria@example.com")
    db.session.add(owner)
    db.session.commit()
    assert client.post("/conta/cadastro", data=VALID).status_code == 302
    db.session.refresh(owner)
    assert not owner.has_account  # issue 8: only through the link mailed to the e-mail on file
    link = _last_link("maria@example.com")
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
    assert owner.has_account and "citizen" in owner.roles


def test_login_wrong_password_then_right(client) -> None:
    person = factories.user()
    db.session.commit()
    bad = client.post("/conta/entrar", data={"email": person.email, "password": "errada123"})
    assert "E-mail ou senha incorretos" in bad.get_data(as_text=True)
    good = client.post(
        "/conta/entrar", data={"email": person.email, "password": factories.PASSWORD}
    )
    assert good.status_code == 302
    assert client.get("/minha-conta/").status_code == 200


def test_login_is_rate_limited(client) -> None:
    for _ in range(10):
        client.post("/conta/entrar", data={"email": "x@example.com", "password": "nope12345"})
    response = client.post(
        "/conta/entrar", data={"email": "x@example.com", "password": "nope12345"}
    )
    assert response.status_code == 429
    assert "Muitas tentativas" in response.get_data(as_text=True)


def test_password_reset_token_is_single_use(client) -> None:
    person = factories.user()
    db.session.commit()
    client.post("/conta/senha/esqueci", data={"email": person.email})
    link = _last_link(person.email or "")
    assert (
        client.post(
            link, data={"password": "novasenha9", "password_confirm": "novasenha9"}
        ).status_code
        == 302
    )
    again = client.post(link, data={"password": "outrasenha9", "password_confirm": "outrasenha9"})
    assert again.status_code == 302 and "esqueci" in again.headers["Location"]
    ok = client.post("/conta/entrar", data={"email": person.email, "password": "novasenha9"})
    assert ok.status_code == 302


def test_reset_request_does_not_reveal_whether_an_account_exists(client) -> None:
    a = client.post(
        "/conta/senha/esqueci", data={"email": "ninguem@example.com"}, follow_redirects=True
    )
    assert "Se houver uma conta" in a.get_data(as_text=True)


def test_session_cookie_is_httponly_and_samesite_lax(client) -> None:
    person = factories.user()
    db.session.commit()
    response = client.post(
        "/conta/entrar",
        data={"email": person.email, "password": factories.PASSWORD, "remember": "y"},
    )
    cookies = response.headers.getlist("Set-Cookie")
    session_cookie = next(c for c in cookies if c.startswith("session="))
    assert "HttpOnly" in session_cookie and "SameSite=Lax" in session_cookie


def test_profile_shows_cpf_masked_and_exports_lgpd_json(client, auth) -> None:
    person = auth.login()
    html = client.get("/minha-conta/").get_data(as_text=True)
    assert person.cpf not in html
    assert f"***.{person.cpf[3:6]}" in html
    data = client.get("/minha-conta/meus-dados.json").get_json()
    assert data["conta"]["cpf"] == person.cpf
    assert data["conta"]["email"] == person.email


def test_profile_update_keeps_typed_values_on_error(client, auth) -> None:
    auth.login()
    response = client.post(
        "/minha-conta/",
        data={
            "email": "novo@example.com",
            "cep": "123",
            "street": "Rua Nova",
            "number": "10",
            "district": "Centro",
            "city": "Guarulhos",
            "state": "SP",
            "housing_type": "house",
        },
    )
    html = response.get_data(as_text=True)
    assert "CEP deve ter 8 dígitos" in html
    assert 'value="Rua Nova"' in html


def test_new_account_address_starts_in_the_portal_municipality(client, auth) -> None:
    person = factories.user(state=None, city=None, housing_type=None)
    db.session.commit()
    auth.login(person)
    html = client.get("/minha-conta/").get_data(as_text=True)
    assert '<option selected value="SP">' in html or 'value="SP" selected' in html
    assert 'value="Guarulhos"' in html
