"""Issue 8 item 3 in a real browser: the NGO hands an animal over with only the vaccination date it
confirms (no rabies batch or vet), and the adopter's RGA is definitive at once, with the listing's
vaccination and photo, never a late registration, and no trip to the CCZ asked for."""

from __future__ import annotations

import re
from datetime import date, timedelta

from playwright.sync_api import Page, expect

from portal.blueprints.adoption import applications as apps
from portal.extensions import db
from portal.services.clock import local_today
from tests import factories
from tests.factories import eligible_person, make_listing, ngo_user


def _login(page: Page, base: str, email: str) -> None:
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def test_handover_rga_is_definitive_with_the_listing_vaccination(live_server, page: Page) -> None:
    base = live_server.url
    app = live_server.app
    with app.app_context():
        profile = app.extensions["portal_profile"]
        reviewer, org = ngo_user("ONG Patinhas")
        listing = make_listing(
            org,
            name="Amora",
            species="cat",
            sex="female",
            size="small",
            color="Tricolor",
            author=reviewer,
        )  # two years old
        adopter = eligible_person(full_name="Helena Adotante")
        answers = apps.Answers(
            home_type="house", other_animals="none", caretaker="Eu", holidays="Com minha mãe"
        )
        application = apps.submit_application(
            profile, adopter, listing, answers, True, date.today()
        )
        apps.approve_application(profile, application, reviewer, date.today())
        db.session.commit()
        application_id, reviewer_email, adopter_email = (
            application.id,
            reviewer.email,
            adopter.email,
        )

    # The NGO confirms the vaccination date only: it vouches for the vaccination it gave.
    _login(page, base, reviewer_email)
    page.goto(f"{base}/adocao/gestao/pedidos/{application_id}/entrega")
    vaccinated_on = date.today() - timedelta(days=12)
    page.get_by_label("Data da vacinação").fill(vaccinated_on.isoformat())
    page.locator(
        "label",
        has_text=re.compile("^Confirmo que o animal foi entregue à pessoa adotante( \\*)?$"),
    ).click()
    page.get_by_role("button", name="Registrar a entrega e concluir a adoção").click()
    expect(page.get_by_text(re.compile(r"RGA \S+ emitido para Helena Adotante"))).to_be_visible()
    rga = re.search(r"RGA (\S+) emitido", page.content()).group(1)
    page.get_by_role("button", name="Sair").click()

    # The adopter's animal page: definitive, vaccination from the listing, the listing's photo.
    _login(page, base, adopter_email)
    page.goto(f"{base}/animais/{rga}/")
    expect(page.get_by_role("heading", name=re.compile("Amora"))).to_be_visible()
    expect(page.locator(".br-tag", has_text="Ativo")).to_be_visible()
    expect(page.get_by_text("Provisório")).to_have_count(0)
    expect(page.get_by_text("registro tardio")).to_have_count(0)
    expect(page.get_by_text(re.compile("Leve o animal ao CCZ"))).to_have_count(0)
    history = page.get_by_role("table", name="Histórico de vacinas")
    expect(history).to_contain_text(vaccinated_on.strftime("%d/%m/%Y"))
    expect(history).to_contain_text("Informada por ONG Patinhas na entrega para adoção")
    expect(page.get_by_role("img", name="Foto de Amora")).to_be_visible()
    # Nothing left to do for this animal on the home page either: its only line is the adoption's
    # outcome (issue 25: each decision reaches the adopter on the home list).
    page.goto(f"{base}/")
    today = local_today(live_server.app.extensions["portal_profile"])
    todo = page.locator(".portal-todo-list li")
    expect(todo).to_have_count(1)
    expect(todo).to_contain_text(f"Adoção de Amora concluída em {today:%d/%m/%Y}; RGA {rga}")
