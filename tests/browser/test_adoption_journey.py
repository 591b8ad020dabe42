"""The adoption journey in a real browser: search → apply → the NGO approves → hand-over → the
adopter finds the animal, with its RGA, in "Meus animais"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from portal.extensions import db
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
    rga = re.search(r"RGA (\S+) emitido", page.content()).group(1)
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
    from datetime import date, timedelta

    return (date.today() - timedelta(days=days)).isoformat()
