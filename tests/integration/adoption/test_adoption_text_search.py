"""The free-text search box of the adoption grid (issue 8, "Search misses obvious words"): species
words with and without accents and plurals, sex, size, puppies, colours, neighbourhood, name and
story, on SQLite (LIKE fallback) and PostgreSQL (Portuguese full-text index)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.adoption.search import parse_filters, parse_query, search_listings
from portal.extensions import db
from portal.models import Listing
from portal.models.base import utcnow
from tests.factories import make_listing, make_org

TODAY = date.today()


@pytest.fixture
def animals(app):  # type: ignore[no-untyped-def]
    org = make_org(name="Associação Amigos", email="a@example.org")
    specs = [
        # name, species, sex, size, months, colour, district, story
        (
            "Rex",
            "dog",
            "male",
            "large",
            60,
            "Preto",
            "Jardim São João",
            "Encontrado na chuva, adora correr.",
        ),
        (
            "Mia",
            "cat",
            "female",
            "small",
            6,
            "Tricolor",
            "Centro",
            "Convive bem com cachorros e crianças.",
        ),
        ("Bolt", "dog", "male", "medium", 5, "Caramelo", "Vila Galvão", "Muito brincalhão."),
        ("Nina", "dog", "female", "small", 120, "Branca", "Bonsucesso", "Idosa e tranquila."),
        ("Tom", "cat", "male", "small", 18, "Cinza", "Centro", "Resgatado de um telhado."),
    ]
    for n, (name, species, sex, size, months, color, district, story) in enumerate(specs):
        listing = make_listing(
            org if n % 2 else None,
            name=name,
            species=species,
            sex=sex,
            size=size,
            age_months=months,
            color=color,
            district=district,
            story=story,
        )
        listing.published_at = utcnow() - timedelta(days=n)
    db.session.commit()


def _names(q: str, **args: str) -> set[str]:
    page = search_listings(parse_filters({"q": q, **args}), TODAY, limit=50)
    return {item.name for item in page.items}


@pytest.mark.parametrize(
    "q,expected",
    [
        ("gato", {"Mia", "Tom"}),
        ("gatos", {"Mia", "Tom"}),
        ("GATINHOS", {"Mia", "Tom"}),
        ("cão", {"Rex", "Bolt", "Nina"}),
        ("cao", {"Rex", "Bolt", "Nina"}),
        ("cães", {"Rex", "Bolt", "Nina"}),
        ("cachorro", {"Rex", "Bolt", "Nina"}),  # not Mia, whose story mentions "cachorros"
        ("cadela", {"Nina"}),
        ("filhote", {"Mia", "Bolt"}),
        ("filhotes de gato", {"Mia"}),
        ("fêmea", {"Mia", "Nina"}),
        ("femeas", {"Mia", "Nina"}),
        ("macho", {"Rex", "Bolt", "Tom"}),
        ("pequeno", {"Mia", "Nina", "Tom"}),
        ("cão de porte pequeno", {"Nina"}),
        ("preto", {"Rex"}),
        ("pretos", {"Rex"}),
        ("branco", {"Nina"}),  # the listing says "Branca"
        ("caramelo", {"Bolt"}),
        ("cinza", {"Tom"}),
        ("Galvão", {"Bolt"}),
        ("jd sao joao", {"Rex"}),
        ("bonsucesso", {"Nina"}),
        ("bol", {"Bolt"}),
        ("Nina", {"Nina"}),
        ("chuva", {"Rex"}),
        ("telhado", {"Tom"}),
        ("brincalhao", {"Bolt"}),
        ("crianças", {"Mia"}),
        ("gato centro", {"Mia", "Tom"}),
        ("gato preto", set()),
        ("zebra", set()),
    ],
)
def test_free_text_search_finds_portuguese_words(animals, q, expected) -> None:
    assert _names(q) == expected


def test_free_text_combines_with_url_filters(animals) -> None:
    assert _names("centro", sex="female") == {"Mia"}
    assert _names("cachorro", size="small") == {"Nina"}


def test_parse_query_splits_filters_from_words() -> None:
    parsed = parse_query("Filhotes de gata tricolor no Centro")
    assert (parsed.species, parsed.sex, parsed.puppy) == ("cat", "female", True)
    assert parsed.words == ("tricolor", "centro")


def test_search_text_follows_edits(animals) -> None:
    from sqlalchemy import select

    tom = db.session.scalar(select(Listing).where(Listing.name == "Tom"))
    tom.story = "Dorme no sofá o dia inteiro."
    db.session.commit()
    assert _names("sofa") == {"Tom"}
    assert _names("telhado") == set()


def test_free_text_search_on_the_page_and_the_api(animals, client) -> None:
    html = client.get("/adocao?q=gatos").get_data(as_text=True)
    assert "Mia" in html and "Tom" in html and "Rex" not in html
    data = client.get("/api/v1/listings?q=cachorro").get_json()
    assert {item["name"] for item in data["items"]} == {"Rex", "Bolt", "Nina"}


def test_search_keeps_keyset_pagination(animals) -> None:
    filters = parse_filters({"q": "cao"})
    first = search_listings(filters, TODAY, limit=2)
    second = search_listings(filters, TODAY, cursor=first.next_cursor, limit=2)
    assert [i.name for i in first.items] + [i.name for i in second.items] == ["Rex", "Bolt", "Nina"]
    assert second.next_cursor is None


def test_reindex_command_fills_search_text_of_old_rows(animals, app) -> None:
    from sqlalchemy import update

    db.session.execute(update(Listing).values(search_text=""))  # rows from before the column
    db.session.commit()
    assert _names("telhado") == set()
    result = app.test_cli_runner().invoke(args=["adoption-reindex-search"])
    assert result.exit_code == 0 and "5 anúncios reindexados" in result.output
    assert _names("telhado") == {"Tom"}
