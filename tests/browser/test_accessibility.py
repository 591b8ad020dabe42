"""Accessibility in a real browser: axe-core (WCAG 2.1 A/AA) on every public page, 320px layout,
keyboard use (skip link, e-MAG shortcuts, visible focus).

The public pages are found by walking the URL map, so a page a new blueprint adds is audited
without touching this file.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import page_width, run_axe

# Public GET pages that are not HTML pages of their own: the health check answers JSON, the toggles
# redirect back (and /contraste would switch high contrast on for every page audited after it).
NOT_PAGES = ("/healthz", "/contraste", "/dev/")
KNOWN_PUBLIC_PAGES = {
    "/",
    "/regras",
    "/acessibilidade",
    "/privacidade",
    "/conta/entrar",
    "/conta/cadastro",
    "/conta/senha/esqueci",
}
SMALL_SCREEN_PAGES = [
    "/",
    "/regras",
    "/conta/cadastro",
    "/conta/entrar",
    "/acessibilidade",
    "/privacidade",
    "/conta/senha/esqueci",
    "/pagina-que-nao-existe",
]


def public_pages(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Every GET route without URL arguments whose view is declared ``@public``."""
    pages = set()
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if (
            "GET" not in (rule.methods or ())
            or rule.arguments
            or getattr(view, "access_policy", None) != "public"
        ):
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


@pytest.mark.walker  # every public page in a browser: once, in the SQLite run (tests/conftest.py)
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
            violations[path] = [
                {"id": f"HTTP {response.status}", "help": "server error", "nodes": []}
            ]
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
    # Focus moves to the summary (autofocus, no script): keyboard and screen reader start there.
    expect(page.locator("#erros-formulario")).to_be_focused()
    assert page.locator("#cpf-erro").inner_text() == "CPF inválido: confira os 11 dígitos."
    cpf = page.get_by_role("textbox", name="CPF", exact=True)
    assert cpf.get_attribute("aria-invalid") == "true"
    assert cpf.get_attribute("aria-describedby") == "cpf-dica cpf-erro"
    found = run_axe(page)
    assert not found, _describe({"/conta/cadastro (com erros)": found})


def test_axe_account_page_of_a_signed_in_citizen_has_no_violation(live_server, page) -> None:
    from portal.extensions import db
    from tests import factories
    from tests.factories import BROWSER_PASSWORD as PASSWORD
    from tests.factories import log_in

    with live_server.app.app_context():
        factories.user(email="conta.a11y@example.com", password=PASSWORD, email_confirmed_at=None)
        db.session.commit()
    log_in(page, live_server.url, "conta.a11y@example.com")
    page.goto(live_server.url + "/minha-conta/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Minha conta")
    found = run_axe(page)
    assert not found, _describe({"/minha-conta/": found})
    page.set_viewport_size({"width": 320, "height": 640})
    assert page_width(page) <= 320


@pytest.mark.parametrize("path", SMALL_SCREEN_PAGES)
def test_pages_fit_a_320px_screen_without_horizontal_scroll(live_server, page, path) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(live_server.url + path)
    assert page_width(page) <= 320
    # The skip link must fit too when it shows up.
    page.keyboard.press("Tab")
    box = page.locator(".br-skiplink a").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320


def test_signup_with_errors_fits_320px(live_server, page) -> None:
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(live_server.url + "/conta/cadastro")
    page.get_by_role("button", name="Criar conta").click()
    # the answer is a new document: wait for its messages instead of counting the old page's
    page.locator(".feedback.danger").nth(4).wait_for(timeout=10_000)
    assert page.locator(".feedback.danger").count() >= 5
    assert page_width(page) <= 320


def test_tab_reaches_the_skip_link_first_and_it_moves_focus_to_the_content(
    live_server, page
) -> None:
    page.goto(live_server.url + "/regras")
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "[document.activeElement.getAttribute('href'), document.activeElement.textContent.trim()]"
    )
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
def test_emag_accesskeys_1_to_4_lead_to_content_menu_search_and_footer(
    live_server, page, path
) -> None:
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
    key = {
        "modifiers": 1,
        "key": digit,
        "code": f"Digit{digit}",
        "windowsVirtualKeyCode": ord(digit),
    }
    cdp.send(
        "Input.dispatchKeyEvent", {"type": "keyDown", "text": digit, "unmodifiedText": digit, **key}
    )
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **key})
    cdp.detach()


def _outline(page) -> tuple[str, float]:  # type: ignore[no-untyped-def]
    style = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"""
    )
    return style[0], style[1]


def test_keyboard_focus_is_visible_on_links_buttons_inputs_and_checkboxes(
    live_server, page
) -> None:
    page.goto(live_server.url + "/conta/cadastro")
    seen = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        tag, kind = page.evaluate(
            "[document.activeElement.tagName, document.activeElement.type || '']"
        )
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


# --- Signed-in pages of every role (issue 15) ---------------------------------------------------

ROLE_ACCOUNTS = {  # the demo accounts (flask seed-demo), one per role
    "citizen": "cidada@demo.ccz",
    "ngo": "ong@demo.ccz",
    "agent": "agente@demo.ccz",
    "vet": "vet@demo.ccz",
    "coordinator": "coord@demo.ccz",
    "admin": "admin@demo.ccz",
}
# GET routes that are not pages to audit: toggles that change the session, sign-out, and files.
NOT_SIGNED_IN_PAGES = (
    "main.set_language",
    "main.toggle_contrast",
    "dev.",
    "api.",
    "open311.",
    "files.",
)
FILE_SUFFIXES = (".pdf", ".csv", ".json", ".zip", ".png", ".svg", ".txt")


def _pages_for(app, role: str) -> list[str]:  # type: ignore[no-untyped-def]
    """GET pages without URL arguments that an account with ``role`` may open."""
    from portal.access import STAFF

    pages = []
    for rule in app.url_map.iter_rules():
        policy = getattr(app.view_functions[rule.endpoint], "access_policy", "")
        if (
            "GET" not in (rule.methods or ())
            or rule.arguments
            or rule.endpoint.startswith(NOT_SIGNED_IN_PAGES)
            or rule.rule.endswith(FILE_SUFFIXES)
        ):
            continue
        allowed = (
            policy == "signed_in"
            or (policy.startswith("roles:") and role in policy[6:].split(","))
            or (policy == "staff" and role in STAFF)
        )
        if allowed:
            pages.append(rule.rule)
    return sorted(pages)


def _linked_pages(page, app, seen_endpoints: set[str]) -> list[str]:  # type: ignore[no-untyped-def]
    """One same-site link per not-yet-seen endpoint with URL arguments (an animal, a listing, a
    payment…), so pages about one record are audited too."""
    adapter = app.url_map.bind("localhost")
    found = []
    hrefs = page.eval_on_selector_all(
        "main a[href^='/']", "els => els.map(e => e.getAttribute('href'))"
    )
    for href in hrefs:
        path = href.split("#")[0].split("?")[0]
        if not path or path.endswith(FILE_SUFFIXES):
            continue
        try:
            endpoint, args = adapter.match(path, method="GET")
        except Exception:  # noqa: BLE001 - not a route of ours, or a POST-only one
            continue
        if args and endpoint not in seen_endpoints and not endpoint.startswith(NOT_SIGNED_IN_PAGES):
            seen_endpoints.add(endpoint)
            found.append(path)
    return found


@pytest.mark.walker(database="postgresql")  # every role's pages, in a browser: once
def test_axe_and_360px_layout_on_the_signed_in_pages_of_every_role(live_server, browser) -> None:
    """axe-core at 360 and 1280 px on every page each role reaches from the URL map, plus one page
    per record type linked from them; at 360 px nothing may scroll sideways. To keep the run short
    each page is loaded once (the audit at 1280 px resizes the same page: the layout is CSS only)
    and a page another role's pass already audited is not audited again."""
    from playwright.sync_api import Error as PlaywrightError

    result = live_server.app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    violations: dict[str, list[dict]] = {}
    too_wide: list[str] = []
    audited: set[str] = set()
    seen: set[str] = set()  # endpoints with URL arguments already queued
    for role, email in ROLE_ACCOUNTS.items():
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, locale="pt-BR", timezone_id="America/Sao_Paulo"
        )
        page = context.new_page()
        page.goto(live_server.url + "/conta/entrar")
        page.get_by_role("textbox", name="E-mail").fill(email)
        page.locator("input[type=password]").first.fill("demo12345")
        page.get_by_role("main").get_by_role("button", name="Entrar").click()
        # Password hashing is slow on purpose, and slower on a busy machine: a generous wait.
        expect(page.get_by_role("banner").get_by_role("button", name="Sair")).to_be_visible(
            timeout=20_000
        )
        queue = _pages_for(live_server.app, role)
        while queue:
            path = queue.pop(0)
            if path in audited:
                continue
            page.set_viewport_size({"width": 360, "height": 740})
            try:
                response = page.goto(live_server.url + path)
            except PlaywrightError:
                continue  # a download, not a page
            if response is None or "text/html" not in response.headers.get("content-type", ""):
                continue
            where = f"{role} {path}"
            if response.status >= 500:
                violations[where] = [{"id": f"HTTP {response.status}", "help": "", "nodes": []}]
                continue
            if response.status != 200:
                continue  # e.g. a page this role may open only in some states
            audited.add(path)
            if found := run_axe(page):
                violations[f"{where} @360"] = found
            if page_width(page) > 360:
                too_wide.append(where)
            page.set_viewport_size({"width": 1280, "height": 900})
            if found := run_axe(page):
                violations[f"{where} @1280"] = found
            queue += _linked_pages(page, live_server.app, seen)
        context.close()
    assert len(audited) >= 30, sorted(audited)
    assert not violations, "axe-core (WCAG 2.1 A/AA) violations:\n" + _describe(violations)
    assert not too_wide, f"wider than 360 px: {too_wide}"
