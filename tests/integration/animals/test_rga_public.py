"""The public RGA page behind the QR code: what a finder sees and the message to the owner."""

from __future__ import annotations

from sqlalchemy import select

from portal.blueprints.animals.rga import format_rga
from portal.extensions import db
from portal.models import FinderMessage, OutboxMessage
from tests import factories


def _owner_and_animal(**fields):
    owner = factories.user(
        full_name="Joana Proprietária",
        phone="11 97777-6666",
        street="Rua Secreta",
        number="42",
        rg="12.345.678-9",
    )
    animal = factories.animal(owner, name="Farofa", **fields)
    db.session.commit()
    return owner, animal


def test_public_page_shows_the_animal_and_no_owner_data(client) -> None:
    owner, animal = _owner_and_animal()
    response = client.get(f"/rga/{animal.rga}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Farofa" in html and animal.rga in html and "Cão" in html and "Ativo" in html
    for secret in (
        "Joana",
        owner.cpf,
        owner.cpf[3:6] + "." + owner.cpf[6:9],
        "Rua Secreta",
        "97777",
        owner.email,
        "12.345.678-9",
    ):
        assert secret not in html
    assert "Encontrei este animal" in html


def test_typed_numbers_are_normalised_to_the_canonical_page(client) -> None:
    _owner, animal = _owner_and_animal()
    response = client.get("/rga/" + animal.rga.replace("-", "").lower())
    assert response.status_code == 302 and response.headers["Location"].endswith(
        f"/rga/{animal.rga}"
    )
    search = client.get("/busca", query_string={"q": animal.rga.lower()})
    assert search.status_code == 302
    assert client.get(search.headers["Location"], follow_redirects=True).status_code == 200
    lookup = client.get("/rga", query_string={"numero": animal.rga})
    assert lookup.status_code == 302
    assert "Consultar um RGA" in client.get("/rga").get_data(as_text=True)


def test_mistyped_number_gets_a_clear_page(client) -> None:
    _owner, animal = _owner_and_animal()
    wrong = animal.rga[:-1] + str((int(animal.rga[-1]) + 1) % 10)
    response = client.get(f"/rga/{wrong}")
    assert response.status_code == 400
    assert "dígito verificador não confere" in response.get_data(as_text=True)
    response = client.get("/rga/abc")
    assert response.status_code == 400 and "C-2026-000123-4" in response.get_data(as_text=True)


def test_unknown_number_gets_a_clear_page(client) -> None:
    number = format_rga("cat", 2020, 999999)
    response = client.get(f"/rga/{number}")
    assert response.status_code == 404
    assert "RGA não encontrado" in response.get_data(as_text=True)


def test_finder_message_is_relayed_to_the_owner_without_revealing_them(client) -> None:
    owner, animal = _owner_and_animal()
    response = client.post(
        f"/rga/{animal.rga}",
        data={
            "finder_name": "Carlos",
            "contact": "carlos@example.com",
            "message": "Achei na praça central, está bem.",
        },
    )
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Mensagem enviada ao proprietário" in page and "Joana" not in page
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner.email))
    assert "Achei na praça central" in mail.body and "carlos@example.com" in mail.body
    assert db.session.scalar(select(FinderMessage)).delivered is True


def test_finder_form_errors_keep_the_text(client) -> None:
    _owner, animal = _owner_and_animal()
    html = client.post(f"/rga/{animal.rga}", data={"message": "Está comigo"}).get_data(as_text=True)
    assert "Informe um telefone ou e-mail" in html and "Está comigo" in html


def test_finder_form_is_rate_limited(client) -> None:
    _owner, animal = _owner_and_animal()
    data = {"contact": "11 90000-0000", "message": "Encontrei"}
    statuses = [client.post(f"/rga/{animal.rga}", data=data).status_code for _ in range(6)]
    assert statuses[:5] == [302] * 5 and statuses[5] == 429


def test_pending_registration_shows_as_pending(client) -> None:
    _owner, animal = _owner_and_animal(status="pending")
    assert "Pendente" in client.get(f"/rga/{animal.rga}").get_data(as_text=True)


def test_public_page_shows_no_owner_data(client) -> None:
    owner = factories.user(
        full_name="Josefina Proprietária", phone="11987654321", street="Rua Secreta", number="99"
    )
    pet = factories.animal(owner, name="Pipoca")
    db.session.commit()
    html = client.get(f"/rga/{pet.rga}").get_data(as_text=True)
    assert "Pipoca" in html
    for secret in (
        "Josefina",
        "Proprietária",
        owner.cpf,
        owner.cpf[3:9],
        "987654321",
        "Rua Secreta",
        owner.email,
    ):
        assert secret not in html
