"""A staff member's first morning, in a real browser: the password, then the authenticator app
(enrolment with the QR code's key), the recovery codes, and the Painel do CCZ with its queues —
at 360 px, checked by axe."""

from __future__ import annotations

from datetime import date, timedelta

import pyotp
import pytest
from playwright.sync_api import Page, expect

from portal.extensions import db
from portal.models import DocumentCopyRequest
from portal.models.base import utcnow
from tests import factories
from tests.factories import page_width, run_axe


def test_staff_enrols_totp_and_lands_on_the_painel_at_360px(live_server, page: Page) -> None:
    base = live_server.url
    live_server.app.config["STAFF_2FA_REQUIRED"] = True
    with live_server.app.app_context():
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        owner = factories.user()
        animal = factories.animal(owner)
        requested = date.today() - timedelta(days=50)  # past GRU 19's 45 days
        db.session.add(
            DocumentCopyRequest(
                animal=animal,
                kind="card",
                requested_on=requested,
                requested_at=utcnow() - timedelta(days=50),
                valid_until=requested + timedelta(days=45),
            )
        )
        db.session.commit()
        email = agent.email

    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()

    expect(page.get_by_role("heading", name="Ativar a verificação em duas etapas")).to_be_visible()
    assert run_axe(page) == []
    secret = page.locator(".portal-secret").inner_text()
    page.get_by_label("Código do aplicativo autenticador").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Ativar e entrar").click()

    expect(page.get_by_role("heading", name="Guarde seus códigos de recuperação")).to_be_visible()
    assert page.locator(".portal-recovery-codes li").count() == 10
    page.get_by_role("link", name="Já guardei, continuar").click()

    expect(page.get_by_role("heading", name="Painel do CCZ", exact=True)).to_be_visible()
    card = page.locator(".portal-queue-cards li", has_text="segundas vias")
    expect(card).to_contain_text("1 com prazo vencido")
    assert page_width(page) <= 360  # no sideways scroll
    assert run_axe(page) == []
    card.get_by_role("link").click()
    expect(page.get_by_role("heading", name="RGA: segundas vias a emitir")).to_be_visible()
    assert run_axe(page) == []


@pytest.mark.walker  # every workspace page in a browser: once, in the SQLite run
def test_every_workspace_page_passes_axe_at_360_and_1280(live_server, page: Page) -> None:
    import io

    from portal.blueprints.establishments import services as establishments
    from portal.services.uploads import store_document

    base = live_server.url
    with live_server.app.app_context():
        admin = factories.user(roles=("admin",))
        admin.add_role("coordinator")
        owner = factories.user()
        profile = live_server.app.extensions["portal_profile"]
        place = establishments.request_cadastro(
            owner,
            establishments.CadastroData(
                cnpj="11222333000181",
                legal_name="Clínica Vet Ltda",
                trade_name="Vet Bairro",
                kinds=["clinic"],
                facilities="Consultório",
                cep="07000000",
                street="Rua A",
                number="1",
                complement=None,
                district="Centro",
                phone=None,
                email=None,
                opening_hours=None,
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                vet_term_valid_until=date.today() + timedelta(days=200),
            ),
            profile=profile,
            today=date.today(),
            sketch=store_document(
                io.BytesIO(b"%PDF-1.4\n"),
                purpose="establishment_sketch",
                owner_id=owner.id,
                filename="croqui.pdf",
            ),
        )
        db.session.commit()
        email, place_id = admin.email, place.id

    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("heading", name="Painel do CCZ", exact=True)).to_be_visible()
    paths = [
        "/admin/",
        "/ccz/busca",
        "/ccz/indicadores",
        "/ccz/filas/rga-segundas-vias",
        "/ccz/filas/adocao-ccz",
        "/ccz/estabelecimentos",
        f"/ccz/estabelecimentos/{place_id}",
        "/admin/emails",
        "/conta/lembretes",
    ]
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        for path in paths:
            page.goto(base + path)
            assert run_axe(page) == [], path
            if width == 360:
                assert page_width(page) <= 360, path
    page.goto(f"{base}/ccz/busca")
    page.get_by_label("CPF, nome, e-mail, RGA, microchip, CNPJ ou número de protocolo").fill(
        "Vet Bairro"
    )
    page.get_by_role("button", name="Buscar").last.click()
    expect(page.get_by_role("heading", name="Estabelecimentos (1)")).to_be_visible()
    assert run_axe(page) == []
