"""Money is integer centavos; unit values apply by effective date (DOMAIN §2)."""

from datetime import date

import pytest

from portal.extensions import db
from portal.models import UnitValue
from portal.services.money import (
    UnitValueMissing,
    format_brl,
    parse_brl,
    percent_of_cents,
    units_to_cents,
)


def test_format_and_parse_brl_round_trip() -> None:
    assert format_brl(123456) == "R$ 1.234,56"
    assert format_brl(5) == "R$ 0,05"
    assert parse_brl("1.234,56") == 123456
    assert parse_brl("R$ 12") == 1200
    with pytest.raises(ValueError):
        parse_brl("abc")


def test_unit_value_in_force_on_the_issue_day_is_used(app) -> None:
    db.session.add_all(
        [
            UnitValue(unit="UFM", value_cents=10000, effective_from=date(2025, 1, 1)),
            UnitValue(unit="UFM", value_cents=11000, effective_from=date(2026, 1, 1)),
        ]
    )
    db.session.flush()
    assert units_to_cents("0.5", "UFM", date(2025, 12, 31)) == 5000
    assert units_to_cents("0.5", "UFM", date(2026, 1, 1)) == 5500
    with pytest.raises(UnitValueMissing):
        units_to_cents(1, "UFM", date(2024, 6, 1))


def test_percent_of_minimum_wage_rounds_half_up_to_the_centavo() -> None:
    # VV 22 §5: 1 % of the minimum wage per day
    assert percent_of_cents(151800, 1) == 1518
    assert percent_of_cents(151850, "0.5") == 759
