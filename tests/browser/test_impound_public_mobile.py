"""The public "Animais recolhidos" and "Perdi meu animal" pages on a cheap phone (360 px): nothing
wider than the screen, the alert link before the list, every field labelled (axe)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from portal.blueprints.impound.demo import seed_impound_demo
from portal.extensions import db
from tests import factories
from tests.factories import page_width, run_axe


def test_impound_public_pages_fit_360px_and_pass_axe(live_server, page: Page) -> None:
    base, app = live_server.url, live_server.app
    with app.app_context():
        factories.user(roles=("agent",), email="agente@demo.ccz")
        citizen = factories.user(email="cidada@demo.ccz")
        factories.animal(citizen, name="Thor")
        db.session.commit()
        seed_impound_demo()
        db.session.commit()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base}/animais-recolhidos")
    expect(page.get_by_role("heading", name="Animais encontrados: 3")).to_be_visible()
    assert page_width(page) <= 360
    assert page.locator("img[loading=lazy]").count() >= 1
    assert run_axe(page) == []
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill("cidada@demo.ccz")
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.goto(f"{base}/perdi-meu-animal")
    assert page_width(page) <= 360
    expect(page.get_by_text("Está na plaqueta da coleira")).to_be_visible()
    assert run_axe(page) == []
