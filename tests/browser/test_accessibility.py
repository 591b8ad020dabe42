"""Accessibility in a real browser: axe-core (WCAG 2.1 A/AA) on every public page, 320px layout,
keyboard use (skip link, e-MAG shortcuts, visible focus).

The public pages are found by walking the URL map, so a page a new blueprint adds is audited
without touching this file.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import run_axe

# Public GET pages that are not HTML pages of their own: the health check answers JSON, the toggles
# redirect back (and /contraste would switch high contrast on for every page audited after it).
NOT_PAGES = ("/healthz", "/contraste", "/dev/")
KNOWN_PUBLIC_PAGES = {"/", "/regras", "/acessibilidade", "/privacidade", "/conta/entrar",
                      "/conta/cadastro", "/conta/senha/esqueci"}
SMALL_SCREEN_PAGES = ["/", "/regras", "/conta/cadastro", "/conta/entrar", "/acessibilidade",
                      "/privacidade", "/conta/senha/esqueci", "/pagina-que-nao-existe"]


def public_pages(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Every GET route without URL arguments whose view is declared ``@public``."""
    pages = set()
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if ("GET" not in (rule.methods or ()) or rule.arguments
                or getattr(view, "access_policy", None) != "public"):
            continue
        path = rule.rule
        if path.startswith(NOT_PAGES) or path.startswith("/api/") or path.endswith(".json"):
            continue
        pages.add(path)
    return sorted(pages)


def _describe(violations: dict[str, list[dict]]) -> str:
    lines = []
    for where, found in violations.items():
        for v in found:
            lines.append(f"{where}: {v['id']} – {v['help']} – {v['nodes']}")
    return "\n".join(lines)


def test_axe_finds_no_wcag_violation_on_any_public_page(live_server, page) -> None:
    paths = public_pages(live_server.app)
    assert KNOWN_PUBLIC_PAGES <= set(paths), "the URL map walk lost pages"
    violations: dict[str, list[dict]] = {}
    audited = 0
    for path in [*paths, "/pagina-que-nao-existe"]:
        response = page.goto(live_server.url + path)
        assert response is not None
        if "text/html" not in response.headers.get("content-type", ""):
            continue  # a JSON or file endpoint: nothing for axe to read
        audited += 1
        if response.status >= 500:
            violations[path] = [{"id": f"HTTP {response.status}", "help": "server error",
                                 "nodes": []}]
            continue
        if found := run_axe(page):
            violations[path] = found
    assert audited >= len(KNOWN_PUBLIC_PAGES)
    assert not violations, "axe-core (WCAG 2.1 A/AA) violations:\n" + _describe(violations)


def test_axe_high_contrast_home_has_no_violation(live_server, page) -> None:
    page.goto(live_server.url + "/contraste")  # the toggle sets a cookie and comes back home
    assert page.evaluate("document.body.classList.contains('contraste')")
    violations = {}
    for path in ["/", "/conta/cadastro"]:
        page.goto(live_server.url + path)
        if found := run_axe(page):
            violations[f"{path} (alto contraste)"] = found
    assert not violations, _describe(violations)


def test_axe_signup_with_validation_errors_has_no_violation(live_server, page) -> None:
    page.goto(live_server.url + "/conta/cadastro")
    page.get_by_role("textbox", name="CPF", exact=True).fill("123")
    page.get_by_role("button", name="Criar conta").click()
    assert page.locator("#erros-formulario").is_visible()
    assert page.locator("#cpf-erro").inner_text() == "CPF inválido: confira os 11 dígitos."
    cpf = page.get_by_role("textbox", name="CPF", exact=True)
    assert cpf.get_attribute("aria-invalid") == "true"
    assert cpf.get_attribute("aria-describedby") == "cpf-dica cpf-erro"
    found = run_axe(page)
    assert not found, _describe({"/conta/cadastro (com erros)": found})


def test_axe_account_page_of_a_signed_in_citizen_has_no_violation(live_server, page) -> None:
    from portal.extensions import db
    from tests import factories
    from tests.browser.test_account_journey import PASSWORD, log_in

    with live_server.app.app_context():
        factories.user(email="conta.a11y@example.com", password=PASSWORD,
                       email_confirmed_at=None)
        db.session.commit()
    log_in(page, live_server.url, "conta.a11y@example.com")
    page.goto(live_server.url + "/minha-conta/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Minha conta")
    found = run_axe(page)
    assert not found, _describe({"/minha-conta/": found})
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


@pytest.mark.parametrize("path", SMALL_SCREEN_PAGES)
def test_pages_fit_a_320px_screen_without_horizontal_scroll(live_server, page, path) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(live_server.url + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # The skip link must fit too when it shows up.
    page.keyboard.press("Tab")
    box = page.locator(".br-skiplink a").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320


def test_signup_with_errors_fits_320px(live_server, page) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(live_server.url + "/conta/cadastro")
    page.get_by_role("button", name="Criar conta").click()
    assert page.locator(".feedback.danger").count() >= 5
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_tab_reaches_the_skip_link_first_and_it_moves_focus_to_the_content(live_server,
                                                                           page) -> None:
    page.goto(live_server.url + "/regras")
    page.keyboard.press("Tab")
    focused = page.evaluate("[document.activeElement.getAttribute('href'),"
                            " document.activeElement.textContent.trim()]")
    assert focused[0] == "#conteudo"
    assert focused[1].startswith("Ir para o conteúdo")
    skip = page.locator(".br-skiplink a[href='#conteudo']")
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0, "the skip link stays off screen when focused"
    assert skip.is_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "conteudo"
    # The next Tab continues inside the content, not back at the top of the page.
    page.keyboard.press("Tab")
    assert page.evaluate("document.getElementById('conteudo').contains(document.activeElement)")


@pytest.mark.parametrize("path", ["/", "/regras", "/conta/entrar"])
def test_emag_accesskeys_1_to_4_lead_to_content_menu_search_and_footer(live_server, page,
                                                                     path) -> None:
    page.goto(live_server.url + path)
    targets = page.evaluate(
        """() => [1, 2, 3, 4].map(n => {
             const a = document.querySelector(`a[accesskey="${n}"]`);
             if (!a) return null;
             const id = a.getAttribute('href').slice(1);
             return [id, !!document.getElementById(id)];
           })"""
    )
    assert targets == [["conteudo", True], ["menu", True], ["busca", True], ["rodape", True]]
    # Alt+2 follows the link to the menu, Alt+3 lands in the search box. (expect() rather than
    # wait_for_function, which needs the eval that the portal's CSP forbids.)
    press_accesskey(page, "2")
    expect(page).to_have_url(re.compile("#menu$"))
    expect(page.locator("#menu")).to_be_focused()
    press_accesskey(page, "3")
    expect(page.locator("input#busca")).to_be_focused()


def press_accesskey(page, digit: str) -> None:  # type: ignore[no-untyped-def]
    """Alt+digit as a person types it. Chromium on Linux runs accesskeys on Alt, but only for a key
    event that carries its text; Playwright's ``keyboard.press("Alt+2")`` sends none, so the event
    goes in through the DevTools protocol."""
    cdp = page.context.new_cdp_session(page)
    key = {"modifiers": 1, "key": digit, "code": f"Digit{digit}",
           "windowsVirtualKeyCode": ord(digit)}
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": digit, "unmodifiedText": digit,
                                        **key})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **key})
    cdp.detach()


def _outline(page) -> tuple[str, float]:  # type: ignore[no-untyped-def]
    style = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"""
    )
    return style[0], style[1]


def test_keyboard_focus_is_visible_on_links_buttons_inputs_and_checkboxes(live_server,
                                                                          page) -> None:
    page.goto(live_server.url + "/conta/cadastro")
    seen = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        tag, kind = page.evaluate("[document.activeElement.tagName,"
                                  " document.activeElement.type || '']")
        if tag == "INPUT" and kind == "checkbox":
            # gov.br DS hides the real checkbox and draws it on the label: the ring is drawn there.
            ring = page.evaluate(
                """() => { const s = getComputedStyle(
                     document.querySelector(`label[for="${document.activeElement.id}"]`),
                     '::before');
                   return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"""
            )
            assert ring[0] != "none" and ring[1] >= 2, ring
        else:
            style, width = _outline(page)
            assert style != "none" and width >= 2, (tag, kind, style, width)
        seen.add(tag if tag != "INPUT" else f"INPUT:{kind}")
        if {"A", "BUTTON", "INPUT:text", "INPUT:checkbox"} <= seen:
            break
    assert {"A", "BUTTON", "INPUT:text", "INPUT:checkbox"} <= seen, seen
