"""The maus-tratos journey in a real browser at 360 px: a neighbour reports with a photo, gets a
protocol and a code and reads the next step → someone reports the same address and learns nothing
of the first report → the coordinator merges the duplicate, triages and assigns → the neighbour
reads who comes and by when → the agent records the inspection on a phone → the neighbour sees the
new status with the code (issues 12, 25, 26)."""

from __future__ import annotations

import io
import re

from PIL import Image
from playwright.sync_api import Page, expect

from portal.extensions import db
from tests import factories
from tests.factories import page_width, run_axe

PHONE = {"width": 360, "height": 740}


def _login(page: Page, base: str, email: str) -> None:
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def _tick(page: Page, label: str) -> None:
    """Click a radio's label, as a person does (the gov.br styles draw the box over the input)."""
    page.locator("label", has_text=re.compile(f"^{re.escape(label)}( \\*)?$")).first.click()


def _no_sideways_scroll(page: Page) -> None:
    assert page_width(page) <= page.evaluate("window.innerWidth") + 1


def _fill_report(page: Page) -> None:
    _tick(page, "Sem abrigo, luz, água, comida ou higiene; lugar impróprio")
    page.get_by_label("Conte o que você viu").fill("Cachorro preso sem água nem sombra há dias.")
    page.get_by_label("Rua, avenida").fill("Rua das Flores")
    page.get_by_label("Número").fill("10")
    page.get_by_label("Bairro").fill("Centro")


def _jpeg(tmp_path) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / "cachorro.jpg"
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), (120, 80, 40)).save(buffer, "JPEG")
    path.write_bytes(buffer.getvalue())
    return str(path)


def test_report_triage_inspect_and_follow(live_server, page: Page, browser, tmp_path) -> None:
    base = live_server.url
    with live_server.app.app_context():
        coordinator = factories.user(roles=("coordinator",), full_name="Coordenadora Clara")
        agent = factories.user(roles=("agent",), full_name="Agente Armando")
        db.session.commit()
        coordinator_email, agent_email = coordinator.email, agent.email
    page.set_viewport_size(PHONE)

    # 1. The neighbour reports, anonymously, with a photo.
    page.goto(f"{base}/denuncias/nova")
    expect(page.get_by_role("link", name="190")).to_be_visible()
    _no_sideways_scroll(page)
    assert run_axe(page) == []
    _fill_report(page)
    page.get_by_label("Fotos (até 6)").set_input_files(_jpeg(tmp_path))
    page.get_by_role("button", name="Enviar denúncia").click()

    expect(page.get_by_role("heading", name="Denúncia recebida")).to_be_visible()
    protocol = page.locator("#protocolo").inner_text()
    code = page.locator("#codigo").inner_text()
    assert re.fullmatch(r"DEN-\d{4}-\d{6}", protocol) and len(code) == 14
    _no_sideways_scroll(page)
    assert run_axe(page) == []
    # Issue 25: the status page names the next step, who takes it and by when.
    page.get_by_role("link", name="Ver a situação da denúncia").click()
    expect(page.locator("#proximo-passo-quem")).to_have_text("Coordenação do CCZ")
    expect(page.locator("#proximo-passo-prazo")).to_contain_text("até ")
    _no_sideways_scroll(page)
    assert run_axe(page) == []

    # 1b. Someone else (the reported neighbour, say) reports the same address: an ordinary receipt,
    # and not a word about the report already there (issue 26).
    other = browser.new_page(viewport=PHONE, locale="pt-BR")
    other.goto(f"{base}/denuncias/nova")
    _fill_report(other)
    other.get_by_role("button", name="Enviar denúncia").click()
    expect(other.get_by_role("heading", name="Denúncia recebida")).to_be_visible()
    second = other.locator("#protocolo").inner_text()
    assert second != protocol and protocol not in other.content()
    other.get_by_role("link", name="Ver a situação da denúncia").click()
    assert protocol not in other.content()
    other.close()

    # 2. The coordinator triages it as valid and schedules the agent for today.
    staff = browser.new_page(viewport=PHONE, locale="pt-BR")
    _login(staff, base, coordinator_email)
    # The duplicate is the staff's to see and merge.
    staff.goto(f"{base}/ccz/denuncias")
    staff.get_by_role("link", name=second).click()
    expect(staff.locator("#possiveis-duplicadas")).to_contain_text(protocol)
    assert run_axe(staff) == []
    staff.get_by_role("button", name=f"Juntar esta denúncia à {protocol}").click()
    expect(staff.locator("#situacao")).to_contain_text("Juntada")
    staff.goto(f"{base}/ccz/denuncias")
    staff.get_by_role("link", name=protocol).click()
    expect(staff.locator("#denunciante")).to_contain_text("Anônimo")
    expect(staff.get_by_role("img", name=re.compile("Foto 1"))).to_be_visible()
    staff.get_by_label("Agente", exact=True).select_option(label="Agente Armando")
    staff.locator("#inspection_on").fill(
        staff.evaluate("new Date().toLocaleDateString('sv-SE', {timeZone: 'America/Sao_Paulo'})")
    )
    staff.get_by_role("button", name="Programar vistoria").click()
    expect(staff.locator("#situacao")).to_have_text("Atribuída")
    staff.get_by_role("button", name="Sair").click()

    # 2b. The neighbour reads who comes next and by when, never the agent's day or name.
    page.reload()
    expect(page.locator("#situacao")).to_have_text("Vistoria programada")
    expect(page.locator("#proximo-passo-quem")).to_have_text("Agente do CCZ")
    expect(page.locator("#proximo-passo-prazo")).to_contain_text("até ")
    assert "Vistoria programada: Vistoria programada" not in page.content()
    expect(page.get_by_text("Agente Armando")).to_have_count(0)

    # 3. The agent, on a phone, records the inspection from "today's inspections".
    _login(staff, base, agent_email)
    staff.goto(f"{base}/ccz/denuncias?fila=today")
    staff.get_by_role("link", name=protocol).click()
    staff.get_by_role("link", name="Registrar vistoria").click()
    expect(staff.get_by_role("heading", name=f"Vistoria {protocol}")).to_be_visible()
    _no_sideways_scroll(staff)
    staff.locator("fieldset", has_text="Água limpa à disposição").get_by_text("Irregular").click()
    staff.get_by_label("O que foi constatado").fill("Pote de água vazio; orientado o morador.")
    staff.get_by_label("Pessoas presentes").fill("O morador")
    _tick(staff, "Orientação dada ao responsável")
    staff.get_by_role("button", name="Registrar vistoria").click()
    expect(staff.locator("#situacao")).to_have_text("Encerrada")
    staff.close()

    # 4. The neighbour, in a fresh browser, follows it with protocol + code.
    follower = browser.new_page(viewport=PHONE, locale="pt-BR")
    follower.goto(f"{base}/denuncias/acompanhar")
    follower.get_by_label("Protocolo").fill(protocol)
    follower.get_by_label("Código de acompanhamento").fill(code)
    follower.get_by_role("button", name="Ver situação").click()
    expect(follower.locator("#situacao")).to_have_text("Encerrada")
    expect(follower.get_by_text("o responsável recebeu orientação")).to_be_visible()
    expect(follower.get_by_text("Agente Armando")).to_have_count(0)
    _no_sideways_scroll(follower)
    assert run_axe(follower) == []
    follower.close()


def test_map_pin_and_district_circles_with_own_leaflet(live_server, page: Page) -> None:
    """With MAP_TILE_URL set, a tap on the map fills the point (tiles may fail to load: the pin
    still works), and the staff map draws one circle per district. Leaflet comes from /static."""
    base = live_server.url
    live_server.app.config["MAP_TILE_URL"] = base + "/tiles-de-teste/{z}/{x}/{y}.png"
    with live_server.app.app_context():
        coordinator = factories.user(roles=("coordinator",))
        db.session.commit()
        email = coordinator.email
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/denuncias/nova")
    box = page.locator("#mapa-pick")
    expect(box.locator(".leaflet-container, .leaflet-pane").first).to_be_attached()
    assert scripts and all(url.startswith(base) for url in scripts)
    box.scroll_into_view_if_needed()
    box.click(position={"x": 150, "y": 120})
    assert page.locator("#lat").input_value() and page.locator("#lng").input_value()
    _tick(page, "Envenenamento")
    page.get_by_label("Conte o que você viu").fill("Gatos envenenados na rua, vários mortos.")
    page.get_by_label("Bairro").fill("Centro")
    page.get_by_role("button", name="Enviar denúncia").click()
    expect(page.get_by_role("heading", name="Denúncia recebida")).to_be_visible()

    _login(page, base, email)
    page.goto(f"{base}/ccz/denuncias/mapa")
    expect(page.locator("#mapa-heat path.leaflet-interactive")).to_have_count(2)  # circle + pin
    expect(page.get_by_role("cell", name="Centro")).to_be_visible()
