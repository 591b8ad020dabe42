"""Public search: every filter (in the URL), both sorts, keyset pagination that never skips or
repeats an animal, even when many share the same publication instant."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from portal.blueprints.adoption.search import SearchFilters, parse_filters, search_listings
from portal.extensions import db
from portal.models import ListingState
from portal.models.base import utcnow
from portal.services.dates import add_months
from tests.factories import make_listing, make_org

TODAY = date.today()


@pytest.fixture
def animals(app):  # type: ignore[no-untyped-def]
    org = make_org(name="Associação Amigos", email="a@example.org")
    other = make_org(name="Outra ONG", email="b@example.org")
    specs = [
        # name, org, species, sex, size, months, kids, dogs, cats, district, days waiting
        ("Rex", org, "dog", "male", "large", 60, False, True, False, "Jardim São João", 30),
        ("Mia", org, "cat", "female", "small", 6, True, False, True, "Centro", 2),
        ("Bolt", None, "dog", "male", "medium", 30, True, True, True, "Jd. São João", 10),
        ("Nina", other, "dog", "female", "small", 120, True, False, False, "Vila Galvão", 50),
        ("Tom", None, "cat", "male", "small", 18, False, False, True, "Centro", 5),
    ]
    made = {}
    for name, owner, species, sex, size, months, kids, dogs, cats, district, days in specs:
        listing = make_listing(
            owner,
            name=name,
            species=species,
            sex=sex,
            size=size,
            age_months=months,
            district=district,
            temperament=[t for t, f in (("children", kids), ("dogs", dogs), ("cats", cats)) if f],
        )
        listing.published_at = utcnow() - timedelta(days=days)
        made[name] = listing
    make_listing(org, name="Rascunho", state=ListingState.DRAFT)
    make_listing(org, name="Reservado", state=ListingState.RESERVED)
    db.session.commit()
    return made, org, other


def _names(args: dict[str, str]) -> list[str]:
    return [item.name for item in search_listings(parse_filters(args), TODAY, limit=50).items]


def test_only_published_animals_newest_first(animals) -> None:
    assert _names({}) == ["Mia", "Tom", "Bolt", "Rex", "Nina"]


def test_oldest_waiting_first(animals) -> None:
    assert _names({"sort": "oldest"}) == ["Nina", "Rex", "Bolt", "Tom", "Mia"]


@pytest.mark.parametrize(
    "args,expected",
    [
        ({"species": "cat"}, {"Mia", "Tom"}),
        ({"sex": "female"}, {"Mia", "Nina"}),
        ({"size": "small"}, {"Mia", "Nina", "Tom"}),
        ({"children": "1"}, {"Mia", "Bolt", "Nina"}),
        ({"dogs": "1", "cats": "1"}, {"Bolt"}),
        ({"cats": "1"}, {"Mia", "Bolt", "Tom"}),
        ({"owner": "ccz"}, {"Bolt", "Tom"}),
        ({"owner": "ngo"}, {"Rex", "Mia", "Nina"}),
        ({"district": "jardim sao joao"}, {"Rex", "Bolt"}),  # "Jd. São João" is the same place
        ({"district": "CENTRO"}, {"Mia", "Tom"}),
        ({"age_min": "2", "age_max": "5"}, {"Bolt", "Rex"}),
        ({"age_max": "0"}, {"Mia"}),
        ({"age_min": "6"}, {"Nina"}),
        ({"q": "bol"}, {"Bolt"}),
        ({"species": "dog", "size": "small", "sex": "female"}, {"Nina"}),
    ],
)
def test_filters(animals, args, expected) -> None:
    assert set(_names(args)) == expected


def test_filter_by_one_ngo(animals) -> None:
    _made, org, other = animals
    assert set(_names({"owner": str(other.id)})) == {"Nina"}
    assert set(_names({"owner": str(org.id)})) == {"Rex", "Mia"}


def test_age_range_edges_use_completed_years(app) -> None:
    make_listing(
        None, name="Dois anos hoje", birth_date=add_months(TODAY, -24).isoformat(), age_months=None
    )
    make_listing(
        None,
        name="Quase dois",
        birth_date=(add_months(TODAY, -24) + timedelta(days=1)).isoformat(),
        age_months=None,
    )
    db.session.commit()
    assert set(_names({"age_min": "2"})) == {"Dois anos hoje"}
    assert set(_names({"age_max": "1"})) == {"Quase dois"}


def test_keyset_pages_neither_skip_nor_repeat_with_equal_timestamps(app) -> None:
    same_instant = utcnow()
    for i in range(23):
        listing = make_listing(None, name=f"A{i:02d}", photos=0, state="draft")
        listing.state = ListingState.PUBLISHED
        listing.published_at = same_instant if i % 3 else same_instant - timedelta(hours=i)
    db.session.commit()
    for sort in ("newest", "oldest"):
        seen, cursor = [], None
        while True:
            page = search_listings(SearchFilters(sort=sort), TODAY, cursor=cursor, limit=5)
            seen += [item.name for item in page.items]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert len(seen) == 23 and len(set(seen)) == 23, sort


def test_search_page_shows_grid_with_thumbnails_and_count(client, animals) -> None:
    html = client.get("/adocao").get_data(as_text=True)
    assert "5 animais encontrados" in html
    assert html.count('class="adocao-card"') == 5
    assert re.search(r'<img src="/arquivos/[0-9a-f]{32}/thumbnail"', html)
    assert "Rascunho" not in html and "Reservado" not in html


def test_every_filter_is_in_the_url_and_kept_by_the_next_page_link(client, animals) -> None:
    made, _org, _other = animals
    for i in range(30):
        make_listing(None, name=f"Cão {i}", species="dog", size="small")
    db.session.commit()
    html = client.get("/adocao?species=dog&size=small&sort=oldest").get_data(as_text=True)
    assert '<option value="dog" selected>' in html and '<option value="oldest" selected>' in html
    link = re.search(r'href="(/adocao\?[^"]*cursor=[^"]*)"', html).group(1).replace("&amp;", "&")
    assert "species=dog" in link and "size=small" in link and "sort=oldest" in link
    second = client.get(link).get_data(as_text=True)
    assert "Voltar ao início" in second and "Nina" in html  # Nina, small dog, waits the longest


def test_a_bad_filter_value_is_explained_and_ignored(client, animals) -> None:
    response = client.get("/adocao?species=dragao&age_min=x&size=small")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Valor inválido" in html and "Use um número de 0 a 30." in html
    assert "3 animais encontrados" in html  # the size filter still applies


def test_a_stale_cursor_restarts_at_the_first_page(client, animals) -> None:
    html = client.get("/adocao?cursor=lixo").get_data(as_text=True)
    assert "recomece pela primeira página" in html and "5 animais encontrados" in html


def test_listing_page_shows_gallery_details_requirements_and_button(client, animals) -> None:
    made, _org, _other = animals
    html = client.get(f"/adocao/animal/{made['Bolt'].id}").get_data(as_text=True)
    assert "Quero adotar" in html and "Para adotar, você precisa" in html
    assert "18 anos" in html and "90 dias" in html and "GRU 37" in html
    assert "/medium" in html and "CCZ" in html


def test_draft_listing_page_is_hidden_from_the_public(client, app) -> None:
    draft = make_listing(None, state="draft")
    db.session.commit()
    assert client.get(f"/adocao/animal/{draft.id}").status_code == 404
    assert client.get("/adocao/animal/999999").status_code == 404


def test_home_search_box_leads_to_adoption_search(client, animals) -> None:
    response = client.get("/busca?q=Bolt")
    assert response.status_code == 302 and "/adocao?q=Bolt" in response.headers["Location"]
