"""Impound in a real browser at 360 px (issue 14): an agent records the capture of a tagged dog
with a photo on a phone → the owner is e-mailed → reclaims online and pays → the agent releases
it; and a dog nobody comes for → a CCZ adoption listing draft."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlalchemy import select

from portal.blueprints.billing.services import mark_paid_at_counter
from portal.blueprints.impound import services
from portal.extensions import db
from portal.models import Capture, Listing, OutboxMessage, ReclaimRecord, Vaccination
from portal.services.clock import local_today
from tests import factories
from tests.browser.conftest import run_axe


def _sign_in(page: Page, base: str, email: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def test_gru_82_capture_tagged_dog_owner_emailed_reclaims_online_pays_released_at_360px(
    live_server, page: Page, tmp_path
) -> None:
    base, app = live_server.url, live_server.app
    with app.app_context():
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        owner = factories.user(full_name="Olga Dona")
        pet = factories.animal(owner, name="Thor")
        pet.vaccinations.append(
            Vaccination(
                vaccine_name="Rabisin",
                batch="L1",
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                applied_on=local_today() - timedelta(days=30),
                next_due_on=local_today() + timedelta(days=300),
            )
        )
        db.session.commit()
        agent_email, owner_email, rga = agent.email, owner.email, pet.rga
    photo = tmp_path / "cao.png"
    photo.write_bytes(factories.png_bytes().getvalue())

    page.set_viewport_size({"width": 360, "height": 740})
    _sign_in(page, base, agent_email)
    page.goto(f"{base}/ccz/recolhimentos/novo")
    expect(page.get_by_role("heading", name="Registrar captura")).to_be_visible()
    assert run_axe(page) == []
    page.get_by_label("Cão").check(force=True)
    page.get_by_label("Pequeno").check(force=True)
    page.get_by_label("Cor / pelagem").fill("Caramelo")
    page.get_by_label("RGA lido na plaqueta").fill(rga)
    page.get_by_label("Fotos do animal").set_input_files(str(photo))
    page.get_by_label("Endereço ou ponto de referência da captura").fill("Rua das Acácias, 123")
    page.locator("#district").fill("Jardim Paraíso")
    page.get_by_role("button", name="Registrar captura").click()
    expect(page.get_by_role("heading", name="Captura CAP-")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert run_axe(page) == []
    with app.app_context():
        capture = db.session.scalar(select(Capture))
        protocol = capture.protocol
        assert len(capture.photos) == 1
        mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner_email))
        assert protocol in mail.body

    _sign_in(page, base, owner_email)
    page.goto(f"{base}/meus-recolhimentos/{protocol}")
    assert run_axe(page) == []
    page.get_by_role("button", name="Resgatar pelo portal").click()
    expect(page.get_by_text("Resgate iniciado")).to_be_visible()
    with app.app_context():
        reclaim = db.session.scalar(select(ReclaimRecord))
        cashier = factories.user(roles=("agent",))
        mark_paid_at_counter(
            reclaim.payment_item, receipt_number="BANCO-1", paid_on=local_today(), actor=cashier
        )  # the guia paid at the bank
        db.session.commit()

    _sign_in(page, base, agent_email)
    page.goto(f"{base}/ccz/recolhimentos/{protocol}")
    page.get_by_label("Vacina em dia comprovada").check(force=True)
    page.get_by_role("button", name="Registrar vacina").click()
    page.get_by_role("button", name="Confirmar que não persistem as causas").click()
    page.get_by_label("Nome de quem assina o termo de devolução").fill("Olga Dona")
    page.get_by_label("O termo foi lido e assinado").check(force=True)
    page.get_by_role("button", name="Registrar devolução").click()
    expect(page.get_by_text("Devolução registrada.")).to_be_visible()
    expect(page.get_by_text("Devolvido ao proprietário")).to_be_visible()


def test_gru_88_nobody_comes_adoption_listing_draft_at_360px(live_server, page: Page) -> None:
    base, app = live_server.url, live_server.app
    with app.app_context():
        agent = factories.user(roles=("agent",))
        day = local_today() - timedelta(days=20)
        capture = services.record_capture(
            app.extensions["portal_profile"],
            services.CaptureData(
                species="dog",
                size="medium",
                sex="female",
                color="Preta",
                place="Praça X",
                district="Centro",
                captured_at=datetime(day.year, day.month, day.day, 12, tzinfo=UTC),
                captured_on=day,
                reason="loose",
                condition="good",
                photos=[(factories.png_bytes(), "cao.png")],
            ),
            agent=agent,
            today=day,
        )
        db.session.commit()
        email, protocol = agent.email, capture.protocol

    page.set_viewport_size({"width": 360, "height": 740})
    _sign_in(page, base, email)
    page.goto(f"{base}/ccz/recolhimentos")
    expect(page.get_by_text("Prazo vencido: decidir a destinação")).to_be_visible()
    page.get_by_role("link", name=protocol).click()
    expect(page.locator('input[value="euthanasia"]')).to_have_count(0)
    page.get_by_label("Adoção (anúncio do CCZ)").check(force=True)
    page.get_by_label("Motivo da decisão").fill("Prazo vencido sem resgate")
    page.get_by_label("Nome para o anúncio de adoção").fill("Pretinha")
    page.get_by_role("button", name="Registrar destinação").click()
    expect(page.get_by_text("Destinação registrada.")).to_be_visible()
    assert run_axe(page) == []
    with app.app_context():
        listing = db.session.scalar(select(Listing))
        assert listing.state == "draft" and listing.name == "Pretinha" and len(listing.photos) == 1
