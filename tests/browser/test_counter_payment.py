"""A registration fee paid at the counter, in a real browser, with no Stripe account: the citizen
prints the guia, staff find it by reference and mark it paid, the citizen sees "Pago" and downloads
the receipt."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from portal.blueprints.billing.services import create_payment_item
from portal.extensions import db
from tests import factories
from tests.factories import page_width, run_axe


def _login(page: Page, base: str, email: str, next_path: str) -> None:
    page.goto(f"{base}/conta/entrar?next={next_path}")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def _logout(page: Page) -> None:
    page.get_by_role("button", name="Sair").click()
    expect(page.get_by_role("link", name="Entrar", exact=True)).to_be_visible()


def test_registration_fee_paid_with_the_counter_slip(live_server, page: Page) -> None:
    base = live_server.url
    with live_server.app.app_context():
        citizen = factories.user(full_name="Helena Balcão", cpf="52998224725")
        staff = factories.user(roles=("agent",), full_name="Ana Caixa")
        item = create_payment_item(
            kind="registration",
            amount_cents=2500,
            description="Registro do animal Bolt (RGA)",
            payer=citizen,
            subject_type="animal",
            subject_id=1,
            breakdown=[
                {
                    "label": "Registro do animal (RGA)",
                    "amount_cents": 2500,
                    "article": "GRU 22 I",
                    "kind": "fee",
                }
            ],
        )
        db.session.commit()
        citizen_email, staff_email = citizen.email, staff.email
        item_id, reference = item.id, item.reference

    # The citizen opens the item and prints the guia.
    _login(page, base, citizen_email, "/pagamentos/")
    expect(page.get_by_role("heading", name="Meus pagamentos")).to_be_visible()
    page.get_by_role("link", name="Registro do animal Bolt (RGA)").click()
    expect(page.locator("#situacao")).to_have_text("Pendente")
    expect(page.get_by_role("button", name="Pagar online")).to_have_count(0)  # no Stripe keys
    assert run_axe(page) == []
    with page.expect_download() as download:
        page.get_by_role("link", name="Imprimir guia (PDF)").click()
    guia = Path(download.value.path()).read_bytes()
    assert guia.startswith(b"%PDF-") and reference.encode() in guia
    assert b"***.982.247-**" in guia
    _logout(page)

    # Staff find it by the reference typed as printed (groups of four) and mark it paid.
    _login(page, base, staff_email, "/pagamentos/ccz/balcao")
    grouped = " ".join(reference[i : i + 4] for i in range(0, 12, 4))
    page.get_by_label("Referência da guia (12 dígitos)").fill(grouped)
    page.get_by_role("button", name="Buscar guia").click()
    expect(page.get_by_text("Helena Balcão")).to_be_visible()
    page.get_by_label("Número do recibo ou da autenticação bancária").fill("CX-2026-000451")
    page.get_by_role("button", name=re.compile("Confirmar pagamento de R\\$\\s25,00")).click()
    expect(page.get_by_text(re.compile("Baixa registrada"))).to_be_visible()
    expect(page.locator("[data-status]").first).to_have_attribute("data-status", "paid")
    _logout(page)

    # The citizen sees it paid and downloads the receipt.
    _login(page, base, citizen_email, "/pagamentos/")
    row = page.locator(f"#pagamento-{item_id}")
    expect(row.get_by_text("Pago")).to_be_visible()
    row.get_by_role("link", name="Registro do animal Bolt (RGA)").click()
    expect(page.locator("#situacao")).to_have_text("Pago")
    with page.expect_download() as download:
        page.get_by_role("link", name="Baixar comprovante (PDF)").click()
    receipt = Path(download.value.path()).read_bytes()
    assert receipt.startswith(b"%PDF-")
    assert b"CX-2026-000451" in receipt and b"COMPROVANTE DE PAGAMENTO" in receipt


def test_public_price_list_is_accessible(live_server, page: Page) -> None:
    page.goto(f"{live_server.url}/pagamentos/precos")
    expect(page.get_by_role("heading", name="Preços públicos", exact=True)).to_be_visible()
    assert run_axe(page) == []
    page.set_viewport_size({"width": 320, "height": 640})
    width = page_width(page)
    assert width <= 320
