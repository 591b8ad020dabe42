"""Jurisdiction profiles: shipped files load, their numbers match the law, bad files are named."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pydantic
import pytest

from portal.profiles import (
    PROFILE_DIR,
    Profile,
    ProfileError,
    available_profiles,
    load_profile,
)
from portal.profiles.schema import Amount, is_silent
from portal.profiles.summary import rule_sections

SHIPPED = ["bjp", "cabeceira", "cabo", "guarulhos", "vilavelha"]
GRU_SOURCE = (PROFILE_DIR / "guarulhos.toml").read_text(encoding="utf-8")


def _write(folder: Path, key: str, text: str) -> Path:
    path = folder / f"{key}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _citations(node: Any, path: str = "") -> list[tuple[str, str]]:
    """Every citation in a dumped profile: ``article`` values and ``cites`` entries."""
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "article" and isinstance(value, str):
                found.append((f"{path}.{key}", value))
            elif key == "cites":
                found += [(f"{path}.cites.{k}", v) for k, v in value.items()]
            else:
                found += _citations(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _citations(value, f"{path}[{i}]")
    return found


# -- loading -------------------------------------------------------------------------------------


def test_shipped_profiles_are_the_five_laws():
    assert available_profiles() == SHIPPED


@pytest.mark.parametrize("key", SHIPPED)
def test_every_shipped_profile_loads(key):
    profile = load_profile(key)
    assert isinstance(profile, Profile)
    assert profile.key == key


@pytest.mark.parametrize("key", SHIPPED)
def test_every_citation_names_the_profiles_own_law(key):
    profile = load_profile(key)
    citations = _citations(profile.model_dump())
    assert citations
    for where, citation in citations:
        assert citation.split(" ")[0] == profile.law_key, where
        assert re.match(r"^[A-Z]+ (\d+|—)", citation), where


@pytest.mark.parametrize("key", SHIPPED)
def test_every_money_value_is_integer_centavos(key):
    profile = load_profile(key)
    for price in profile.prices.values():
        assert isinstance(price.amount_cents, int)
        assert price.example  # placeholders until the city sets its price list
    for value in profile.unit_values:
        assert isinstance(value.value_cents, int)
    for charge in profile.reclaim.charges:
        for size in ("small", "medium", "large"):
            amount = charge.amount.for_size(size)
            assert amount is None or amount.cents is None or isinstance(amount.cents, int)


def test_load_profile_is_cached():
    assert load_profile("guarulhos") is load_profile("guarulhos")


def test_profiles_are_frozen():
    profile = load_profile("guarulhos")
    with pytest.raises(pydantic.ValidationError):
        profile.household.limit = 50  # type: ignore[misc]


def test_unknown_profile_lists_available_keys():
    with pytest.raises(ProfileError) as err:
        load_profile("atlantida")
    assert "'atlantida'" in str(err.value)
    assert "bjp, cabeceira, cabo, guarulhos, vilavelha" in str(err.value)


def test_profile_key_cannot_leave_the_profile_folder():
    with pytest.raises(ProfileError, match="Unknown profile"):
        load_profile("../profiles/guarulhos")


# -- malformed files -----------------------------------------------------------------------------


def test_malformed_profile_names_file_and_key_path(tmp_path):
    _write(tmp_path, "guarulhos", GRU_SOURCE.replace("limit = 5\n", 'limit = "cinco"\n'))
    with pytest.raises(ProfileError) as err:
        load_profile("guarulhos", directory=tmp_path)
    assert "guarulhos.toml: household.limit: Input should be a valid integer" in str(err.value)


def test_typo_in_a_key_is_an_error(tmp_path):
    _write(tmp_path, "guarulhos", GRU_SOURCE.replace("min_age_days = 120", "min_age_dayz = 120"))
    with pytest.raises(ProfileError) as err:
        load_profile("guarulhos", directory=tmp_path)
    message = str(err.value)
    assert "household.min_age_dayz: Extra inputs are not permitted" in message
    assert "household.min_age_days: Field required" in message


def test_citation_of_another_law_is_an_error(tmp_path):
    _write(
        tmp_path, "guarulhos", GRU_SOURCE.replace('article = "GRU 22 I"', 'article = "BJP 11 a"')
    )
    with pytest.raises(ProfileError, match=r"prices\.registration\.article: .*'GRU'"):
        load_profile("guarulhos", directory=tmp_path)


def test_price_referenced_by_a_charge_must_exist(tmp_path):
    text = GRU_SOURCE.replace(
        '[prices.reclaim_daily]\namount_cents = 1500\narticle = "GRU 82 §5"\n', ""
    )
    assert text != GRU_SOURCE
    _write(tmp_path, "guarulhos", text)
    with pytest.raises(ProfileError, match=r"reclaim\.charges\[1\]\.amount\.small\.price"):
        load_profile("guarulhos", directory=tmp_path)


def test_invalid_toml_names_the_file(tmp_path):
    _write(tmp_path, "guarulhos", GRU_SOURCE + "\n[household\n")
    with pytest.raises(ProfileError, match=r"^guarulhos\.toml: invalid TOML"):
        load_profile("guarulhos", directory=tmp_path)


def test_key_written_in_the_file_must_match_its_name(tmp_path):
    _write(tmp_path, "guarulhos", 'key = "bjp"\n' + GRU_SOURCE)
    with pytest.raises(ProfileError, match=r"guarulhos\.toml: key: 'bjp'"):
        load_profile("guarulhos", directory=tmp_path)


def test_licence_section_must_match_above_limit(tmp_path):
    _write(
        tmp_path,
        "guarulhos",
        GRU_SOURCE.replace('above_limit = "licence"', 'above_limit = "forbidden"'),
    )
    with pytest.raises(ProfileError, match="licence: must be present exactly when"):
        load_profile("guarulhos", directory=tmp_path)


def test_sixth_municipality_is_one_new_file(tmp_path):
    text = (
        GRU_SOURCE.replace("GRU ", "SOR ")
        .replace('law_key = "GRU"', 'law_key = "SOR"')
        .replace('municipality = "Guarulhos"', 'municipality = "Sorocaba"')
        .replace("limit = 5\n", "limit = 6\n")
    )
    _write(tmp_path, "sorocaba", text)
    assert available_profiles(tmp_path) == ["sorocaba"]
    profile = load_profile("sorocaba", directory=tmp_path)
    assert (profile.key, profile.municipality, profile.law_key) == ("sorocaba", "Sorocaba", "SOR")
    assert profile.household.limit == 6
    assert profile.household.cite("limit") == "SOR 37"
    assert rule_sections(profile)


# -- household limit and licence ----------------------------------------------------------------


def test_gru_37_household_limit_is_5_over_120_days():
    household = load_profile("guarulhos").household
    assert (household.limit, household.min_age_days) == (5, 120)
    assert household.above_limit == "licence"
    assert household.article == "GRU 37"


def test_gru_37_2_condo_flats_and_rural_houses_are_outside_the_limit():
    household = load_profile("guarulhos").household
    assert set(household.excluded_housing) == {"apartment_condo", "rural"}
    assert household.cite("excluded_housing") == "GRU 37 §2"


def test_gru_37_1_licence_up_to_10_for_one_year_renewed_30_days_before():
    licence = load_profile("guarulhos").licence
    assert licence is not None
    assert licence.max_animals == 10
    assert (licence.validity_days, licence.validity_stated_in_law) == (365, True)
    assert licence.renewal_window_days == 30
    assert licence.cite("renewal_window_days") == "GRU 37 §1 V"


def test_gru_37_1_i_licence_needs_sterilisation_proofs():
    licence = load_profile("guarulhos").licence
    assert licence is not None
    assert set(licence.requires) == {
        "rga_all",
        "rabies_proofs",
        "sterilisation_proofs",
        "housing_description",
    }


def test_gru_37_1_ii_iii_above_5_never_replaced_and_new_animal_cancels():
    licence = load_profile("guarulhos").licence
    assert licence is not None
    assert licence.never_replaced_above == 5
    assert licence.new_acquisition_cancels is True


def test_bjp_17_household_limit_is_10_over_90_days():
    household = load_profile("bjp").household
    assert (household.limit, household.min_age_days) == (10, 90)
    assert household.agent_may_reduce is True  # BJP 17 §1


def test_bjp_17_licence_cap_15():
    licence = load_profile("bjp").licence
    assert licence is not None
    assert licence.max_animals == 15
    assert "sterilisation_proofs" not in licence.requires
    assert licence.new_acquisition_cancels is False


def test_bjp_17_5_animals_above_10_never_replaced():
    licence = load_profile("bjp").licence
    assert licence is not None
    assert licence.never_replaced_above == 10


def test_bjp_17_licence_validity_is_not_stated_in_the_law():
    licence = load_profile("bjp").licence
    assert licence is not None
    assert licence.validity_stated_in_law is False
    assert licence.validity_days == 365


def test_cab_31_above_10_is_a_private_kennel_with_inspection():
    profile = load_profile("cabeceira")
    assert (profile.household.limit, profile.household.min_age_days) == (10, 90)
    assert profile.household.above_limit == "kennel"
    assert profile.licence is not None
    assert profile.licence.max_animals is None
    assert profile.licence.requires == ["inspection"]


def test_cabo_33_limit_10_over_90_days_and_no_licence():
    profile = load_profile("cabo")
    assert (profile.household.limit, profile.household.min_age_days) == (10, 90)
    assert profile.household.above_limit == "forbidden"
    assert profile.licence is None


def test_vv_2_no_household_limit():
    profile = load_profile("vilavelha")
    assert profile.household.limit is None
    assert profile.household.above_limit == "none"
    assert profile.licence is None


# -- registration --------------------------------------------------------------------------------


def test_gru_14_registration_mandatory_3rd_to_6th_month_and_at_purchase():
    registration = load_profile("guarulhos").registration
    assert registration.mandatory is True
    assert (registration.window_start_months, registration.window_end_months) == (3, 6)
    assert registration.at_purchase is True


def test_bjp_6_vaccinated_at_registration_without_proof():
    registration = load_profile("bjp").registration
    assert registration.vaccinate_at_registration is True


def test_vv_12_registration_is_optional_with_a_fee():
    registration = load_profile("vilavelha").registration
    assert registration.mandatory is False
    assert registration.fee is True
    assert [e.code for e in load_profile("vilavelha").exemptions_for("registration")] == [
        "programme_participant"
    ]


def test_cabo_19_registration_is_yearly():
    assert load_profile("cabo").registration.yearly_renewal is True


def test_cab_registration_is_not_in_the_law():
    assert is_silent(load_profile("cabeceira").registration.article)


def test_bjp_8_provisional_id_60_days():
    provisional = load_profile("bjp").provisional_id
    assert provisional is not None and provisional.validity_days == 60


def test_gru_19_provisional_id_45_days_and_ccz_issues_within():
    provisional = load_profile("guarulhos").provisional_id
    assert provisional is not None
    assert provisional.validity_days == 45
    assert provisional.staff_must_issue_within is True


def test_gru_23_registration_exemptions():
    codes = {e.code for e in load_profile("guarulhos").exemptions_for("registration")}
    assert codes == {"unemployed_3_months", "income_below_2_minimum_wages"}


def test_gru_82_3_only_unemployed_are_exempt_from_reclaim_fees():
    exemptions = load_profile("guarulhos").exemptions_for("reclaim")
    assert [(e.code, e.article) for e in exemptions] == [("unemployed_3_months", "GRU 82 §3")]


# -- impound and reclaim -------------------------------------------------------------------------


def test_gru_82_4_hold_3_business_days_small_5_medium_and_large():
    impound = load_profile("guarulhos").impound
    assert impound.counting == "business"
    assert [impound.days_for(s, tagged=True) for s in ("small", "medium", "large")] == [3, 5, 5]
    assert impound.untagged_may_be_extended is True
    assert impound.moves_to_business_day is True


def test_bjp_25_tagged_5_days_untagged_3_days_counting_apprehension_day():
    impound = load_profile("bjp").impound
    assert impound.counting == "calendar_inclusive"
    assert impound.days_for("small", tagged=True) == 5
    assert impound.days_for("small", tagged=False) == 3


@pytest.mark.parametrize(
    ("key", "days", "counting"),
    [
        ("cabo", 3, "calendar"),  # CABO 10 §ú a
        ("cabeceira", 5, "calendar"),  # CAB 12, 19
        ("vilavelha", 5, "calendar"),  # VV 22 §3
    ],
)
def test_calendar_day_holds(key, days, counting):
    impound = load_profile(key).impound
    assert impound.counting == counting
    assert {impound.days_for(s, tagged=False) for s in ("small", "medium", "large")} == {days}


def test_cabo_44_reclaim_table_in_centavos():
    first, repeat = load_profile("cabo").reclaim.charges
    assert (first.per, first.applies_on, repeat.applies_on) == ("day", "first", "repeat")
    assert [first.amount.for_size(s).cents for s in ("small", "medium", "large")] == [
        565,
        1724,
        2724,
    ]
    assert [repeat.amount.for_size(s).cents for s in ("small", "medium", "large")] == [
        1130,
        5448,
        5448,
    ]


def test_cab_17_reclaim_half_ufm_per_head_per_day_doubling_on_recapture():
    daily, fine = load_profile("cabeceira").reclaim.charges
    assert daily.per == "day"
    assert daily.amount.for_size("small") == Amount(units=Decimal("0.5"), unit="UFM")
    assert daily.repeat_growth == "double_each"
    # CAB 19 §1: medium and large animals also pay a 2 UFM fine per head.
    assert fine.amount.for_size("small") is None
    assert fine.amount.for_size("large") == Amount(units=Decimal("2"), unit="UFM")


def test_vv_22_5_free_within_5_business_days_then_1_percent_of_minimum_wage_a_day():
    profile = load_profile("vilavelha")
    daily = profile.reclaim.charges[0]
    assert (daily.free_days, daily.free_days_counting) == (5, "business")
    assert daily.amount.for_size("medium") == Amount(units=Decimal("0.01"), unit="MW")
    assert profile.reclaim.repeat_requires_sterilisation is True  # VV 22 §6


def test_bjp_28_repeat_reclaim_adds_half_ufm():
    fee, fine = load_profile("bjp").reclaim.charges
    assert fee.amount.for_size("small") == Amount(price="reclaim")
    assert (fine.kind, fine.applies_on) == ("fine", "repeat")
    assert fine.amount.for_size("small") == Amount(units=Decimal("0.5"), unit="UFM")


def test_amount_cents_converts_units_with_the_value_in_force():
    profile = load_profile("vilavelha")
    one_percent = Amount(units=Decimal("0.01"), unit="MW")
    assert profile.amount_cents(one_percent, {"MW": 162100}) == 1621
    assert profile.amount_cents(one_percent, {"MW": 162150}) == 1622  # half-up to the centavo
    assert profile.amount_cents(Amount(price="registration"), {}) == 2500
    assert profile.amount_cents(Amount(cents=565), {}) == 565


# -- adoption, fines, notices --------------------------------------------------------------------


def test_cab_17_adoption_fee_half_ufm_per_day_held():
    adoption = load_profile("cabeceira").adoption
    assert adoption.fee == Amount(units=Decimal("0.5"), unit="UFM")
    assert adoption.fee_per == "day_held"


def test_vv_28_adopted_animal_delivered_sterilised_and_adopter_over_18():
    adoption = load_profile("vilavelha").adoption
    assert set(adoption.delivered) == {"vaccinated", "dewormed", "sterilised", "registered"}
    assert adoption.min_adopter_age == 18


def test_gru_69_fines_from_42_to_42000_ufg_graded_by_regulation():
    fines = load_profile("guarulhos").fines
    assert fines.unit == "UFG"
    assert (fines.range_min_units, fines.range_max_units) == (42, 42000)
    assert set(fines.severities) == {"leve", "medio", "grave", "gravissimo"}  # GRU 77
    assert all(s.by_regulation for s in fines.severities.values())


def test_gru_79_80_repeat_within_3_years_doubles():
    fines = load_profile("guarulhos").fines
    assert (fines.repeat_multiplier, fines.repeat_window_years) == (2, 3)


def test_gru_113_infractions_prescribe_in_5_years():
    assert load_profile("guarulhos").fines.prescription_years == 5


def test_cab_40_fines_5_10_20_ufm_doubled_over_the_previous():
    fines = load_profile("cabeceira").fines
    amounts = {name: s.amount.units for name, s in fines.severities.items() if s.amount}
    assert amounts == {"leve": 5, "grave": 10, "gravissima": 20}
    assert fines.repeat_compounds is True


def test_vv_50_default_fine_is_25_percent_of_minimum_wage():
    assert load_profile("vilavelha").fines.default == Amount(units=Decimal("0.25"), unit="MW")


def test_gru_70_3_notice_from_1_hour_to_60_days_plus_30():
    notices = load_profile("guarulhos").notices
    assert (notices.preliminary_min_hours, notices.preliminary_max_days) == (1, 60)
    assert notices.extension_days == 30
    assert (notices.defence_days, notices.appeal_days) == (10, 10)  # GRU 96 V, 98 VI


def test_bjp_30_notice_immediately_7_15_or_30_days():
    assert load_profile("bjp").notices.preliminary_days == [0, 7, 15, 30]


def test_unit_values_seed_every_unit_the_profile_uses():
    for key in SHIPPED:
        profile = load_profile(key)
        units = {uv.unit for uv in profile.unit_values}
        assert profile.fine_unit in units | {"BRL"}, key


# -- the public rules page -----------------------------------------------------------------------


@pytest.mark.parametrize("key", SHIPPED)
def test_rule_sections_cover_every_profile(key):
    sections = rule_sections(load_profile(key))
    assert len(sections) >= 5
    for section in sections:
        assert section.title and section.items
        for item in section.items:
            assert item.text.strip()


def test_rule_sections_state_the_gru_limit_with_its_article():
    household = rule_sections(load_profile("guarulhos"))[0]
    first = household.items[0]
    assert "5" in first.text and "120" in first.text
    assert first.article == "GRU 37"


def test_rule_sections_say_prices_are_examples():
    prices = next(s for s in rule_sections(load_profile("bjp")) if s.title == "Preços públicos")
    assert all("valor de exemplo" in item.text for item in prices.items)
    assert any("R$ 25,00" in item.text for item in prices.items)
