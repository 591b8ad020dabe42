"""Owner actions on the web: transfer and acceptance, second copy, death report, LGPD export."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import OutboxMessage, OwnershipTransfer
from tests import factories
from tests.factories import pdf_text


class _Browser:
    """A second person's client. Each request runs in its own app context: the test's app context
    is shared by ``client``'s requests, and Flask-Login caches the user in ``g``."""

    def __init__(self, app, user) -> None:
        self.app = app
        self.client = app.test_client()
        assert (
            self.post(
                "/conta/entrar", data={"email": user.email, "password": factories.PASSWORD}
            ).status_code
            == 302
        )

    def get(self, *args, **kwargs):
        with self.app.app_context():
            return self.client.get(*args, **kwargs)

    def post(self, *args, **kwargs):
        with self.app.app_context():
            return self.client.post(*args, **kwargs)


def _login(app, user) -> _Browser:
    return _Browser(app, user)


def test_transfer_by_cpf_then_the_new_owner_accepts(app, client, auth) -> None:
    owner = auth.login()
    animal = factories.animal(owner, name="Pingo")
    new_owner = factories.user(street="Rua Nova", number="8")
    db.session.commit()

    html = client.get(f"/animais/{animal.rga}/transferir").get_data(as_text=True)
    assert "CPF do novo proprietário" in html and "GRU 18 §2" in html
    response = client.post(
        f"/animais/{animal.rga}/transferir", data={"cpf": new_owner.cpf, "confirm": "y"}
    )
    assert response.status_code == 302
    assert new_owner.cpf not in response.headers["Location"]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Transferência enviada para o CPF ***." in page
    assert new_owner.full_name not in page  # typing a CPF never reveals whose it is
    offer = db.session.scalar(select(OwnershipTransfer))
    assert offer.status == "pending" and animal.owner_id == owner.id
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == new_owner.email))
    assert "Pingo" in mail.body
    html = client.get(f"/animais/{animal.rga}/").get_data(as_text=True)
    assert "aguardando aceite" in html and "continua responsável" in html

    other = _login(app, new_owner)
    assert other.get(f"/animais/{animal.rga}/").status_code == 404  # not theirs yet
    listing = other.get("/animais/").get_data(as_text=True)
    # issue 8 item 5: the offer is an item of the to-do list, with its action
    assert "O que falta fazer" in listing and "quer transferir Pingo" in listing
    review = other.get(f"/animais/transferencias/{offer.id}").get_data(as_text=True)
    assert "Aceitar a transferência" in review
    assert client.get(f"/animais/transferencias/{offer.id}").status_code == 404  # not for owner
    accepted = other.post(f"/animais/transferencias/{offer.id}/aceitar")
    assert accepted.status_code == 302
    db.session.refresh(animal)
    assert animal.owner_id == new_owner.id
    assert other.get(f"/animais/{animal.rga}/carteira.pdf").status_code == 200
    assert client.get(f"/animais/{animal.rga}/").status_code == 404  # the old owner lost it
    assert db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner.email))


def test_transfer_with_invalid_or_unknown_cpf_keeps_the_form(client, auth) -> None:
    owner = auth.login()
    animal = factories.animal(owner)
    db.session.commit()
    html = client.post(
        f"/animais/{animal.rga}/transferir", data={"cpf": "111.222.333-44", "confirm": "y"}
    ).get_data(as_text=True)
    assert "CPF inválido" in html and 'value="111.222.333-44"' in html
    html = client.post(
        f"/animais/{animal.rga}/transferir",
        data={"cpf": factories.make_cpf(987654), "confirm": "y"},
    ).get_data(as_text=True)
    assert "Não encontramos um cadastro com este CPF" in html
    assert db.session.scalar(select(OwnershipTransfer)) is None


def test_household_limit_refuses_acceptance_at_the_new_address(app, client, auth) -> None:
    owner = auth.login()
    animal = factories.animal(owner)
    new_owner = factories.user(street="Rua Cheia", number="1")
    for _ in range(5):
        factories.animal(new_owner)
    db.session.commit()
    client.post(f"/animais/{animal.rga}/transferir", data={"cpf": new_owner.cpf, "confirm": "y"})
    offer = db.session.scalar(select(OwnershipTransfer))
    other = _login(app, new_owner)
    response = other.post(f"/animais/transferencias/{offer.id}/aceitar")
    assert response.status_code == 422
    assert "limite por residência é 5" in response.get_data(as_text=True)
    db.session.refresh(animal)
    assert animal.owner_id == owner.id and offer.status == "pending"


def test_the_new_owner_declines_and_the_owner_can_cancel(app, client, auth) -> None:
    owner = auth.login()
    animal = factories.animal(owner)
    new_owner = factories.user()
    db.session.commit()
    client.post(f"/animais/{animal.rga}/transferir", data={"cpf": new_owner.cpf, "confirm": "y"})
    first = db.session.scalar(select(OwnershipTransfer))
    declined = _login(app, new_owner).post(f"/animais/transferencias/{first.id}/recusar")
    assert declined.status_code == 302
    db.session.refresh(first)
    assert first.status == "declined"
    client.post(f"/animais/{animal.rga}/transferir", data={"cpf": new_owner.cpf, "confirm": "y"})
    second = db.session.scalars(
        select(OwnershipTransfer).order_by(OwnershipTransfer.id.desc())
    ).first()
    client.post(f"/animais/transferencias/{second.id}/recusar")
    db.session.refresh(second)
    assert second.status == "cancelled"


def test_second_copy_gives_a_provisional_document_valid_45_days(client, auth, today) -> None:
    owner = auth.login()
    animal = factories.animal(owner)
    db.session.commit()
    html = client.get(f"/animais/{animal.rga}/segunda-via").get_data(as_text=True)
    assert "45 dias" in html and "GRU 19 §1" in html and "R$ 10,00" in html
    response = client.post(
        f"/animais/{animal.rga}/segunda-via", data={"kind": "card", "reason": "Perdi"}
    )
    assert response.status_code == 302
    copy = animal.copy_requests[0]
    assert copy.valid_until == today + timedelta(days=45)
    html = client.get(f"/animais/{animal.rga}/").get_data(as_text=True)
    assert "documento provisório válido até" in html
    pdf = client.get(f"/animais/segunda-via/{copy.id}/documento-provisorio.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    text = pdf_text(pdf.data)
    assert copy.valid_until.strftime("%d/%m/%Y") in text and "GRU 19" in text
    assert animal.rga in text


def test_second_copy_needs_a_kind(client, auth) -> None:
    owner = auth.login()
    animal = factories.animal(owner)
    db.session.commit()
    html = client.post(f"/animais/{animal.rga}/segunda-via", data={}).get_data(as_text=True)
    assert "Escolha carteira ou plaqueta" in html


def test_death_report_closes_the_rga_and_keeps_it_in_history(client, auth, today) -> None:
    owner = auth.login()
    animal = factories.animal(owner, name="Velhinho")
    db.session.commit()
    html = client.post(
        f"/animais/{animal.rga}/obito",
        data={"died_on": (today + timedelta(days=2)).isoformat(), "confirm": "y"},
    ).get_data(as_text=True)
    assert "não pode estar no futuro" in html
    response = client.post(
        f"/animais/{animal.rga}/obito",
        data={"died_on": today.isoformat(), "note": "Idade", "confirm": "y"},
    )
    assert response.status_code == 302
    db.session.refresh(animal)
    assert animal.status == "closed" and animal.died_on == today
    html = client.get(f"/animais/{animal.rga}/").get_data(as_text=True)
    assert "RGA encerrado" in html and "Comunicar óbito" not in html
    assert "Velhinho" in client.get("/animais/").get_data(as_text=True)
    assert client.get(f"/animais/{animal.rga}/obito").status_code == 404
    assert client.get(f"/animais/{animal.rga}/transferir").status_code == 404
    public = client.get(f"/rga/{animal.rga}").get_data(as_text=True)
    assert "Encerrado" in public and "Encontrei este animal" not in public


def test_lgpd_export_includes_the_animals(client, auth) -> None:
    owner = auth.login()
    factories.animal(owner, name="Paçoca")
    db.session.commit()
    data = json.loads(client.get("/minha-conta/meus-dados.json").data)
    assert data["animais"][0]["nome"] == "Paçoca"
    assert data["animais"][0]["proprietario_atual"] is True


def test_vv_13_transfer_page_calls_the_wait_a_portal_procedure_not_law(make_app) -> None:
    """VV 13 has the new owner update the record but says nothing about who answers for the
    animal meanwhile: the page cites no article and says it is the portal's procedure."""
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.app_context():
        owner = factories.user()
        pet = factories.animal(owner)
        db.session.commit()
        web = vv.test_client()
        web.post("/conta/entrar", data={"email": owner.email, "password": factories.PASSWORD})
        html = web.get(f"/animais/{pet.rga}/transferir").get_data(as_text=True)
    assert "Até o aceite, você continua responsável" in html
    assert "procedimento do portal" in html and "VV 13" not in html
