"""Issue 25 in a real browser at 360 px: an anonymous neighbour sends the report with a photo but
forgets the description; the page says what is missing next to the field, shows the photo as
"Arquivo já enviado" (no sideways scroll, no axe violation), and the report goes with the photo
once the description is typed, without choosing the file again."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from sqlalchemy import select

from portal.extensions import db
from portal.models import MaltreatmentReport
from tests.browser.test_report_journey import PHONE, _jpeg, _no_sideways_scroll, _tick
from tests.factories import run_axe


def test_anonymous_report_keeps_its_photo_after_a_refusal(
    live_server, page: Page, tmp_path
) -> None:
    base = live_server.url
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/denuncias/nova")
    _tick(page, "Sem abrigo, luz, água, comida ou higiene; lugar impróprio")
    page.get_by_label("Rua, avenida").fill("Rua das Flores")
    page.get_by_label("Número").fill("10")
    page.get_by_label("Fotos (até 6)").set_input_files(_jpeg(tmp_path))
    page.get_by_role("button", name="Enviar denúncia").click()

    expect(page.get_by_text("Arquivo já enviado:")).to_be_visible()
    expect(page.locator(".portal-held-file strong")).to_have_text("cachorro.jpg")
    expect(page.get_by_label("Rua, avenida")).to_have_value("Rua das Flores")
    _no_sideways_scroll(page)
    assert run_axe(page) == []

    page.get_by_label("Conte o que você viu").fill("Cachorro preso sem água nem sombra há dias.")
    page.get_by_role("button", name="Enviar denúncia").click()
    expect(page.get_by_role("heading", name="Denúncia recebida")).to_be_visible()
    protocol = page.locator("#protocolo").inner_text()
    with live_server.app.app_context():
        report = db.session.scalars(
            select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol)
        ).one()
        assert len(report.photos) == 1
