"""The sterilisation programme in a real browser, on a phone-sized screen (Vila Velha, VV 9-10).

A citizen books the last place of a surgery day for her dog; a second citizen finds the day full
and joins the waitlist; the first cancels and the place passes to the second; on the day the vet
records the castration with CRMV and the dog's RGA says it is sterilised."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from portal.blueprints.sterilisation import services
from portal.extensions import db
from portal.models import BookingStatus, SterilisationBooking, SterilisationSlot
from portal.services.clock import local_today
from tests import factories
from tests.factories import LiveServer, page_width, run_axe


@pytest.fixture
def live_server(make_app):  # type: ignore[no-untyped-def]
    """The portal under Vila Velha's law (the programme is free there, VV 9)."""
    import threading

    from werkzeug.serving import make_server

    app = make_app(WTF_CSRF_ENABLED=True, PORTAL_PROFILE="vilavelha")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_BASE_URL"] = url
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield LiveServer(app, url)
    finally:
        server.shutdown()
        thread.join(timeout=5)


def _log_in(page: Page, base: str, email: str) -> None:
    page.goto(base + "/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill(email)
    page.get_by_label(re.compile("^Senha")).fill(factories.PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("banner").get_by_role("button", name="Sair")).to_be_visible(
        timeout=20_000
    )


def _setup(app):  # type: ignore[no-untyped-def]
    with app.app_context():
        profile = app.extensions["portal_profile"]
        today = local_today(profile)
        coord = factories.user(roles=("coordinator",))
        site = services.save_site(
            None,
            services.SiteData(
                name="CCZ Vila Velha",
                partner_kind="ccz",
                address="Rua Castelo Branco, 1",
                district="Centro",
                instructions="Jejum de 8 horas.",
            ),
            coord,
            profile=profile,
        )
        slot = services.add_slot(site, today + timedelta(days=5), 1, coord, today=today)
        first = factories.user(full_name="Maria Tutora")
        factories.animal(first, name="Thor")
        second = factories.user(full_name="José Tutor")
        factories.animal(second, name="Luna", species="cat", sex="female")
        vet = factories.user(roles=("vet",))
        db.session.commit()
        return slot.id, first.email, second.email, vet.email


def _choose(scope, text: str) -> None:  # type: ignore[no-untyped-def]
    """A radio button, chosen as a person does: by its label (the gov.br DS draws the button)."""
    scope.locator("label", has_text=text).first.click()


def _book(page: Page, animal: str, day_label: str) -> None:
    page.locator("summary", has_text="Menu").click()  # the phone's folded menu
    page.get_by_role("navigation", name="Menu principal").get_by_role(
        "link", name="Castração", exact=True
    ).click()
    expect(page.get_by_text("A castração é gratuita (VV 9).")).to_be_visible()
    page.get_by_role("main").get_by_role("link", name="Agendar castração").click()
    _choose(page, animal)
    _choose(page, day_label)
    page.get_by_role("button", name="Confirmar").click()


def test_vv_9_book_waitlist_cancel_and_outcome_on_the_rga(
    live_server: LiveServer, browser: Browser
) -> None:
    slot_id, first_email, second_email, vet_email = _setup(live_server.app)
    base = live_server.url

    def phone() -> Page:
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, locale="pt-BR", timezone_id="America/Sao_Paulo"
        )
        return context.new_page()

    maria = phone()
    _log_in(maria, base, first_email)
    _book(maria, "Thor", "CCZ Vila Velha")
    expect(
        maria.get_by_text("Castração agendada. Enviamos os detalhes por e-mail.")
    ).to_be_visible()
    expect(maria.get_by_text("Jejum de 8 horas.")).to_be_visible()
    assert page_width(maria) <= 360

    jose = phone()
    _log_in(jose, base, second_email)
    jose.goto(base + "/castracao/agendar")
    expect(jose.get_by_text("CCZ Vila Velha, Centro")).to_have_count(0)  # the day is full
    _choose(jose, "Luna")
    _choose(jose, "Fila de espera: só em CCZ Vila Velha")
    jose.get_by_role("button", name="Confirmar").click()
    expect(jose.get_by_text("Você entrou na fila de espera.")).to_be_visible()
    assert run_axe(jose) == []

    maria.get_by_text("Cancelar", exact=True).click()
    maria.get_by_label("Motivo (opcional)").fill("Viagem")
    maria.get_by_role("button", name="Confirmar o cancelamento").click()
    expect(maria.get_by_text("Pedido cancelado.")).to_be_visible()
    jose.reload()
    expect(jose.get_by_text("Agendada", exact=True)).to_be_visible()

    with live_server.app.app_context():
        slot = db.session.get(SterilisationSlot, slot_id)
        assert slot is not None
        slot.day = local_today()  # the surgery day has come
        db.session.commit()
    vet = phone()
    _log_in(vet, base, vet_email)
    vet.goto(base + f"/ccz/castracao/dias/{slot_id}")
    card = vet.get_by_role("region", name=re.compile("Luna"))
    _choose(card, "Castrado")
    card.get_by_label("Médico veterinário que operou").fill("Dra. Ana Lima")
    card.get_by_role("button", name="Registrar resultado").click()
    expect(vet.get_by_text("Informe o CRMV do veterinário").first).to_be_visible()
    card = vet.get_by_role("region", name=re.compile("Luna"))
    expect(card.get_by_label("Médico veterinário que operou")).to_have_value("Dra. Ana Lima")
    _choose(card, "Castrado")
    card.get_by_label("CRMV").fill("ES 1234")
    card.get_by_role("button", name="Registrar resultado").click()
    expect(vet.get_by_text("Resultado registrado.")).to_be_visible()
    assert run_axe(vet) == []

    with live_server.app.app_context():
        done = db.session.scalar(
            select(SterilisationBooking).where(SterilisationBooking.status == BookingStatus.DONE)
        )
        assert done is not None and done.animal is not None and done.animal.name == "Luna"
        assert done.animal.sterilized and done.vet_crmv == "CRMV-ES 1234"
