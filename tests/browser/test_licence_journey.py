"""Excess-animal licences in a real browser (issue 11).

Guarulhos: 5 adults registered -> the 6th is refused with a link -> the request lists the 5 RGAs
and registers 3 more inside it -> an agent inspects and approves 8 -> the 3 RGAs become definitive
-> a 9th animal is refused (``licence_new_acquisition``) -> the public check page shows it valid.
Bom Jesus dos Perdões (requests reopened, as a decree would): 10 + 3, and a 14th refused with
``household_limit``."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import make_server

from portal.blueprints.animals import services as animals
from portal.blueprints.billing.services import mark_paid_at_counter
from portal.extensions import db
from portal.models import ExcessLicence, LicenceStatus, PaymentItem, Vaccination
from portal.services.api_auth import issue_client
from tests import factories
from tests.factories import LiveServer, run_axe


def _household(app, count: int) -> tuple[str, list[str]]:
    """A citizen with ``count`` adult vaccinated dogs at home; returns their e-mail and RGAs."""
    with app.app_context():
        today = animals.local_today(app.extensions["portal_profile"])
        owner = factories.user(
            full_name="Clara Muitos Bichos", street="Rua dos Cães", number="77", cep="07020000"
        )
        rgas = []
        for i in range(count):
            pet = factories.animal(
                owner, birth_date=today - timedelta(days=600), name=f"Cão {i + 1}"
            )
            pet.vaccinations.append(
                Vaccination(
                    vaccine_name="Rabisin",
                    batch="L1",
                    vet_name="Dra. Ana",
                    vet_crmv="CRMV-SP 1",
                    applied_on=today - timedelta(days=20),
                    next_due_on=today + timedelta(days=340),
                )
            )
            rgas.append(pet.rga)
        db.session.commit()
        return owner.email, rgas


def _log_in(page: Page, base: str, email: str) -> None:
    page.goto(base + "/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill(email)
    page.get_by_label(re.compile("^Senha")).fill(factories.PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Entrar").click()


def _continue(page: Page) -> None:
    page.get_by_role("main").get_by_role("button", name="Continuar").click()


def _wizard_until_address(page: Page, base: str, today: date, name: str) -> None:
    page.goto(base + "/")
    page.get_by_role("link", name="Cadastrar meu animal (RGA)").click()
    page.get_by_label("Nome do animal").fill(name)
    page.get_by_text("Cão", exact=True).click()
    page.get_by_text("Macho", exact=True).click()
    page.get_by_label("Raça").fill("SRD")
    page.get_by_label("Cor / pelagem").fill("Caramelo")
    page.get_by_label("Data de nascimento").fill((today - timedelta(days=300)).isoformat())
    page.get_by_text("Médio (10 a 25 kg)").click()
    _continue(page)
    expect(page.get_by_role("heading", level=2)).to_have_text("Onde o animal mora")
    _continue(page)


def _fill_new_animal(page: Page, index: int, name: str, today: date, sterilisation: bool) -> None:
    block = page.locator(f"#new-{index}")
    block.locator("summary").click()
    prefix = f"new_{index + 1}"
    page.locator(f"#{prefix}-name").fill(name)
    page.locator(f"label[for={prefix}-species-0]").click()
    page.locator(f"label[for={prefix}-sex-1]").click()
    page.locator(f"#{prefix}-breed").fill("SRD")
    page.locator(f"#{prefix}-color").fill("Preta")
    page.locator(f"label[for={prefix}-size-1]").click()
    page.locator(f"#{prefix}-birth_date").fill((today - timedelta(days=400)).isoformat())
    page.locator(f"#{prefix}-vaccinated_on").fill((today - timedelta(days=5)).isoformat())
    page.locator(f"#{prefix}-vaccine_name").fill("Rabisin")
    page.locator(f"#{prefix}-batch").fill("L77")
    page.locator(f"#{prefix}-vet_name").fill("Dr. Vet")
    page.locator(f"#{prefix}-vet_crmv").fill("CRMV-SP 99")
    if sterilisation:
        page.locator(f"#{prefix}-sterilisation_proof").set_input_files(_PDF)


_PDF = {
    "name": "comprovante.pdf",
    "mimeType": "application/pdf",
    "buffer": b"%PDF-1.4\n% comprovante\n",
}


def _journey(
    server: LiveServer,
    page: Page,
    browser: Browser,
    context_args: dict,
    *,
    base_count: int,
    refused_code: str,
    refusal_text: str,
) -> None:
    base, app = server.url, server.app
    profile = app.extensions["portal_profile"]
    sterilisation = "sterilisation_proofs" in profile.licence.requires
    with app.app_context():
        today = animals.local_today(profile)
    email, rgas = _household(app, base_count)

    # 1. the next animal is refused, with a link to the request
    _log_in(page, base, email)
    _wizard_until_address(page, base, today, "Sexto")
    expect(page.get_by_role("main")).to_contain_text(f"o limite por residência é {base_count}")
    page.get_by_role("link", name="Pedir a licença especial").click()

    # 2. the request lists the RGAs at home and registers 3 more inside it
    expect(page.get_by_role("heading", level=1)).to_contain_text("Pedir licença especial")
    for rga in rgas:
        expect(page.get_by_role("main")).to_contain_text(rga)
    assert run_axe(page) == []
    for i in range(base_count):
        # gov.br DS draws the box on the label (the input is transparent): click what shows
        page.get_by_text(f"Confirmo que Cão {i + 1} vive nesta residência").click()
    if sterilisation:
        for field in page.locator("input[id^=sterilisation-]").all():
            field.set_input_files(_PDF)
    for index, name in enumerate(("Mel", "Bia", "Lua")):
        _fill_new_animal(page, index, name, today, sterilisation)
    page.get_by_label("Descrição do alojamento e dos cuidados com os animais").fill(
        "Casa com quintal coberto de 200 m², canis limpos todos os dias, ração e água à vontade."
    )
    page.locator("#photos").set_input_files(
        {"name": "quintal.png", "mimeType": "image/png", "buffer": factories.png_bytes().getvalue()}
    )
    page.get_by_label("Quantos cães e gatos a residência quer manter, no total").fill(
        str(base_count + 3)
    )
    page.get_by_role("button", name="Enviar o pedido").click()
    expect(page.locator("#mensagens")).to_contain_text("Pedido enviado")
    with app.app_context():
        licence = db.session.scalars(db.select(ExcessLicence)).one()
        inside = [link.animal for link in licence.animals if link.registered_inside]
        assert len(inside) == 3 and all(a.provisional for a in inside)
        licence_id, code = licence.id, licence.code
        # the registration fees are paid at the counter meanwhile
        agent = factories.user(roles=("agent",), full_name="Agente Sanitário Souza")
        for animal in inside:
            if animal.fee_item_id:
                mark_paid_at_counter(
                    db.session.get(PaymentItem, animal.fee_item_id),
                    receipt_number=f"R-{animal.id}",
                    paid_on=today,
                    actor=agent,
                )
        db.session.commit()
        agent_email = agent.email

    # 3. an agent schedules, inspects and approves
    staff_context = browser.new_context(**context_args)
    staff = staff_context.new_page()
    _log_in(staff, base, agent_email)
    staff.goto(f"{base}/ccz/licencas/{licence_id}")
    staff.locator("form[action$='/agendar'] select").select_option(label="Agente Sanitário Souza")
    staff.locator("form[action$='/agendar'] input[type=date]").fill(today.isoformat())
    staff.get_by_role("button", name="Agendar vistoria").click()
    expect(staff.locator("#mensagens")).to_contain_text("Vistoria agendada")
    staff.get_by_text("Espaço para se mover e descansar").click()
    staff.get_by_label("O que foi verificado (laudo técnico)").fill("Quintal amplo, limpo.")
    staff.get_by_text("Condições satisfatórias").click()
    staff.get_by_role("button", name="Registrar vistoria").click()
    expect(staff.locator("#mensagens")).to_contain_text("Vistoria registrada")
    expect(staff.get_by_label("Número de cães e gatos aprovado")).to_have_value(str(base_count + 3))
    staff.get_by_role("button", name="Aprovar", exact=True).click()
    expect(staff.locator("#mensagens")).to_contain_text("Licença aprovada")
    staff_context.close()

    # 4. the 3 RGAs are definitive now
    with app.app_context():
        licence = db.session.get(ExcessLicence, licence_id)
        assert licence.status == LicenceStatus.APPROVED and licence.max_animals == base_count + 3
        assert not any(
            link.animal.provisional for link in licence.animals if link.registered_inside
        )

    # 5. the next animal is refused: on the web...
    _wizard_until_address(page, base, today, "Mais um")
    expect(page.get_by_role("main")).to_contain_text(refusal_text)
    # ...and through a clinic's API, with its code
    with app.app_context():
        _client, token = issue_client("establishment", "Clínica Vizinha")
        db.session.commit()
    owner_data = {
        "name": "Clara Muitos Bichos",
        "email": email,
        "address": {
            "cep": "07020-000",
            "street": "Rua dos Cães",
            "number": "77",
            "district": "Centro",
            "city": profile.municipality,
            "state": profile.state,
        },
    }
    with app.app_context():
        owner_data["cpf"] = db.session.scalars(db.select(ExcessLicence)).one().holder.cpf
    response = page.request.post(
        base + "/api/v1/registrations",
        headers={"Authorization": f"Bearer {token}"},
        data={
            "animal": {
                "name": "Nono",
                "species": "cat",
                "sex": "female",
                "breed": "SRD",
                "color": "Preta",
                "birth_date": (today - timedelta(days=300)).isoformat(),
                "size": "small",
            },
            "owner": owner_data,
            "rabies_vaccination": {
                "date": (today - timedelta(days=3)).isoformat(),
                "vaccine": "Rabisin",
                "batch": "L9",
                "vet_name": "Dr. Vet",
                "vet_crmv": "CRMV-SP 4321",
            },
        },
    )
    assert response.status == 422
    assert response.json()["errors"][0]["code"] == refused_code

    # 6. the public check page (the PDF's QR code) shows it valid, nothing about the holder
    page.goto(f"{base}/licencas/{code}")
    expect(page.get_by_role("main")).to_contain_text("Válida")
    expect(page.get_by_role("main")).not_to_contain_text("Clara")
    assert run_axe(page) == []


def test_gru_37_licence_journey(
    live_server, page: Page, browser: Browser, browser_context_args: dict
) -> None:
    _journey(
        live_server,
        page,
        browser,
        browser_context_args,
        base_count=5,
        refused_code="licence_new_acquisition",
        refusal_text="cancelaria a licença",
    )


@pytest.fixture
def bjp_server(make_app) -> Iterator[LiveServer]:  # type: ignore[no-untyped-def]
    """BJP with the licence requests reopened (as a municipal decree would, BJP 17 §6)."""
    app = make_app(WTF_CSRF_ENABLED=True, PORTAL_PROFILE="bjp")
    profile = app.extensions["portal_profile"]
    app.extensions["portal_profile"] = profile.model_copy(
        update={"licence": profile.licence.model_copy(update={"requests_accepted_until": None})}
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_BASE_URL"] = url
    # a short poll: shutdown() waits up to one poll interval (0.5 s by default) per test
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield LiveServer(app, url)
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.mark.real_commits
def test_bjp_17_licence_journey_10_plus_3(
    bjp_server, page: Page, browser: Browser, browser_context_args: dict
) -> None:
    _journey(
        bjp_server,
        page,
        browser,
        browser_context_args,
        base_count=10,
        refused_code="household_limit",
        refusal_text="a licença da residência permite 13",
    )
