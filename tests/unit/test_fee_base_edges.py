"""The fee service's building blocks at their edges (issue 16): how a line says what it counts,
inputs left empty by a form, numbers that are not whole, the holidays of the years a term spans
and the city's price list. Expected values worked by hand in the comments."""

from __future__ import annotations

from datetime import date

import pytest

from portal.extensions import db
from portal.models import MunicipalHoliday, PriceOverride
from portal.services.fee_base import _holiday_dates, _holidays
from portal.services.fees import compute_fee, price_cents
from tests.unit.test_fees_edges import ISSUE_DAY, _error, _reclaim, _reclaim_inputs

# -- what a line counts: days or animals -----------------------------------------------------------


def test_cab_17_adoption_fee_per_day_held_says_days(profile_of) -> None:
    cab = profile_of("cabeceira")
    # CAB 17: 0,5 UFM (R$ 25,00) "por cabeça e por dia de apreensão": 6 days are 6 days, not
    # 6 animals.
    (line,) = compute_fee(cab, "adoption", {"days_held": 6}, ISSUE_DAY).lines
    assert line.label == "Taxa de adoção por dia de apreensão (6 dias × R$ 25,00)"
    (one_day,) = compute_fee(cab, "adoption", {"days_held": 1}, ISSUE_DAY).lines
    assert one_day.label == "Taxa de adoção por dia de apreensão"


def test_gru_82_5_days_beyond_the_hold_say_days(profile_of) -> None:
    gru = profile_of("guarulhos")
    # Small animal caught Mon 2 Mar 2026: 3 business days, Tue 3, Wed 4, Thu 5. Reclaimed Sat 7:
    # 2 days beyond x R$ 15,00.
    daily = _reclaim(gru, "small", 5).lines[1]
    assert daily.label.endswith("(2 dias × R$ 15,00)")
    assert (daily.quantity, daily.unit_cents, daily.amount_cents) == (2, 1500, 3000)


def test_bjp_28_adoption_of_two_animals_says_animals(profile_of) -> None:
    bjp = profile_of("bjp")
    (line,) = compute_fee(bjp, "adoption", {"animals": 2}, ISSUE_DAY).lines
    assert line.label == "Taxa de adoção (2 animais × R$ 30,00)"


# -- inputs a form leaves empty -------------------------------------------------------------------


def test_an_empty_date_is_a_missing_date(profile_of) -> None:
    gru = profile_of("guarulhos")
    err = _error(gru, "reclaim", {"size": "small", "apprehended_on": "", "municipal_holidays": []})
    assert (err.field, err.code) == ("apprehended_on", "required")
    err = _error(gru, "reclaim", {"size": "small", "apprehended_on": "2026-02-30"})
    assert (err.field, err.code) == ("apprehended_on", "invalid")


def test_vv_22_6_an_empty_answer_to_away_from_home_is_no_answer(profile_of) -> None:
    vv = profile_of("vilavelha")
    inputs = _reclaim_inputs("small", 1, capture=2)
    err = _error(vv, "reclaim", {**inputs, "away_from_home": ""})
    assert (err.field, err.code) == ("away_from_home", "required")
    err = _error(vv, "reclaim", {**inputs, "away_from_home": "talvez"})
    assert (err.field, err.code) == ("away_from_home", "invalid")
    # The form's "true" / "false": 5 % of the minimum wage (R$ 81,05) only away from home.
    assert compute_fee(vv, "reclaim", {**inputs, "away_from_home": "True"}, ISSUE_DAY).total_cents
    assert compute_fee(vv, "reclaim", {**inputs, "away_from_home": "false"}, ISSUE_DAY).lines == ()


def test_an_empty_tagged_answer_keeps_the_default(profile_of) -> None:
    bjp = profile_of("bjp")
    inputs = _reclaim_inputs("small", 18)  # reclaimed Fri 20 March
    tagged = compute_fee(bjp, "reclaim", {**inputs, "tagged": True}, ISSUE_DAY)
    assert compute_fee(bjp, "reclaim", {**inputs, "tagged": ""}, ISSUE_DAY) == tagged
    assert compute_fee(bjp, "reclaim", inputs, ISSUE_DAY) == tagged


# -- whole numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("days", ["abc", "2,5", 2.5, True, [3], ""])
def test_cab_17_days_held_must_be_a_whole_number(profile_of, days) -> None:
    cab = profile_of("cabeceira")
    err = _error(cab, "adoption", {"days_held": days})
    # An empty field is a missing answer; anything else that is not a whole number is invalid.
    assert (err.field, err.code) == ("days_held", "required" if days == "" else "invalid")
    assert err.message


def test_cab_17_days_held_typed_in_a_form(profile_of) -> None:
    cab = profile_of("cabeceira")
    assert compute_fee(cab, "adoption", {"days_held": "3"}, ISSUE_DAY).total_cents == 7500
    assert compute_fee(cab, "adoption", {"days_held": "0"}, ISSUE_DAY).total_cents == 0


# -- the holidays of the years a term spans -------------------------------------------------------


def test_municipal_holidays_cover_the_year_of_an_old_apprehension(app) -> None:
    # The city's anniversary, entered once as yearly. An apprehension of March 2023 repriced in
    # 2026: its hold ran in 2023, so 2023's holiday must be loaded, not only the years around the
    # reclaim and today.
    db.session.add(MunicipalHoliday(day=date(2020, 3, 6), name="Aniversário", repeats_yearly=True))
    db.session.flush()
    days = _holidays(None, date(2023, 3, 2), date(2026, 3, 16))
    assert date(2023, 3, 6) in days
    assert date(2026, 3, 6) in days
    given_as_text = _holidays(
        None, date.fromisoformat("2023-03-02"), date.fromisoformat("2026-03-16")
    )
    assert date(2023, 3, 6) in given_as_text


def test_municipal_holidays_cover_the_year_of_a_late_reclaim(app) -> None:
    db.session.add(MunicipalHoliday(day=date(2020, 3, 6), name="Aniversário", repeats_yearly=True))
    db.session.flush()
    days = _holidays(None, date(2026, 3, 2), date(2031, 3, 10))
    assert date(2031, 3, 6) in days


def test_municipal_holidays_without_dates_are_those_around_today(app) -> None:
    from portal.services.clock import local_today

    db.session.add(MunicipalHoliday(day=date(2020, 3, 6), name="Aniversário", repeats_yearly=True))
    db.session.flush()
    this_year = local_today().year
    days = _holidays(None)
    assert date(this_year, 3, 6) in days
    assert date(2015, 3, 6) not in days


def test_municipal_holidays_given_by_the_caller_replace_the_table(app) -> None:
    db.session.add(MunicipalHoliday(day=date(2026, 3, 6), name="Aniversário"))
    db.session.flush()
    given = _holidays(_holiday_dates([date(2026, 4, 1), "2026-04-02"]))
    assert given == [date(2026, 4, 1), date(2026, 4, 2)]


# -- the price list -------------------------------------------------------------------------------


def test_gru_22_an_overridden_price_still_cites_its_article(profile_of) -> None:
    gru = profile_of("guarulhos")
    shipped = price_cents(gru, "registration", ISSUE_DAY)
    db.session.add(
        PriceOverride(
            profile_key="guarulhos",
            key="registration",
            amount_cents=3190,
            effective_from=date(2026, 2, 1),
        )
    )
    db.session.flush()
    entry = price_cents(gru, "registration", ISSUE_DAY)
    assert (entry.amount_cents, entry.article) == (3190, shipped.article)
    assert entry.article.startswith("GRU")
    (line,) = compute_fee(gru, "registration", {}, ISSUE_DAY).lines
    assert line.article == shipped.article


def test_bjp_28_number_of_animals_left_empty_is_one(profile_of) -> None:
    bjp = profile_of("bjp")
    # BJP 28: R$ 30,00 per animal adopted; a form that leaves the count empty adopts one.
    assert compute_fee(bjp, "adoption", {"animals": ""}, ISSUE_DAY).total_cents == 3000
    assert compute_fee(bjp, "adoption", {"animals": "4"}, ISSUE_DAY).total_cents == 12000
    for wrong in (0, "0", -1, "dois", 1.5, False):
        err = _error(bjp, "adoption", {"animals": wrong})
        assert (err.field, err.code) == ("animals", "invalid")
