"""Issue 8: a visitor types "gato" in the home page's search box and finds the cats; "cachorro"
finds the dogs and not a cat whose story talks about dogs. At phone width, in a real browser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from portal.extensions import db
from tests.factories import make_listing, make_org


@pytest.fixture
def listings(live_server):  # type: ignore[no-untyped-def]
    with live_server.app.app_context():
        org = make_org(name="ONG Patinhas")
        make_listing(
            org,
            name="Amora",
            species="cat",
            sex="female",
            size="small",
            color="Tricolor",
            story="Convive com cachorros.",
        )
        make_listing(org, name="Frajola", species="cat", sex="male", size="small", color="Preto")
        make_listing(None, name="Trovão", species="dog", sex="male", size="large", color="Preto")
        db.session.commit()


def _search_from_home(page: Page, base: str, words: str) -> None:
    page.goto(base + "/")
    page.get_by_label("Consultar um RGA ou buscar um animal para adoção").fill(words)
    page.get_by_role("button", name="Buscar").click()
    expect(page).to_have_url(re.compile(r"/adocao\?"))


def test_search_for_gato_from_the_home_finds_the_cats(live_server, page: Page, listings) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    _search_from_home(page, live_server.url, "gato")
    results = page.locator(".adocao-card-title")
    expect(results).to_have_count(2)
    expect(page.get_by_role("heading", name="Amora")).to_be_visible()
    expect(page.get_by_role("heading", name="Frajola")).to_be_visible()

    _search_from_home(page, live_server.url, "cachorro")
    expect(results).to_have_count(1)
    expect(page.get_by_role("heading", name="Trovão")).to_be_visible()

    _search_from_home(page, live_server.url, "gato preto")
    expect(results).to_have_count(1)
    expect(page.get_by_role("heading", name="Frajola")).to_be_visible()
