"""Who may adopt a given animal: the household limit with young animals (GRU 37), an adult
applicant (VV 28 §2) and a recent proof of address."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.eligibility import FAIL, PASS, check_eligibility
from portal.models import DocumentKind
from tests import factories
from tests.factories import add_document, eligible_person, fill_household, make_listing


def _profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _household(results):  # type: ignore[no-untyped-def]
    return next(r for r in results if r.rule == "household_limit")


def test_gru_37_young_animal_does_not_count_at_a_full_household(app) -> None:
    today = date.today()
    person = eligible_person()
    fill_household(person, 5)
    puppy = make_listing(None, birth_date=(today - timedelta(days=60)).isoformat(), age_months=None)
    result = _household(check_eligibility(_profile(app), person, puppy, today))
    assert result.status == PASS
    # ...but the person is told when it starts to count and that the licence will be needed.
    counts_on = today - timedelta(days=60) + timedelta(days=121)
    assert counts_on.strftime("%d/%m/%Y") in result.message
    assert "licença especial" in result.message


def test_gru_37_adult_animal_at_a_full_household_fails(app) -> None:
    today = date.today()
    person = eligible_person()
    fill_household(person, 5)
    adult = make_listing(None)
    result = _household(check_eligibility(_profile(app), person, adult, today))
    assert result.status == FAIL and result.article.startswith("GRU 37")


def test_gru_37_young_animal_below_the_limit_has_no_warning(app) -> None:
    today = date.today()
    person = eligible_person()
    fill_household(person, 3)
    puppy = make_listing(None, birth_date=(today - timedelta(days=60)).isoformat(), age_months=None)
    result = _household(check_eligibility(_profile(app), person, puppy, today))
    assert result.status == PASS and "licença" not in result.message


def test_under_18_fails_with_the_article(app) -> None:
    person = eligible_person(birth_date=date.today() - timedelta(days=17 * 365))
    results = check_eligibility(_profile(app), person, make_listing(None), date.today())
    adult = next(r for r in results if r.rule == "adult")
    # Guarulhos (the test profile) sets no age: the programme's rule, no other city's article.
    assert adult.status == FAIL and adult.article == "regra do programa de adoção"


def test_proof_of_address_91_days_old_is_refused(app) -> None:
    person = factories.user()
    with pytest.raises(svc.AdoptionError) as err:
        add_document(
            person, DocumentKind.PROOF_OF_ADDRESS, issued_on=date.today() - timedelta(days=91)
        )
    assert err.value.field == "issued_on"
