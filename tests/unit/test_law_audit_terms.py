"""Issue 27, items 2, 3, 7-11: terms in years under one rule (Código Civil art. 132 §3), renewals
counted from the first issue, numbers that belong to the profile, citations, BJP 30 II's fine.

Dates worked by hand: 29/02/2028 + 1 year = 01/03/2029 (2029 has no 29 February: "no imediato");
+ 4 years = 29/02/2032. 31/01 + 1 month = 01/03 (no 31 February).
"""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from portal.blueprints.animals import services
from portal.blueprints.establishments.services import anniversary, next_term_end
from portal.blueprints.impound.deadlines import first_day_counted
from portal.blueprints.licences.terms import first_issued_on, term_end
from portal.models import ExcessLicence, LicenceStatus
from portal.profiles import load_profile
from portal.profiles.summary import rule_sections
from portal.services.dates import next_anniversary, term_of_months_ends, term_of_years_ends
from portal.services.fees import FeeError, compute_fee
from tests.factories import RGA_TODAY as TODAY
from tests.factories import profile_app
from tests.unit.test_household_edges import _house

GRU, BJP, CAB = (load_profile(k) for k in ("guarulhos", "bjp", "cabeceira"))
LEAP = date(2028, 2, 29)


# -- 8. 29 February: Código Civil art. 132 §3, everywhere a term is counted in years -------------


@pytest.mark.parametrize(
    ("start", "months", "end"),
    [
        (LEAP, 12, date(2029, 3, 1)),  # no 29 Feb in 2029: the day after
        (LEAP, 48, date(2032, 2, 29)),  # a leap year again: the same day
        (date(2028, 2, 28), 12, date(2029, 2, 28)),  # the day before the leap day: unchanged
        (date(2028, 3, 1), 12, date(2029, 3, 1)),
        (date(2027, 1, 31), 1, date(2027, 3, 1)),  # no 31 Feb: 1 March
        (date(2026, 12, 31), 12, date(2027, 12, 31)),  # across the year end
        (date(2026, 3, 10), 0, date(2026, 3, 10)),
    ],
)
def test_codigo_civil_132_3_term_of_months_ends(start: date, months: int, end: date) -> None:
    assert term_of_months_ends(start, months) == end


def test_codigo_civil_132_3_capture_periods_licences_and_establishments_agree() -> None:
    # one rule: a capture's five years (GRU 113), a licence's year (GRU 37 §1 IV), a cadastro's
    # year (GRU 11 §2) all end on 1 March when they start on 29 February of a leap year
    assert GRU.licence is not None
    assert term_of_years_ends(LEAP, 1) == date(2029, 3, 1)
    assert term_end(LEAP, GRU.licence) == date(2029, 3, 1)
    assert anniversary(LEAP, 1) == date(2029, 3, 1)
    for years in (1, 2, 3, 5):
        assert term_of_years_ends(LEAP, years) == term_of_months_ends(LEAP, 12 * years)
    # and a capture of 29/02/2024 still counts on 01/03/2029, its last day (GRU 113)
    assert first_day_counted(date(2029, 3, 1), 5) == date(2024, 2, 29)


def test_codigo_civil_132_3_negative_months_refused() -> None:
    with pytest.raises(ValueError):
        term_of_months_ends(LEAP, -1)


# -- 7. Licence renewals counted from the first issue (GRU 37 §1 IV-V; CAB 31 §2) ----------------


def test_gru_37_1_iv_renewal_counted_from_the_first_issue_no_drift() -> None:
    # 01/12/2026 → 01/12/2027; renewed from 02/12/2027 → 01/12/2028 (not 02/12/2028), and the
    # third from 02/12/2028 → 01/12/2029
    assert GRU.licence is not None
    first = date(2026, 12, 1)
    assert term_end(first, GRU.licence) == date(2027, 12, 1)
    second = term_end(date(2027, 12, 2), GRU.licence, first_issued_on=first)
    assert second == date(2028, 12, 1)
    third = term_end(date(2028, 12, 2), GRU.licence, first_issued_on=first)
    assert third == date(2029, 12, 1)


def test_gru_37_1_iv_late_renewal_runs_to_the_next_anniversary() -> None:
    # decided on 15/01/2028 after the old one ended on 01/12/2027: to 01/12/2028
    assert GRU.licence is not None
    late = term_end(date(2028, 1, 15), GRU.licence, first_issued_on=date(2026, 12, 1))
    assert late == date(2028, 12, 1)
    # decided exactly on an anniversary: to the next one (the term ends after its first day)
    on_it = term_end(date(2028, 12, 1), GRU.licence, first_issued_on=date(2026, 12, 1))
    assert on_it == date(2029, 12, 1)


def test_cab_31_2_kennel_laudo_renewals_from_a_leap_day() -> None:
    assert CAB.licence is not None
    assert term_end(date(2029, 3, 2), CAB.licence, first_issued_on=LEAP) == date(2030, 3, 1)
    assert term_end(date(2031, 3, 2), CAB.licence, first_issued_on=LEAP) == date(2032, 2, 29)


def test_gru_37_1_iv_first_issue_found_through_every_renewal() -> None:
    first = ExcessLicence(status=LicenceStatus.APPROVED, valid_from=date(2026, 12, 1))
    second = ExcessLicence(status=LicenceStatus.APPROVED, valid_from=date(2027, 12, 2))
    second.renews = first
    third = ExcessLicence(status=LicenceStatus.REQUESTED)
    third.renews = second
    assert first_issued_on(third) == date(2026, 12, 1)
    assert first_issued_on(first) == date(2026, 12, 1)


def test_gru_37_1_iv_a_renewal_chain_that_loops_back_still_ends() -> None:
    # Bad data (two older licences recorded as renewing each other) must not hang the page: the
    # walk stops at the first licence seen twice.
    older = ExcessLicence(status=LicenceStatus.APPROVED, valid_from=date(2026, 12, 1))
    old = ExcessLicence(status=LicenceStatus.APPROVED, valid_from=date(2027, 12, 2))
    current = ExcessLicence(status=LicenceStatus.APPROVED, valid_from=date(2028, 12, 2))
    current.renews, old.renews, older.renews = old, older, old
    assert first_issued_on(current) == date(2026, 12, 1)
    assert first_issued_on(old) == date(2026, 12, 1)


def test_gru_11_2_next_anniversary_is_strictly_after_the_day() -> None:
    assert next_anniversary(LEAP, LEAP, 12) == date(2029, 3, 1)
    assert next_anniversary(LEAP, date(2029, 2, 28), 12) == date(2029, 3, 1)
    assert next_anniversary(LEAP, date(2029, 3, 1), 12) == date(2030, 3, 1)
    assert next_term_end(LEAP, date(2031, 3, 1), 1) == date(2032, 2, 29)


# -- 9. Numbers of the programme, not of the code -------------------------------------------------


def test_lei_14228_art_2_2_ngo_claim_days_are_programme_policy() -> None:
    for profile in (GRU, BJP, CAB):
        assert profile.programme.ngo_claim_business_days == 3
    custom = GRU.model_copy(
        update={"programme": GRU.programme.model_copy(update={"ngo_claim_business_days": 5})}
    )
    assert custom.programme.ngo_claim_business_days == 5


# -- 10. GRU 37 §1: the licence's article in the household refusal ------------------------------


def test_gru_37_1_household_refusal_cites_the_licence_paragraph(app) -> None:  # type: ignore[no-untyped-def]
    assert GRU.household.cite("above_limit") == "GRU 37 §1"
    assert GRU.household.cite("limit") == "GRU 37"
    with app.test_request_context():
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(GRU, _house(5), on=TODAY)
    assert "limite por residência é 5 (GRU 37)" in err.value.message
    assert "pedir a licença especial (GRU 37 §1)." in err.value.message
    assert err.value.licence_url == "/licencas/pedido"


# -- 2. BJP 17 §6: the request period closed: say so, no link ------------------------------------


@pytest.mark.parametrize(("count", "refused"), [(9, False), (10, True)])
def test_bjp_17_6_household_refusal_says_the_period_closed(make_app, count, refused) -> None:  # type: ignore[no-untyped-def]
    with profile_app(make_app, "bjp") as bjp:
        owner = _house(count)
        if not refused:
            services.check_household_limit(bjp, owner, on=TODAY)
            return
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(bjp, owner, on=TODAY)
    message = err.value.message
    assert "prazo até 17/12/2010" in message and "(BJP 17 §6)" in message
    assert "é preciso pedir a licença especial" not in message
    assert err.value.licence_url is None


def test_bjp_17_6_reopened_by_decree_links_again(make_app) -> None:  # type: ignore[no-untyped-def]
    # a city that reopens the requests removes the date: the refusal links to the request again
    with profile_app(make_app, "bjp") as bjp:
        assert bjp.licence is not None
        reopened = bjp.model_copy(
            update={"licence": bjp.licence.model_copy(update={"requests_accepted_until": None})}
        )
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(reopened, _house(10), on=TODAY)
    assert "pedir a licença especial (BJP 17 §3)" in err.value.message
    assert err.value.licence_url == "/licencas/pedido"


# -- 11. GRU 61: the observation days are the CCZ's, not the law's -------------------------------


def test_gru_61_observation_days_are_programme_policy() -> None:
    assert GRU.impound.observation_days is None and GRU.impound.observation_by_authority
    assert GRU.observation_days() == (10, None)  # no article: the CCZ's choice
    assert CAB.observation_days() == (10, "CAB 14, 30")  # CAB 30: "durante 10 (dez) dias"
    assert BJP.observation_days() == (None, None)


# -- 3. BJP 30 II: the maus-tratos fine priced by the federal decree's range ----------------------


def _maltreatment(**inputs):  # type: ignore[no-untyped-def]
    return compute_fee(BJP, "fine", {"specific": "maltreatment", **inputs}, date(2026, 3, 16))


@pytest.mark.parametrize("cents", [50000, 300000, 120000])
def test_bjp_30_ii_fine_inside_the_decree_range(profile_of, cents: int) -> None:
    profile_of("bjp")
    fee = _maltreatment(amount_cents=cents, units_reason="Dois cães sem abrigo.")
    assert fee.total_cents == cents
    line = fee.lines[0]
    assert line.article.startswith("BJP 30 II; Decreto federal 6.514/2008, art. 29")
    assert "3.179/1999, art. 17" in line.article
    assert line.note == "Dois cães sem abrigo."


@pytest.mark.parametrize("cents", [49999, 300001])
def test_bjp_30_ii_fine_outside_the_range_refused(profile_of, cents: int) -> None:
    profile_of("bjp")
    with pytest.raises(FeeError) as err:
        _maltreatment(amount_cents=cents, units_reason="x")
    assert (err.value.field, err.value.code) == ("amount_cents", "out_of_range")
    assert "R$ 500,00" in err.value.message and "R$ 3.000,00" in err.value.message


def test_bjp_30_ii_fine_needs_the_amount_and_the_reason(profile_of) -> None:
    profile_of("bjp")
    with pytest.raises(FeeError) as err:
        _maltreatment()
    assert (err.value.field, err.value.code) == ("amount_cents", "required")
    with pytest.raises(FeeError) as err:
        _maltreatment(amount_cents=50000)
    assert (err.value.field, err.value.code) == ("units_reason", "required")


def test_bjp_30_ii_fine_per_animal_and_from_the_form_in_reais(profile_of) -> None:
    profile_of("bjp")
    fee = _maltreatment(units="800", units_reason="Três cães feridos.", animals=3)
    assert fee.total_cents == 3 * 80000  # "por indivíduo"


@pytest.mark.parametrize(("repeats", "total"), [(0, 50000), (1, 100000), (2, 100000)])
def test_bjp_30_u_i_repeat_doubles_the_fine(profile_of, repeats: int, total: int) -> None:
    profile_of("bjp")
    fee = _maltreatment(amount_cents=50000, units_reason="x", repeat=repeats or False)
    assert fee.total_cents == total
    if repeats:
        assert fee.lines[-1].article == "BJP 30 §ú I"


def test_bjp_30_ii_fixed_fines_still_refuse_an_amount(profile_of) -> None:
    profile_of("bjp")
    with pytest.raises(FeeError) as err:
        compute_fee(
            BJP, "fine", {"specific": "abandonment", "amount_cents": 100}, date(2026, 3, 16)
        )
    assert err.value.code == "fixed_by_law"


DECREE = "Decreto federal 6.514/2008, art. 29 (antes Decreto 3.179/1999, art. 17)"


def test_bjp_30_ii_the_refusals_name_the_range_and_the_decree(profile_of) -> None:
    profile_of("bjp")
    with pytest.raises(FeeError) as err:
        _maltreatment(units_reason="x")
    assert err.value.message == (
        f"Informe o valor da multa por animal, entre R$ 500,00 e R$ 3.000,00 ({DECREE})."
    )
    with pytest.raises(FeeError) as err:
        _maltreatment(amount_cents=300001, units_reason="x")
    assert err.value.message == (
        f"A multa por animal deve ficar entre R$ 500,00 e R$ 3.000,00 ({DECREE})."
    )


@pytest.mark.parametrize(("reais", "cents"), [("500.005", 50001), ("1000.004", 100000)])
def test_bjp_30_ii_an_amount_typed_in_reais_rounds_half_a_centavo_up(
    profile_of, reais: str, cents: int
) -> None:
    profile_of("bjp")
    assert _maltreatment(units=reais, units_reason="x").total_cents == cents


@pytest.mark.parametrize("field", ["units", "amount_cents"])
def test_bjp_30_ii_a_fixed_fine_refuses_a_value_beside_its_field_citing_its_article(
    profile_of, field: str
) -> None:
    profile_of("bjp")
    with pytest.raises(FeeError) as err:
        compute_fee(BJP, "fine", {"specific": "abandonment", field: "100"}, date(2026, 3, 16))
    article = compute_fee(BJP, "fine", {"specific": "abandonment"}, date(2026, 3, 16))
    assert (err.value.field, err.value.code) == (field, "fixed_by_law")
    assert err.value.message == (
        f"O valor desta multa é fixado em lei ({article.lines[0].article}): "
        "não há faixa para escolher."
    )
    assert article.lines[0].note is None  # a fixed fine carries no grading note


# -- The rules page (/regras) says each of these -------------------------------------------------


def _texts(profile) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(i.text, i.article) for s in rule_sections(profile) for i in s.items]


def test_gru_10_xv_rules_page_says_dogs_and_cats_are_small() -> None:
    items = [(t, a) for t, a in _texts(GRU) if "pequeno porte para a lei" in t]
    assert items and items[0][1] == "GRU 10 XV"
    assert any(a == "CAB 12, 19" for t, a in _texts(CAB) if "pequeno porte para a lei" in t)
    cabo = load_profile("cabo")
    assert any("não define o que é animal de pequeno" in t for t, _a in _texts(cabo))


def test_gru_61_rules_page_marks_the_observation_days_as_the_ccz_choice() -> None:
    (text, article) = next((t, a) for t, a in _texts(GRU) if "observação de raiva" in t)
    assert "escolha do CCZ" in text and article == "GRU 61"
    (text, article) = next((t, a) for t, a in _texts(CAB) if "observação de raiva" in t)
    assert "escolha do CCZ" not in text and article == "CAB 14, 30"


def test_bjp_30_ii_rules_page_gives_the_decree_range() -> None:
    text, article = next((t, a) for t, a in _texts(BJP) if "Maus-tratos não sanados" in t)
    assert "R$ 500,00" in text and "R$ 3.000,00" in text and "6.514/2008" in text
    assert article == "BJP 30 II"


def test_codigo_civil_132_3_rules_page_says_1_march() -> None:
    assert any("1º de março" in t for t, _a in _texts(GRU))


def test_codigo_civil_132_3_cabo_19_yearly_rga_renewal_from_a_leap_day() -> None:
    # CABO 19: the RGA is renewed every year; registered on 29/02/2028 it is due on 01/03/2029
    # (the same one rule as licences and establishments, not add_months' 28 February)
    cabo = load_profile("cabo")
    animal = SimpleNamespace(registered_on=LEAP, is_closed=False)
    assert services.renewal_due(animal, cabo) == date(2029, 3, 1)  # type: ignore[arg-type]
    assert services.renewal_due(animal, GRU) is None  # type: ignore[arg-type]


def test_vv_45_sales_wording_only_where_the_profile_names_the_sales_register() -> None:
    # VV 45's "só podem ser vendidos" is said because the profile names its register, never
    # guessed from the kinds: a cadastro city registering only pet shops and clinics keeps GRU 11's
    assert GRU.establishments is not None
    narrow = GRU.model_copy(
        update={"establishments": GRU.establishments.model_copy(update={"kinds": ["pet_shop"]})}
    )
    assert not any("só podem ser vendidos" in t for t, _a in _texts(narrow))
    assert any(a == "VV 45" for t, a in _texts(load_profile("vilavelha")) if "vendidos" in t)
