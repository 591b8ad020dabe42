"""Sign-up answers alike for a new CPF, a known CPF and a known e-mail (issue 8, follow-ups).

Before this, a new CPF was signed in at once while a known one got a neutral page: the answer
itself told whether a CPF had an account. Now every sign-up gets the same "we sent you an e-mail"
page, nobody is signed in, and a new account opens only through the link mailed to it.
"""

import re

import pytest
from sqlalchemy import select

from portal.blueprints.auth import services
from portal.extensions import db
from portal.models import OutboxMessage, User
from tests import factories

FORM = {
    "full_name": "Maria da Silva",
    "birth_date": "1985-04-12",
    "phone": "11 98888-7777",
    "password": "abacate123",
    "password_confirm": "abacate123",
    "accept_privacy": "y",
}


def _signup(client, cpf: str, email: str):  # type: ignore[no-untyped-def]
    return client.post("/conta/cadastro", data={**FORM, "cpf": cpf, "email": email})


def _last_link(to: str) -> str:
    message = db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id.desc())
    ).first()
    assert message is not None
    return re.search(r"http://localhost(/\S+)", message.body).group(1)  # type: ignore[union-attr]


def _mails(to: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == to)))


def _signed_in(client) -> bool:  # type: ignore[no-untyped-def]
    return client.get("/minha-conta/").status_code == 200


def _normalised(html: str, email: str) -> str:
    html = re.sub(r'name="csrf_token" type="hidden" value="[^"]+"', "CSRF", html)
    html = re.sub(r'<meta name="csrf-token" content="[^"]+"', "CSRF", html)
    return html.replace(email, "EMAIL")


def test_signup_answers_byte_identically_for_new_cpf_known_cpf_and_known_email(app) -> None:
    known_cpf = factories.make_cpf(8801)
    factories.user(cpf=known_cpf, email="dona@example.com")
    factories.user(email="ocupado@example.com")
    db.session.commit()
    cases = [
        (factories.make_cpf(8802), "nova@example.com"),  # new CPF, new e-mail
        (known_cpf, "outra@example.com"),  # known CPF
        (factories.make_cpf(8803), "ocupado@example.com"),  # known e-mail
    ]
    answers = []
    for cpf, email in cases:
        client = app.test_client()
        posted = _signup(client, cpf, email)
        page = client.get(posted.headers["Location"])
        answers.append(
            (
                posted.status_code,
                posted.headers["Location"],
                posted.get_data(),
                page.status_code,
                _normalised(page.get_data(as_text=True), email),
            )
        )
        assert not _signed_in(client), email
        assert _mails(email), email  # what happened is said by e-mail only
    assert answers[0][0] == 302
    assert answers[0] == answers[1] == answers[2]


def test_new_account_opens_only_through_the_confirmation_link(client) -> None:
    email = "rita@example.com"
    _signup(client, factories.make_cpf(8804), email)
    user = db.session.scalar(select(User).where(User.email == email))
    assert user is not None and user.activation_pending and user.email_confirmed_at is None
    # The password alone does not open it (it would tell that the CPF was new).
    login = client.post("/conta/entrar", data={"email": email, "password": "abacate123"})
    assert "E-mail ou senha incorretos" in login.get_data(as_text=True)
    assert not _signed_in(client)
    confirmed = client.get(_last_link(email))
    assert confirmed.headers["Location"].endswith("/conta/entrar")
    assert not _signed_in(client)  # the link confirms; the password signs in
    db.session.refresh(user)
    assert not user.activation_pending and user.email_confirmed_at is not None
    login = client.post("/conta/entrar", data={"email": email, "password": "abacate123"})
    assert login.status_code == 302 and _signed_in(client)


def test_both_branches_hash_the_password(app, client, monkeypatch) -> None:
    """The delay must not tell a new CPF from a known one: both pay for one argon2 hash."""
    factories.user(email="ja@example.com")
    db.session.commit()
    calls: list[str] = []
    real = services.hash_password

    def counting(password: str) -> str:
        calls.append(password)
        return real(password)

    monkeypatch.setattr(services, "hash_password", counting)
    _signup(client, factories.make_cpf(8805), "novo@example.com")
    _signup(app.test_client(), factories.make_cpf(8806), "ja@example.com")
    assert calls == ["abacate123", "abacate123"]


def test_resend_repeats_the_email_and_is_rate_limited(client) -> None:
    email = "bia@example.com"
    _signup(client, factories.make_cpf(8807), email)
    page = client.get("/conta/cadastro/enviado").get_data(as_text=True)
    assert "Reenviar e-mail" in page and 'action="/conta/cadastro/reenviar"' in page
    codes = [client.post("/conta/cadastro/reenviar").status_code for _ in range(4)]
    assert codes == [302, 302, 302, 429]
    assert len(_mails(email)) == 4  # the first one and three more
    assert "/conta/confirmar/" in _mails(email)[-1].body


def test_resend_for_a_known_cpf_explains_again_without_a_link_to_the_account(client) -> None:
    factories.user(cpf=factories.make_cpf(8808))
    db.session.commit()
    _signup(client, factories.make_cpf(8808), "curiosa@example.com")
    client.post("/conta/cadastro/reenviar")
    bodies = [m.body for m in _mails("curiosa@example.com")]
    assert len(bodies) == 2 and all("já tem uma conta" in b for b in bodies)


def test_resend_without_a_signup_goes_back_to_the_form(client) -> None:
    assert client.post("/conta/cadastro/reenviar").headers["Location"].endswith("/conta/cadastro")
    assert client.get("/conta/cadastro/enviado").headers["Location"].endswith("/conta/cadastro")


def test_mistyped_email_a_new_signup_replaces_the_unconfirmed_one(client) -> None:
    cpf = factories.make_cpf(8809)
    _signup(client, cpf, "errado@example.com")
    stale_link = _last_link("errado@example.com")
    _signup(client, cpf, "certo@example.com")
    users = db.session.scalars(select(User).where(User.cpf == cpf)).all()
    assert len(users) == 1 and users[0].email == "certo@example.com"
    assert client.get(stale_link).headers["Location"].endswith("/conta/entrar")
    db.session.refresh(users[0])
    assert users[0].activation_pending  # the old address's link no longer opens it
    client.get(_last_link("certo@example.com"))
    db.session.refresh(users[0])
    assert not users[0].activation_pending


def test_forgot_password_sends_a_lost_activation_link_again(client) -> None:
    _signup(client, factories.make_cpf(8810), "perdi@example.com")
    client.post("/conta/senha/esqueci", data={"email": "perdi@example.com"})
    assert "/conta/confirmar/" in _mails("perdi@example.com")[-1].body


@pytest.mark.parametrize("field", ["cpf"])
def test_account_error_is_a_domain_error(field: str) -> None:
    from portal.domain import DomainError

    err = services.AccountError(field, "cpf_invalid", "CPF inválido")
    assert isinstance(err, DomainError) and err.as_api()["code"] == "cpf_invalid"
