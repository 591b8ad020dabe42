"""Deployment hardening: links from PUBLIC_BASE_URL only, foreign hosts refused in production,
a shared limiter store, trusted proxies only, login limited per account, common passwords
refused, no statement parameters in logs, UPLOAD_DIR checked, bidirectional control characters
refused in names, CSP ``base-uri``, no versions in the ``Server`` header."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

import pytest
from flask import g
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError
from werkzeug.serving import make_server

from portal import create_app
from portal.blueprints.auth.services import is_common_password
from portal.config import ProductionConfig
from portal.extensions import db
from portal.models import OutboxMessage, User
from tests import factories

STRONG = "k" * 40


@pytest.fixture
def production_env(monkeypatch, app):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SECRET_KEY", STRONG)
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://ccz.example")
    monkeypatch.setenv("RATELIMIT_ALLOW_MEMORY", "1")
    monkeypatch.setenv("UPLOAD_DIR", app.config["UPLOAD_DIR"])
    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    monkeypatch.delenv("RATELIMIT_STORAGE_URI", raising=False)
    return monkeypatch


@pytest.fixture(autouse=True)
def _dispose_production_apps(monkeypatch):  # type: ignore[no-untyped-def]
    """Production apps made here open their own engine: close it (PostgreSQL connections left
    to the garbage collector are a ResourceWarning in a later test)."""
    made = []
    real = create_app

    def tracking(*args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setitem(globals(), "create_app", tracking)
    yield
    for prod in made:
        with prod.app_context():
            db.engine.dispose()


def _last_mail(to: str) -> str:
    return (
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id.desc())
        )
        .first()
        .body
    )


def test_reset_link_follows_public_base_url_not_the_host_header(make_app) -> None:
    app = make_app(PUBLIC_BASE_URL="https://ccz.example")
    with app.app_context():
        person = factories.user()
        db.session.commit()
        client = app.test_client()
        client.post(
            "/conta/senha/esqueci", data={"email": person.email}, headers={"Host": "evil.example"}
        )
        body = _last_mail(person.email)
    assert "https://ccz.example/conta/senha/nova/" in body
    assert "evil.example" not in body


def test_confirmation_link_follows_public_base_url_not_the_host_header(make_app) -> None:
    app = make_app(PUBLIC_BASE_URL="https://ccz.example")
    with app.app_context():
        app.test_client().post(
            "/conta/cadastro",
            base_url="http://evil.example",
            data={
                "full_name": "Maria da Silva",
                "cpf": factories.make_cpf(8801),
                "birth_date": "1985-04-12",
                "email": "maria8801@example.com",
                "phone": "",
                "password": "abacate-987",
                "password_confirm": "abacate-987",
                "accept_privacy": "y",
            },
        )
        body = _last_mail("maria8801@example.com")
    assert "https://ccz.example/conta/confirmar/" in body and "evil" not in body


def test_production_refuses_to_start_without_public_base_url(production_env) -> None:
    production_env.delenv("PUBLIC_BASE_URL")
    with pytest.raises(RuntimeError, match="PUBLIC_BASE_URL"):
        ProductionConfig()


def test_production_answers_400_to_a_host_it_does_not_serve(production_env) -> None:
    production_env.setenv("ALLOWED_HOSTS", "www.ccz.example")
    prod = create_app(ProductionConfig)
    client = prod.test_client()
    assert client.get("/healthz", base_url="https://evil.example").status_code == 400
    assert (
        client.post(
            "/conta/senha/esqueci", base_url="https://evil.example", data={"email": "a@example.com"}
        ).status_code
        == 400
    )
    assert client.get("/healthz", base_url="https://ccz.example").status_code == 200
    assert client.get("/healthz", base_url="https://www.ccz.example").status_code == 200


def test_production_refuses_a_per_process_limiter_store_unless_allowed(production_env) -> None:
    production_env.delenv("RATELIMIT_ALLOW_MEMORY")
    with pytest.raises(RuntimeError, match="RATELIMIT_STORAGE_URI"):
        ProductionConfig()
    production_env.setenv("RATELIMIT_STORAGE_URI", "redis://127.0.0.1:6379/0")
    assert ProductionConfig().RATELIMIT_STORAGE_URI.startswith("redis://")


def _login_attempts(
    client,
    email: str,
    addresses: list[str],  # type: ignore[no-untyped-def]
    forwarded: bool = False,
) -> list[int]:
    codes = []
    for address in addresses:
        g.pop("_login_user", None)
        kwargs = (
            {"headers": {"X-Forwarded-For": address}}
            if forwarded
            else {"environ_base": {"REMOTE_ADDR": address}}
        )
        codes.append(
            client.post(
                "/conta/entrar", data={"email": email, "password": "x1"}, **kwargs
            ).status_code
        )
    return codes


def test_login_is_also_limited_per_account_across_addresses(client) -> None:
    codes = _login_attempts(client, "alvo@example.com", [f"10.1.0.{i}" for i in range(11)])
    assert codes[-1] == 429 and 429 not in codes[:10]
    # another account from a fresh address is not affected
    assert _login_attempts(client, "outra@example.com", ["10.2.0.1"]) == [200]


def test_a_client_supplied_x_forwarded_for_does_not_dodge_the_ip_limit(client) -> None:
    """PROXY_FIX_X_FOR=0 (default): the peer address counts, whatever the header says."""
    emails = [f"p{i}@example.com" for i in range(11)]
    codes = []
    for i, email in enumerate(emails):
        g.pop("_login_user", None)
        codes.append(
            client.post(
                "/conta/entrar",
                data={"email": email, "password": "x1"},
                headers={"X-Forwarded-For": f"10.3.0.{i}"},
            ).status_code
        )
    assert codes[-1] == 429


def test_a_configured_proxy_hop_gives_the_real_client_address(make_app) -> None:
    app = make_app(PROXY_FIX_X_FOR=1)
    with app.app_context():
        from flask import request

        seen = []
        app.after_request(lambda response: seen.append(request.remote_addr) or response)
        app.test_client().get("/healthz", headers={"X-Forwarded-For": "203.0.113.9"})
    assert seen == ["203.0.113.9"]


@pytest.mark.parametrize(
    "password", ["senha123", "12345678", "password", "Brasil2024", "abc12345", "qwerty123"]
)
def test_common_passwords_are_refused(client, password) -> None:
    assert is_common_password(password)
    response = client.post(
        "/conta/cadastro",
        data={
            "full_name": "Maria da Silva",
            "cpf": factories.make_cpf(8802),
            "birth_date": "1985-04-12",
            "email": "maria8802@example.com",
            "phone": "",
            "password": password,
            "password_confirm": password,
            "accept_privacy": "y",
        },
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "mais usadas" in html or "letras e números" in html
    assert db.session.scalar(select(User).where(User.email == "maria8802@example.com")) is None


def test_the_common_password_list_is_shipped_and_large() -> None:
    from pathlib import Path

    import portal.blueprints.auth as auth_pkg

    words = [
        w
        for w in (
            Path(auth_pkg.__file__)
            .with_name("common_passwords.txt")
            .read_text(encoding="utf-8")
            .splitlines()
        )
        if w and w[0] != "#"
    ]
    assert len(words) >= 300 and "senha123" in words
    assert not is_common_password("tigre-azul-do-cerrado-9")


def test_statement_parameters_never_reach_an_error_message(app) -> None:
    """The message of a failed statement (what the error log prints) carries no parameters.
    (PostgreSQL's own DETAIL of a unique violation still quotes the key: see the report.)"""
    cpf = factories.make_cpf(8803)
    with pytest.raises(DBAPIError) as err:
        db.session.execute(
            text("SELECT * FROM tabela_que_nao_existe WHERE cpf = :cpf"), {"cpf": cpf}
        )
    db.session.rollback()
    assert cpf not in str(err.value)
    assert "parameters hidden" in str(err.value)


def test_unwritable_upload_dir_is_reported_at_start_and_by_healthz(
    make_app, tmp_path, caplog
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    app = make_app(UPLOAD_DIR=str(blocked))
    assert "UPLOAD_DIR" in caplog.text
    with app.app_context():
        response = app.test_client().get("/healthz")
    assert response.status_code == 503 and response.get_json()["uploads"] == "unwritable"


def test_production_refuses_to_start_with_an_unwritable_upload_dir(
    production_env, tmp_path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    production_env.setenv("UPLOAD_DIR", str(blocked))
    with pytest.raises(RuntimeError, match="UPLOAD_DIR"):
        create_app(ProductionConfig)


def test_healthz_reports_writable_uploads(client) -> None:
    body = client.get("/healthz").get_json()
    assert body["uploads"] == "ok"


BIDI = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u200e"]


@pytest.mark.parametrize("char", BIDI)
def test_names_with_bidirectional_controls_are_refused_at_sign_up(client, char) -> None:
    response = client.post(
        "/conta/cadastro",
        data={
            "full_name": f"Maria {char}avliS",
            "cpf": factories.make_cpf(8804),
            "birth_date": "1985-04-12",
            "email": "maria8804@example.com",
            "phone": "",
            "password": "abacate-987",
            "password_confirm": "abacate-987",
            "accept_privacy": "y",
        },
    )
    assert "caracteres invisíveis" in response.get_data(as_text=True)
    assert db.session.scalar(select(User).where(User.email == "maria8804@example.com")) is None


def test_address_with_bidirectional_controls_is_refused_on_the_profile(client, auth) -> None:
    auth.login()
    response = client.post(
        "/minha-conta/",
        data={
            "email": "x@example.com",
            "cep": "07010-000",
            "street": "Rua \u202eUm",
            "number": "1",
            "district": "Centro",
            "city": "Guarulhos",
            "state": "SP",
            "housing_type": "house",
        },
    )
    assert "caracteres invisíveis" in response.get_data(as_text=True)


def test_csp_forbids_base_tags(client) -> None:
    assert "base-uri 'none'" in client.get("/").headers["Content-Security-Policy"]


def test_server_header_names_no_versions(production_env) -> None:
    production_env.setenv("PUBLIC_BASE_URL", "http://127.0.0.1")
    server = make_server("127.0.0.1", 0, create_app(ProductionConfig))
    # a short poll: shutdown() waits up to one poll interval (0.5 s by default) per test
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        try:  # a page that needs no database (the server thread cannot see the test's)
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/nao-existe") as answer:
                header = answer.headers.get_all("Server")
        except urllib.error.HTTPError as err:
            header = err.headers.get_all("Server")
    finally:
        server.shutdown()
    assert header == ["CCZ"]
