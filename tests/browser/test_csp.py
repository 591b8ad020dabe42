"""The Content-Security-Policy without 'unsafe-inline' for styles (issue 8, item 8): the main
public and signed-in pages load with no CSP violation in the browser — no style attribute, no
<style> block, nothing that the policy blocks (Leaflet's CSSOM styling is allowed)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.factories import password_field

DEMO_PASSWORD = "demo12345"
RECORD = """
document.addEventListener('securitypolicyviolation', (e) => {
  (window.__csp = window.__csp || []).push(
    `${e.violatedDirective} ${e.blockedURI} ${e.sample || ''}`.trim());
});
"""
PUBLIC = ["/", "/adocao", "/adocao?q=gato", "/denuncias/nova", "/animais-recolhidos", "/regras"]
STAFF = ["/admin/", "/ccz/denuncias/mapa", "/ccz/recolhimentos/novo"]
CITIZEN = ["/", "/animais/", "/minha-conta/"]


def _log_in(page: Page, base: str, email: str) -> None:
    page.goto(base + "/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill(email)
    password_field(page).fill(DEMO_PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Entrar").click()
    expect(page.locator("#mensagens")).to_contain_text("Bem-vindo(a)")


def _visit(page: Page, base: str, paths: list[str], found: dict[str, list[str]]) -> None:
    for path in paths:
        response = page.goto(base + path)
        assert response is not None and response.status < 400, (path, response and response.status)
        page.wait_for_load_state("load")
        if violations := page.evaluate("window.__csp || []"):
            found[path] = violations


def test_main_pages_load_without_any_content_security_policy_violation(
    live_server, page: Page
) -> None:
    base = live_server.url
    app = live_server.app
    app.config["MAP_TILE_URL"] = base + "/tiles-de-teste/{z}/{x}/{y}.png"  # the maps are drawn
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["seed-demo"])
        assert result.exit_code == 0, result.output
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(RECORD)
    found: dict[str, list[str]] = {}

    _visit(page, base, PUBLIC, found)
    page.goto(base + "/denuncias/nova")
    expect(page.locator("#mapa-pick .leaflet-pane").first).to_be_attached()  # Leaflet ran

    _log_in(page, base, "coord@demo.ccz")
    _visit(page, base, STAFF, found)
    page.goto(base + "/admin/")
    expect(page.get_by_role("heading", name="Painel do CCZ", exact=True)).to_be_visible()
    page.get_by_role("banner").get_by_role("button", name="Sair").click()

    _log_in(page, base, "cidada@demo.ccz")
    _visit(page, base, CITIZEN, found)

    assert not found, found
    assert not console, console
