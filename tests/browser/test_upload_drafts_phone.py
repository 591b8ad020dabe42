"""Issue 25 at 360 px in a real browser: the forms that now keep their uploads across a refusal
show the kept file ("Arquivo já enviado") without a sideways scroll, and the report form without
map tiles still takes a point from "Usar minha localização" and a plain message, no map."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from playwright.sync_api import FilePayload, Page, ViewportSize, expect
from sqlalchemy import select

from portal.extensions import db
from portal.models import MaltreatmentReport
from portal.services.clock import local_today
from tests import factories
from tests.browser.test_impound_handover_journey import _sign_in
from tests.browser.test_report_journey import _tick
from tests.factories import page_width, run_axe

PHONE: ViewportSize = {"width": 360, "height": 740}
# a phone's file name: long, with no space to break at (it must wrap, not widen the page)
LONG_NAME = "IMG_20261203_154512_laudo_veterinario_assinado_versao_final_digitalizada.pdf"
PDF: FilePayload = {
    "name": LONG_NAME,
    "mimeType": "application/pdf",
    "buffer": b"%PDF-1.4\n% doc\n",
}


def _jpeg(name: str) -> FilePayload:
    return {"name": name, "mimeType": "image/jpeg", "buffer": factories.jpeg_bytes()}


def _no_sideways_scroll(page: Page) -> None:
    width = page_width(page)
    client = int(page.evaluate("document.documentElement.clientWidth"))
    assert width <= client, f"{page.url}: {width} px wide at {client} px"


def test_report_without_map_tiles_takes_the_point_from_the_phone(live_server, page: Page) -> None:
    base, app = live_server.url, live_server.app
    app.config["MAP_TILE_URL"] = None  # no tile server reachable: no map is promised
    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["geolocation"])
    page.context.set_geolocation({"latitude": -23.4543, "longitude": -46.5333, "accuracy": 20})
    page.goto(f"{base}/denuncias/nova")
    expect(page.get_by_text("Esta página não tem mapa.")).to_be_visible()
    assert page.locator(".report-map").count() == 0
    page.get_by_role("button", name="Usar minha localização").click()
    expect(page.locator("#localizacao-situacao")).to_contain_text("Localização preenchida")
    page.get_by_text("Ver ou digitar as coordenadas").click()
    expect(page.locator("#lat")).to_have_value("-23.454300")
    _no_sideways_scroll(page)
    assert run_axe(page) == []
    _tick(page, "Sem abrigo, luz, água, comida ou higiene; lugar impróprio")
    page.get_by_label("Conte o que você viu").fill("Cachorro preso sem água nem sombra há dias.")
    page.get_by_label("Rua, avenida").fill("Rua das Flores")
    page.get_by_role("button", name="Enviar denúncia").click()
    expect(page.get_by_role("heading", name="Denúncia recebida")).to_be_visible()
    with app.app_context():
        report = db.session.scalars(select(MaltreatmentReport)).one()
        assert (round(report.lat or 0, 4), round(report.lng or 0, 4)) == (-23.4543, -46.5333)


def _refused_with_kept_file(
    page: Page, url: str, fill: Callable[[Page], None], button: str, name: str
) -> None:
    """Open ``url`` at 360 px, fill it (a file and one wrong field), send: the page comes back
    with the file kept, and nothing scrolls sideways."""
    page.goto(url)
    _no_sideways_scroll(page)
    fill(page)
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.locator(".portal-held-file strong").first).to_have_text(name)
    _no_sideways_scroll(page)


def test_upload_forms_keep_the_file_at_phone_width(live_server, page: Page) -> None:
    base, app = live_server.url, live_server.app
    with app.app_context():
        citizen = factories.user(full_name="Rita Dona")
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        vet = factories.user(roles=("vet",), full_name="Vera Vet")
        ngo_user, _org = factories.ngo_user()
        db.session.commit()
        emails = (citizen.email, agent.email, vet.email, ngo_user.email)
    page.set_viewport_size(PHONE)

    _sign_in(page, base, emails[0])  # a citizen: the establishment's sketch (GRU 11 §1 IV)
    _refused_with_kept_file(
        page,
        f"{base}/estabelecimentos/cadastro",
        lambda p: p.get_by_label(
            "Croqui dos alojamentos dos animais (PDF ou foto)"
        ).set_input_files(PDF),
        "Enviar pedido",
        LONG_NAME,
    )

    _sign_in(page, base, emails[1])  # an agent in the field: the capture's photos
    _refused_with_kept_file(
        page,
        f"{base}/ccz/recolhimentos/novo",
        lambda p: p.get_by_label("Fotos do animal").set_input_files(_jpeg("cao.jpg")),
        "Registrar captura",
        "cao.jpg",
    )

    _sign_in(page, base, emails[2])  # a vet: the GRU 90 laudo
    _refused_with_kept_file(
        page,
        f"{base}/ccz/eutanasia-no-local",
        lambda p: p.get_by_label("Arquivo do laudo assinado (PDF ou foto)").set_input_files(PDF),
        "Registrar eutanásia no local",
        LONG_NAME,
    )

    _sign_in(page, base, emails[3])  # an NGO: a new listing's photos
    _refused_with_kept_file(
        page,
        f"{base}/adocao/gestao/novo",
        lambda p: p.get_by_label("Fotos (1 a 8)").set_input_files(_jpeg("amora.jpg")),
        "Salvar",
        "amora.jpg",
    )


def test_rga_vaccination_card_is_kept_at_phone_width(live_server, page: Page) -> None:
    base, app = live_server.url, live_server.app
    with app.app_context():
        owner = factories.user(full_name="Rita Dona")
        db.session.commit()
        email = owner.email
        today = local_today()
    page.set_viewport_size(PHONE)
    _sign_in(page, base, email)
    page.goto(f"{base}/animais/cadastrar")
    page.get_by_label("Nome do animal").fill("Bolinha")
    page.get_by_text("Cão", exact=True).click()
    page.get_by_text("Fêmea", exact=True).click()
    page.get_by_label("Raça").fill("SRD")
    page.get_by_label("Cor / pelagem").fill("Caramelo")
    page.get_by_label("Data de nascimento").fill((today - timedelta(days=150)).isoformat())
    page.get_by_text("Médio (10 a 25 kg)").click()
    page.get_by_role("button", name="Continuar").click()
    expect(page.get_by_role("heading", level=2)).to_have_text("Onde o animal mora")
    page.get_by_label("CEP").fill("07010-000")
    page.get_by_label("Logradouro").fill("Rua das Acácias")
    page.get_by_label("Número").fill("15")
    page.get_by_label("Bairro").fill("Centro")
    page.get_by_role("button", name="Continuar").click()
    expect(page.get_by_role("heading", level=2)).to_have_text("Vacina antirrábica")
    page.get_by_label("Data da vacinação antirrábica").fill((today - timedelta(days=7)).isoformat())
    page.get_by_label("Foto ou PDF da carteira de vacinação").set_input_files(_jpeg("carteira.jpg"))
    page.get_by_role("button", name="Continuar").click()  # the vaccine's name is missing
    expect(page.locator(".portal-held-file strong")).to_have_text("carteira.jpg")
    _no_sideways_scroll(page)
    assert run_axe(page) == []
