"""Excess-animal licences in a real browser, across roles (issues 11 and 25).

Guarulhos: 5 adults registered -> the 6th is refused with a link -> the citizen, on a 360 px phone,
makes the request in four steps (the 5 RGAs pre-filled, 3 new animals registered inside it), with
a refusal at the housing step (the photo stays held) and at the documents step (the proofs sent
stay held) -> the review says who does what, by when and what is paid -> the request page and the
home to-do list say the same -> the coordinator (desktop) schedules, the agent (phone) inspects,
the coordinator approves 8 -> the citizen reads it in an e-mail and on the home to-do list, then
opens the public check page by the licence's code -> a 9th animal is refused
(``licence_new_acquisition``).
Bom Jesus dos Perdões (requests reopened, as a decree would): 10 + 3, and a 14th refused with
``household_limit``."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from playwright.sync_api import Browser, FilePayload, Page, ViewportSize, expect
from werkzeug.serving import make_server

from portal.blueprints.animals import services as animals
from portal.blueprints.billing.services import mark_paid_at_counter
from portal.extensions import db
from portal.models import (
    Animal,
    ExcessLicence,
    LicenceStatus,
    OutboxMessage,
    PaymentItem,
    User,
    Vaccination,
)
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
        assert owner.email is not None
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


PHONE: ViewportSize = {"width": 360, "height": 780}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{page.url} is {width[0]} px wide at {width[1]} px"


def _fill_new_animal(page: Page, index: int, name: str, today: date) -> None:
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


_PDF: FilePayload = {
    "name": "comprovante.pdf",
    "mimeType": "application/pdf",
    "buffer": b"%PDF-1.4\n% comprovante\n",
}
_PHOTO = "quintal.png"


def _staff(
    browser: Browser, context_args: dict, base: str, email: str, viewport: ViewportSize
) -> Page:
    context = browser.new_context(**{**context_args, "viewport": viewport})
    staff = context.new_page()
    _log_in(staff, base, email)
    return staff


def _open_file(staff: Page, licence_id: int, tile: str) -> None:
    """From the Painel (where staff land when they sign in), the queue's tile, then the request
    by its number: clicked, never a typed URL (issue 25)."""
    expect(staff.get_by_role("heading", level=1)).to_have_text("Painel do CCZ")
    staff.get_by_role("main").get_by_role("link", name=tile, exact=True).click()
    row = staff.get_by_role("row").filter(has=staff.get_by_role("cell", name=str(licence_id)))
    row.get_by_role("link", name="Abrir").click()
    expect(staff.get_by_role("heading", level=1)).to_contain_text(f"nº {licence_id}")


def _request_steps(page: Page, app, base: str, today: date, base_count: int) -> None:  # type: ignore[no-untyped-def]
    """The citizen at 360 px: four steps, an error in the middle of two of them (files kept)."""
    profile = app.extensions["portal_profile"]
    sterilisation = "sterilisation_proofs" in profile.licence.requires
    main = page.get_by_role("main")
    # 1. the animals: the residence and its RGAs are there already; three new ones are added
    expect(page.get_by_role("heading", level=1)).to_contain_text("Pedir licença especial")
    expect(main).to_contain_text("Rua dos Cães, 77")
    assert run_axe(page) == []
    _no_sideways_scroll(page)
    for i in range(base_count):
        # gov.br DS draws the box on the label (the input is transparent): click what shows
        page.get_by_text(f"Confirmo que Cão {i + 1} vive nesta residência").click()
    for index, name in enumerate(("Mel", "Bia", "Lua")):
        page.get_by_role("button", name=re.compile("Registrar (um|mais um) animal novo")).click()
        _fill_new_animal(page, index, name, today)
    _no_sideways_scroll(page)
    page.get_by_role("button", name="Salvar e continuar").click()
    # 2. housing: the number starts at what was listed; too many is refused, the photo is kept
    expect(page.locator("li[aria-current=step]")).to_have_text("Alojamento e cuidados")
    expect(page.get_by_label(re.compile("Quantos cães e gatos"))).to_have_value(str(base_count + 3))
    page.get_by_label(re.compile("Descrição do alojamento")).fill(
        "Casa com quintal coberto de 200 m², canis limpos todos os dias, ração e água à vontade."
    )
    page.locator("#photos").set_input_files(
        {"name": _PHOTO, "mimeType": "image/png", "buffer": factories.png_bytes().getvalue()}
    )
    page.get_by_label(re.compile("Quantos cães e gatos")).fill("99")
    page.get_by_role("button", name="Salvar e continuar").click()
    expect(page.locator("#erros-pedido")).to_contain_text("no máximo")
    expect(main).to_contain_text("Guardado: quintal.png")
    expect(main.locator("img.portal-held-thumb")).to_have_count(1)
    expect(page.get_by_label(re.compile("Descrição do alojamento"))).to_have_value(
        re.compile("quintal coberto")
    )
    _no_sideways_scroll(page)
    page.get_by_label(re.compile("Quantos cães e gatos")).fill(str(base_count + 3))
    page.get_by_role("button", name="Salvar e continuar").click()
    # 3. documents: one proof missing is refused, the others stay held and named
    expect(page.locator("li[aria-current=step]")).to_have_text("Documentos")
    if sterilisation:
        fields = page.locator("input[type=file]").all()
        for field in fields[:-1]:
            field.set_input_files(_PDF)
        page.get_by_role("button", name="Salvar e continuar").click()
        expect(page.locator("#erros-pedido")).to_contain_text("Envie este documento")
        expect(main.get_by_text("Guardado:")).to_have_count(len(fields) - 1)
        _no_sideways_scroll(page)
        page.locator("input[type=file]").last.set_input_files(_PDF)
    page.get_by_role("button", name="Salvar e continuar").click()
    # 4. review: what happens next, who, by when, what is paid
    expect(page.locator("li[aria-current=step]")).to_have_text("Revisão e envio")
    due = (today + timedelta(days=30)).strftime("%d/%m/%Y")
    expect(main).to_contain_text(f"até {due} se enviar hoje")
    expect(main).to_contain_text("Um agente sanitário do CCZ visita a residência")
    price = profile.prices["registration"]
    expect(main).to_contain_text(f"R$ 25,00 cada, R$ 75,00 no total ({price.article})")
    assert run_axe(page) == []
    _no_sideways_scroll(page)
    page.get_by_role("button", name="Enviar o pedido").click()


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
    with app.app_context():
        today = animals.local_today(profile)
        coordinator = factories.user(roles=("coordinator",), full_name="Coordenadora Lima")
        agent = factories.user(roles=("agent",), full_name="Agente Sanitário Souza")
        db.session.commit()
        coordinator_email, agent_email = str(coordinator.email), str(agent.email)
    email, rgas = _household(app, base_count)
    page.set_viewport_size(PHONE)

    # 1. the next animal is refused, with a link to the request
    _log_in(page, base, email)
    _wizard_until_address(page, base, today, "Sexto")
    expect(page.get_by_role("main")).to_contain_text(f"o limite por residência é {base_count}")
    page.get_by_role("link", name="Pedir a licença especial").click()
    for rga in rgas:
        expect(page.get_by_role("main")).to_contain_text(rga)

    # 2. the request in steps, sent: the request page names the next step, who and by when
    _request_steps(page, app, base, today, base_count)
    expect(page.locator("#mensagens")).to_contain_text("enviado")
    with app.app_context():
        licence = db.session.scalars(db.select(ExcessLicence)).one()
        inside = [link.animal for link in licence.animals if link.registered_inside]
        assert len(inside) == 3 and all(a.provisional for a in inside)
        assert len(licence.files) == 1  # the photo held since step 2
        licence_id, code = licence.id, licence.code
    main = page.get_by_role("main")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Pedido nº {licence_id}")
    expect(main).to_contain_text(f"Quantidade de animais pedida{base_count + 3}")
    expect(main).to_contain_text("A equipe de licenças do CCZ")
    expect(main).to_contain_text((today + timedelta(days=30)).strftime("%d/%m/%Y"))
    _no_sideways_scroll(page)
    # the home to-do list says what the three fees are for, and where the request stands
    page.goto(base + "/")
    expect(main).to_contain_text(
        f"Pedido de licença nº {licence_id}: 3 taxas de registro, total de R$ 75,00"
    )
    expect(main).to_contain_text(f"Pedido de licença nº {licence_id} em análise")
    _no_sideways_scroll(page)
    with app.app_context():  # the registration fees are paid at the counter meanwhile
        for animal in inside:
            fee_item_id = db.session.get(Animal, animal.id).fee_item_id  # type: ignore[union-attr]
            item = db.session.get(PaymentItem, fee_item_id)
            assert item is not None
            cashier = db.session.scalar(db.select(User).where(User.email == agent_email))
            mark_paid_at_counter(
                item, receipt_number=f"R-{animal.id}", paid_on=today, actor=cashier
            )
        db.session.commit()

    # 3. the coordinator, at a desktop, schedules the inspection with the agent
    desk = _staff(browser, context_args, base, coordinator_email, DESKTOP)
    _open_file(desk, licence_id, "Licenças: pedidos a analisar")
    desk.locator("form[action$='/agendar'] select").select_option(label="Agente Sanitário Souza")
    desk.locator("form[action$='/agendar'] input[type=date]").fill(today.isoformat())
    desk.get_by_role("button", name="Agendar vistoria").click()
    expect(desk.locator("#mensagens")).to_contain_text("Vistoria agendada")

    # the citizen reads the date and the agent
    page.goto(f"{base}/licencas/minhas/{licence_id}")
    expect(main).to_contain_text(f"Vistoria da residência em {today.strftime('%d/%m/%Y')}")
    expect(main).to_contain_text("Agente sanitário Agente Sanitário Souza")

    # 4. the agent, on a phone, records the inspection
    phone = _staff(browser, context_args, base, agent_email, PHONE)
    # the agent's own day, first on the Painel
    _open_file(phone, licence_id, "Minhas vistorias de hoje: licenças para mais animais")
    phone.get_by_text("Espaço para se mover e descansar").click()
    phone.get_by_label("O que foi verificado (laudo técnico)").fill("Quintal amplo, limpo.")
    phone.get_by_text("Condições satisfatórias").click()
    phone.get_by_role("button", name="Registrar vistoria").click()
    expect(phone.locator("#mensagens")).to_contain_text("Vistoria registrada")
    phone.context.close()

    # 5. the coordinator approves
    desk.reload()
    expect(desk.get_by_label("Número de cães e gatos aprovado")).to_have_value(str(base_count + 3))
    desk.get_by_role("button", name="Aprovar", exact=True).click()
    expect(desk.locator("#mensagens")).to_contain_text("Licença aprovada")
    desk.context.close()
    with app.app_context():
        licence = db.session.get(ExcessLicence, licence_id)
        assert licence is not None and licence.valid_until is not None
        assert licence.status == LicenceStatus.APPROVED and licence.max_animals == base_count + 3
        assert not any(
            link.animal.provisional for link in licence.animals if link.registered_inside
        )
        until = licence.valid_until.strftime("%d/%m/%Y")
        mails = db.session.scalars(db.select(OutboxMessage).where(OutboxMessage.to == email)).all()
        approved = [m for m in mails if "aprovada" in m.subject]
        assert approved and f"até {base_count + 3} cães e gatos" in approved[0].body

    # 6. the citizen reads the decision on the home to-do list, then checks it in public
    page.goto(base + "/")
    expect(main).to_contain_text(
        f"Licença aprovada (pedido nº {licence_id}): até {base_count + 3} cães e gatos, "
        f"válida até {until}"
    )
    main.get_by_role("link", name="Ver a decisão").click()
    expect(main).to_contain_text("Válida")
    main.get_by_role("link", name="Página pública de conferência").click()
    expect(main).to_contain_text("Válida")
    expect(main).to_contain_text(code)
    expect(main).not_to_contain_text("Clara")
    assert run_axe(page) == []
    _no_sideways_scroll(page)

    # 7. the next animal is refused: on the web...
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
