"""CPF privacy: never in a URL (no GET form asks for it, no link or redirect carries it), never in
a log line, and shown masked on every page; only the owner's LGPD export has it in full."""

from __future__ import annotations

import logging
import re

import pytest
from flask import g
from sqlalchemy import select

from portal.extensions import db
from portal.models import Organization, OrganizationMember
from tests import factories
from tests.factories import object_urls

GET_FORM = re.compile(r"<form\b[^>]*\bmethod=\"get\"[^>]*>(.*?)</form>", re.S | re.I)
TEXT = ("text/html", "application/json")
LINK = re.compile(r"""(?:href|action|src)=["']([^"']+)["']""")


def _formatted(cpf: str) -> str:
    return f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"


def _boss():  # type: ignore[no-untyped-def]
    boss = factories.user(roles=("citizen", "ngo", "agent", "vet", "coordinator", "admin"))
    org = db.session.scalars(select(Organization)).first()
    db.session.add(OrganizationMember(organization_id=org.id, user_id=boss.id))
    db.session.commit()
    return boss


def _get_pages(app, client, world):  # type: ignore[no-untyped-def]
    """Every page without arguments plus every object page, as whoever is signed in."""
    plain = [
        r.rule
        for r in app.url_map.iter_rules()
        if "GET" in (r.methods or ()) and not r.arguments and r.endpoint != "static"
    ]
    with_args = [url for _e, method, url in object_urls(app, world) if method == "GET"]
    for url in plain + with_args:
        g.pop("_login_user", None)
        response = client.get(url)
        body = response.get_data(as_text=True) if response.mimetype in TEXT else ""
        response.close()  # PDFs and files are streamed from disk
        yield url, response, body


@pytest.fixture
def log_records():  # type: ignore[no-untyped-def]
    class Keep(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.DEBUG)
            self.lines: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.lines.append(self.format(record))

    handler = Keep()
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    root.setLevel(logging.DEBUG)
    root.addHandler(handler)
    yield handler.lines
    root.removeHandler(handler)
    root.setLevel(old_level)


@pytest.mark.walker  # every URL: once, in the SQLite run (tests/conftest.py)
def test_no_get_form_asks_for_a_cpf_and_no_link_carries_one(app, client, auth, world):
    boss = _boss()
    auth.login(boss)
    cpf = world.victim_cpf
    problems = []
    for url, response, body in _get_pages(app, client, world):
        for form in GET_FORM.findall(body):
            if "CPF" in form:
                problems.append(("GET form asks for a CPF", url))
        for link in LINK.findall(body) + [response.headers.get("Location") or ""]:
            if cpf in link.replace(".", "").replace("-", ""):
                problems.append(("CPF in a link", url, link))
    assert not problems, problems


def test_staff_payment_search_by_cpf_is_posted_not_put_in_the_url(app, client, auth, world):
    auth.login(_boss())
    response = client.post("/pagamentos/ccz/", data={"q": _formatted(world.victim_cpf)})
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Demonstração: taxa do CCZ" in body
    assert not [form for form in GET_FORM.findall(body) if "CPF" in form]


def test_header_search_with_a_cpf_does_not_send_it_on_to_the_rga_page(client, world):
    response = client.get("/busca", query_string={"q": _formatted(world.victim_cpf)})
    assert response.status_code == 200  # answered here: no redirect carries it on
    assert "Location" not in response.headers
    assert "CPF" in response.get_data(as_text=True)


@pytest.mark.walker  # every URL: once, in the SQLite run (tests/conftest.py)
def test_cpf_is_masked_on_every_page_for_owner_and_staff(app, client, auth, world):
    cpf = world.victim_cpf
    shown = []
    for who in (world.victim, _boss()):
        auth.logout()
        g.pop("_login_user", None)
        auth.login(who, password="demo12345" if who.id == world.victim.id else factories.PASSWORD)
        for url, _response, body in _get_pages(app, client, world):
            if cpf in body or _formatted(cpf) in body:
                shown.append((who.email, url))
    assert shown == [("cidada@demo.ccz", "/minha-conta/meus-dados.json")]


@pytest.mark.walker  # every URL: once, in the SQLite run (tests/conftest.py)
def test_cpf_never_reaches_a_log_line(app, client, auth, world, log_records):
    cpf = world.victim_cpf
    # Sign-up attempts with the CPF taken, malformed, and by someone else's e-mail.
    for data in ({"cpf": cpf}, {"cpf": cpf[:-1] + "0"}, {"cpf": _formatted(cpf)}):
        client.post(
            "/conta/cadastro",
            data={
                "full_name": "Outra Pessoa",
                "birth_date": "1990-01-01",
                "email": "outra@example.com",
                "phone": "11 98888-0000",
                "password": "senha-forte-123",
                "password_confirm": "senha-forte-123",
                "accept_privacy": "y",
                **data,
            },
        )
    client.post("/conta/senha/esqueci", data={"email": "cidada@demo.ccz"})  # mail to the log
    victim_page = client.get("/busca", query_string={"q": cpf})
    assert victim_page.status_code == 200 and "Location" not in victim_page.headers
    boss = _boss()
    auth.login(boss)
    client.post("/admin/usuarios", data={"q": cpf})
    client.post("/pagamentos/ccz/", data={"q": cpf})
    client.post("/adocao/gestao/impedimentos", data={"cpf": cpf})
    client.post(f"/animais/{world.rgas[0]}/transferir", data={"cpf": cpf, "confirm": "y"})
    client.post(
        "/api/v1/registrations",
        json={"owner": {"cpf": cpf, "name": "X"}},
        headers={"Authorization": "Bearer ccz_nope"},
    )
    for _page in _get_pages(app, client, world):
        pass
    auth.logout()
    auth.login(world.victim, password="demo12345")
    g.pop("_login_user", None)
    client.post(f"/animais/{world.rgas[0]}/transferir", data={"cpf": _formatted(cpf)})
    client.post(
        f"/animais/{world.rgas[0]}/transferir", data={"cpf": _formatted(factories.make_cpf(999))}
    )
    client.get("/minha-conta/meus-dados.json")
    leaked = [line for line in log_records if cpf in line or _formatted(cpf) in line]
    assert not leaked, leaked
    assert log_records, "the capture saw nothing: the test would prove nothing"


def test_a_database_error_quoting_a_cpf_is_masked_in_the_log(app, log_records) -> None:
    """PostgreSQL's unique-violation detail quotes the value; the log line must not."""
    import logging as log

    from sqlalchemy.exc import IntegrityError

    first = factories.user()
    db.session.commit()
    try:
        factories.user(cpf=first.cpf)
        db.session.flush()
    except IntegrityError as err:
        db.session.rollback()
        log.getLogger("portal.test").error("database refused: %s", err.orig)
        log.getLogger("portal.test").error("typed %s", "529.982.247-25")
    assert log_records
    assert not [line for line in log_records if first.cpf in line or "529.982.247-25" in line]
