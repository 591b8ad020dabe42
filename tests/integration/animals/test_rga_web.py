"""The citizen journey on the web: the registration wizard, its failure paths, documents."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import Animal, PaymentItem
from tests import factories
from tests.factories import pdf_text, png_bytes


def _animal() -> Animal:
    return db.session.scalars(select(Animal).order_by(Animal.id.desc())).first()


def test_wizard_registers_an_animal_with_photo_fee_and_documents(client, auth, walk_wizard) -> None:
    user = auth.login()
    response = walk_wizard(photo=True)
    animal = _animal()
    assert response.status_code == 302 and response.headers["Location"].endswith(
        f"/animais/{animal.rga}/"
    )
    assert animal.owner_id == user.id and animal.status == "active"
    assert animal.weight_grams == 8500 and animal.photo is not None and animal.photo.public
    assert animal.vaccinations[0].batch == "L123"
    item = db.session.scalar(select(PaymentItem).where(PaymentItem.subject_id == animal.id))
    assert item.amount_cents == 2500 and item.status == "pending"
    db.session.refresh(user)
    assert user.street == "Rua das Flores" and user.number == "77"  # the address step saved it

    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert animal.rga in html and "Histórico de vacinas" in html and "R$ 25,00" in html
    assert "Próxima dose" in html

    card = client.get(f"/animais/{animal.rga}/carteira.pdf")
    assert card.status_code == 200 and card.mimetype == "application/pdf"
    assert card.data.startswith(b"%PDF")
    assert b"/MediaBox [ 0 0 242.6457 153.0709 ]" in card.data  # 85.6 x 54 mm
    text = pdf_text(card.data)
    assert animal.rga in text and "Bolinha" in text
    assert user.cpf not in text and f"***.{user.cpf[3:6]}.{user.cpf[6:9]}-**" in text
    tag = client.get(f"/animais/{animal.rga}/plaqueta.pdf")
    assert tag.data.startswith(b"%PDF") and animal.rga in pdf_text(tag.data)


def test_wizard_pages_render_each_step(
    client, auth, animal_form, address_form, vaccine_form
) -> None:
    user = auth.login()
    html = client.get("/animais/cadastrar").get_data(as_text=True)
    assert "Dados do animal" in html and 'aria-current="step"' in html
    client.post("/animais/cadastrar", data=animal_form())
    html = client.get("/animais/cadastrar/endereco").get_data(as_text=True)
    assert f'value="{user.street}"' in html  # prefilled from the profile
    client.post("/animais/cadastrar/endereco", data=address_form)
    assert "Dados da carteira de vacinação" in client.get("/animais/cadastrar/vacina").get_data(
        as_text=True
    )
    card = {"rabies_proof": (png_bytes(), "carteira.png")}  # GRU 15 V: the card itself
    client.post(
        "/animais/cadastrar/vacina",
        data={**vaccine_form, **card},
        content_type="multipart/form-data",
    )
    assert "Foto (opcional)" in client.get("/animais/cadastrar/foto").get_data(as_text=True)
    client.post("/animais/cadastrar/foto", data={})
    html = client.get("/animais/cadastrar/revisao").get_data(as_text=True)
    assert "Bolinha" in html and "Rabisin" in html and "R$ 25,00" in html
    # going back keeps what was typed
    html = client.get("/animais/cadastrar").get_data(as_text=True)
    assert 'value="Bolinha"' in html and 'value="8,5"' in html


def test_skipping_ahead_goes_to_the_first_missing_step(client, auth) -> None:
    auth.login()
    response = client.get("/animais/cadastrar/revisao")
    assert response.status_code == 302 and response.headers["Location"].endswith(
        "/animais/cadastrar"
    )
    assert client.get("/animais/cadastrar/nada").status_code == 404


def test_missing_fields_are_shown_next_to_them_and_nothing_is_lost(
    client, auth, animal_form
) -> None:
    auth.login()
    response = client.post(
        "/animais/cadastrar", data=animal_form(name="", color="Tigrado", weight_kg="muito")
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Campo obrigatório." in html and "Peso inválido" in html
    assert 'value="Tigrado"' in html and 'value="muito"' in html


def test_too_young_animal_is_refused_at_the_first_step_with_the_article(
    client, auth, animal_form, today
) -> None:
    auth.login()
    html = client.post(
        "/animais/cadastrar", data=animal_form(birth_date=(today - timedelta(days=30)).isoformat())
    ).get_data(as_text=True)
    assert "GRU 14 §3" in html and "poderá ser registrado a partir de" in html


def test_estimated_age_becomes_an_estimated_birth_date(
    client, auth, walk_wizard, animal_form, today
) -> None:
    auth.login()
    walk_wizard(
        animal=animal_form(birth_known="estimated", birth_date="", age_years="2", age_months="3")
    )
    animal = _animal()
    assert animal.birth_date_estimated is True and animal.late_registration is True
    assert abs((today - animal.birth_date).days - 27 * 30.4) < 5


def test_estimated_age_needs_years_or_months(client, auth, animal_form) -> None:
    auth.login()
    html = client.post(
        "/animais/cadastrar", data=animal_form(birth_known="estimated", birth_date="")
    ).get_data(as_text=True)
    assert "Informe a idade aproximada" in html


def test_duplicate_microchip_refused_at_the_first_step(client, auth, animal_form) -> None:
    owner = factories.user()
    factories.animal(owner, microchip="985112000000777")
    db.session.commit()
    auth.login()
    html = client.post(
        "/animais/cadastrar", data=animal_form(microchip="985 112 000 000 777")
    ).get_data(as_text=True)
    assert "microchip já está registrado" in html


def test_bad_photo_keeps_everything_typed(client, auth, walk_wizard) -> None:
    auth.login()
    walk_wizard(confirm=False)
    from io import BytesIO

    response = client.post(
        "/animais/cadastrar/foto",
        data={"photo": (BytesIO(b"not an image at all"), "foto.jpg")},
        content_type="multipart/form-data",
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "não é uma imagem válida" in html
    assert "Bolinha" in client.get("/animais/cadastrar/revisao").get_data(as_text=True)
    ok = client.post(
        "/animais/cadastrar/foto",
        data={"photo": (png_bytes(), "foto.png")},
        content_type="multipart/form-data",
    )
    assert ok.status_code == 302
    assert client.post("/animais/cadastrar/revisao").status_code == 302
    assert _animal().photo is not None


def test_expired_vaccination_is_refused_at_the_vaccine_step(
    client, auth, walk_wizard, animal_form, vaccine_form, address_form, today
) -> None:
    auth.login()
    client.post(
        "/animais/cadastrar", data=animal_form(birth_date=(today - timedelta(days=900)).isoformat())
    )
    client.post("/animais/cadastrar/endereco", data=address_form)
    html = client.post(
        "/animais/cadastrar/vacina",
        data={**vaccine_form, "applied_on": (today - timedelta(days=400)).isoformat()},
    ).get_data(as_text=True)
    assert "vencida" in html and 'value="L123"' in html


def test_vaccination_record_needs_its_fields(client, auth, animal_form, address_form) -> None:
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    client.post("/animais/cadastrar/endereco", data=address_form)
    html = client.post("/animais/cadastrar/vacina", data={"choice": "record"}).get_data(
        as_text=True
    )
    assert html.count("Campo obrigatório.") >= 5


def test_vaccinate_at_ccz_leaves_the_registration_pending(client, auth, walk_wizard) -> None:
    auth.login()
    response = walk_wizard(vaccine={"choice": "ccz"})
    animal = _animal()
    assert animal.status == "pending" and animal.vaccinations == []
    html = client.get(response.headers["Location"], follow_redirects=True).get_data(as_text=True)
    assert "pendente" in html.lower()


def test_household_limit_is_shown_at_the_address_step_with_article(
    client, auth, animal_form, address_form, today
) -> None:
    neighbour = factories.user(cep="07000000", street="Rua das Flores", number="77")
    for _ in range(5):
        factories.animal(neighbour, birth_date=today - timedelta(days=400))
    db.session.commit()
    user = auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    response = client.post("/animais/cadastrar/endereco", data=address_form)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "limite por residência é 5" in html and "GRU 37" in html
    db.session.refresh(user)
    assert user.number == "77"  # the confirmed address was saved anyway


def test_household_limit_reached_meanwhile_sends_back_to_the_address_step(
    client, auth, walk_wizard, today
) -> None:
    user = auth.login()
    walk_wizard(confirm=False)
    db.session.refresh(user)
    other = factories.user(cep=user.cep, street=user.street, number=user.number)
    for _ in range(5):
        factories.animal(other, birth_date=today - timedelta(days=400))
    db.session.commit()
    response = client.post("/animais/cadastrar/revisao")
    assert response.headers["Location"].endswith("/animais/cadastrar/endereco")
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "limite por residência" in html and 'role="alert"' in html
    assert db.session.scalar(select(Animal).where(Animal.owner_id == user.id)) is None


def test_restart_discards_the_draft(client, auth, animal_form) -> None:
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    client.post("/animais/cadastrar/recomecar", data={"confirmar": "1"})
    assert 'value="Bolinha"' not in client.get("/animais/cadastrar").get_data(as_text=True)


def test_wizard_needs_an_account(client) -> None:
    response = client.get("/animais/cadastrar")
    assert response.status_code == 302 and "/conta/entrar" in response.headers["Location"]


def test_my_animals_lists_only_mine_and_shows_next_dose(client, auth, today) -> None:
    user = auth.login()
    mine = factories.animal(user, name="Pipoca")
    other = factories.animal(factories.user(), name="Alheio")
    from portal.models import Vaccination

    mine.vaccinations.append(
        Vaccination(
            vaccine_name="V",
            batch="B",
            applied_on=today,
            next_due_on=today + timedelta(days=365),
            vet_name="X",
            vet_crmv="CRMV-SP 1",
        )
    )
    db.session.commit()
    html = client.get("/animais/").get_data(as_text=True)
    assert "Pipoca" in html and "Alheio" not in html and other.rga not in html
    assert "Próxima vacina antirrábica" in html
    assert "Meus animais" in client.get("/").get_data(as_text=True)


def test_a_citizen_cannot_see_another_citizens_animal_or_documents(client, auth) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    from portal.blueprints.animals import services

    prof = client.application.extensions["portal_profile"]
    copy = services.request_copy(
        animal, "card", requested_by=owner, profile=prof, today=services.local_today(prof)
    )
    db.session.commit()
    auth.login()
    for url in (
        f"/animais/{animal.rga}/",
        f"/animais/{animal.rga}/carteira.pdf",
        f"/animais/{animal.rga}/plaqueta.pdf",
        f"/animais/{animal.rga}/transferir",
        f"/animais/{animal.rga}/segunda-via",
        f"/animais/{animal.rga}/obito",
        f"/animais/segunda-via/{copy.id}/documento-provisorio.pdf",
        "/animais/C-2026-000001-9/",
    ):
        assert client.get(url).status_code == 404, url
    assert (
        client.post(
            f"/animais/{animal.rga}/obito", data={"died_on": "2026-01-01", "confirm": "y"}
        ).status_code
        == 404
    )
