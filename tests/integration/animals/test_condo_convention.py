"""CAB 25: "A manutenção de animais em edifícios condomínios será regulamentada pelas respectivas
convenções". Reading chosen: a flat still counts against the limit of CAB 31 (which makes no
exception for flats, unlike GRU 37 §2) and the building's convention applies too; the portal
cannot read a convention, so it says so to the household (its animals page, the registration's
address and review steps) and on the rules page. Cities without the article say nothing of it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.animals import services as animals
from portal.blueprints.animals.household import household_notes
from portal.extensions import db
from portal.profiles.summary import rule_sections
from tests import factories
from tests.conftest import AuthActions


def _adult(owner, today: date):  # type: ignore[no-untyped-def]
    return factories.animal(owner, birth_date=today - timedelta(days=400))


def test_cab_25_a_flat_counts_against_the_limit_and_hears_of_the_convention(make_app) -> None:
    with factories.profile_app(make_app, "cabeceira") as cab:
        today = animals.local_today(cab)
        flat = factories.user(housing_type="apartment_condo")
        for _ in range(9):
            _adult(flat, today)
        animals.check_household_limit(cab, flat, extra=1, on=today)  # 10: the limit itself
        _adult(flat, today)
        with pytest.raises(animals.HouseholdLimitExceeded):  # 11: CAB 31 binds flats too
            animals.check_household_limit(cab, flat, extra=1, on=today)
        (note,) = household_notes(cab, flat)
        assert note.article == "CAB 25" and note.reduction is None
        assert "convenção do condomínio" in note.text and "10" in note.text
        assert "não tem acesso" in note.text  # the portal does not verify it
        house = factories.user(housing_type="house")
        assert household_notes(cab, house) == []


def test_cab_25_the_rules_page_states_the_convention_and_the_reading(make_app) -> None:
    with factories.profile_app(make_app, "cabeceira") as cab:
        household = next(s for s in rule_sections(cab) if s.anchor == "residencia")
        (item,) = [i for i in household.items if i.article == "CAB 25"]
        assert "convenção do condomínio" in item.text and "não as confere" in item.text


@pytest.mark.parametrize("key", ["guarulhos", "bjp", "vilavelha", "cabo"])
def test_cab_25_cities_without_the_article_say_nothing_of_it(make_app, key) -> None:
    with factories.profile_app(make_app, key) as prof:
        flat = factories.user(housing_type="apartment_condo")
        assert household_notes(prof, flat) == []
        for section in rule_sections(prof):
            assert all(item.article != "CAB 25" for item in section.items)


def test_cab_25_my_animals_and_the_registration_address_step_say_it(make_app, animal_form) -> None:  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE="cabeceira")
    client = app.test_client()
    with app.app_context(), app.test_request_context():
        flat = factories.user(housing_type="apartment_condo")
        db.session.commit()
        AuthActions(client).login(flat)
        mine = client.get("/animais/").get_data(as_text=True)
        assert "Sua residência" in mine and "convenção do condomínio" in mine
        assert client.post("/animais/cadastrar", data=animal_form()).status_code == 302
        step = client.get("/animais/cadastrar/endereco").get_data(as_text=True)
        assert (
            "Onde o animal mora" in step and "convenção do condomínio" in step and "CAB 25" in step
        )


def test_cab_25_the_guarulhos_registration_does_not_mention_it(client, auth, animal_form) -> None:  # type: ignore[no-untyped-def]
    auth.login(factories.user(housing_type="apartment_condo"))
    assert client.post("/animais/cadastrar", data=animal_form()).status_code == 302
    step = client.get("/animais/cadastrar/endereco").get_data(as_text=True)
    assert "Onde o animal mora" in step and "convenção do condomínio" not in step
