"""Fast on a cheap phone (issue 15): reduced stylesheets, versioned static URLs cached for a year,
HTML never cached for a signed-in person, compression, listing photos in several sizes and a
description on every public page."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest

from portal.extensions import db
from tests import factories
from tests.factories import make_listing, ngo_user

STATIC_URL = re.compile(r'href="(/static/[^"]+)"')


def _static_links(html: str) -> list[str]:
    return STATIC_URL.findall(html)


def test_pages_link_the_reduced_design_system_not_the_whole_of_it(client) -> None:
    html = client.get("/").get_data(as_text=True)
    links = _static_links(html)
    assert not any("core.min.css" in link for link in links)
    head, body = html.split("</head>", 1)
    # Critical rules block the first paint from <head>; the rest loads at the end of <body>.
    assert "govbr-critical.css?v=" in head and "govbr-rest.css" not in head
    assert "govbr-rest.css?v=" in body
    # portal.css comes after the deferred rules too, so the portal's own rules keep the last word.
    assert body.index("govbr-rest.css") < body.rindex("css/portal.css")


def test_static_urls_carry_a_content_hash_and_are_cached_for_a_year(client) -> None:
    link = next(
        u for u in _static_links(client.get("/").get_data(as_text=True)) if "portal.css" in u
    )
    assert re.search(r"\?v=[0-9a-f]{12}$", link)
    with client.get(link) as response:  # a file response: closed, or the file stays open
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_static_urls_without_the_current_hash_are_revalidated(client) -> None:
    for url in ("/static/css/portal.css", "/static/css/portal.css?v=000000000000"):
        with client.get(url) as response:
            assert response.status_code == 200
            assert response.headers["Cache-Control"] == "no-cache"


def test_html_of_a_signed_in_person_is_never_stored(client, auth) -> None:
    auth.login(roles=("citizen",))
    response = client.get("/")
    assert response.headers["Cache-Control"] == "no-store, private"
    assert "Cookie" in response.headers["Vary"]


def test_anonymous_html_is_revalidated_and_private(client) -> None:
    response = client.get("/regras")
    assert response.headers["Cache-Control"] == "no-cache, private"


@pytest.mark.parametrize(
    ("encoding", "decode"), [("br", brotli.decompress), ("gzip", gzip.decompress)]
)
def test_html_css_and_json_are_compressed(client, encoding, decode) -> None:
    headers = {"Accept-Encoding": encoding}
    page = client.get("/regras", headers=headers)
    assert page.headers["Content-Encoding"] == encoding
    html = decode(page.data).decode()
    assert "<h1>" in html
    css_url = next(u for u in _static_links(html) if "govbr-critical.css" in u)
    with client.get(css_url, headers=headers) as css:
        assert css.headers["Content-Encoding"] == encoding
        assert b".br-button" in decode(css.data)
        assert css.headers["Cache-Control"].endswith("immutable")
    api = client.get("/api/v1/openapi.json", headers=headers)
    assert api.headers["Content-Encoding"] == encoding
    assert decode(api.data).startswith(b"{")


def test_nothing_is_compressed_for_a_client_that_does_not_ask(client) -> None:
    response = client.get("/regras")
    assert "Content-Encoding" not in response.headers
    assert b"<h1>" in response.data


# --- Listing photos -----------------------------------------------------------------------------


def _imgs(html: str) -> list[str]:
    return re.findall(r"<img\b[^>]*>", html, flags=re.S)


def test_listing_photos_offer_three_sizes_first_fetched_early_others_lazy(app, client) -> None:
    user, org = ngo_user()
    listing = make_listing(org, author=user, photos=3)
    db.session.commit()
    imgs = _imgs(client.get(f"/adocao/animal/{listing.id}").get_data(as_text=True))
    assert len(imgs) == 4  # the cover and three thumbnails
    cover, *thumbs = imgs
    for img in imgs:
        srcset = re.search(r'srcset="([^"]+)"', img).group(1)
        assert [w for w in re.findall(r" (\d+)w", srcset)] == ["320", "800", "1600"]
        assert all(v in srcset for v in ("/thumbnail", "/medium", "/large"))
        assert 'sizes="' in img and 'width="800"' in img and 'height="600"' in img
    assert 'fetchpriority="high"' in cover and "loading=" not in cover
    assert all('loading="lazy"' in t and "fetchpriority" not in t for t in thumbs)


def test_search_results_fetch_the_first_photo_early_and_the_rest_lazily(app, client) -> None:
    user, org = ngo_user()
    for name in ("Bidu", "Pipoca", "Tobias"):
        make_listing(org, author=user, name=name)
    db.session.commit()
    imgs = _imgs(client.get("/adocao").get_data(as_text=True))
    assert len(imgs) == 3
    assert 'fetchpriority="high"' in imgs[0] and "loading=" not in imgs[0]
    assert all('loading="lazy"' in img for img in imgs[1:])
    assert all("srcset=" in img and 'width="800"' in img for img in imgs)


# --- Meta description ---------------------------------------------------------------------------

NOT_PAGES = ("/healthz", "/contraste", "/dev/", "/api/", "/open311/", "/idioma/")
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')


def public_pages(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Every GET route without URL arguments whose view is declared ``@public``."""
    pages = []
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if (
            "GET" in (rule.methods or ())
            and not rule.arguments
            and getattr(view, "access_policy", None) == "public"
            and not rule.rule.startswith(NOT_PAGES)
            and not rule.rule.endswith((".json", ".pdf"))
        ):
            pages.append(rule.rule)
    return sorted(pages)


def test_every_public_page_has_a_meta_description(app, client) -> None:
    owner = factories.user()
    pet = factories.animal(owner, name="Thor")
    user, org = ngo_user()
    listing = make_listing(org, author=user, name="Paçoca", story="Carinhosa e brincalhona.")
    db.session.commit()
    paths = [
        *public_pages(app),
        f"/adocao/animal/{listing.id}",
        f"/rga/{pet.rga}",
        "/pagina-que-nao-existe",
    ]
    assert {"/", "/regras", "/adocao", "/conta/cadastro"} <= set(paths)
    missing, descriptions = [], {}
    for path in paths:
        response = client.get(path)
        if response.status_code in (301, 302, 303) or "text/html" not in response.headers.get(
            "Content-Type", ""
        ):
            continue  # a redirect (its target is on the list) or not a page
        found = DESCRIPTION.findall(response.get_data(as_text=True))
        if len(found) != 1 or len(found[0].strip()) < 20:
            missing.append(f"{path}: {found}")
        else:
            descriptions[path] = found[0]
    assert not missing, missing
    # The pages of the issue describe themselves from their own content, each differently.
    own = {
        p: descriptions[p]
        for p in (
            "/",
            "/regras",
            "/adocao",
            "/conta/cadastro",
            f"/adocao/animal/{listing.id}",
            f"/rga/{pet.rga}",
        )
    }
    assert len(set(own.values())) == len(own), own
    assert "Paçoca" in own[f"/adocao/animal/{listing.id}"]
    assert "Carinhosa e brincalhona." in own[f"/adocao/animal/{listing.id}"]
    assert pet.rga in own[f"/rga/{pet.rga}"] and "Thor" in own[f"/rga/{pet.rga}"]
    assert "Guarulhos" in own["/regras"]
