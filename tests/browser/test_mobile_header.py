"""Issue 8, mobile: at 360×740 the signed-in menu folds behind "Menu" (no JavaScript needed) and
the payments table shows every column, the status included, inside the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from portal.extensions import db
from tests import factories
from tests.factories import page_width

PHONE = {"width": 360, "height": 740}


def _login(page: Page, base: str, email: str) -> None:
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


@pytest.fixture
def people(live_server):  # type: ignore[no-untyped-def]
    from portal.blueprints.billing.services import create_payment_item

    with live_server.app.app_context():
        staff = factories.user(
            full_name="Coordenadora Ana", roles=("citizen", "coordinator", "admin")
        )
        citizen = factories.user(full_name="Joana Pagadora")
        create_payment_item(
            kind="registration",
            amount_cents=2500,
            description="Registro do animal Rex (RGA) – taxa anual",
            payer=citizen,
        )
        db.session.commit()
        return staff.email, citizen.email


@pytest.mark.parametrize("javascript", [True, False])
def test_signed_in_menu_folds_on_a_phone(browser, live_server, people, javascript) -> None:
    staff_email, _citizen = people
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    _login(page, live_server.url, staff_email)
    page.goto(live_server.url + "/regras")
    menu = page.get_by_role("navigation", name="Menu principal")
    expect(menu).to_be_hidden()
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] < PHONE["height"] * 0.4
    page.locator("summary", has_text="Menu").click()
    expect(menu).to_be_visible()
    expect(menu.get_by_role("link", name="Área do CCZ")).to_be_visible()
    context.close()


def test_menu_is_a_plain_bar_on_a_desktop(page: Page, live_server, people) -> None:
    staff_email, _citizen = people
    page.set_viewport_size({"width": 1280, "height": 800})
    _login(page, live_server.url, staff_email)
    page.goto(live_server.url + "/regras")
    expect(page.get_by_role("navigation", name="Menu principal")).to_be_visible()
    expect(page.locator("summary", has_text="Menu")).to_be_hidden()


def test_payments_table_keeps_the_status_on_screen(page: Page, live_server, people) -> None:
    _staff, citizen_email = people
    page.set_viewport_size(PHONE)
    _login(page, live_server.url, citizen_email)
    page.goto(live_server.url + "/pagamentos/")
    status = page.locator("td[data-label='Situação'] .br-tag").first
    expect(status).to_be_visible()
    box = status.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page_width(page) <= PHONE["width"]
