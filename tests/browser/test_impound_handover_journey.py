"""Issue 25, impound hand-overs in a real browser, across roles: an agent at 360 px registers a
capture from the Painel's first screen (place from "Usar minha localização") → the owner at 360 px
finds it on the home page's to-do list → reclaims → pays the counter guia, marked paid by staff
at desktop width → staff release it → the owner reads the release; and the certidão negativa de
captura: request at 360 px → exam by staff → public check by code from the home page. Each step
asserts what the person reads (deadline, amount, next step, who, address and hours) and that each
decision reaches them by e-mail (outbox) and on their to-do list."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import Page, ViewportSize, expect
from sqlalchemy import select

from portal.extensions import db
from portal.models import Capture, OutboxMessage
from portal.services.clock import local_today
from portal.services.dates import business_days_calendar
from tests import factories
from tests.factories import page_width, run_axe

PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
# The city's confirmed address and hours (CCZ_* settings): shown wherever the person must go
ADDRESS, HOURS = "Rua Doutor Exemplo, 100", "Segunda a sexta, das 7h às 17h"


def _confirmed_ccz(app) -> None:  # type: ignore[no-untyped-def]
    app.config.update(CCZ_ADDRESS=ADDRESS, CCZ_HOURS=HOURS)


def _sign_in(page: Page, base: str, email: str | None) -> None:
    assert email
    page.context.clear_cookies()
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_load_state("load")


def _mails(app, to: str | None) -> list[OutboxMessage]:  # type: ignore[no-untyped-def]
    with app.app_context():
        found = db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id)
        ).all()
        db.session.expunge_all()
        return list(found)


def test_capture_from_the_agents_first_screen_to_the_owner_reading_the_release(
    live_server, page: Page
) -> None:
    base, app = live_server.url, live_server.app
    _confirmed_ccz(app)
    with app.app_context():
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        cashier = factories.user(roles=("agent",), full_name="Caio Caixa")
        owner = factories.user(full_name="Olga Dona")
        pet = factories.rabies_vaccinated(
            factories.animal(owner, name="Thor"),
            local_today() - timedelta(days=30),
            local_today() + timedelta(days=300),
        )
        db.session.commit()
        agent_email, cashier_email, owner_email, rga = (
            agent.email,
            cashier.email,
            owner.email,
            pet.rga,
        )

    # 1. The agent, on a phone: the Painel's first screen offers "Registrar captura".
    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["geolocation"])
    page.context.set_geolocation({"latitude": -23.4543, "longitude": -46.5333, "accuracy": 12})
    _sign_in(page, base, agent_email)
    button = page.get_by_role("link", name="Registrar captura", exact=True).first
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]  # no scrolling
    button.click()
    expect(page.get_by_role("heading", name="Registrar captura")).to_be_visible()
    page.get_by_label("Cão").check(force=True)
    page.get_by_label("Pequeno").check(force=True)
    page.get_by_label("Cor / pelagem").fill("Caramelo")
    page.get_by_label("RGA lido na plaqueta").fill(rga)
    page.get_by_label("Endereço ou ponto de referência da captura").fill("Rua das Acácias, 123")
    page.locator("#district").fill("Jardim Paraíso")
    page.get_by_role("button", name="Usar minha localização").click()
    expect(page.locator("#localizacao-situacao")).to_contain_text("Localização preenchida")
    expect(page.locator("#latitude")).to_have_value("-23.454300")
    assert page_width(page) <= 360
    page.get_by_role("button", name="Registrar captura").click()
    expect(page.get_by_role("heading", name=re.compile("Captura CAP-"))).to_be_visible()
    expect(page.get_by_text("Aguardar o proprietário até o fim do prazo")).to_be_visible()
    assert page_width(page) <= 360
    with app.app_context():
        capture = db.session.scalar(select(Capture))
        assert capture is not None and round(capture.latitude or 0, 4) == -23.4543
        protocol, deadline = capture.protocol, capture.deadline_on.strftime("%d/%m/%Y")
    [captured_mail] = [m for m in _mails(app, owner_email) if protocol in m.subject]
    assert deadline in captured_mail.body

    # 2. The owner, on a phone, finds it on the home page and reclaims it.
    _sign_in(page, base, owner_email)
    page.goto(f"{base}/")
    todo = page.locator(".portal-todo-list").get_by_role("link", name=re.compile("Thor foi"))
    expect(todo).to_contain_text(f"Resgate até {deadline}")
    expect(todo).to_contain_text("taxa hoje: R$")
    expect(todo).to_contain_text(HOURS)
    assert page_width(page) <= 360
    todo.click()
    expect(page.get_by_role("heading", name="Seu animal recolhido")).to_be_visible()
    expect(page.locator("#taxa-hoje")).to_contain_text("Taxa de resgate hoje: R$")
    expect(page.get_by_text("O pagamento online não está disponível")).to_be_visible()
    expect(page.locator("#onde-fica-o-ccz").first).to_contain_text(HOURS)
    assert page_width(page) <= 360
    assert run_axe(page) == []
    page.get_by_role("button", name="Resgatar", exact=True).click()
    expect(page.get_by_text("Imprima a guia e pague no caixa do CCZ")).to_be_visible()
    amount = page.locator("dd").filter(has_text="R$").first.inner_text().strip()
    reference = page.locator("dt:has-text('Referência da guia') + dd").inner_text().strip()
    page.goto(f"{base}/")
    expect(page.get_by_role("link", name=re.compile("Resgate de Thor iniciado"))).to_contain_text(
        f"pague {amount}"
    )
    page.goto(f"{base}/meus-recolhimentos")
    expect(page.get_by_role("link", name="Resgatar")).to_be_visible()  # a card, at 360 px
    assert page_width(page) <= 360

    # 3. Staff at a desktop: the guia paid at the counter, then the release.
    page.set_viewport_size(DESKTOP)
    _sign_in(page, base, cashier_email)
    page.goto(f"{base}/pagamentos/ccz/balcao")
    page.get_by_label("Referência da guia (12 dígitos)").fill(reference)
    page.get_by_role("button", name="Buscar guia").click()
    page.get_by_label("Número do recibo ou da autenticação bancária").fill("CX-2026-000777")
    page.get_by_role("button", name=re.compile("Confirmar pagamento")).click()
    expect(page.get_by_text(re.compile("Baixa registrada"))).to_be_visible()
    [paid_mail] = [m for m in _mails(app, owner_email) if m.subject.startswith("Resgate pago")]
    assert HOURS in paid_mail.body and deadline in paid_mail.body
    page.goto(f"{base}/ccz/recolhimentos/{protocol}")
    expect(page.get_by_text("Liberar: conferir e registrar a devolução")).to_be_visible()
    page.get_by_label("Vacina em dia comprovada").check(force=True)
    page.get_by_role("button", name="Registrar vacina").click()
    page.get_by_role("button", name="Confirmar que não persistem as causas").click()
    page.get_by_label("Nome de quem assina o termo de devolução").fill("Olga Dona")
    page.get_by_label("O termo foi lido e assinado").check(force=True)
    page.get_by_role("button", name="Registrar devolução").click()
    expect(page.get_by_text("Devolução registrada.")).to_be_visible()
    expect(
        page.get_by_text(re.compile("Nenhum: caso encerrado. Animal devolvido a Olga Dona"))
    ).to_be_visible()
    expect(page.get_by_text("Aguardar o proprietário")).to_have_count(0)

    # 4. The owner reads the release: e-mail, to-do list, the capture's page.
    [released_mail] = [
        m for m in _mails(app, owner_email) if m.subject.startswith("Animal devolvido")
    ]
    assert "Olga Dona" in released_mail.body
    page.set_viewport_size(PHONE)
    _sign_in(page, base, owner_email)
    page.goto(f"{base}/")
    expect(page.get_by_role("link", name=re.compile("Thor foi devolvido em"))).to_contain_text(
        "Olga Dona"
    )
    page.goto(f"{base}/meus-recolhimentos/{protocol}")
    expect(page.locator("#devolucao")).to_contain_text("Animal devolvido em")
    expect(page.locator("#devolucao")).to_contain_text("Caso encerrado")
    assert page_width(page) <= 360


def _exam_day(app) -> str:  # type: ignore[no-untyped-def]
    with app.app_context():
        calendar = business_days_calendar(app.extensions["portal_profile"].state)
        day = local_today() + timedelta(days=1)
        while not calendar(day):
            day += timedelta(days=1)
        return day.isoformat()


def test_certidao_request_exam_and_public_check_by_code(live_server, page: Page) -> None:
    base, app = live_server.url, live_server.app
    _confirmed_ccz(app)
    with app.app_context():
        buyer = factories.user(full_name="Bruno Comprador")
        vet = factories.user(roles=("vet",))
        pet = factories.animal(factories.user(), name="Mel")
        db.session.commit()
        buyer_email, vet_email, rga = buyer.email, vet.email, pet.rga

    # 1. The buyer, on a phone: from the home page to the request; the fee and the place.
    page.set_viewport_size(PHONE)
    _sign_in(page, base, buyer_email)
    page.goto(f"{base}/")
    page.get_by_role("link", name="Certidão negativa de captura").first.click()
    expect(page.locator("#taxa-certidao")).to_contain_text("nenhuma")
    expect(page.locator("#onde-fica-o-ccz")).to_contain_text(HOURS)
    assert page_width(page) <= 360
    assert run_axe(page) == []
    page.get_by_role("link", name="Pedir a certidão").click()
    page.get_by_label("RGA do animal").fill(rga)
    exam = _exam_day(app)
    page.get_by_label("Dia para levar o animal ao CCZ").fill(exam)
    page.get_by_role("button", name="Pedir certidão").click()
    day = f"{exam[8:10]}/{exam[5:7]}/{exam[:4]}"
    expect(
        page.get_by_text(f"aguardando o exame: leve o animal, contido, ao CCZ em {day}")
    ).to_be_visible()
    page.goto(f"{base}/")
    expect(page.get_by_role("link", name=re.compile("Certidão de captura do RGA"))).to_contain_text(
        day
    )

    # 2. Staff at a desktop record the exam.
    page.set_viewport_size(DESKTOP)
    _sign_in(page, base, vet_email)
    page.goto(f"{base}/ccz/certidoes")
    page.get_by_label(re.compile("O animal confere com o RGA")).check(force=True)
    page.get_by_role("button", name="Registrar exame").click()
    expect(page.get_by_text("Exame registrado.")).to_be_visible()
    [mail] = [m for m in _mails(app, buyer_email) if "Certidão" in m.subject]
    code = re.search(r"CNC-[A-Z0-9]{10}", mail.body)
    assert code is not None
    code_text = code.group(0)

    # 3. The buyer sees it on the to-do list; anyone checks the code from the home page.
    page.set_viewport_size(PHONE)
    _sign_in(page, base, buyer_email)
    page.goto(f"{base}/")
    expect(
        page.get_by_role("link", name=re.compile(f"Certidão de captura {code_text} emitida"))
    ).to_be_visible()
    page.context.clear_cookies()
    page.goto(f"{base}/")
    page.get_by_role("link", name="Conferir um documento").first.click()
    expect(page.locator('input[name="number"]')).to_be_visible()  # the enforcement check too
    page.get_by_label(re.compile("Código da certidão")).fill("CNC-ERRADO0000")
    page.get_by_role("button", name="Conferir certidão").click()
    expect(page.get_by_text("Não há certidão emitida com este código")).to_be_visible()
    page.get_by_label(re.compile("Código da certidão")).fill(code_text.lower())
    page.get_by_role("button", name="Conferir certidão").click()
    expect(page.locator("#resultado")).to_contain_text("Código conferido")
    expect(page.get_by_text(rga)).to_be_visible()
    expect(page.get_by_text("Nenhuma captura")).to_be_visible()
    assert page_width(page) <= 360
    assert run_axe(page) == []
