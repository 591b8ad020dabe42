"""Impound in a real browser at 360 px (issue 14): an agent records the capture of a tagged dog
with a photo on a phone → the owner is e-mailed → reclaims online and pays → the agent releases
it; a dog nobody comes for → a CCZ adoption listing draft; a report whose inspection found a
capture needed → the pre-filled capture; an NGO claiming a dog a laudo proposed to euthanise."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect
from sqlalchemy import select

from portal.blueprints.billing.services import mark_paid_at_counter
from portal.blueprints.impound import services
from portal.extensions import db
from portal.models import Capture, Listing, OutboxMessage, ReclaimRecord
from portal.services.clock import local_today
from tests import factories
from tests.factories import page_width, run_axe


def _sign_in(page: Page, base: str, email: str | None) -> None:
    assert email
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
        pet = factories.rabies_vaccinated(
            factories.animal(owner, name="Thor"),
            local_today() - timedelta(days=30),
            local_today() + timedelta(days=300),
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
    assert page_width(page) <= 360
    assert run_axe(page) == []
    with app.app_context():
        capture = db.session.scalar(select(Capture))
        assert capture is not None
        protocol = capture.protocol
        assert len(capture.photos) == 1
        mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner_email))
        assert mail is not None and protocol in mail.body

    _sign_in(page, base, owner_email)
    page.goto(f"{base}/meus-recolhimentos/{protocol}")
    assert run_axe(page) == []
    page.get_by_role("button", name="Resgatar", exact=True).click()
    expect(page.get_by_text("Resgate iniciado")).to_be_visible()
    with app.app_context():
        reclaim = db.session.scalar(select(ReclaimRecord))
        assert reclaim is not None
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
        assert listing is not None
        assert listing.state == "draft" and listing.name == "Pretinha" and len(listing.photos) == 1


def test_report_capture_needed_leads_to_a_prefilled_capture_at_360px(
    live_server, page: Page
) -> None:
    """A maus-tratos report whose inspection found a capture needed → the capture form opens
    pre-filled from the report → the report lists the capture and its status."""
    from portal.models import MaltreatmentReport

    base, app = live_server.url, live_server.app
    with app.app_context():
        agent = factories.user(roles=("agent",))
        report = MaltreatmentReport(
            protocol="DEN-2026-000321",
            tracking_hash="z" * 64,
            category="no_shelter",
            description="Cão preso sem água",
            state="inspected",
            outcome="capture_needed",
            street="Rua das Palmeiras",
            number="77",
            district="Vila Rio",
            species="dog",
        )
        db.session.add(report)
        db.session.commit()
        email = agent.email

    page.set_viewport_size({"width": 360, "height": 740})
    _sign_in(page, base, email)
    page.goto(f"{base}/ccz/denuncias/DEN-2026-000321")
    page.get_by_role("link", name="Registrar captura").click()
    expect(page.locator("#da-denuncia")).to_contain_text("DEN-2026-000321")
    expect(page.locator("#district")).to_have_value("Vila Rio")
    assert run_axe(page) == []
    page.get_by_label("Pequeno").check(force=True)
    page.get_by_label("Cor / pelagem").fill("Preto")
    page.get_by_role("button", name="Registrar captura").click()
    expect(page.get_by_role("heading", name="Captura CAP-")).to_be_visible()
    page.goto(f"{base}/ccz/denuncias/DEN-2026-000321")
    expect(page.locator("#capturas-da-denuncia")).to_contain_text("Sob guarda do CCZ")
    assert page_width(page) <= 360


def test_lei_14228_ngo_reads_the_laudo_and_claims_the_dog_at_360px(live_server, page: Page) -> None:
    from portal.blueprints.impound import euthanasia

    base, app = live_server.url, live_server.app
    with app.app_context():
        member, _org = factories.ngo_user("Patas Unidas")
        vet = factories.user(roles=("vet",))
        day = local_today() - timedelta(days=20)
        profile = app.extensions["portal_profile"]
        capture = services.record_capture(
            profile,
            services.CaptureData(
                species="dog",
                size="small",
                sex="male",
                color="Branco",
                place="Praça Y",
                district="Centro",
                captured_at=datetime(day.year, day.month, day.day, 12, tzinfo=UTC),
                captured_on=day,
                reason="loose",
                condition="serious",
            ),
            agent=vet,
            today=day,
        )
        proposal = euthanasia.propose_euthanasia(
            profile,
            capture,
            euthanasia.ProposalData(vet_report="Neoplasia metastática", vet_crmv="CRMV-SP 9"),
            vet=vet,
            today=local_today(),
        )
        db.session.commit()
        email, number = member.email, proposal.number

    page.set_viewport_size({"width": 360, "height": 740})
    _sign_in(page, base, email)
    page.goto(f"{base}/ong/laudos")
    page.get_by_role("link", name=number).click()
    expect(page.get_by_text("Neoplasia metastática")).to_be_visible()
    assert run_axe(page) == []
    page.get_by_label("Nossa entidade assume a guarda").check(force=True)
    page.get_by_role("button", name="Resgatar o animal").click()
    expect(page.get_by_text("Resgate registrado")).to_be_visible()
    assert page_width(page) <= 360
