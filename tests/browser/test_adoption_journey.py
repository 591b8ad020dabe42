"""The adoption journey in a real browser: search → apply → the NGO approves → hand-over → the
adopter finds the animal, with its RGA, in "Meus animais"."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect

from portal.extensions import db
from portal.services.clock import local_today
from tests import factories
from tests.factories import eligible_person, make_listing, ngo_user, run_axe


def _login(page: Page, base: str, email: str) -> None:
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def _tick(page: Page, label: str) -> None:
    """Click a radio's or checkbox's label, as a person does: the gov.br styles draw the box over
    the input, so the label is what receives the click."""
    page.locator("label", has_text=re.compile(f"^{re.escape(label)}( \\*)?$")).click()
    expect(page.get_by_label(label)).to_be_checked()


def _logout(page: Page) -> None:
    page.get_by_role("button", name="Sair").click()


@pytest.fixture
def adoption_world(live_server):  # type: ignore[no-untyped-def]
    with live_server.app.app_context():
        reviewer, org = ngo_user("ONG Patinhas")
        make_listing(
            org,
            name="Amora",
            species="cat",
            sex="female",
            size="small",
            color="Tricolor",
            district="Vila Galvão",
            author=reviewer,
        )
        make_listing(
            org,
            name="Trovão",
            species="dog",
            sex="male",
            size="large",
            color="Preto",
            district="Bonsucesso",
            author=reviewer,
        )
        adopter = eligible_person(full_name="Helena Adotante")
        db.session.commit()
        return reviewer.email, adopter.email


def test_search_apply_approve_hand_over_and_see_the_rga(
    live_server, page: Page, adoption_world
) -> None:
    reviewer_email, adopter_email = adoption_world
    base = live_server.url

    # 1. A visitor searches and filters: the filter lands in the URL.
    page.goto(f"{base}/adocao")
    expect(page.get_by_role("heading", name="2 animais encontrados")).to_be_visible()
    assert run_axe(page) == []
    page.get_by_label("Espécie").select_option("cat")
    page.get_by_role("button", name="Aplicar filtros").click()
    expect(page).to_have_url(re.compile(r"species=cat"))
    expect(page.get_by_role("heading", name="1 animal encontrado")).to_be_visible()
    page.get_by_role("link", name="Amora").click()
    expect(page.get_by_role("heading", name="Amora", level=1)).to_be_visible()
    assert run_axe(page) == []

    # 2. "Quero adotar" asks for the login and comes back to the application.
    page.get_by_role("link", name="Quero adotar").click()
    page.get_by_label("E-mail").fill(adopter_email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("heading", name="Quero adotar Amora")).to_be_visible()
    expect(page.get_by_text("Tudo certo até aqui.")).to_be_visible()
    _tick(page, "Casa com quintal")
    _tick(page, "Nenhum")
    page.get_by_label("Quem vai cuidar do animal no dia a dia?").fill("Eu mesma")
    page.get_by_label("Com quem o animal fica em viagens e feriados?").fill("Com minha mãe")
    _tick(page, "Li e aceito o Termo de Compromisso de Adoção")
    page.get_by_role("button", name="Enviar pedido de adoção").click()
    expect(page.get_by_text("Pedido enviado!")).to_be_visible()
    expect(page.get_by_text("Em análise").first).to_be_visible()
    _logout(page)

    # 3. The NGO reviews and approves.
    _login(page, base, reviewer_email)
    page.goto(f"{base}/adocao/gestao")
    page.get_by_role("link", name=re.compile("Helena Adotante")).click()
    expect(page.get_by_text("Eu mesma")).to_be_visible()
    page.get_by_role("button", name="Aprovar pedido").click()
    expect(page.get_by_text("o animal está reservado")).to_be_visible()

    # 4. Hand-over: the animal's health is confirmed and the RGA issued.
    page.get_by_role("link", name="Registrar a entrega").click()
    page.get_by_label("Vacina antirrábica aplicada (nome)").fill("Rabisin")
    page.get_by_label("Partida (lote)").fill("L2026-77")
    page.get_by_label("Médico(a) veterinário(a)").fill("Dra. Paula")
    page.get_by_label("CRMV").fill("CRMV-SP 4321")
    page.get_by_label("Data da vacinação").fill(_today_minus(5))
    _tick(page, "Confirmo que o animal foi entregue à pessoa adotante")
    page.get_by_role("button", name="Registrar a entrega e concluir a adoção").click()
    expect(page.get_by_text(re.compile(r"RGA \S+ emitido para Helena Adotante"))).to_be_visible()
    found = re.search(r"RGA (\S+) emitido", page.content())
    assert found is not None
    rga = found.group(1)
    _logout(page)

    # 5. The adopter sees the adoption completed and the animal in "Meus animais".
    _login(page, base, adopter_email)
    page.get_by_role("link", name="Minhas adoções").first.click()
    page.get_by_role("link", name="Amora").click()
    expect(page.get_by_text(f"RGA: {rga}")).to_be_visible()
    page.get_by_role("link", name="Ver em Meus animais").click()
    expect(page.get_by_text("Amora").first).to_be_visible()
    expect(page.get_by_text(rga).first).to_be_visible()


def _today_minus(days: int) -> str:
    from datetime import timedelta

    return (date.today() - timedelta(days=days)).isoformat()


# -- issue 25: NGO listing -> application at 360 px -> approval -> hand-over -> outcome --------

PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}
_PDF = {"name": "renda.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4\n% renda\n"}


def _shot(page: Page, name: str) -> None:
    """Screens of the journey for the report, when H9_SHOTS names a folder."""
    import os

    folder = os.environ.get("H9_SHOTS")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{page.url} is {width[0]} px wide at {width[1]} px"


def _sign_in(page: Page, base: str, email: str) -> None:
    page.goto(f"{base}/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill(email)
    page.get_by_label(re.compile("^Senha")).fill(factories.PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Entrar").click()


def _mails(app, email: str) -> list:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from portal.models import OutboxMessage

    with app.app_context():
        found = db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == email).order_by(OutboxMessage.id)
        ).all()
        return [(m.subject, m.body) for m in found]


@pytest.fixture
def ngo_and_citizen(live_server):  # type: ignore[no-untyped-def]
    """An approved NGO (its member signs in) and a citizen who has sent two of the three proofs."""
    from portal.models import DocumentKind

    with live_server.app.app_context():
        member, org = ngo_user("ONG Patinhas")
        person = factories.user(full_name="Helena Adotante")
        factories.add_document(person, DocumentKind.IDENTITY)
        factories.add_document(person, DocumentKind.PROOF_OF_ADDRESS)
        db.session.commit()
        return member.email, org.email, person.email


def test_ngo_lists_citizen_applies_on_a_phone_hand_over_and_outcome(  # noqa: PLR0915
    live_server, browser, browser_context_args, ngo_and_citizen
) -> None:
    member_email, org_email, person_email = ngo_and_citizen
    base, app = live_server.url, live_server.app
    ngo = browser.new_context(**{**browser_context_args, "viewport": DESKTOP}).new_page()
    phone = browser.new_context(**{**browser_context_args, "viewport": PHONE}).new_page()

    # 1. The NGO member, at a desk, lists Amora from "Gestão de adoções" and publishes her.
    _sign_in(ngo, base, member_email)
    ngo.get_by_role("link", name="Gestão de adoções").first.click()
    ngo.get_by_role("link", name="Novo anúncio").click()
    ngo.get_by_label("Nome do animal").fill("Amora")
    ngo.get_by_text("Gato", exact=True).click()
    ngo.get_by_text("Fêmea", exact=True).click()
    ngo.get_by_text("Pequeno", exact=True).click()
    ngo.get_by_label("Cor / pelagem").fill("Tricolor")
    ngo.get_by_label("Idade estimada: anos").fill("2")
    for label in ("Vacinado", "Vermifugado", "Esterilizado (castrado)"):
        ngo.get_by_text(label, exact=True).click()
    ngo.get_by_label("Data da vacinação").fill(_today_minus(30))
    ngo.get_by_label("Data da vermifugação").fill(_today_minus(30))
    ngo.get_by_label("Data da esterilização").fill(_today_minus(60))
    ngo.get_by_label("Bairro onde está").fill("Vila Galvão")
    ngo.get_by_label("Fotos (1 a 8)").set_input_files(
        {"name": "amora.jpg", "mimeType": "image/jpeg", "buffer": factories.jpeg_bytes()}
    )
    _shot(ngo, "01-ngo-new-listing")
    ngo.get_by_role("button", name="Salvar e publicar").click()
    expect(ngo.get_by_role("main")).to_contain_text("Anúncio de Amora salvo (Publicado)")

    # 2. The citizen, on a 360 px phone, finds Amora from the home page.
    _sign_in(phone, base, person_email)
    phone.get_by_role("main").get_by_role("link", name=re.compile("Adotar")).first.click()
    phone.get_by_role("link", name="Amora").click()
    _no_sideways_scroll(phone)
    phone.get_by_role("link", name="Quero adotar").click()
    main = phone.get_by_role("main")
    # the unhappy turn: the proof of income is missing, and the page says what to do about it
    expect(main).to_contain_text("Comprovante de renda")
    expect(main.get_by_role("button", name="Enviar pedido de adoção")).to_have_count(0)
    _no_sideways_scroll(phone)
    _shot(phone, "02-citizen-apply-missing-proof")
    main.get_by_role("link", name=re.compile("Enviar documento")).first.click()
    expect(phone.get_by_label("Documento", exact=True)).to_have_value("proof_of_income")
    _no_sideways_scroll(phone)
    phone.get_by_label("Arquivo (PDF ou foto)").set_input_files(_PDF)
    phone.get_by_role("button", name="Enviar documento").click()
    # back on the application, with the questionnaire now open
    expect(main.get_by_role("heading", name="Quero adotar Amora")).to_be_visible()
    expect(main).to_contain_text("Tudo certo até aqui.")
    _tick(phone, "Casa com quintal")
    _tick(phone, "Nenhum")
    phone.get_by_label("Quem vai cuidar do animal no dia a dia?").fill("Eu mesma")
    phone.get_by_label("Com quem o animal fica em viagens e feriados?").fill("Com minha mãe")
    # a second turn: sent without accepting the term -> refused, nothing typed is lost
    phone.get_by_role("button", name="Enviar pedido de adoção").click()
    expect(main).to_contain_text("aceite o Termo de Compromisso de Adoção")
    expect(phone.get_by_label("Quem vai cuidar do animal no dia a dia?")).to_have_value("Eu mesma")
    expect(phone.get_by_label("Casa com quintal")).to_be_checked()
    _no_sideways_scroll(phone)
    _tick(phone, "Li e aceito o Termo de Compromisso de Adoção")
    phone.get_by_role("button", name="Enviar pedido de adoção").click()
    expect(main).to_contain_text("Pedido enviado!")
    with app.app_context():
        from portal.models import AdoptionApplication

        application = db.session.scalars(db.select(AdoptionApplication)).one()
        application_id = application.id
    today = local_today(app.extensions["portal_profile"])
    review_days = app.extensions["portal_profile"].programme.adoption_review_target_days
    due = (today + timedelta(days=review_days)).strftime("%d/%m/%Y")
    next_box = main.locator("#proximo-passo").locator("..")
    expect(next_box).to_contain_text("Quem: ONG Patinhas.")
    expect(next_box).to_contain_text(f"Até {due}.")
    _no_sideways_scroll(phone)
    _shot(phone, "03-citizen-application-submitted")
    assert any(
        s == "Recebemos seu pedido de adoção" and due in b for s, b in _mails(app, person_email)
    )
    phone.goto(base + "/")
    expect(main).to_contain_text("Pedido para adotar Amora em análise por ONG Patinhas")
    expect(main).to_contain_text(f"decisão prevista até {due}")
    _no_sideways_scroll(phone)

    # 3. The NGO is told by e-mail and on its home to-do list; the record names its next action.
    assert any(s == "Novo pedido de adoção" for s, _b in _mails(app, org_email))
    ngo.goto(base + "/")
    ngo_main = ngo.get_by_role("main")
    expect(ngo_main).to_contain_text(f"Pedido nº {application_id}: Helena Adotante quer adotar")
    ngo_main.get_by_role("link", name="Analisar o pedido").click()
    expect(ngo_main.locator("#proximo-passo").locator("..")).to_contain_text(
        "Conferir 1 documento(s) pendente(s)"
    )
    _shot(ngo, "04-ngo-review")
    ngo_main.get_by_role("button", name=re.compile("^Aceitar")).click()
    expect(ngo_main.locator("#proximo-passo").locator("..")).to_contain_text(
        "Decidir: aprovar, pedir informações ou recusar."
    )
    ngo_main.get_by_role("button", name="Aprovar pedido").click()
    expect(ngo_main).to_contain_text("o animal está reservado")
    handover_due = (today + timedelta(days=7)).strftime("%d/%m/%Y")
    expect(ngo_main.locator("#proximo-passo").locator("..")).to_contain_text(
        f"registrá-la (saúde do animal e RGA). Quem: ONG Patinhas. Até {handover_due}."
    )

    # 4. The citizen reads the approval in an e-mail and on the home to-do list, with the date.
    assert any(
        s == "Pedido de adoção aprovado!" and handover_due in b
        for s, b in _mails(app, person_email)
    )
    phone.goto(base + "/")
    expect(main).to_contain_text(
        f"Pedido para adotar Amora aprovado! ONG Patinhas combina a entrega com você até "
        f"{handover_due}"
    )
    main.get_by_role("link", name="Ver o pedido").first.click()
    expect(main.locator("#proximo-passo").locator("..")).to_contain_text(f"Até {handover_due}.")
    _no_sideways_scroll(phone)
    _shot(phone, "05-citizen-approved")

    # 5. Hand-over at the NGO: health confirmed, the RGA issued in the adopter's name.
    ngo_main.get_by_role("link", name="Registrar a entrega").click()
    ngo.get_by_label("Vacina antirrábica aplicada (nome)").fill("Rabisin")
    ngo.get_by_label("Partida (lote)").fill("L2026-77")
    ngo.get_by_label("Médico(a) veterinário(a)").fill("Dra. Paula")
    ngo.get_by_label("CRMV").fill("CRMV-SP 4321")
    _tick(ngo, "Confirmo que o animal foi entregue à pessoa adotante")
    ngo.get_by_role("button", name="Registrar a entrega e concluir a adoção").click()
    expect(ngo_main).to_contain_text("emitido para Helena Adotante")
    expect(ngo_main.locator("#proximo-passo").locator("..")).to_contain_text(
        "Pedido encerrado: adoção concluída."
    )
    rga = re.search(r"RGA (\S+) emitido", ngo.content()).group(1)  # type: ignore[union-attr]
    _shot(ngo, "06-ngo-handover-done")
    ngo.goto(base + "/")
    expect(ngo_main).not_to_contain_text(f"Pedido nº {application_id}:")

    # 6. The adopter reads the outcome: e-mail, home to-do, the application and "Meus animais".
    assert any(s.startswith("Adoção concluída") and rga in b for s, b in _mails(app, person_email))
    phone.goto(base + "/")
    expect(main).to_contain_text(f"Adoção de Amora concluída em {today:%d/%m/%Y}; RGA {rga}")
    _no_sideways_scroll(phone)
    _shot(phone, "07-citizen-home-outcome")
    main.get_by_role("link", name="Ver a adoção").click()
    expect(main).to_contain_text(f"RGA: {rga}")
    _no_sideways_scroll(phone)
    phone.get_by_role("link", name="Minhas adoções").first.click()
    expect(main).to_contain_text("Adoção concluída")
    _no_sideways_scroll(phone)
    _shot(phone, "08-citizen-my-adoptions")
    main.get_by_role("link", name="Amora").click()
    main.get_by_role("link", name="Ver em Meus animais").click()
    expect(main).to_contain_text(rga)
    _no_sideways_scroll(phone)
