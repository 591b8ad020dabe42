"""The administrative procedure in a real browser (issue 13): an agent on a phone issues an auto
de infração and records its service; the citizen sees it under "Minhas notificações" and files a
defence; the superior refuses it (the penalty notice follows, GRU 97); the citizen appeals (the
fine is suspended, GRU 110); the second instance decides (final, GRU 103 §3); the fine is paid
with the counter guia (no Stripe keys in tests). And the definitive apprehension (GRU 87 III, §ú;
88 §4): a tagged dog captured for the third time within five years → the auto de apreensão → the
owner appeals → the superior decides → final → the animal cannot be reclaimed."""

from __future__ import annotations

import re
from datetime import date

from playwright.sync_api import Page, expect

from portal.extensions import db
from portal.models import UnitValue
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


def _decide(page: Page, base: str, email: str, doc_path: str) -> None:
    _login(page, base, email, doc_path)
    page.get_by_label("Indeferir").check(force=True)
    page.get_by_label("Fundamentação").fill("Fato comprovado pelas fotos da vistoria.")
    page.get_by_label("Pessoalmente, com assinatura").check(force=True)
    page.get_by_role("button", name="Registrar decisão").click()
    expect(page.get_by_text("Decisão registrada.")).to_be_visible()
    _logout(page)


def test_notice_defence_decision_appeal_final_and_fine_paid(live_server, page: Page) -> None:
    base = live_server.url
    with live_server.app.app_context():
        db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        boss = factories.user(roles=("coordinator",), full_name="Carla Chefe")
        director = factories.user(roles=("admin",), full_name="Davi Diretor")
        citizen = factories.user(full_name="Rui Autuado")
        db.session.commit()
        agent_email, boss_email, director_email = (
            str(agent.email),
            str(boss.email),
            str(director.email),
        )
        citizen_email, cpf = str(citizen.email), str(citizen.cpf)

    # The agent, on a phone, issues the auto de infração and records the signature.
    page.set_viewport_size({"width": 360, "height": 740})
    _login(page, base, agent_email, "/ccz/fiscalizacao/novo")
    expect(page.get_by_role("heading", name="Emitir documento")).to_be_visible()
    page.get_by_label("Documento").select_option("infraction")
    page.get_by_label("Nome do autuado (pessoa ou razão social)").fill("Rui Autuado")
    page.get_by_label("CPF", exact=True).fill(cpf)
    page.get_by_label("Fato constitutivo da infração").fill("Cão acorrentado sem abrigo")
    page.get_by_label("Local do fato").fill("Rua das Flores, 10")
    page.get_by_label("Data e hora do fato").fill("2026-11-02T10:00")
    page.get_by_label("Dispositivo legal transgredido").select_option("GRU 10 V a")
    page.get_by_label("Gravidade da infração (multa)").select_option("medio")
    page.get_by_label("Multa em unidades fiscais").fill("100")
    page.get_by_label("Motivo do valor escolhido").fill("Risco à saúde do animal")
    page.get_by_label("Seu cargo").fill("Agente sanitário")
    assert page_width(page) <= 360
    page.get_by_role("button", name="Emitir").click()
    expect(page.get_by_text(re.compile(r"Documento \d{4}-\d{6} emitido"))).to_be_visible()
    doc_path = page.url.replace(base, "")
    page.get_by_label("Pessoalmente, com assinatura").check(force=True)
    page.get_by_role("button", name="Registrar ciência").click()
    expect(page.get_by_text("Ciência registrada")).to_be_visible()
    _logout(page)

    # The citizen sees it with the deadline and files a defence.
    _login(page, base, citizen_email, "/minhas-notificacoes")
    expect(page.get_by_role("heading", name="Minhas notificações")).to_be_visible()
    assert run_axe(page) == []
    page.get_by_role("link", name=re.compile("Auto de infração")).click()
    expect(page.get_by_text(re.compile("Prazo para apresentar defesa"))).to_be_visible()
    page.get_by_role("link", name="Apresentar defesa").click()
    page.get_by_label("Suas razões").fill("O cão tem abrigo no quintal dos fundos.")
    assert run_axe(page) == []
    page.get_by_role("button", name="Enviar").click()
    expect(page.get_by_text("Petição registrada")).to_be_visible()
    _logout(page)

    # First instance: the superior refuses the defence; the penalty notice follows.
    _decide(page, base, boss_email, doc_path)

    # The citizen appeals against the penalty: the fine is suspended.
    _login(page, base, citizen_email, "/minhas-notificacoes")
    page.get_by_role("link", name=re.compile("Auto de imposição de penalidade")).click()
    page.get_by_role("link", name="Recorrer").click()
    page.get_by_label("Suas razões").fill("Peço a revisão da multa.")
    page.get_by_role("button", name="Enviar").click()
    expect(page.get_by_text(re.compile("Suspensa por recurso"))).to_be_visible()
    penalty_path = page.url.replace(base, "").replace("/minhas-notificacoes/", "/ccz/fiscalizacao/")
    _logout(page)

    # Second instance: final.
    _decide(page, base, director_email, penalty_path)

    # The citizen pays: the counter guia (no Stripe keys here), settled by staff.
    _login(page, base, citizen_email, "/minhas-notificacoes")
    page.get_by_role("link", name=re.compile("Auto de imposição de penalidade")).click()
    expect(page.get_by_text("Decisão definitiva")).to_be_visible()
    page.get_by_role("link", name="Pagar a multa").click()
    expect(page.locator("#situacao")).to_have_text("Pendente")
    expect(page.get_by_text(re.compile(r"480,00")).first).to_be_visible()
    with live_server.app.app_context():
        from sqlalchemy import select

        from portal.models import PaymentItem

        reference = str(
            db.session.scalar(select(PaymentItem.reference).where(PaymentItem.kind == "fine"))
        )
    _logout(page)
    _login(page, base, agent_email, "/pagamentos/ccz/balcao")
    page.get_by_label("Referência da guia (12 dígitos)").fill(reference)
    page.get_by_role("button", name="Buscar guia").click()
    page.get_by_label("Número do recibo ou da autenticação bancária").fill("CX-2026-000999")
    page.get_by_role("button", name=re.compile("Confirmar pagamento")).click()
    expect(page.get_by_text(re.compile("Baixa registrada"))).to_be_visible()
    _logout(page)
    _login(page, base, citizen_email, "/minhas-notificacoes")
    page.get_by_role("link", name=re.compile("Auto de imposição de penalidade")).click()
    expect(page.locator("#situacao-multa")).to_have_attribute("data-fine", "paid")


def test_gru_87_iii_third_capture_auto_de_apreensao_appeal_final_no_reclaim_at_360px(
    live_server, page: Page, tmp_path
) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import select

    from portal.blueprints.enforcement import services
    from portal.blueprints.impound import services as impound
    from portal.models import Capture, CaptureStatus, EnforcementDocument
    from portal.services.clock import local_today

    base, app = live_server.url, live_server.app
    with app.app_context():
        profile = app.extensions["portal_profile"]
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        boss = factories.user(roles=("coordinator",), full_name="Carla Chefe")
        owner = factories.user(full_name="Rui Dono")
        pet = factories.animal(owner, name="Thor")
        for back in (900, 400):  # two earlier captures, reclaimed, within five years (GRU 84 §1 II)
            day = local_today() - timedelta(days=back)
            data = impound.CaptureData(
                species="dog",
                size="small",
                sex="male",
                color="Caramelo",
                place="Rua X, 10",
                district="Centro",
                captured_at=datetime(day.year, day.month, day.day, 13, tzinfo=UTC),
                captured_on=day,
                reason="loose",
                condition="good",
                tag_read=pet.rga,
            )
            impound.record_capture(
                profile, data, agent=agent, today=day
            ).status = CaptureStatus.RELEASED
        db.session.commit()
        agent_email, boss_email, owner_email, rga = (
            str(agent.email),
            str(boss.email),
            str(owner.email),
            str(pet.rga),
        )
    photo = tmp_path / "cao.png"
    photo.write_bytes(factories.png_bytes().getvalue())

    # The agent, on a phone, records the third capture: the capture page shows the auto.
    page.set_viewport_size({"width": 360, "height": 740})
    _login(page, base, agent_email, "/ccz/recolhimentos/novo")
    page.get_by_label("Cão").check(force=True)
    page.get_by_label("Pequeno").check(force=True)
    page.get_by_label("Cor / pelagem").fill("Caramelo")
    page.get_by_label("RGA lido na plaqueta").fill(rga)
    page.get_by_label("Fotos do animal").set_input_files(str(photo))
    page.get_by_label("Endereço ou ponto de referência da captura").fill("Rua das Acácias, 123")
    page.locator("#district").fill("Jardim Paraíso")
    page.get_by_role("button", name="Registrar captura").click()
    expect(page.get_by_role("heading", name=re.compile("Captura CAP-"))).to_be_visible()
    capture_path = page.url.replace(base, "")
    expect(page.get_by_text(re.compile("Apreensão definitiva \\(GRU 87"))).to_be_visible()
    assert page_width(page) <= 360
    page.get_by_role("link", name=re.compile(r"nº \d{4}-\d{6}")).click()
    doc_path = page.url.replace(base, "")
    page.get_by_label("Pessoalmente, com assinatura").check(force=True)
    page.get_by_role("button", name="Registrar ciência").click()
    expect(page.get_by_text("Ciência registrada")).to_be_visible()
    _logout(page)

    # The owner sees it under "Minhas notificações" and appeals.
    _login(page, base, owner_email, "/minhas-notificacoes")
    expect(page.get_by_role("heading", name="Minhas notificações")).to_be_visible()
    page.get_by_role("link", name=re.compile("Auto de apreensão")).click()
    assert page_width(page) <= 360
    page.get_by_role("link", name="Recorrer").click()
    page.get_by_label("Suas razões").fill("O portão foi aberto por terceiros.")
    assert run_axe(page) == []
    page.get_by_role("button", name="Enviar").click()
    expect(page.get_by_text("Petição registrada")).to_be_visible()
    _logout(page)

    # The superior refuses the appeal; the term for the second instance lapses (the daily job).
    _decide(page, base, boss_email, doc_path)
    with app.app_context():
        doc = db.session.scalar(
            select(EnforcementDocument).where(EnforcementDocument.capture_id.is_not(None))
        )
        assert doc is not None
        due = doc.petition_due_on
        assert due is not None
        services.close_lapsed(app.extensions["portal_profile"], due + timedelta(days=1))
        db.session.commit()
        assert doc.status == "final"
        capture = db.session.scalar(select(Capture).where(Capture.capture_number == 3))
        assert capture is not None
        protocol = capture.protocol

    # The capture page shows the definitive outcome; nobody can reclaim the animal.
    _login(page, base, agent_email, capture_path)
    expect(page.get_by_text(re.compile("mantida por decisão final"))).to_be_visible()
    expect(page.get_by_role("heading", name="Resgate no balcão")).to_have_count(0)
    assert page_width(page) <= 360
    _logout(page)
    _login(page, base, owner_email, f"/meus-recolhimentos/{protocol}")
    expect(page.get_by_text(re.compile("não volta à sua posse"))).to_be_visible()
    expect(page.get_by_role("button", name="Resgatar pelo portal")).to_have_count(0)
    assert run_axe(page) == []
