"""Issue 25 point 2: no page scrolls sideways at 360 px, for every role; the small print of the
sign-in pages is legible on a phone (>= 12 px, Lighthouse's "legible font sizes").

The pages come from the URL map, like the accessibility walk (tests/browser/test_accessibility.py):
every GET page without URL arguments each role may open, plus one page per record type linked from
them, on the demo data (``flask seed-demo``). A page counts as too wide when the document scrolls
sideways, and also when a box inside it does (a table in a scroll box hides its last columns, the
status and the action, just as well as a page that scrolls: issue 25's "resgatar" in the fourth
column). A path another role already measured is not measured again, to keep the walk short.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.test_accessibility import (
    ROLE_ACCOUNTS,
    _linked_pages,
    _pages_for,
    public_pages,
)

PHONE = {"width": 360, "height": 740}

# What scrolls sideways at phone width: the document itself, or a box inside the content that
# hides part of what it holds (visually hidden helpers, the honeypot and maps excepted).
TOO_WIDE = """() => {
  const doc = document.documentElement;
  const found = [];
  if (doc.scrollWidth > doc.clientWidth) found.push(`page ${doc.scrollWidth}px`);
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('.portal-sr-only, .portal-offscreen, .leaflet-container, thead')) continue;
    const overflow = getComputedStyle(el).overflowX;
    if (overflow === 'visible' || el.clientWidth === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      const what = (el.querySelector('caption') || el).textContent.trim().slice(0, 40);
      found.push(`${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth}px "${what}"`);
    }
  }
  return found;
}"""

# Visible text smaller than 12 px: [font size, text] per text node (skip links and visually
# hidden labels are off screen until focused, and Lighthouse does not count them either).
SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const el = walker.currentNode.parentElement;
    if (!text || el.closest('.portal-sr-only, .br-skiplink, .portal-offscreen')) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    if (parseFloat(style.fontSize) < 12) small.push([style.fontSize, text.slice(0, 50)]);
  }
  return small;
}"""


def _sign_in(page: Any, base: str, email: str) -> None:
    page.goto(base + "/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill(email)
    page.locator("input[type=password]").first.fill("demo12345")
    page.get_by_role("main").get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("banner").get_by_role("button", name="Sair")).to_be_visible(
        timeout=20_000
    )


def _measure(page: Any, app: Any, base: str, queue: list[str], measured: set[str]) -> dict:
    too_wide: dict[str, list[str]] = {}
    seen: set[str] = set()
    while queue:
        path = queue.pop(0)
        if path in measured:
            continue
        measured.add(path)
        try:
            response = page.goto(base + path)
        except PlaywrightError:
            continue  # a download, not a page
        if response is None or "text/html" not in response.headers.get("content-type", ""):
            continue
        if response.status != 200:
            continue  # a page this role may open only in some states (the axe walk reports 500s)
        if found := page.evaluate(TOO_WIDE):
            too_wide[path] = found
        queue += _linked_pages(page, app, seen)
    return too_wide


@pytest.mark.walker(database="postgresql")  # every role's pages, in a browser: once
def test_no_page_of_any_role_scrolls_sideways_at_360px(live_server, browser) -> None:
    result = live_server.app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    too_wide: dict[str, list[str]] = {}
    measured: set[str] = set()
    for role in ["anonymous", *ROLE_ACCOUNTS]:
        context = browser.new_context(
            viewport=PHONE, locale="pt-BR", timezone_id="America/Sao_Paulo"
        )
        page = context.new_page()
        if role == "anonymous":
            queue = public_pages(live_server.app)
        else:
            _sign_in(page, live_server.url, ROLE_ACCOUNTS[role])
            queue = _pages_for(live_server.app, role)
        found = _measure(page, live_server.app, live_server.url, queue, measured)
        too_wide.update({f"{role} {path}": what for path, what in found.items()})
        context.close()
    assert len(measured) >= 60, sorted(measured)
    assert not too_wide, "sideways scroll at 360 px:\n" + "\n".join(
        f"{where}: {'; '.join(what)}" for where, what in sorted(too_wide.items())
    )


def test_sign_in_and_lost_pet_pages_have_no_text_under_12px_on_a_phone(live_server, page) -> None:
    page.set_viewport_size(PHONE)
    small = {}
    for path in ["/conta/entrar", "/perdi-meu-animal"]:
        page.goto(live_server.url + path)
        if found := page.evaluate(SMALL_TEXT):
            small[path] = found
    assert not small, f"text under 12 px at 360 px: {small}"
