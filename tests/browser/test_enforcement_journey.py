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


def _serve_signed(page: Page) -> None:
    """On the document's staff page: the addressee signed it in person."""
    page.get_by_label("Pessoalmente, com assinatura").check(force=True)
    page.get_by_role("button", name="Registrar ciência").click()
    expect(page.get_by_text("Ciência registrada")).to_be_visible()


def _issue_and_serve(page: Page, base: str) -> str:
    """The agent signs the filled-in form, issues it and records the signature; its path."""
    page.get_by_label("Seu cargo").fill("Agente sanitário")
    page.get_by_role("button", name="Emitir").click()
    expect(page.get_by_text(re.compile(r"Documento \d{4}-\d{6} emitido"))).to_be_visible()
    path = page.url.replace(base, "")
    _serve_signed(page)
    return path


def _decide(page: Page, base: str, email: str, doc_path: str) -> None:
    _login(page, base, email, doc_path)
    page.get_by_label("Indeferir").check(force=True)
    page.get_by_label("Fundamentação").fill("Fato comprovado pelas fotos da vistoria.")
    page.get_by_label("Pessoalmente, com assinatura").check(force=True)
    page.get_by_role("button", name="Registrar decisão").click()
    # issue 25: an irreversible decision is confirmed with its consequences stated
    expect(page.get_by_role("heading", name="Confirmar a decisão")).to_be_visible()
    page.get_by_role("button", name="Confirmar a decisão").click()
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
    assert page_width(page) <= 360
    doc_path = _issue_and_serve(page, base)
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
    _serve_signed(page)
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
    expect(page.get_by_role("button", name="Resgatar", exact=True)).to_have_count(0)
    assert run_axe(page) == []


# -- Issue 25: the whole journey across roles, from the report to the fine -----------------------

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def _mails(app, email: str, subject_start: str) -> list:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from portal.models import OutboxMessage

    with app.app_context():
        rows = db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == email).order_by(OutboxMessage.id)
        )
        return [(m.subject, m.body) for m in rows if m.subject.startswith(subject_start)]


def _tick(page: Page, label: str) -> None:
    page.locator("label", has_text=re.compile(f"^{re.escape(label)}( \\*)?$")).first.click()


def _sign_in(page: Page, base: str, email: str, next_path: str) -> None:
    """Sign in as one of the journey's people. Nine sign-ins from one address within minutes
    would trip the sign-in rate limit (people on different devices never share it): reset."""
    from portal.extensions import limiter

    limiter.reset()
    _login(page, base, email, next_path)


def _home_todo(page: Page, base: str) -> str:
    page.goto(f"{base}/")
    return page.content()


def _decide_confirmed(page: Page, reason: str) -> str:
    """Fill the decision as the judge does, read the confirmation step, confirm; its text."""
    page.get_by_label("Indeferir").check(force=True)
    page.get_by_label("Fundamentação").fill(reason)
    page.get_by_label("Pessoalmente, com assinatura").check(force=True)
    page.get_by_role("button", name="Registrar decisão").click()
    expect(page.get_by_role("heading", name="Confirmar a decisão")).to_be_visible()
    consequences = page.locator("#consequencias").inner_text()
    page.get_by_role("button", name="Confirmar a decisão").click()
    expect(page.get_by_text("Decisão registrada.")).to_be_visible()
    return consequences


def test_report_to_notice_not_remedied_auto_defence_appeal_and_fine_paid(
    live_server, page: Page, browser, tmp_path
) -> None:
    """Issue 25: a citizen on a phone reports → the coordinator (desktop) triages → the agent
    (phone) inspects and issues the notificação preliminar, prefilled → its term passes (moved in
    the database) → "não sanada", confirmed → the auto de infração → the addressee (phone) files a
    defence with a photo → refused (confirmed; the penalty notice follows, GRU 97) → appeal from
    the auto's own page (the fine suspended, GRU 110) → the second instance refuses → the fine is
    paid at the counter. At each step: what the person reads, the e-mail and the home to-do."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import select

    from portal.models import EnforcementDocument, PaymentItem

    base, app = live_server.url, live_server.app
    with app.app_context():
        db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
        coordinator = factories.user(roles=("coordinator",), full_name="Carla Coordenadora")
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        director = factories.user(roles=("admin",), full_name="Davi Diretor")
        reporter = factories.user(full_name="Maria Vizinha")
        # the keeper of the dog, with a registered animal at the address the report gives
        keeper = factories.user(
            full_name="Rui Tutor", street="Rua das Flores", number="10", complement=""
        )
        factories.animal(keeper, name="Bidu")
        db.session.commit()
        coord_email, agent_email, director_email = coordinator.email, agent.email, director.email
        reporter_email, keeper_email, keeper_cpf = reporter.email, keeper.email, keeper.cpf
    photo = tmp_path / "abrigo.png"
    photo.write_bytes(factories.png_bytes().getvalue())

    # 1. The neighbour, on a phone, reports.
    page.set_viewport_size(PHONE)
    _sign_in(page, base, reporter_email, "/denuncias/nova")
    _tick(page, "Sem abrigo, luz, água, comida ou higiene; lugar impróprio")
    page.get_by_label("Conte o que você viu").fill("Cachorro preso sem abrigo, no sol, há dias.")
    page.get_by_label("Rua, avenida").fill("Rua das Flores")
    page.get_by_label("Número").fill("10")
    page.get_by_label("Bairro").fill("Centro")
    page.get_by_role("button", name="Enviar denúncia").click()
    expect(page.get_by_role("heading", name="Denúncia recebida")).to_be_visible()
    protocol = page.locator("#protocolo").inner_text()
    assert page_width(page) <= 360
    _logout(page)

    # 2. The coordinator, at a desk, triages it and schedules the agent for today.
    page.set_viewport_size(DESKTOP)
    _sign_in(page, base, coord_email, "/ccz/denuncias")
    page.get_by_role("link", name=protocol).click()
    page.get_by_label("Agente", exact=True).select_option(label="Ana Agente")
    page.locator("#inspection_on").fill(
        page.evaluate("new Date().toLocaleDateString('sv-SE', {timeZone: 'America/Sao_Paulo'})")
    )
    page.get_by_role("button", name="Programar vistoria").click()
    expect(page.locator("#situacao")).to_have_text("Atribuída")
    _logout(page)

    # 3. The agent, on a phone, inspects: the form no longer says notices are made elsewhere.
    page.set_viewport_size(PHONE)
    _sign_in(page, base, agent_email, "/ccz/denuncias?fila=today")
    page.get_by_role("link", name=protocol).click()
    page.get_by_role("link", name="Registrar vistoria").click()
    expect(page.get_by_text("fora do portal")).to_have_count(0)
    page.locator("fieldset", has_text="Abrigo contra sol, chuva e frio").get_by_text(
        "Irregular"
    ).click()
    page.get_by_label("O que foi constatado").fill("Cão sob o sol, sem casinha.")
    _tick(page, "Notificação preliminar necessária")
    page.get_by_role("button", name="Registrar vistoria").click()
    page.get_by_role("link", name="Emitir notificação preliminar").click()

    # 4. The notice form carries what the portal knows: the keeper, the address, the article.
    expect(page.get_by_label("Nome do autuado (pessoa ou razão social)")).to_have_value("Rui Tutor")
    expect(page.get_by_label("CPF", exact=True)).to_have_value(keeper_cpf)
    expect(page.get_by_label("Local do fato")).to_have_value(re.compile("Rua das Flores, 10"))
    expect(page.get_by_label("Dispositivo legal transgredido")).to_have_value("GRU 10 V a")
    expect(page.get_by_label("Fato constitutivo da infração")).to_have_value(
        re.compile("Cão sob o sol, sem casinha.")
    )
    expect(page.get_by_label("Providência exigida")).to_have_value(re.compile("Corrigir: abrigo"))
    page.get_by_label("Prazo para sanar").select_option("d5")
    assert page_width(page) <= 360
    notice_path = _issue_and_serve(page, base)
    # before the term: no "não sanada", and the page says until when
    expect(page.get_by_role("link", name="Não sanada: lavrar auto de infração")).to_have_count(0)
    expect(page.get_by_text(re.compile("só depois do prazo para sanar"))).to_be_visible()
    _logout(page)

    # 5. The keeper, on a phone, reads the notice and its term on the home page.
    _sign_in(page, base, keeper_email, "/")
    expect(
        page.get_by_text(re.compile(r"prazo para corrigir a irregularidade até"))
    ).to_be_visible()
    _logout(page)

    # 6. The term passes (moved in the database, not waited for).
    with app.app_context():
        notice = db.session.scalar(
            select(EnforcementDocument).where(EnforcementDocument.kind == "preliminary")
        )
        notice.comply_due_at = datetime.now(UTC) - timedelta(minutes=1)
        notice_id = notice.id
        db.session.commit()

    # 7. The agent: "não sanada", confirmed with its consequences, then the auto de infração.
    _sign_in(page, base, agent_email, notice_path)
    page.get_by_role("link", name="Não sanada: lavrar auto de infração").click()
    expect(page.get_by_text("O que acontece ao confirmar")).to_be_visible()
    page.get_by_role("button", name="Confirmar e lavrar o auto de infração").click()
    expect(page.get_by_role("heading", name="Emitir documento")).to_be_visible()  # was HTTP 500
    expect(page.get_by_text(re.compile("fica registrada como não cumprida"))).to_be_visible()
    expect(page.get_by_label("Nome do autuado (pessoa ou razão social)")).to_have_value("Rui Tutor")
    page.get_by_label("Data e hora do fato").fill(
        (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%dT10:00")
    )
    page.get_by_label("Gravidade da infração (multa)").select_option("medio")
    page.get_by_label("Multa em unidades fiscais").fill("100")
    page.get_by_label("Motivo do valor escolhido").fill("Irregularidade mantida após o prazo")
    auto_staff_path = _issue_and_serve(page, base)
    _logout(page)
    with app.app_context():
        assert db.session.get(EnforcementDocument, notice_id).status == "not_complied"

    # 8. The keeper reads the auto in plain words, with its amount, term and who decides; defends.
    _sign_in(page, base, keeper_email, "/minhas-notificacoes")
    page.get_by_role("link", name=re.compile("Auto de infração")).click()
    expect(page.get_by_text(re.compile("Prazo para apresentar defesa: até"))).to_be_visible()
    expect(
        page.get_by_text("Multa por infração de nível médio (100 UFG): R$ 480,00")
    ).to_be_visible()
    expect(page.get_by_role("link", name="GRU 10 V a")).to_be_visible()  # the code, explained
    expect(page.locator("dd", has=page.get_by_role("link", name="GRU 10 V a"))).to_contain_text(
        "Sem abrigo"
    )
    expect(
        page.get_by_text(re.compile("Quem decide: o superior hierárquico imediato"))
    ).to_be_visible()
    assert page_width(page) <= 360
    page.get_by_role("link", name="Apresentar defesa").click()
    page.get_by_label("Suas razões").fill("Já comprei uma casinha; veja a foto.")
    page.get_by_label("Documentos (PDF ou foto; opcional)").set_input_files(str(photo))
    assert run_axe(page) == []
    page.get_by_role("button", name="Enviar").click()
    expect(page.locator("#em-julgamento")).to_contain_text("Quem decide: o superior hierárquico")
    expect(page.locator("#em-julgamento")).to_contain_text("Você receberá a decisão por e-mail")
    assert "em julgamento. Quem decide: o superior hierárquico" in _home_todo(page, base)
    _logout(page)

    # 9. The coordinator sees the photo, who decides, and confirms the refusal's consequences.
    page.set_viewport_size(DESKTOP)
    _sign_in(page, base, coord_email, auto_staff_path)
    expect(page.get_by_role("img", name=re.compile("Foto anexada"))).to_be_visible()
    expect(page.locator("#quem-decide")).to_contain_text("GRU 102")
    said = _decide_confirmed(page, "A casinha não estava no local na vistoria de retorno.")
    assert "É lavrado o auto de imposição de penalidade, com a multa de R$ 480,00" in said
    assert "Diretor de Departamento" in said
    _logout(page)

    # 10. The keeper: the e-mail, the home to-do, and the appeal from the auto's own page.
    ((subject, body),) = _mails(app, keeper_email, "Decisão: defesa")
    assert "foi indeferida" in body and "A casinha não estava no local" in body
    assert "R$ 480,00" in body and "Diretor de Departamento" in body and "recorrer" in body
    page.set_viewport_size(PHONE)
    _sign_in(page, base, keeper_email, "/")
    expect(page.get_by_text(re.compile(r"Defesa indeferida \(documento"))).to_be_visible()
    page.goto(f"{base}/minhas-notificacoes")
    page.get_by_role("link", name=re.compile("Auto de infração")).click()
    expect(page.locator("#proximo-passo")).to_contain_text("A defesa foi indeferida")
    expect(page.locator("#proximo-passo")).to_contain_text("Você pode recorrer até")
    page.locator("#proximo-passo").get_by_role("link", name="Recorrer").click()
    expect(page.locator("#quem-decide")).to_contain_text("Diretor de Departamento")
    page.get_by_label("Suas razões").fill("Peço a revisão da multa.")
    page.get_by_role("button", name="Enviar").click()
    expect(page.get_by_text(re.compile("Suspensa por recurso"))).to_be_visible()
    penalty_staff_path = page.url.replace(base, "").replace(
        "/minhas-notificacoes/", "/ccz/fiscalizacao/"
    )
    home = _home_todo(page, base)
    assert "Pagar R$ 480,00" not in home and "fica suspensa até a decisão" in home
    assert page_width(page) <= 360
    _logout(page)

    # 11. The second instance refuses: final, the fine runs again.
    page.set_viewport_size(DESKTOP)
    _sign_in(page, base, director_email, penalty_staff_path)
    said = _decide_confirmed(page, "Multa fixada dentro da faixa da lei.")
    assert "A decisão é definitiva" in said and "volta a correr" in said
    _logout(page)
    ((subject, body),) = _mails(app, keeper_email, "Decisão: recurso")
    assert "Seu recurso" in body and "Pague a multa de R$ 480,00 até" in body

    # 12. The keeper reads what to pay and by when; pays with the counter guia (staff settle it).
    page.set_viewport_size(PHONE)
    _sign_in(page, base, keeper_email, "/")
    expect(page.get_by_text(re.compile(r"Pagar R\$ 480,00"))).to_be_visible()
    expect(page.get_by_text(re.compile("prazo para pagar a multa até"))).to_be_visible()
    _logout(page)
    with app.app_context():
        reference = str(
            db.session.scalar(select(PaymentItem.reference).where(PaymentItem.kind == "fine"))
        )
    page.set_viewport_size(DESKTOP)
    _sign_in(page, base, agent_email, "/pagamentos/ccz/balcao")
    page.get_by_label("Referência da guia (12 dígitos)").fill(reference)
    page.get_by_role("button", name="Buscar guia").click()
    page.get_by_label("Número do recibo ou da autenticação bancária").fill("CX-2026-000777")
    page.get_by_role("button", name=re.compile("Confirmar pagamento")).click()
    expect(page.get_by_text(re.compile("Baixa registrada"))).to_be_visible()
    _logout(page)
    page.set_viewport_size(PHONE)
    _login(
        page,
        base,
        keeper_email,
        penalty_staff_path.replace("/ccz/fiscalizacao/", "/minhas-notificacoes/"),
    )
    expect(page.locator("#situacao-multa")).to_have_attribute("data-fine", "paid")
    assert "Pagar R$ 480,00" not in _home_todo(page, base)
